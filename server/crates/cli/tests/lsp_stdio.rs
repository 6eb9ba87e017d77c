//! `jreach lsp` end to end over stdio: the real binary, hand-written JSON-RPC framing, a temporary
//! Maven project. Diagnostics on a provably dead line, incremental edits checked against a full
//! parse, code actions listed and resolved into a WorkspaceEdit whose test compiles and passes
//! under JUnit 5, the command for clients without resolve, settings, cancellation, broken Java,
//! closed documents, a 10,000-line file, shutdown and exit.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[path = "support/lsp_wire.rs"]
mod lsp_wire;

const CALC: &str = "package demo;

public class Calc {
    public static int classify(int x) {
        if (x > 5 && x < 3) {
            dead();
        }
        if (x * 3 == 51) {
            return 1;
        }
        return 0;
    }

    static void dead() {
    }
}
";

/// 0-based lines of CALC.
const DEAD_LINE: u32 = 5;
const RETURN_ONE_LINE: u32 = 8;

const WAIT: Duration = Duration::from_secs(60);

/// A temporary Maven project with `demo/Calc.java`.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new(source: &str) -> Project {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        std::fs::write(
            dir.path().join("pom.xml"),
            "<project><modelVersion>4.0.0</modelVersion><groupId>demo</groupId><artifactId>demo</artifactId>\
             <version>1</version><dependencies><dependency><groupId>org.junit.jupiter</groupId>\
             <artifactId>junit-jupiter</artifactId><version>5.9.2</version><scope>test</scope></dependency>\
             </dependencies></project>\n",
        )
        .unwrap();
        let src = dir.path().join("src/main/java/demo");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(src.join("Calc.java"), source).unwrap();
        Project { dir }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn source(&self) -> PathBuf {
        self.root().join("src/main/java/demo/Calc.java")
    }

    fn uri(&self) -> String {
        format!("file://{}", self.source().display())
    }
}

