//! The language server under random input, over stdio as an editor talks to it: `jreach lsp` gets
//! random incremental edits of a Java file (insertions and deletions anywhere, line breaks of all
//! three kinds, characters outside the BMP, broken Java) mixed with malformed messages (bodies
//! that are not UTF-8, JSON or JSON-RPC, requests with parameters of the wrong shape, positions
//! out of range, `$/` messages, garbage between frames). At each checkpoint the diagnostics of
//! the edited document must equal those of a fresh open of the same text, and the server must
//! still answer. The resident set size is reported at the start, at the end and after `didClose`.
//!
//! Run: `cargo run --release -p jreach --example lsp_fuzz -- --edits 100000 --malformed 10000`
//! (`--seed N`, `--checkpoint N` edits between checks, `--jreach PATH`). A short run is part of
//! the test suite (`cli/tests/lsp_fuzz.rs`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[path = "../tests/support/lsp_wire.rs"]
mod lsp_wire;

/// What a run does.
#[derive(Clone, Debug)]
pub struct Config {
    pub jreach: PathBuf,
    pub edits: usize,
    pub malformed: usize,
    /// Edits between two checkpoints.
    pub checkpoint: usize,
    pub seed: u64,
}

/// What a run saw.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub edits: usize,
    pub malformed: usize,
    pub checkpoints: usize,
    /// Diagnostics compared, over all checkpoints.
    pub diagnostics: usize,
    pub rss_start_kib: u64,
    pub rss_end_kib: u64,
    pub rss_closed_kib: u64,
    pub elapsed: Duration,
}

/// The text the edits start from: methods with dead and live branches, so diagnostics change.
const START: &str = "package fz;\n\npublic class F {\n    static int a(int x) {\n        if (x > 5 && x < 3) {\n            x = 1;\n        }\n        return x;\n    }\n\n    static int b(String s, int[] xs) {\n        int n = 0;\n        for (int i = 0; i < xs.length; i++) {\n            if (xs[i] > 3 && xs[i] < 2) n++;\n        }\n        if (s.length() > 2 && s.isEmpty()) {\n            return -1;\n        }\n        return n;\n    }\n}\n";

/// Pieces inserted by edits: Java tokens, line breaks of every kind, wide characters.
const PIECES: &[&str] = &[
    "x",
    "1",
    " ",
    "\n",
    "\r\n",
    "\r",
    "{",
    "}",
    "(",
    ")",
    ";",
    "if (x > 2) ",
    "else ",
    "return 0;",
    "int y = x;",
    "while (x < 3) x++;",
    "\"s\"",
    "'c'",
    "é",
    "€",
    "𝄞",
    "/*",
    "*/",
    "//",
    "\\u0041",
    "x = x * 2;\n",
    "static void m() {}\n",
    "}\n}\n",
    "&&",
    "||",
    "!",
    "==",
    "new int[3]",
    "throw new RuntimeException();",
];

struct Server {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: i64,
    backlog: Vec<Value>,
}

impl Server {
    fn start(jreach: &Path) -> Server {
        let mut child = Command::new(jreach)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // The server's log, when asked for (`JREACH_FUZZ_LOG=1`).
            .stderr(if std::env::var_os("JREACH_FUZZ_LOG").is_some() { Stdio::inherit() } else { Stdio::null() })
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {} lsp: {e}", jreach.display()));
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let rx = lsp_wire::read_all(stdout);
        Server { child, stdin, rx, next_id: 1, backlog: vec![] }
    }

    fn frame(&mut self, body: &[u8]) {
        lsp_wire::write_frame(&mut self.stdin, body).expect("the server's input is open");
    }

