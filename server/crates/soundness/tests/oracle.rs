//! The execution oracle on a tiny Java tree: a finding that is true survives the JVM, and findings
//! that wrongly claim reachable lines dead (written by hand, as a buggy `jreach check` would) are
//! reported as violations. Needs a JDK and JaCoCo (Debian `default-jdk-headless`, `libjacoco-java`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use jreach_soundness::oracle::{self, Options, Report};

const DEAD: &str = r#"package demo;

public class Dead {
    static int calls;

    public static int clamp(int x) {
        calls++;
        if (x > 5 && x < 3) {
            calls = -1;
        }
        return x;
    }
}
"#;

const LIVE: &str = r#"package demo;

import java.util.List;

public class Live {
    private final int limit;

    public Live(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit");
        }
        this.limit = limit;
    }

    public static String kind(int x, String s) {
        if (x == 42 && "go".equals(s)) {
            return "found";
        }
        return "other";
    }

    int fill(List<String> items) {
        int n = 0;
        for (String s : items) {
            if (s != null && s.length() > limit) {
                n++;
            }
        }
        return n;
    }

    public static class Inner {
        boolean isSep(char c) {
            if (c == ';') {
                return true;
            }
            return false;
        }
    }
}
"#;

/// Lines (1-based) of the statements named in a source.
fn line_of(text: &str, needle: &str) -> u32 {
    text.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("no line with `{needle}`")) as u32 + 1
}

fn require_java() {
    let missing = oracle::missing_prerequisites();
    assert!(
        missing.is_empty(),
        "the oracle test needs a JDK and JaCoCo; missing:\n  {}\ninstall the Debian packages: apt-get install {}",
        missing.join("\n  "),
        oracle::PACKAGES
    );
}

/// Writes and compiles the tree; returns (src, classes).
fn tree(root: &Path) -> (PathBuf, PathBuf) {
    let src = root.join("src");
    let classes = root.join("classes");
    fs::create_dir_all(src.join("demo")).unwrap();
    fs::create_dir_all(&classes).unwrap();
    fs::write(src.join("demo/Dead.java"), DEAD).unwrap();
    fs::write(src.join("demo/Live.java"), LIVE).unwrap();
    let out = Command::new("javac")
        .args(["-g", "-nowarn", "-d"])
        .arg(&classes)
        .arg(src.join("demo/Dead.java"))
        .arg(src.join("demo/Live.java"))
        .output()
        .expect("run javac");
    assert!(out.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&out.stderr));
    (src, classes)
}

fn options(src: &Path, classes: &Path, work: &Path, findings: Option<PathBuf>) -> Options {
    Options {
        src: src.to_path_buf(),
        classes: classes.to_path_buf(),
        findings,
        seconds: 1.0,
        seed: 7,
        timeout: Duration::from_secs(10),
        work: Some(work.to_path_buf()),
        ..Options::default()
    }
}

fn ran_lines(report: &Report, file: &str) -> Vec<u32> {
    report.violations().iter().filter(|v| v.file.ends_with(file)).map(|v| v.line).collect()
}

/// `jreach check`'s own findings on the tree: the dead line is reported, its method is driven, and
/// the JVM never runs it.
#[test]
fn a_true_finding_is_confronted_and_survives() {
    require_java();
    let tmp = tempfile::tempdir().unwrap();
    let (src, classes) = tree(tmp.path());
    let report = oracle::run(&options(&src, &classes, &tmp.path().join("work"), None)).expect("oracle runs");
    let text = report.render(&src);
    let dead_line = line_of(DEAD, "calls = -1;");
    let finding = report
        .findings
        .iter()
        .find(|f| f.confronted.source == "demo/Dead.java" && f.confronted.watched.contains(&dead_line))
        .unwrap_or_else(|| panic!("jreach check does not report Dead.java:{dead_line}:\n{text}"));
    let method = finding.confronted.method.expect("the finding's method is driven");
    let (spec, run) = &report.methods[method];
    assert_eq!((spec.class.as_str(), spec.name.as_str()), ("demo.Dead", "clamp"), "{text}");
    assert!(run.calls > 100, "clamp was hardly called:\n{text}");
    assert!(finding.analysed, "JaCoCo did not analyse Dead.java:\n{text}");
    assert!(report.problems.is_empty(), "{text}");
    assert!(report.violations().is_empty(), "the JVM refuted a finding of jreach check:\n{text}");
}

/// Hand-written findings that claim reachable lines dead (one per kind of method: static with a
/// string literal, instance with a generic list and a constructor to satisfy, a nested class
/// with a char literal) are all refuted; the true one next to them is not.
#[test]
fn wrong_findings_are_reported_as_violations() {
    require_java();
    let tmp = tempfile::tempdir().unwrap();
    let (src, classes) = tree(tmp.path());
    let dead = src.join("demo/Dead.java");
    let live = src.join("demo/Live.java");
    let stmt = |file: &Path, text: &str, needle: &str, message: &str| {
        let line = line_of(text, needle) - 1;
        let start = text.lines().nth(line as usize).unwrap().find(needle).unwrap();
        serde_json::json!({
            "file": file,
            "range": {"start": {"line": line, "character": start}, "end": {"line": line, "character": start + needle.len()}},
            "code": "unreachable-code",
            "message": message,
        })
    };
    let json = serde_json::json!({
        "diagnostics": [
            stmt(&dead, DEAD, "calls = -1;", "true: x > 5 && x < 3"),
            stmt(&live, LIVE, "return \"found\";", "wrong: needs x == 42 and s == \"go\""),
            stmt(&live, LIVE, "n++;", "wrong: needs a long string in the list"),
            stmt(&live, LIVE, "return true;", "wrong: needs c == ';'"),
            {"file": live, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 7}},
             "code": "condition-always-true", "message": "not confronted"},
        ],
        "summary": {},
    });
    let findings = tmp.path().join("check.json");
    fs::write(&findings, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let report = oracle::run(&options(&src, &classes, &tmp.path().join("work"), Some(findings))).expect("oracle runs");
    let text = report.render(&src);
    assert_eq!(report.findings.len(), 4, "{text}");
    assert_eq!(report.other_findings, 1, "{text}");
    assert_eq!(report.methods.len(), 4, "{text}");
    assert!(report.problems.is_empty(), "{text}");
    assert!(ran_lines(&report, "Dead.java").is_empty(), "the true finding was refuted:\n{text}");
    let mut refuted = ran_lines(&report, "Live.java");
    refuted.sort();
    let expected = vec![line_of(LIVE, "return \"found\";"), line_of(LIVE, "n++;"), line_of(LIVE, "return true;")];
    assert_eq!(refuted, expected, "not every wrong finding was refuted:\n{text}");
    assert!(text.contains("VIOLATION"), "{text}");
    let binary: Vec<&str> = report.methods.iter().map(|(m, _)| m.class.as_str()).collect();
    assert!(binary.contains(&"demo.Live$Inner"), "{binary:?}");

    // The binary says the same, with exit status 1.
    let out = Command::new(env!("CARGO_BIN_EXE_jreach-soundness"))
        .arg("oracle")
        .arg("--src")
        .arg(&src)
        .arg("--classes")
        .arg(&classes)
        .arg("--findings")
        .arg(tmp.path().join("check.json"))
        .args(["--seconds", "2", "--work"])
        .arg(tmp.path().join("work-bin"))
        .output()
        .expect("run jreach-soundness");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.matches("VIOLATION ").count(), 3, "{stdout}");
}