/// The server process and what it sent.
struct Server {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: i64,
    /// Notifications and requests from the server not consumed yet.
    backlog: Vec<Value>,
    /// Answer to `workspace/configuration`.
    config: Value,
    /// How long `wait_for` waits.
    wait: Duration,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jreach"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("jreach lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let rx = lsp_wire::read_all(stdout);
        Server { child, stdin, rx, next_id: 1, backlog: vec![], config: Value::Null, wait: WAIT }
    }

    fn send(&mut self, msg: Value) {
        lsp_wire::write_frame(&mut self.stdin, serde_json::to_string(&msg).unwrap().as_bytes()).unwrap();
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

    /// The next message, answering the server's own requests on the way.
    fn recv(&mut self, deadline: Instant) -> Option<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        let msg = match self.rx.recv_timeout(left) {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => return None,
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        };
        if msg.get("id").is_some() && msg.get("method").is_some() {
            let result = match msg["method"].as_str().unwrap() {
                "workspace/configuration" => json!([self.config.clone()]),
                "workspace/applyEdit" => {
                    apply_workspace_edit(&msg["params"]["edit"]);
                    json!({"applied": true})
                }
                _ => Value::Null,
            };
            self.send(json!({"jsonrpc": "2.0", "id": msg["id"].clone(), "result": result}));
        }
        Some(msg)
    }

    /// Waits for a message satisfying `pred` (from the backlog first); others are kept.
    fn wait_for(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + self.wait;
        while let Some(msg) = self.recv(deadline) {
            if pred(&msg) {
                return msg;
            }
            self.backlog.push(msg);
        }
        panic!("timed out waiting for {what}; received: {:#?}", self.backlog);
    }

    fn response(&mut self, id: i64) -> Value {
        self.wait_for(&format!("the response to request {id}"), |m| {
            m.get("id") == Some(&json!(id)) && m.get("method").is_none()
        })
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.request_id(method, params);
        let resp = self.response(id);
        assert!(resp.get("error").is_none(), "{method} failed: {resp}");
        resp["result"].clone()
    }

    fn initialize(&mut self, root: &Path, options: Value) {
        self.initialize_with(root, options, true)
    }

    /// `initialize`; `create_files`: whether the client's workspace edits may create files.
    fn initialize_with(&mut self, root: &Path, options: Value, create_files: bool) {
        let operations = if create_files { json!(["create", "rename", "delete"]) } else { json!([]) };
        let caps = json!({
            "general": {"positionEncodings": ["utf-16"]},
            "window": {"workDoneProgress": true, "showMessage": {"messageActionItem": {"additionalPropertiesSupport": true}}},
            "workspace": {
                "applyEdit": true,
                "configuration": true,
                "workspaceEdit": {"documentChanges": true, "resourceOperations": operations,
                                  "changeAnnotationSupport": {"groupsOnLabel": true}},
                "codeLens": {"refreshSupport": true}
            },
            "textDocument": {
                "codeAction": {
                    "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["", "quickfix", "refactor", "source"]}},
                    "dataSupport": true,
                    "disabledSupport": true,
                    "resolveSupport": {"properties": ["edit"]}
                },
                "publishDiagnostics": {"relatedInformation": true, "tagSupport": {"valueSet": [1, 2]}, "versionSupport": true}
            }
        });
        let root_uri = format!("file://{}", root.display());
        let result = self.request(
            "initialize",
            json!({"processId": null, "rootUri": root_uri, "capabilities": caps, "initializationOptions": options}),
        );
        assert_eq!(result["capabilities"]["positionEncoding"], "utf-16");
        assert_eq!(result["capabilities"]["textDocumentSync"]["change"], 2, "incremental sync");
        assert_eq!(result["capabilities"]["codeActionProvider"]["resolveProvider"], true);
        self.notify("initialized", json!({}));
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "java", "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, uri: &str, version: i32, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        );
    }

    /// The next diagnostics published for `uri` at `version` (any version if `None`).
    fn diagnostics(&mut self, uri: &str, version: Option<i32>) -> Vec<Value> {
        let msg = self.wait_for(&format!("diagnostics of {uri} at {version:?}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && match version {
                    Some(v) => m["params"]["version"] == v,
                    None => true,
                }
        });
        msg["params"]["diagnostics"].as_array().unwrap().clone()
    }

    /// The diagnostics published for `uri` at `version` once `done` holds for them (a slow check
    /// publishes what it knows as it goes).
    fn diagnostics_once(&mut self, uri: &str, version: i32, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        loop {
            let d = self.diagnostics(uri, Some(version));
            if done(&d) {
                return d;
            }
        }
    }

    fn code_actions(&mut self, uri: &str, line: u32) -> Vec<Value> {
        let r = self.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": {"start": {"line": line, "character": 8}, "end": {"line": line, "character": 8}},
                   "context": {"diagnostics": []}}),
        );
        r.as_array().cloned().unwrap_or_default()
    }

    fn shutdown_and_exit(mut self) {
        let r = self.request_id("shutdown", Value::Null);
        let resp = self.response(r);
        assert!(resp.get("error").is_none(), "{resp}");
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert_eq!(status.code(), Some(0), "exit after shutdown is a clean exit");
                return;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn path_of(uri: &str) -> PathBuf {
    PathBuf::from(uri.strip_prefix("file://").expect("a file URI"))
}

/// Applies a WorkspaceEdit of the shapes the server produces (create + insert, whole-file replace).
fn apply_workspace_edit(edit: &Value) {
    for op in edit["documentChanges"].as_array().cloned().unwrap_or_default() {
        if op["kind"] == "create" {
            let p = path_of(op["uri"].as_str().unwrap());
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            if !p.exists() {
                std::fs::write(&p, "").unwrap();
            }
            continue;
        }
        let p = path_of(op["textDocument"]["uri"].as_str().unwrap());
        let mut text = std::fs::read_to_string(&p).unwrap_or_default();
        for e in op["edits"].as_array().unwrap() {
            let r = lsp_range_to_bytes(&text, &e["range"]);
            text.replace_range(r, e["newText"].as_str().unwrap());
        }
        std::fs::write(&p, text).unwrap();
    }
}

/// Byte offset of a UTF-16 LSP position.
fn offset_of(text: &str, pos: &Value) -> usize {
    let (line, ch) = (pos["line"].as_u64().unwrap() as usize, pos["character"].as_u64().unwrap() as usize);
    let mut start = 0;
    for _ in 0..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let line_text = &text[start..start + text[start..].find('\n').unwrap_or(text.len() - start)];
    let mut units = 0;
    for (i, c) in line_text.char_indices() {
        if units >= ch {
            return start + i;
        }
        units += c.len_utf16();
    }
    start + line_text.len()
}

fn lsp_range_to_bytes(text: &str, range: &Value) -> std::ops::Range<usize> {
    offset_of(text, &range["start"])..offset_of(text, &range["end"])
}

fn range(l1: u32, c1: u32, l2: u32, c2: u32) -> Value {
    json!({"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}})
}

/// Compiles `sources` (main and test) and runs the JUnit 5 console on `class`; panics with the
/// output unless every test passes.
fn run_junit(project: &Path, test_file: &Path, class: &str) {
    let jars = Path::new("/usr/share/java");
    let console = jars.join("junit-platform-console-standalone.jar");
    assert!(console.is_file(), "JUnit 5 is missing: apt-get install -y junit5");
    let out = project.join("target/classes");
    std::fs::create_dir_all(&out).unwrap();
    let javac = Command::new("javac")
        .arg("-d")
        .arg(&out)
        .arg("-cp")
        .arg(&console)
        .arg(project.join("src/main/java/demo/Calc.java"))
        .arg(test_file)
        .output()
        .expect("javac runs");
    assert!(javac.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&javac.stderr));
    let run = Command::new("java")
        .arg("-jar")
        .arg(&console)
        .args(["--disable-banner", "--fail-if-no-tests", "--details=summary", "-cp"])
        .arg(&out)
        .args(["--select-class", class])
        .output()
        .expect("java runs");
    let text = format!("{}{}", String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(run.status.success(), "the generated test failed:\n{text}");
    assert!(text.contains("1 tests successful") || text.contains("tests successful"), "{text}");
}

#[test]
fn diagnostics_actions_and_a_generated_test_that_passes() {
    let project = Project::new(CALC);
    let uri = project.uri();
    let mut s = Server::start();
    s.initialize(project.root(), json!({"timeout": 10}));
    s.open(&uri, CALC);

    // The dead call is faded (Unnecessary), with the code and source; the condition that makes
    // it dead is the warning, so the dead call is only a hint (one problem for one dead block).
    let diags = s.diagnostics(&uri, Some(1));
    let dead: Vec<&Value> = diags.iter().filter(|d| d["code"] == "unreachable-code").collect();
    assert_eq!(dead.len(), 1, "{diags:#?}");
    let d = dead[0];
    assert_eq!(d["range"]["start"]["line"], DEAD_LINE);
    assert_eq!(d["severity"], 4);
    assert_eq!(d["source"], "jreach");
    assert_eq!(d["tags"], json!([1]));
    let condition: Vec<&Value> = diags.iter().filter(|d| d["code"] == "condition-always-false").collect();
    assert_eq!(condition.len(), 1, "{diags:#?}");
    assert_eq!(
        (condition[0]["range"]["start"]["line"].clone(), condition[0]["severity"].clone()),
        (json!(DEAD_LINE - 1), json!(2))
    );

    // Listing is instant: an action with data, no edit yet.
    let actions = s.code_actions(&uri, RETURN_ONE_LINE);
    assert_eq!(actions.len(), 1, "{actions:#?}");
    let action = actions[0].clone();
    assert_eq!(action["title"], format!("Generate test reaching line {}", RETURN_ONE_LINE + 1));
    assert_eq!(action["kind"], "refactor");
    assert!(action.get("edit").is_none() && action.get("data").is_some(), "{action}");

    // The dead line: a disabled action that says why.
    let on_dead = s.code_actions(&uri, DEAD_LINE);
    assert_eq!(on_dead.len(), 1);
    assert!(on_dead[0]["disabled"]["reason"].as_str().unwrap().contains("unreachable"), "{on_dead:#?}");

    // Resolving solves: a WorkspaceEdit creating src/test/java/demo/CalcTest.java.
    let resolved = s.request("codeAction/resolve", action);
    let ops = resolved["edit"]["documentChanges"].as_array().unwrap_or_else(|| panic!("{resolved:#}")).clone();
    let test_file = project.root().join("src/test/java/demo/CalcTest.java");
    assert_eq!(ops[0]["kind"], "create");
    assert_eq!(path_of(ops[0]["uri"].as_str().unwrap()), test_file);
    assert_eq!(path_of(ops[1]["textDocument"]["uri"].as_str().unwrap()), test_file);
    let content = ops[1]["edits"][0]["newText"].as_str().unwrap();
    assert!(content.contains("class CalcTest") && content.contains("org.junit.jupiter"), "{content}");
    assert!(!test_file.exists(), "the client applies the edit, not the server");
    assert!(!test_file.parent().unwrap().exists(), "resolving created the test's folders");
    // Once applied, the action's command makes the folders (for clients that create only a buffer).
    assert_eq!(resolved["command"]["command"], "jreach.testCreated", "{resolved:#}");
    let r = s.request("workspace/executeCommand", resolved["command"].clone());
    assert_eq!(r["status"], "ok", "{r}");
    assert!(test_file.parent().unwrap().is_dir());
    apply_workspace_edit(&resolved["edit"]);
    run_junit(project.root(), &test_file, "demo.CalcTest");
    // A path the server did not offer is refused, and nothing is made.
    let elsewhere = project.root().join("elsewhere/x/XTest.java");
    let id = s.request_id(
        "workspace/executeCommand",
        json!({"command": "jreach.testCreated", "arguments": [{"path": elsewhere}]}),
    );
    let resp = s.response(id);
    assert!(resp["error"]["message"].as_str().is_some_and(|m| m.contains("offered no test file")), "{resp}");
    assert!(!project.root().join("elsewhere").exists());

    // A second test goes into the same class (the test file is now on disk).
    let action = s.code_actions(&uri, RETURN_ONE_LINE + 2)[0].clone();
    let resolved = s.request("codeAction/resolve", action);
    let ops = resolved["edit"]["documentChanges"].as_array().unwrap().clone();
    assert_eq!(ops.len(), 1, "an edit of the existing file: {ops:#?}");
    apply_workspace_edit(&resolved["edit"]);
    let text = std::fs::read_to_string(&test_file).unwrap();
    assert_eq!(text.matches("@Test").count(), 2, "{text}");
    run_junit(project.root(), &test_file, "demo.CalcTest");

    // The command (clients without resolve): on the dead line it explains instead of editing.
    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "jreach.generateTest", "arguments": [{"uri": uri, "line": DEAD_LINE}]}),
    );
    assert_eq!(r["status"], "unreachable", "{r}");
    let shown = s.wait_for("a message", |m| m["method"] == "window/showMessage");
    assert!(shown["params"]["message"].as_str().unwrap().contains("unreachable"), "{shown}");

    // Closed, the file keeps the warnings of its text on disk (no version: not a document).
    s.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
    let on_disk = s.wait_for("the closed file's diagnostics", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri
            && m["params"]["version"].is_null()
    });
    let on_disk = on_disk["params"]["diagnostics"].as_array().unwrap().clone();
    assert_eq!(on_disk.iter().filter(|d| d["code"] == "unreachable-code").count(), 1, "{on_disk:#?}");
    s.shutdown_and_exit();
}