    fn send(&mut self, msg: Value) {
        self.frame(serde_json::to_string(&msg).unwrap().as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request_id(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    fn alive(&mut self) {
        if let Ok(Some(status)) = self.child.try_wait() {
            panic!("the server exited: {status}");
        }
    }

    /// Waits for a message satisfying `pred`; answers the server's requests on the way.
    fn wait_for(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        self.stdin.flush().ok();
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let msg = match self.rx.recv_timeout(left) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => panic!("timed out waiting for {what}"),
                Err(RecvTimeoutError::Disconnected) => {
                    self.alive();
                    panic!("the server closed its output while we waited for {what}")
                }
            };
            if msg.get("id").is_some() && msg.get("method").is_some() {
                let result = if msg["method"] == "workspace/configuration" { json!([{}]) } else { Value::Null };
                self.send(json!({"jsonrpc": "2.0", "id": msg["id"].clone(), "result": result}));
                continue;
            }
            if pred(&msg) {
                return msg;
            }
            if std::env::var_os("JREACH_FUZZ_LOG").is_some() {
                let text = msg.to_string();
                eprintln!("while waiting for {what}: {}", &text[..text.floor_char_boundary(300)]);
            }
            // Keep answers that may be waited for later; drop the rest (notifications, errors
            // answering malformed frames) so memory stays flat.
            if msg.get("id").is_some_and(|id| !id.is_null()) {
                self.backlog.push(msg);
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.request_id(method, params);
        self.wait_for(&format!("the answer to {method}"), |m| m.get("id") == Some(&json!(id)))
    }

    /// The diagnostics published for `uri` at `version`.
    fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let msg = self.wait_for(&format!("diagnostics of {uri} at version {version}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == json!(version)
        });
        msg["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }
}

/// The UTF-16 position of byte `offset` of `text`, with lines ending at `\n`, `\r\n` or `\r`.
fn position(text: &str, offset: usize) -> Value {
    let (mut line, mut col) = (0u32, 0u32);
    let mut chars = text[..offset].chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' | '\n' => {
                line += 1;
                col = 0;
            }
            c => col += c.len_utf16() as u32,
        }
    }
    json!({"line": line, "character": col})
}

/// A character boundary of `text` near `at`, never between the `\r` and `\n` of one line break.
fn boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) || (at > 0 && text.as_bytes()[at - 1] == b'\r' && text[at..].starts_with('\n')) {
        at -= 1;
    }
    at
}

/// A random edit to undo later: what it removed at `start` and what it inserted there.
struct Undo {
    start: usize,
    removed: String,
    inserted: String,
}

/// Whether replacing `start..end` of `text` by `piece` keeps every `\r\n` of the result one
/// that the text or the piece had whole: an edit that joins a `\r` and a `\n` would leave the
/// edit's undo a position inside a line break, which LSP cannot name.
fn keeps_line_breaks(text: &str, start: usize, end: usize, piece: &str) -> bool {
    let before_cr = text[..start].ends_with('\r');
    let after_lf = text[end..].starts_with('\n');
    let joins = |first_cr: bool, next_lf: bool| first_cr && next_lf;
    !(joins(before_cr, piece.starts_with('\n'))
        || joins(piece.ends_with('\r'), after_lf)
        || (piece.is_empty() && joins(before_cr, after_lf)))
}

/// A random edit anywhere: an insertion or a deletion of a few characters, or both.
fn random_edit(rng: &mut fastrand::Rng, text: &str) -> (usize, usize, String) {
    loop {
        let start = boundary(text, rng.usize(0..=text.len()));
        let end = if rng.bool() || text.len() > 20_000 { boundary(text, start + rng.usize(0..12)) } else { start };
        let (start, end) = (start.min(end), start.max(end));
        let piece = if rng.u8(0..3) == 0 { "" } else { PIECES[rng.usize(0..PIECES.len())] };
        if keeps_line_breaks(text, start, end, piece) {
            return (start, end, piece.to_string());
        }
    }
}

/// An edit that keeps the Java valid: a statement (a block with a branch that may be dead)
/// inserted before a line of a method body, or one such statement deleted.
fn statement_edit(rng: &mut fastrand::Rng, text: &str) -> Option<(usize, usize, String)> {
    let lines: Vec<usize> = std::iter::once(0)
        .chain(
            text.char_indices()
                .filter(|(i, c)| *c == '\n' || (*c == '\r' && !text[i + 1..].starts_with('\n')))
                .map(|(i, _)| i + 1),
        )
        .filter(|i| *i < text.len())
        .collect();
    let line_end = |i: usize| lines.iter().find(|l| **l > i).copied().unwrap_or(text.len());
    let inserted: Vec<usize> = lines.iter().copied().filter(|i| text[*i..].starts_with("        { int q")).collect();
    if !inserted.is_empty() && (rng.u8(0..3) == 0 || inserted.len() > 30) {
        let at = inserted[rng.usize(0..inserted.len())];
        return Some((at, line_end(at), String::new()));
    }
    let body: Vec<usize> = lines.iter().copied().filter(|i| text[*i..].starts_with("        ")).collect();
    let at = *body.get(rng.usize(0..body.len().max(1)))?;
    let (a, b, c) = (rng.i32(-3..9), rng.i32(-3..9), rng.i32(0..99));
    let br = ["\n", "\r\n", "\r"][rng.usize(0..3)];
    let stmt = format!("        {{ int q = {a} + {c}; if (q > {b} && q < {a}) {{ q = 1; }} }}{br}");
    keeps_line_breaks(text, at, at, &stmt).then_some((at, at, stmt))
}

