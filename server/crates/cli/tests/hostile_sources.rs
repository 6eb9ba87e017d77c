//! Source files shaped to break a tool that recurses over the syntax tree or allocates what the
//! input says: huge literals, deep nesting of parentheses, blocks and `!`, a long string literal,
//! an array whose length the solver may pick. `check`, `gen` and the language server answer
//! each one and stay up (they once overflowed their stack, aborted on a 60 GB allocation, or
//! grew past 20 GB inside z3).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[path = "support/lsp_wire.rs"]
mod lsp_wire;

fn frame(stdin: &mut impl std::io::Write, msg: Value) {
    lsp_wire::write_frame(stdin, msg.to_string().as_bytes()).unwrap();
}

fn class(name: &str, body: &str) -> String {
    format!("public class {name} {{\n{body}\n}}\n")
}

/// (class name, source) of every hostile shape.
fn shapes() -> Vec<(&'static str, String)> {
    let literal: Vec<String> = (0..40_000).map(|i| (i % 7).to_string()).collect();
    let ifs = 300;
    vec![
        (
            "Literal",
            class(
                "Literal",
                &format!(
                    "    static int f(int x) {{\n        int[] a = {{{}}};\n        if (x > a.length) {{\n            return 1;\n        }}\n        return a[0];\n    }}",
                    literal.join(", ")
                ),
            ),
        ),
        (
            "Parens",
            class(
                "Parens",
                &format!("    static int f(int x) {{\n        int y = {}x{};\n        return y;\n    }}", "(".repeat(50_000), ")".repeat(50_000)),
            ),
        ),
        ("Nots", class("Nots", &format!("    static boolean f(boolean b) {{\n        return {}b;\n    }}", "!".repeat(20_000)))),
        (
            "Blocks",
            class("Blocks", &format!("    static int f(int x) {{\n{}x++;{}\n        return x;\n    }}", "{".repeat(5_000), "}".repeat(5_000))),
        ),
        (
            "Ifs",
            class(
                "Ifs",
                &format!(
                    "    static int f(int x) {{\n{}        x = 0;\n{}        return x;\n    }}",
                    (0..ifs).map(|i| format!("        if (x > {i}) {{\n")).collect::<String>(),
                    "        }\n".repeat(ifs)
                ),
            ),
        ),
        (
            "Text",
            class(
                "Text",
                &format!(
                    "    static int f(String s) {{\n        String t = \"{}\";\n        if (s.equals(t)) {{\n            return 1;\n        }}\n        return 0;\n    }}",
                    "ab".repeat(100_000)
                ),
            ),
        ),
        (
            "Alloc",
            class(
                "Alloc",
                "    static int f(int n) {\n        int[] a = new int[Math.max(n, 0)];\n        if (n > 1_500_000_000) {\n            return a.length;\n        }\n        return 0;\n    }",
            ),
        ),
    ]
}

fn jreach() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jreach"))
}

#[test]
fn check_answers_every_hostile_file() {
    let dir = tempfile::tempdir().unwrap();
    for (name, src) in shapes() {
        let path = dir.path().join(format!("{name}.java"));
        std::fs::write(&path, &src).unwrap();
        let started = Instant::now();
        let out = jreach().arg("check").arg(&path).output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{name}: {:?}\n{text}", out.status);
        assert!(text.contains("1 files") && text.contains("1 methods"), "{name}: {text}");
        eprintln!("{name}: check in {:?}", started.elapsed());
    }
}

#[test]
fn gen_on_an_array_the_solver_may_make_huge_does_not_abort() {
    let dir = tempfile::tempdir().unwrap();
    let (_, src) = shapes().into_iter().find(|(n, _)| *n == "Alloc").unwrap();
    let path = dir.path().join("Alloc.java");
    std::fs::write(&path, src).unwrap();
    for line in ["3", "5"] {
        let out = jreach()
            .args(["gen", "--no-run", "--line", line, "--out"])
            .arg(dir.path().join("out"))
            .arg(&path)
            .output()
            .unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(matches!(out.status.code(), Some(0 | 4)), "line {line}: {:?}\n{text}", out.status);
    }
}

#[test]
fn the_server_publishes_diagnostics_for_every_hostile_file_and_stays_up() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = jreach().arg("lsp").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let rx = lsp_wire::read_all(child.stdout.take().unwrap());
    let root = format!("file://{}", dir.path().display());
    frame(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"processId": null, "rootUri": root, "capabilities": {}}}),
    );
    frame(&mut stdin, json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    let wait = |pred: &dyn Fn(&Value) -> bool, what: &str| {
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(m) if pred(&m) => return m,
                Ok(_) => {}
                Err(e) => panic!("no {what}: {e}"),
            }
        }
    };
    wait(&|m| m["id"] == 1, "answer to initialize");
    for (name, src) in shapes() {
        let path = dir.path().join(format!("{name}.java"));
        std::fs::write(&path, &src).unwrap();
        let uri = format!("file://{}", Path::new(&path).display());
        frame(
            &mut stdin,
            json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                   "params": {"textDocument": {"uri": uri, "languageId": "java", "version": 1, "text": src}}}),
        );
        wait(
            &|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri.as_str(),
            &format!("diagnostics of {name}"),
        );
        assert!(child.try_wait().unwrap().is_none(), "the server exited after opening {name}");
    }
    frame(&mut stdin, json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    wait(&|m| m["id"] == 2, "answer to shutdown");
    frame(&mut stdin, json!({"jsonrpc": "2.0", "method": "exit"}));
    drop(stdin);
    assert!(child.wait().unwrap().success());
}