#[test]
fn files_that_are_not_open_get_their_warnings_and_lose_them_when_the_setting_is_off() {
    let project = Project::new(CALC);
    let uri = project.uri();
    // A test source and build output are not checked.
    let test = project.root().join("src/test/java/demo/CalcTest.java");
    std::fs::create_dir_all(test.parent().unwrap()).unwrap();
    std::fs::write(&test, CALC.replace("class Calc", "class CalcTest")).unwrap();
    let built = project.root().join("target/generated-sources/demo/Calc.java");
    std::fs::create_dir_all(built.parent().unwrap()).unwrap();
    std::fs::write(&built, CALC).unwrap();
    let mut s = Server::start();
    s.initialize(project.root(), json!({}));
    // Nothing is opened: the workspace's check publishes Calc.java's warnings.
    let d = s.diagnostics(&uri, None);
    assert_eq!(d.iter().filter(|d| d["code"] == "unreachable-code").count(), 1, "{d:#?}");
    let done = s.wait_for("the workspace check's end", |m| {
        m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end"
    });
    assert_eq!(done["params"]["value"]["message"], "done");
    for other in [&test, &built] {
        let other = format!("file://{}", other.display());
        let published =
            s.backlog.iter().any(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == other);
        assert!(!published, "{other}: {:#?}", s.backlog);
    }
    // Off: they go.
    s.notify("workspace/didChangeConfiguration", json!({"settings": {"jreach": {"workspaceDiagnostics": false}}}));
    assert!(s.diagnostics(&uri, None).is_empty());
    s.shutdown_and_exit();
}

#[test]
fn a_warning_is_removed_or_suppressed_by_its_quick_fixes_and_the_cursor_alone_gets_no_generate_action() {
    let project = Project::new(CALC);
    let uri = project.uri();
    let mut s = Server::start();
    s.initialize(project.root(), json!({}));
    s.open(&uri, CALC);
    let diags = s.diagnostics(&uri, Some(1));
    let dead: Vec<Value> = diags.iter().filter(|d| d["code"] == "unreachable-code").cloned().collect();
    assert_eq!(dead.len(), 1, "{diags:#?}");

    // As the cursor moves (a lightbulb's request): no "generate test" on a plain line...
    let ask = |s: &mut Server, line: u32, diagnostics: Vec<Value>, trigger: u32| {
        let r = s.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": range(line, 8, line, 8),
                   "context": {"diagnostics": diagnostics, "triggerKind": trigger}}),
        );
        r.as_array().cloned().unwrap_or_default()
    };
    assert!(ask(&mut s, RETURN_ONE_LINE, vec![], 2).is_empty());
    // ... the fix on a warning's line; asked by the user, both.
    let automatic = ask(&mut s, DEAD_LINE, dead.clone(), 2);
    let titles: Vec<&str> = automatic.iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert_eq!(
        titles,
        ["Remove dead `if` (its body never runs)", "Suppress jreach warnings in classify(int)"],
        "{automatic:#?}"
    );
    assert!(automatic.iter().all(|a| a["kind"] == "quickfix"), "{automatic:#?}");
    assert_eq!(ask(&mut s, DEAD_LINE, dead.clone(), 1).len(), 3);
    assert_eq!(ask(&mut s, RETURN_ONE_LINE, vec![], 1).len(), 1);

    // Removing the dead `if`: its lines go, and with them the warnings.
    let changes = automatic[0]["edit"]["changes"][uri.as_str()].as_array().unwrap().clone();
    let mut removed = CALC.to_string();
    for e in changes.iter().rev() {
        let r = lsp_range_to_bytes(&removed, &e["range"]);
        removed.replace_range(r, e["newText"].as_str().unwrap());
    }
    assert_eq!(removed, CALC.replace("        if (x > 5 && x < 3) {\n            dead();\n        }\n", ""));
    s.change(&uri, 2, json!([{"text": removed}]));
    let after = s.diagnostics_once(&uri, 2, |d| d.is_empty());
    assert!(after.is_empty(), "{after:#?}");
    s.change(&uri, 3, json!([{"text": CALC}]));
    s.diagnostics_once(&uri, 3, |d| !d.is_empty());

    // Suppressing: the method is no longer checked, its warnings go.
    let changes = automatic[1]["edit"]["changes"][uri.as_str()].as_array().unwrap().clone();
    let mut text = CALC.to_string();
    for e in changes.iter().rev() {
        let r = lsp_range_to_bytes(&text, &e["range"]);
        text.replace_range(r, e["newText"].as_str().unwrap());
    }
    assert!(text.contains("    @SuppressWarnings(\"jreach\")\n    public static int classify(int x) {"), "{text}");
    s.change(&uri, 4, json!([{"text": text}]));
    let after = s.diagnostics_once(&uri, 4, |d| d.iter().all(|d| d["code"] != "unreachable-code"));
    assert!(after.is_empty(), "{after:#?}");
    s.shutdown_and_exit();
}