/// One malformed message: a body or a frame an editor should never send.
fn malformed(rng: &mut fastrand::Rng, uri: &str) -> Vec<u8> {
    let framed = |body: &[u8]| {
        let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        f.extend_from_slice(body);
        f
    };
    let rpc = |v: Value| framed(serde_json::to_string(&v).unwrap().as_bytes());
    let id = rng.i64(1_000_000..2_000_000);
    match rng.u8(0..16) {
        0 => framed(b"{"),
        1 => framed(&[b"null", &b"[]"[..], b"42", b"\"x\"", b"true"][rng.usize(0..5)]),
        2 => framed(&(0..rng.usize(1..64)).map(|_| rng.u8(..)).collect::<Vec<_>>()),
        3 => framed(b"\xff\xfe{\"jsonrpc\":\"2.0\"}"),
        4 => rpc(json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/codeAction", "params": 7})),
        5 => rpc(json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/codeAction",
                        "params": {"textDocument": {"uri": uri}, "range": {"start": {"line": 1_000_000, "character": 9}, "end": {"line": -1, "character": 0}}, "context": {"diagnostics": []}}})),
        6 => rpc(json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
                        "params": {"textDocument": {"uri": "file:///nowhere/X.java", "version": 3}, "contentChanges": [{"text": "class X {}"}]}})),
        7 => {
            rpc(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri}}}))
        }
        8 => rpc(json!({"jsonrpc": "2.0", "id": id, "method": "$/fuzz", "params": {}})),
        9 => rpc(json!({"jsonrpc": "2.0", "method": "$/fuzz", "params": [1, 2]})),
        10 => rpc(json!({"jsonrpc": "2.0", "id": id, "method": "no/suchMethod", "params": {}})),
        11 => rpc(
            json!({"jsonrpc": "2.0", "id": id, "method": "codeAction/resolve", "params": {"title": "x", "data": {"uri": uri, "line": -5}}}),
        ),
        12 => rpc(json!({"jsonrpc": "2.0", "id": id, "method": "workspace/executeCommand",
                         "params": {"command": "jreach.generateTest", "arguments": [{"uri": 5}]}})),
        13 => rpc(json!({"jsonrpc": "1.0", "id": [id], "method": 12})),
        14 => {
            let depth = rng.usize(100..20_000);
            framed(format!("{}{}", "[".repeat(depth), "]".repeat(depth)).as_bytes())
        }
        _ => b"garbage between frames\r\nContent-Length: nope\r\n\r\n".to_vec(),
    }
}