#[test]
fn hovering_a_statement_says_what_jreach_knows_of_it() {
    let project = Project::new(CALC);
    let uri = project.uri();
    let mut s = Server::start();
    s.initialize(project.root(), json!({}));
    let caps =
        s.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}));
    // Nothing open: no hover (and no error).
    assert!(caps.is_null(), "{caps:#?}");
    s.open(&uri, CALC);
    s.diagnostics_once(&uri, 1, |d| d.iter().any(|d| d["code"] == "unreachable-code"));
    let hover = |s: &mut Server, line: u32| {
        let r = s.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 12}}),
        );
        r["contents"]["value"].as_str().unwrap_or_default().to_string()
    };
    let dead = hover(&mut s, DEAD_LINE);
    assert!(dead.starts_with("**jreach: can never run.** unreachable code:"), "{dead}");
    // (A slow check publishes its warnings before it ends; until it ends, "still checking".)
    let deadline = Instant::now() + WAIT;
    let mut live = hover(&mut s, RETURN_ONE_LINE);
    while live.contains("still checking") && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        live = hover(&mut s, RETURN_ONE_LINE);
    }
    assert!(live.starts_with("**jreach: no dead code found.** The check of `classify(int)`"), "{live}");
    assert!(live.contains(&format!("Generate test reaching line {}", RETURN_ONE_LINE + 1)), "{live}");
    // A blank line: none.
    let r =
        s.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 0}}));
    assert!(r.is_null(), "{r:#?}");
    s.shutdown_and_exit();
}

#[test]
fn resolving_for_a_client_that_cannot_create_files_changes_nothing_on_disk() {
    let project = Project::new(CALC);
    let uri = project.uri();
    let mut s = Server::start();
    s.initialize_with(project.root(), json!({"timeout": 10}), false);
    s.open(&uri, CALC);
    let action = s.code_actions(&uri, RETURN_ONE_LINE)[0].clone();
    let resolved = s.request("codeAction/resolve", action);
    // No edit it could apply: the command writes the test when the user chooses the action.
    assert!(resolved.get("edit").is_none_or(Value::is_null), "{resolved:#}");
    assert_eq!(resolved["command"]["command"], "jreach.generateTest", "{resolved:#}");
    let tests = project.root().join("src/test");
    assert!(!tests.exists(), "resolving wrote into {}", tests.display());
    let r = s.request("workspace/executeCommand", resolved["command"].clone());
    assert_eq!(r["status"], "test", "{r}");
    let test_file = project.root().join("src/test/java/demo/CalcTest.java");
    assert!(test_file.is_file(), "{r}");
    run_junit(project.root(), &test_file, "demo.CalcTest");
}

#[test]
fn the_command_applies_its_edit_through_the_client() {
    let project = Project::new(CALC);
    let uri = project.uri();
    let mut s = Server::start();
    s.initialize(project.root(), json!({}));
    s.open(&uri, CALC);
    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "jreach.generateTest", "arguments": [{"uri": uri, "line": RETURN_ONE_LINE}], "workDoneToken": "t1"}),
    );
    assert_eq!(r["status"], "test", "{r}");
    // Named by what the statement does, not by its line.
    assert_eq!(r["method"], "classify_returns1", "{r}");
    let test_file = project.root().join("src/test/java/demo/CalcTest.java");
    assert_eq!(PathBuf::from(r["path"].as_str().unwrap()), test_file);
    let begin =
        s.wait_for("progress begin", |m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "begin");
    assert_eq!(begin["params"]["token"], "t1");
    s.wait_for("progress end", |m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end");
    // Our stand-in client applied the edit when the server asked (workspace/applyEdit).
    run_junit(project.root(), &test_file, "demo.CalcTest");
    // Asked again: the same test is there already; it is named, and nothing is added.
    let written = std::fs::read_to_string(&test_file).unwrap();
    let again = s.request(
        "workspace/executeCommand",
        json!({"command": "jreach.generateTest", "arguments": [{"uri": uri, "line": RETURN_ONE_LINE}]}),
    );
    assert_eq!((again["status"].clone(), again["existing"].clone()), (json!("test"), json!(true)), "{again}");
    assert_eq!(again["method"], r["method"], "{again}");
    assert!(again["message"].as_str().unwrap().contains("already reaches line 9"), "{again}");
    assert_eq!(std::fs::read_to_string(&test_file).unwrap(), written);
    s.shutdown_and_exit();
}

/// A loop that must run 50 times before line 10 (0-based 9) can run.
const LOOP: &str = "package demo;

public class Calc {
    public static int count(int n) {
        int i = 0;
        while (i < n) {
            i++;
        }
        if (i == 50) {
            return 1;
        }
        return 0;
    }
}
";

#[test]
fn a_limit_that_may_help_is_offered_as_a_setting_to_open() {
    let project = Project::new(LOOP);
    let uri = project.uri();
    let mut s = Server::start();
    s.initialize(project.root(), json!({"unroll": 2, "runCode": false}));
    s.open(&uri, LOOP);
    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "jreach.generateTest", "arguments": [{"uri": uri, "line": 9}]}),
    );
    assert_eq!((r["status"].as_str(), r["setting"].as_str()), (Some("unknown"), Some("jreach.unroll")), "{r}");
    // The message comes with a button whose property names the setting (the VS Code extension
    // opens it); the message names it too, for clients that show no buttons.
    let asked = s.wait_for("a message with a button", |m| m["method"] == "window/showMessageRequest");
    let text = asked["params"]["message"].as_str().unwrap();
    assert!(text.contains("the jreach.unroll setting"), "{text}");
    assert_eq!(asked["params"]["actions"], json!([{"title": "Open Setting", "setting": "jreach.unroll"}]), "{asked}");
    // Without a limit that may help, a plain message and no setting.
    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "jreach.generateTest", "arguments": [{"uri": uri, "line": 1}]}),
    );
    assert!(r.get("setting").is_none_or(Value::is_null), "{r}");
    s.shutdown_and_exit();
}

#[test]
fn a_preview_request_answers_with_the_edit_and_a_second_one_replaces_the_first_test() {
    let project = Project::new(CALC);
    let uri = project.uri();
    let mut s = Server::start();
    s.initialize(project.root(), json!({}));
    s.open(&uri, CALC);
    let ask = |s: &mut Server| {
        s.request(
            "workspace/executeCommand",
            json!({"command": "jreach.generateTest", "arguments": [{"uri": uri, "line": RETURN_ONE_LINE, "preview": true}]}),
        )
    };
    let r = ask(&mut s);
    assert_eq!(
        (r["status"].clone(), r["preview"].clone(), r["created"].clone()),
        (json!("test"), json!(true), json!(true)),
        "{r}"
    );
    let test_file = project.root().join("src/test/java/demo/CalcTest.java");
    assert!(!test_file.exists(), "nothing is written before the user accepts");
    assert!(r["content"].as_str().unwrap().contains("// Reaches line 9 in classify(int): return 1;"), "{r}");
    // The client applies the edit once the user accepts.
    apply_workspace_edit(&r["edit"]);
    assert_eq!(std::fs::read_to_string(&test_file).unwrap(), r["content"].as_str().unwrap());
    // The user edits the test; asked again, the new test replaces it (shown first, so nothing
    // is lost unseen), under its name, and the user's other tests stay.
    let first = std::fs::read_to_string(&test_file).unwrap();
    let edited = first.replace("// Reaches line 9", "int mine = 1;\n        // Reaches line 9");
    let edited = edited.replacen("class CalcTest {", "class CalcTest {\n    @Test\n    void theirs() {\n    }\n", 1);
    std::fs::write(&test_file, &edited).unwrap();
    let again = ask(&mut s);
    assert_eq!(again["replaces"], r["method"], "{again}");
    assert_eq!(again["method"], r["method"], "{again}");
    let content = again["content"].as_str().unwrap();
    assert!(!content.contains("int mine") && content.contains("void theirs()"), "{content}");
    assert_eq!(content.matches("// Reaches line 9").count(), 1, "{content}");
    assert_eq!(std::fs::read_to_string(&test_file).unwrap(), edited, "nothing is written before the user accepts");
    s.shutdown_and_exit();
}

#[test]
fn a_generated_test_has_a_run_lens_that_runs_it_and_names_the_lines_it_covered() {
    let project = Project::new(CALC);
    let uri = project.uri();
    let mut s = Server::start();
    s.initialize(project.root(), json!({}));
    s.open(&uri, CALC);
    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "jreach.generateTest", "arguments": [{"uri": uri, "line": RETURN_ONE_LINE}]}),
    );
    assert_eq!(r["status"], "test", "{r}");
    let test_file = project.root().join("src/test/java/demo/CalcTest.java");
    let test_uri = format!("file://{}", test_file.display());
    let text = std::fs::read_to_string(&test_file).unwrap();
    // The statement's hover names the test that runs it, with its call.
    let h = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": RETURN_ONE_LINE, "character": 12}}),
    );
    let said = h["contents"]["value"].as_str().unwrap_or_default().to_string();
    assert!(
        said.starts_with("**jreach: reachable.**")
            && said.contains("CalcTest.java:")
            && said.contains("Calc.classify(17)"),
        "{h}"
    );
    s.open(&test_uri, &text);
    let lenses = code_lenses(&mut s, &test_uri);
    assert_eq!(lenses.len(), 1, "{lenses:?}");
    let command = &lenses[0]["command"];
    assert_eq!(command["title"], "▶ Run test (reaches line 9)", "{command}");
    assert_eq!(command["command"], "jreach.runTest");
    let ran = s.request(
        "workspace/executeCommand",
        json!({"command": "jreach.runTest", "arguments": command["arguments"].clone()}),
    );
    assert_eq!(
        (ran["status"].clone(), ran["reached"].clone(), ran["line"].clone()),
        (json!("passed"), json!(true), json!(9)),
        "{ran}"
    );
    assert_eq!(ran["source"], json!(uri), "{ran}");
    let covered: Vec<u64> = ran["covered"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert!(covered.contains(&9) && covered.contains(&5) && !covered.contains(&6), "{covered:?}");
    let said = s.wait_for("the run's message", |m| {
        m["method"] == "window/showMessage" && m["params"]["message"].as_str().unwrap().contains("CalcTest.classify")
    });
    assert!(said["params"]["message"].as_str().unwrap().contains("passed and ran line 9 of Calc.java"), "{said}");
    // Edited by the user so that it no longer reaches its line: said, as a warning.
    let method = command["arguments"][0]["method"].as_str().unwrap().to_string();
    let edited = text.replace("classify(17)", "classify(2)");
    assert_ne!(edited, text, "the test calls classify(17): {text}");
    s.change(&test_uri, 2, json!([{"text": edited}]));
    let ran = s.request(
        "workspace/executeCommand",
        json!({"command": "jreach.runTest", "arguments": [{"uri": test_uri, "method": method}]}),
    );
    assert_eq!(ran["reached"], json!(false), "{ran}");
    assert_ne!(ran["status"], json!("error"), "{ran}");
    // Not a test jreach wrote: no such test, said plainly.
    let ran = s.request(
        "workspace/executeCommand",
        json!({"command": "jreach.runTest", "arguments": [{"uri": test_uri, "method": "nope"}]}),
    );
    assert_eq!(ran["status"], "error", "{ran}");
    assert!(ran["message"].as_str().unwrap().contains("nope is not a test jreach wrote"), "{ran}");
    s.shutdown_and_exit();
}

const GAPS: &str = "package demo;

public class Calc {
    public static int classify(int x) {
        if (x > 5 && x < 3) {
            dead();
        }
        int y = x * 3;
        if (y == 51) {
            y = y + 1;
            return y;
        }
        return 0;
    }

    static void dead() {
    }
}
";