/// Runs `cfg` against a fresh server; panics on the first failure, with what failed.
pub fn run(cfg: &Config) -> Report {
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let file = dir.path().join("src/main/java/fz/F.java");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, START).unwrap();
    let uri = format!("file://{}", file.display());
    let mut rng = fastrand::Rng::with_seed(cfg.seed);
    let mut s = Server::start(&cfg.jreach);
    let root = format!("file://{}", dir.path().display());
    let caps = json!({"general": {"positionEncodings": ["utf-16"]}, "workspace": {"configuration": true}});
    let init = s.request(
        "initialize",
        json!({"processId": null, "rootUri": root, "capabilities": caps, "initializationOptions": {"timeout": 2}}),
    );
    assert!(init.get("result").is_some(), "initialize: {init}");
    s.notify("initialized", json!({}));
    let mut report = Report { rss_start_kib: s.rss_kib(), ..Default::default() };

    let mut text = START.to_string();
    let mut version = 1i64;
    s.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                  "params": {"textDocument": {"uri": uri, "languageId": "java", "version": version, "text": text}}}));
    let total = cfg.edits + cfg.malformed;
    let mut fresh = 0;
    let mut undo: Vec<Undo> = Vec::new();
    let mut checked = 0; // the version last compared
    for step in 0..total {
        // Malformed messages spread evenly among the edits.
        let is_malformed =
            report.malformed < cfg.malformed && (report.edits >= cfg.edits || rng.usize(0..total) < cfg.malformed);
        if is_malformed {
            let bytes = malformed(&mut rng, &uri);
            s.stdin.write_all(&bytes).expect("the server's input is open");
            report.malformed += 1;
        } else {
            let (start, end, piece) = match undo.pop() {
                // Undo the last broken edit (LIFO, so its offsets are exact): the text keeps
                // coming back to Java that has verdicts to compare.
                Some(e) if rng.u8(0..3) == 0 || undo.len() >= 7 => (e.start, e.start + e.inserted.len(), e.removed),
                popped => {
                    undo.extend(popped);
                    match (undo.is_empty() && rng.bool()).then(|| statement_edit(&mut rng, &text)).flatten() {
                        Some(edit) => edit,
                        None => {
                            let (start, end, piece) = random_edit(&mut rng, &text);
                            undo.push(Undo { start, removed: text[start..end].to_string(), inserted: piece.clone() });
                            (start, end, piece)
                        }
                    }
                }
            };
            let range = json!({"start": position(&text, start), "end": position(&text, end)});
            version += 1;
            s.notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": uri, "version": version},
                       "contentChanges": [{"range": range, "text": piece}]}),
            );
            text.replace_range(start..end, &piece);
            report.edits += 1;
        }
        if step % 500 == 0 {
            s.alive();
        }
        let due = (report.edits % cfg.checkpoint == 0 && !is_malformed) || step + 1 == total;
        if due && report.edits > 0 && checked != version {
            checked = version;
            // The edited document against a fresh open of the same text.
            let edited = strip_uri(s.diagnostics(&uri, version));
            fresh += 1;
            let twin = format!("file://{}", dir.path().join(format!("src/main/java/fz/T{fresh}.java")).display());
            s.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                          "params": {"textDocument": {"uri": twin, "languageId": "java", "version": 1, "text": text}}}));
            let opened = strip_uri(s.diagnostics(&twin, 1));
            assert_eq!(
                edited, opened,
                "after {} edits (seed {}), the edited document's diagnostics differ from a fresh open of its text:\n{text}",
                report.edits, cfg.seed
            );
            report.diagnostics += edited.len();
            s.notify("textDocument/didClose", json!({"textDocument": {"uri": twin}}));
            // Still answering requests.
            let answer = s.request("textDocument/codeAction", json!({"textDocument": {"uri": uri},
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}}));
            assert!(answer.get("result").is_some() || answer.get("error").is_some(), "{answer}");
            report.checkpoints += 1;
        }
    }
    report.rss_end_kib = s.rss_kib();
    s.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
    let _ = s.request("textDocument/codeAction", json!({"textDocument": {"uri": uri},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}}));
    std::thread::sleep(Duration::from_millis(500));
    report.rss_closed_kib = s.rss_kib();
    let _ = s.request("shutdown", Value::Null);
    s.notify("exit", Value::Null);
    drop(s.stdin);
    let status = s.child.wait().unwrap();
    assert!(status.success(), "the server ended with {status}");
    report.elapsed = started.elapsed();
    report
}

/// Diagnostics without what names their document (related locations point into it).
fn strip_uri(mut diags: Vec<Value>) -> Vec<Value> {
    for d in &mut diags {
        if let Some(rel) = d.get_mut("relatedInformation").and_then(Value::as_array_mut) {
            for r in rel {
                r["location"]["uri"] = Value::Null;
            }
        }
    }
    diags
}

#[allow(dead_code)]
fn main() {
    let mut cfg = Config {
        // The `jreach` of the same build: `target/release/examples/lsp_fuzz` → `target/release/jreach`.
        jreach: std::env::current_exe()
            .ok()
            .and_then(|e| Some(e.parent()?.parent()?.join("jreach")))
            .unwrap_or_else(|| PathBuf::from("jreach")),
        edits: 100_000,
        malformed: 10_000,
        checkpoint: 1_000,
        seed: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--edits" => cfg.edits = value().parse().expect("--edits N"),
            "--malformed" => cfg.malformed = value().parse().expect("--malformed N"),
            "--checkpoint" => cfg.checkpoint = value().parse::<usize>().expect("--checkpoint N").max(1),
            "--seed" => cfg.seed = value().parse().expect("--seed N"),
            "--jreach" => cfg.jreach = PathBuf::from(value()),
            other => panic!("unknown argument {other} (--edits N --malformed N --checkpoint N --seed N --jreach PATH)"),
        }
    }
    let r = run(&cfg);
    println!(
        "{} edits, {} malformed messages, {} checkpoints: 0 exits, diagnostics equal to a fresh open at every \
         checkpoint ({} diagnostics compared)",
        r.edits, r.malformed, r.checkpoints, r.diagnostics
    );
    println!(
        "RSS: {} MiB at start, {} MiB after the edits, {} MiB after didClose; {:.1} s",
        r.rss_start_kib / 1024,
        r.rss_end_kib / 1024,
        r.rss_closed_kib / 1024,
        r.elapsed.as_secs_f64()
    );
}