/// Writes the JaCoCo XML report `mvn jacoco:report` would write for `demo/Calc.java` if the
/// project's tests ran `ran` of its lines and not `missed`.
fn write_report(project: &Project, ran: &[usize], missed: &[usize]) {
    let report = project.root().join("target/site/jacoco/jacoco.xml");
    std::fs::create_dir_all(report.parent().unwrap()).unwrap();
    let mut lines: Vec<(usize, bool)> =
        ran.iter().map(|&l| (l, true)).chain(missed.iter().map(|&l| (l, false))).collect();
    lines.sort();
    let lines: String = lines
        .iter()
        .map(|&(nr, r)| {
            format!(r#"<line nr="{nr}" mi="{}" ci="{}" mb="0" cb="0"/>"#, if r { 0 } else { 3 }, if r { 3 } else { 0 })
        })
        .collect();
    std::fs::write(
        report,
        format!(r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><report name="demo"><package name="demo"><sourcefile name="Calc.java">{lines}</sourcefile></package></report>"#),
    )
    .unwrap();
}

#[test]
fn a_cancelled_fill_stops_and_says_so() {
    let project = Project::new(GAPS);
    let uri = project.uri();
    write_report(&project, &[5, 8, 9, 13], &[6, 10, 11, 17]);
    let past = std::time::SystemTime::now() - Duration::from_secs(60);
    std::fs::File::options().write(true).open(project.source()).unwrap().set_modified(past).unwrap();
    let mut s = Server::start();
    s.initialize(project.root(), json!({}));
    s.open(&uri, GAPS);
    let id = s.request_id(
        "workspace/executeCommand",
        json!({"command": "jreach.fillFile", "arguments": [{"uri": uri}], "workDoneToken": "fill"}),
    );
    s.wait_for("fill progress", |m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "begin");
    s.notify("window/workDoneProgress/cancel", json!({"token": "fill"}));
    let r = s.response(id);
    let r = &r["result"];
    assert_eq!(r["cancelled"], true, "{r}");
    // What was not answered says why; nothing is claimed that did not happen.
    let results = r["results"].as_array().unwrap();
    assert!(!results.is_empty(), "{r}");
    for x in results {
        match x["status"].as_str().unwrap() {
            "test" | "covered" => {}
            "unknown" => assert!(x["message"].as_str().unwrap().contains("cancelled"), "{x}"),
            other => panic!("{other}: {x}"),
        }
    }
    s.shutdown_and_exit();
}

fn code_lenses(s: &mut Server, uri: &str) -> Vec<Value> {
    s.request("textDocument/codeLens", json!({"textDocument": {"uri": uri}})).as_array().cloned().unwrap_or_default()
}

#[test]
fn a_files_coverage_gaps_get_their_tests_in_one_edit_shown_for_preview() {
    let project = Project::new(GAPS);
    let uri = project.uri();
    let mut s = Server::start();
    s.initialize(project.root(), json!({"workspaceDiagnostics": false}));
    s.open(&uri, GAPS);
    // No report yet: no lens, and the command says what to do. (The check's warnings in: a slow
    // check publishes what it knows first, without them.)
    s.diagnostics_once(&uri, 1, |d| d.iter().any(|d| d["code"] == "unreachable-code"));
    assert!(code_lenses(&mut s, &uri).is_empty());
    let r = s.request("workspace/executeCommand", json!({"command": "jreach.fillFile", "arguments": [{"uri": uri}]}));
    assert_eq!(r["status"], "error", "{r}");
    assert!(r["message"].as_str().unwrap().contains("run the tests with JaCoCo"), "{r}");

    // The tests ran the first lines of `classify`, not the dead call nor the `if`'s block.
    write_report(&project, &[5, 8, 9, 13], &[6, 10, 11, 17]);
    // The report is older than nothing: make the source older than the report.
    let past = std::time::SystemTime::now() - Duration::from_secs(60);
    std::fs::File::options().write(true).open(project.source()).unwrap().set_modified(past).unwrap();
    let lenses = code_lenses(&mut s, &uri);
    assert_eq!(lenses.len(), 1, "{lenses:?}");
    // Line 6 is dead (shown as a warning), line 17 a declaration's brace: two statements left.
    assert_eq!(lenses[0]["command"]["title"], "Generate tests for the 2 uncovered statements");
    assert_eq!(lenses[0]["range"]["start"]["line"], 2, "on the class's line");
    assert_eq!(lenses[0]["command"]["command"], "jreach.fillFile");

    let args = lenses[0]["command"]["arguments"].clone();
    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "jreach.fillFile", "arguments": args, "workDoneToken": "fill"}),
    );
    assert_eq!(r["status"], "tests", "{r}");
    // One test for the block: it runs line 10 on its way to line 11.
    assert_eq!((r["tests"].as_u64(), r["covered"].as_u64(), r["unknown"].as_u64()), (Some(1), Some(1), Some(0)), "{r}");
    // (The check's own progress, under load, may come first: it has a token of the server's.)
    let begin = s.wait_for("fill progress", |m| {
        m["method"] == "$/progress" && m["params"]["value"]["kind"] == "begin" && m["params"]["token"] == "fill"
    });
    assert_eq!(begin["params"]["value"]["cancellable"], true);
    s.wait_for("fill progress report", |m| {
        m["method"] == "$/progress"
            && m["params"]["value"]["message"].as_str().is_some_and(|t| t.starts_with("1 of 2 statements"))
    });
    let apply = s.wait_for("the fill's edit", |m| m["method"] == "workspace/applyEdit");
    let edit = &apply["params"]["edit"];
    let annotations = edit["changeAnnotations"].as_object().expect("annotated for preview");
    assert_eq!(annotations.len(), 1);
    assert_eq!(annotations.values().next().unwrap()["needsConfirmation"], true);
    let ops = edit["documentChanges"].as_array().unwrap();
    assert_eq!(ops.len(), 2, "one new test file: create, then its text: {edit}");
    let text = ops[1]["edits"][0]["newText"].as_str().unwrap();
    assert!(text.contains("// Reaches line 11 in "), "{text}");
    assert!(text.contains(": return y;"), "{text}");
    assert!(text.contains("// Also runs lines"), "{text}");

    // The stand-in client applied it; the test passes under JUnit.
    let test_file = project.root().join("src/test/java/demo/CalcTest.java");
    run_junit(project.root(), &test_file, "demo.CalcTest");
    // The lens knows the statements are covered now: nothing more to offer.
    let after = code_lenses(&mut s, &uri);
    assert!(after.is_empty(), "{after:?}");

    // An unsaved buffer is not filled: its tests would be made for other code.
    write_report(&project, &[5, 8, 9, 13], &[6, 10, 11, 17]);
    std::fs::File::options().write(true).open(project.source()).unwrap().set_modified(past).unwrap();
    s.change(&uri, 2, json!([{"range": range(12, 15, 12, 16), "text": "1"}]));
    let r = s.request("workspace/executeCommand", json!({"command": "jreach.fillFile", "arguments": [{"uri": uri}]}));
    assert_eq!(r["status"], "unsaved", "{r}");
    // Nor is a single test made for it.
    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "jreach.generateTest", "arguments": [{"uri": uri, "line": 10}]}),
    );
    assert_eq!(r["status"], "unsaved", "{r}");
    assert!(r["message"].as_str().unwrap().starts_with("save Calc.java first"), "{r}");
    s.shutdown_and_exit();
}

/// Applies a UTF-16 LSP change to `text` as the server should.
fn apply_local(text: &mut String, r: &Value, new_text: &str) {
    let range = lsp_range_to_bytes(text, r);
    text.replace_range(range, new_text);
}

fn assert_same_as_full_parse(s: &mut Server, uri: &str, expected_text: &str, version: i32) {
    let doc = s.request("jreach/debugDocument", json!({"uri": uri}));
    assert_eq!(doc["version"], version);
    assert_eq!(doc["text"], expected_text);
    let full = jreach_syntax::SourceFile::parse(expected_text);
    assert_eq!(doc["tree"], full.tree.root_node().to_sexp(), "incremental parse differs from a full parse");
}

#[test]
fn incremental_edits_match_a_full_parse_and_move_diagnostics() {
    let project = Project::new(CALC);
    let uri = project.uri();
    let mut s = Server::start();
    s.initialize(project.root(), json!({}));
    s.open(&uri, CALC);
    let mut text = CALC.to_string();
    let d = s.diagnostics(&uri, Some(1));
    assert!(d.iter().any(|d| d["range"]["start"]["line"] == DEAD_LINE));

    // Two lines inserted at the top of the body, and a comment with non-ASCII characters (UTF-16
    // columns: é is one unit, 𝄞 two) followed by an edit after them on the same line.
    let edits = [
        (range(4, 0, 4, 0), "        int y = 0;\n        y++;\n"),
        (range(3, 0, 3, 0), "    // é𝄞 note\n"),
        (range(3, 11, 3, 15), "NOTE"),
    ];
    let changes: Vec<Value> = edits.iter().map(|(r, t)| json!({"range": r, "text": t})).collect();
    for (r, t) in &edits {
        apply_local(&mut text, r, t);
    }
    assert!(text.contains("// é𝄞 NOTE"), "{text}");
    s.change(&uri, 2, json!(changes));
    assert_same_as_full_parse(&mut s, &uri, &text, 2);
    let d = s.diagnostics(&uri, Some(2));
    let dead: Vec<&Value> = d.iter().filter(|d| d["code"] == "unreachable-code").collect();
    assert_eq!(dead.len(), 1, "{d:#?}");
    assert_eq!(dead[0]["range"]["start"]["line"], DEAD_LINE + 3, "the warning moved with the code");

    // Typing fast: one change per character; diagnostics come for the last version only.
    let line = text.lines().position(|l| l.contains("x < 3")).unwrap() as u32;
    let col = text.lines().nth(line as usize).unwrap().find("3)").unwrap() as u32;
    let mut version = 2;
    // `x < 3` → `x < 3 + 10` one keystroke at a time (5 + 10 > 5: the branch comes alive).
    for (i, ch) in " + 10".chars().enumerate() {
        version += 1;
        let at = col + 1 + i as u32;
        let r = range(line, at, line, at);
        apply_local(&mut text, &r, &ch.to_string());
        s.change(&uri, version, json!([{"range": r, "text": ch.to_string()}]));
    }
    assert!(text.contains("x < 3 + 10"), "{text}");
    assert_same_as_full_parse(&mut s, &uri, &text, version);
    let d = s.diagnostics(&uri, Some(version));
    assert!(d.iter().all(|d| d["code"] != "unreachable-code"), "the dead code came alive: {d:#?}");
    let early: Vec<&Value> = s
        .backlog
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"].as_i64() > Some(2))
        .collect();
    assert!(early.is_empty(), "debounced: nothing published for intermediate versions: {early:#?}");

    // A full-text change (no range) replaces everything.
    version += 1;
    s.change(&uri, version, json!([{"text": CALC}]));
    assert_same_as_full_parse(&mut s, &uri, CALC, version);
    let d = s.diagnostics(&uri, Some(version));
    assert!(d.iter().any(|d| d["range"]["start"]["line"] == DEAD_LINE), "{d:#?}");
    s.shutdown_and_exit();
}

#[test]
fn settings_turn_diagnostics_off_and_on() {
    let project = Project::new(CALC);
    let uri = project.uri();
    let mut s = Server::start();
    s.initialize(project.root(), json!({"diagnostics": false}));
    s.open(&uri, CALC);
    // Nothing is published while off; a code action request still answers at once.
    assert_eq!(s.code_actions(&uri, RETURN_ONE_LINE).len(), 1);
    std::thread::sleep(Duration::from_millis(600));
    let published = |s: &mut Server| {
        while let Some(m) = s.recv(Instant::now() + Duration::from_millis(50)) {
            s.backlog.push(m);
        }
        s.backlog.iter().filter(|m| m["method"] == "textDocument/publishDiagnostics").count()
    };
    assert_eq!(published(&mut s), 0);
    s.notify("workspace/didChangeConfiguration", json!({"settings": {"jreach": {"diagnostics": true}}}));
    let d = s.diagnostics(&uri, Some(1));
    assert!(!d.is_empty());
    s.notify("workspace/didChangeConfiguration", json!({"settings": {"jreach": {"diagnostics": false}}}));
    let d = s.diagnostics(&uri, None);
    assert!(d.is_empty(), "turning them off clears them");
    // A bad value is reported, not fatal.
    s.notify("workspace/didChangeConfiguration", json!({"settings": {"jreach": {"junit": "3"}}}));
    let m = s.wait_for("a warning", |m| m["method"] == "window/showMessage");
    assert!(m["params"]["message"].as_str().unwrap().contains("junit"), "{m}");
    s.shutdown_and_exit();
}

#[test]
fn broken_java_closed_documents_stale_data_and_cancellation() {
    let project = Project::new(CALC);
    let uri = project.uri();
    let mut s = Server::start();
    s.initialize(project.root(), json!({}));

    // Broken Java mid-typing: no verdict for the broken method, the others still work.
    let broken = CALC.replace("if (x * 3 == 51) {", "if (x * 3 == ");
    s.open(&uri, &broken);
    let d = s.diagnostics(&uri, Some(1));
    assert!(d.iter().all(|d| d["range"]["start"]["line"] != RETURN_ONE_LINE), "{d:#?}");
    let on_broken = s.code_actions(&uri, DEAD_LINE);
    assert!(
        on_broken.is_empty() || on_broken[0]["disabled"]["reason"].as_str().is_some_and(|r| r.contains("syntax")),
        "{on_broken:#?}"
    );
    // Garbage edits far out of range are clamped, not fatal.
    s.change(&uri, 2, json!([{"range": range(999, 5, 1000, 0), "text": "}}}"}]));
    s.change(&uri, 3, json!([{"range": range(0, 0, 999, 999), "text": CALC}]));
    assert_same_as_full_parse(&mut s, &uri, CALC, 3);

    // Requests about documents that are not open.
    let other = format!("file://{}/src/main/java/demo/Nope.java", project.root().display());
    assert!(s.code_actions(&other, 0).is_empty());
    s.change(&other, 7, json!([{"text": "class Nope {}"}]));
    let id =
        s.request_id("codeAction/resolve", json!({"title": "x", "data": {"uri": "untitled:Nope.java", "line": 3}}));
    let resp = s.response(id);
    assert!(resp.get("error").is_some(), "{resp}");
    let id =
        s.request_id("workspace/executeCommand", json!({"command": "jreach.generateTest", "arguments": ["nonsense"]}));
    assert!(s.response(id).get("error").is_some());
    let id = s.request_id("workspace/executeCommand", json!({"command": "jreach.other", "arguments": []}));
    assert!(s.response(id).get("error").is_some());

    // A closed but saved file: the command reads it from disk.
    let r = s.request(
        "workspace/executeCommand",
        json!({"command": "jreach.generateTest", "arguments": [{"uri": uri, "line": 0}]}),
    );
    assert_eq!(r["status"], "error", "line 1 holds no statement: {r}");

    // Cancellation: the request ends (with a result or as cancelled) and the server lives on.
    let action = s.code_actions(&uri, RETURN_ONE_LINE)[0].clone();
    let id = s.request_id("codeAction/resolve", action);
    s.notify("$/cancelRequest", json!({"id": id}));
    let resp = s.response(id);
    assert!(resp.get("result").is_some() || resp["error"]["code"] == -32800, "cancelled or answered: {resp}");
    assert_eq!(s.code_actions(&uri, RETURN_ONE_LINE).len(), 1, "still serving");
    // Unknown methods are declined.
    let id = s.request_id(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
    );
    assert!(s.response(id).get("error").is_some());
    s.shutdown_and_exit();
}

/// A file of `methods` methods, each with a dead statement: `methods * 20` lines.
fn big_file(methods: usize) -> String {
    let mut out = String::from("package demo;\n\npublic class Calc {\n");
    for i in 0..methods {
        out.push_str(&format!(
            "    public static int m{i}(int x, int y) {{\n        int z = x + {i};\n        if (z > 10 && z < 5) {{\n            z = 0;\n        }}\n        if (y == {i}) {{\n            z = z * 2;\n        }}\n        for (int k = 0; k < 3; k++) {{\n            z += k;\n        }}\n        if (z == 77) {{\n            return 1;\n        }}\n        return z;\n    }}\n\n"
        ));
    }
    out.push_str("}\n");
    out
}

#[test]
fn a_ten_thousand_line_file() {
    let text = big_file(625);
    assert!(text.lines().count() >= 10_000);
    let project = Project::new(&text);
    let uri = project.uri();
    let mut s = Server::start();
    // Checking 625 methods takes a while in a debug build (about a minute on two cores).
    s.wait = Duration::from_secs(600);
    s.initialize(project.root(), json!({}));
    let started = Instant::now();
    s.open(&uri, &text);
    // Listing actions does not wait for the analysis of the file.
    let actions = s.code_actions(&uri, 5000);
    assert!(started.elapsed() < Duration::from_secs(5), "listing took {:?}", started.elapsed());
    assert!(actions.len() <= 1);
    let dead = |d: &[Value]| d.iter().filter(|d| d["code"] == "unreachable-code").count();
    let d = s.diagnostics_once(&uri, 1, |d| dead(d) == 625);
    assert_eq!(dead(&d), 625, "one dead statement per method");
    let first = started.elapsed();
    // One character in one method: only that method is checked again.
    let line = text.lines().position(|l| l.contains("m300(")).unwrap() as u32 + 2;
    let edited = Instant::now();
    // `z < 5` → `z < 50`: that method's branch comes alive.
    s.change(&uri, 2, json!([{"range": range(line, 27, line, 27), "text": "0"}]));
    let d = s.diagnostics_once(&uri, 2, |d| dead(d) == 624);
    let again = edited.elapsed();
    assert_eq!(dead(&d), 624);
    eprintln!("10,000 lines: first diagnostics after {first:?}, after a one-character edit {again:?}");
    assert!(again < first.max(Duration::from_secs(2)), "the edit re-checked more than one method");
    s.shutdown_and_exit();
}

#[test]
fn malformed_frames_are_answered_and_the_server_stays_up() {
    let project = Project::new(CALC);
    let mut s = Server::start();
    s.initialize(project.root(), json!({}));
    let uri = project.uri();
    let bodies: &[&[u8]] = &[b"{", b"null", b"[]", b"42", b"\xff\xfe{}", br#"{"id":1,"method":"x"}"#];
    for body in bodies {
        write!(s.stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        s.stdin.write_all(body).unwrap();
        s.stdin.flush().unwrap();
        let err =
            s.wait_for("the error answering a malformed frame", |m| m["id"].is_null() && m.get("error").is_some());
        let code = err["error"]["code"].as_i64().unwrap();
        assert!(code == -32700 || code == -32600, "{err}");
    }
    // Garbage between frames, a header without a usable length, a content type the transport
    // would refuse: skipped.
    s.stdin.write_all(b"garbage\r\nContent-Length: x\r\n\r\n").unwrap();
    let body = serde_json::to_string(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}})).unwrap();
    write!(s.stdin, "Content-Length: {}\r\nContent-Type: text/plain\r\n\r\n{body}", body.len()).unwrap();
    s.stdin.flush().unwrap();
    // `$/` requests are answered, `$/` notifications ignored.
    let id = s.request_id("$/unknownRequest", json!({}));
    let resp = s.response(id);
    assert!(resp.get("error").is_some(), "{resp}");
    s.notify("$/unknownNotification", json!({}));
    // Still serving: diagnostics of an opened file, then a clean shutdown.
    s.open(&uri, CALC);
    let diags = s.diagnostics(&uri, Some(1));
    assert!(diags.iter().any(|d| d["range"]["start"]["line"] == DEAD_LINE), "{diags:?}");
    s.shutdown_and_exit();
}

#[test]
fn a_slow_check_publishes_what_it_knows_with_progress() {
    // `f` is 4,000 branches long and asks the solver a question it cannot answer within the 1 s
    // limit; `g` is quick and has dead code. Its finding is published while `f` is checked.
    let chain: String = (0..4000).map(|i| format!("        if (x == {i}) {{ y += {}; }}\n", i % 7)).collect();
    let src = format!(
        "package demo;\n\npublic class Calc {{\n    static int f(int x) {{\n        int y = 0;\n{chain}        if (y > 100000) {{ return -1; }}\n        return y;\n    }}\n    static int g(int a) {{\n        if (a > 3) {{\n            if (a < 2) {{\n                return 1;\n            }}\n        }}\n        return 0;\n    }}\n}}\n"
    );
    let g_dead = src.lines().position(|l| l.contains("return 1;")).unwrap();
    let project = Project::new(&src);
    let mut s = Server::start();
    s.initialize(project.root(), json!({"timeout": 1, "workspaceDiagnostics": false}));
    let uri = project.uri();
    s.open(&uri, &src);
    // Everything up to the end of the check's progress report, in order.
    let mut seen = Vec::new();
    let deadline = Instant::now() + WAIT;
    while let Some(m) = s.recv(deadline) {
        let end = m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end";
        seen.push(m);
        if end {
            break;
        }
    }
    let kind = |m: &Value| m["params"]["value"]["kind"].as_str().map(str::to_string);
    let begin = seen.iter().position(|m| m["method"] == "$/progress" && kind(m).as_deref() == Some("begin"));
    let begin = begin.unwrap_or_else(|| panic!("no progress began: {seen:#?}"));
    assert_eq!(seen[begin]["params"]["value"]["title"], "jreach: checking Calc.java");
    let publishes: Vec<usize> = (0..seen.len())
        .filter(|&i| seen[i]["method"] == "textDocument/publishDiagnostics" && seen[i]["params"]["version"] == 1)
        .collect();
    assert!(publishes.len() >= 2, "a partial and the final diagnostics: {seen:#?}");
    let shows_g = |i: usize| {
        seen[i]["params"]["diagnostics"].as_array().unwrap().iter().any(|d| d["range"]["start"]["line"] == g_dead)
    };
    assert!(shows_g(publishes[0]) && shows_g(*publishes.last().unwrap()), "{seen:#?}");
    assert!(
        seen.iter().any(|m| kind(m).as_deref() == Some("report")
            && m["params"]["value"]["message"].as_str().is_some_and(|t| t.ends_with("of 2 methods"))),
        "{seen:#?}"
    );
    s.shutdown_and_exit();
}
