//! Shapes whose cost once grew faster than their size: 3,000 nested classes (each class walked up
//! to the root: the depth cubed) and a `switch` of 1,000 cases (one solver question per case,
//! which ran the method out of its budget). Both must now get a verdict within the default
//! budgets; the times themselves are measured by `scripts/bench.sh`, not here. `--timings` says
//! where a check's time went, and the results cache spares a second run the files it has seen.

use std::process::Command;

fn check(dir: &std::path::Path, file: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jreach")).arg("check").arg(dir.join(file)).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn three_thousand_nested_classes_get_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let depth = 3000;
    let mut s = String::from("public class Nest0 {\n");
    for i in 1..depth {
        s.push_str(&format!("static class Nest{i} {{\n"));
    }
    s.push_str("static int f(int x) { if (x > 3) { if (x < 2) { return 7; } return 1; } return 0; }\n");
    s.push_str(&"}\n".repeat(depth));
    std::fs::write(dir.path().join("Nest0.java"), s).unwrap();
    let (code, text) = check(dir.path(), "Nest0.java");
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("0 methods without a verdict"), "{text}");
    assert!(text.contains(&format!("Nest0.java:{}:", depth + 1)) && text.contains("unreachable code"), "{text}");
}

#[test]
fn a_thousand_case_switch_gets_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let cases: String = (0..1000).map(|i| format!("            case {i}: r = {}; break;\n", i * 7 % 13)).collect();
    let s = format!(
        "public class Switch1000 {{\n    static int f(int x) {{\n        int r = -1;\n        switch (x) {{\n{cases}\
         \x20           default: r = -2;\n        }}\n        if (r == 99) {{\n            return 1;\n        }}\n\
         \x20       return r;\n    }}\n}}\n"
    );
    std::fs::write(dir.path().join("Switch1000.java"), s).unwrap();
    let (code, text) = check(dir.path(), "Switch1000.java");
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("0 methods without a verdict"), "{text}");
    assert!(text.contains("Switch1000.java:1008:") && text.contains("unreachable code"), "{text}");
}

#[test]
fn timings_name_the_phases_and_the_slowest_methods() {
    let dir = tempfile::tempdir().unwrap();
    let src = "public class Timed {\n    static int f(int x) {\n        if (x > 3) { if (x < 2) { return 7; } return 1; }\n        return 0;\n    }\n    static int g(String s) {\n        return s.isEmpty() ? 0 : 1;\n    }\n}\n";
    std::fs::write(dir.path().join("Timed.java"), src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_jreach"))
        .args(["check", "--timings", "--no-cache"])
        .arg(dir.path().join("Timed.java"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("(2 methods, "), "{err}");
    for phase in
        ["parsing", "class tables", "lowering", "encoding", "concrete runs", "reach queries", "explain queries"]
    {
        assert!(err.lines().any(|l| l.trim_start().starts_with(phase)), "no {phase} line: {err}");
    }
    // `f`'s dead return is proved by the solver (an unsat answer), and explained.
    let reach = err.lines().find(|l| l.contains("reach queries")).unwrap();
    assert!(!reach.contains(" 0 unsat"), "{reach}");
    let slow: Vec<&str> = err.lines().skip_while(|l| !l.contains("slowest methods")).skip(1).collect();
    assert_eq!(slow.len(), 2, "{err}");
    assert!(slow.iter().any(|l| l.contains("Timed.java:2 f(int)")), "{err}");
    // Without the flag, none of it.
    let out =
        Command::new(env!("CARGO_BIN_EXE_jreach")).arg("check").arg(dir.path().join("Timed.java")).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("timings:"));
}

#[test]
fn a_second_run_reads_unchanged_files_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let src = "public class Cached {\n    static int f(int x) {\n        if (x > 3) { if (x < 2) { return 7; } return 1; }\n        return 0;\n    }\n}\n";
    std::fs::write(dir.path().join("Cached.java"), src).unwrap();
    std::fs::write(dir.path().join("Other.java"), src.replace("Cached", "Other")).unwrap();
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_jreach")).arg("check").args(extra).arg(dir.path()).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        (String::from_utf8_lossy(&out.stdout).to_string(), String::from_utf8_lossy(&out.stderr).to_string())
    };
    let with_cache = ["--cache-dir", cache.to_str().unwrap()];
    let (first, err) = run(&with_cache);
    assert!(first.contains("Cached.java:3:") && !err.contains("cached"), "{first}{err}");
    let (second, err) = run(&with_cache);
    assert_eq!(second, first);
    assert!(err.contains("2 of 2 files unchanged since a checked run (cached)"), "{err}");
    // An edited file is checked again; the other one still comes from the cache.
    std::fs::write(dir.path().join("Cached.java"), src.replace("x < 2", "x < 5")).unwrap();
    let (third, err) = run(&with_cache);
    assert!(!third.contains("Cached.java:3:") && third.contains("Other.java:3:"), "{third}");
    assert!(err.contains("1 of 2 files unchanged"), "{err}");
    // Another time limit is another engine's answer.
    let (_, err) = run(&["--cache-dir", cache.to_str().unwrap(), "--timeout", "5"]);
    assert!(!err.contains("cached"), "{err}");
    // `--no-cache` neither reads nor writes.
    let (_, err) = run(&["--no-cache"]);
    assert!(!err.contains("cached"), "{err}");
}

#[test]
fn a_result_a_time_out_left_undecided_is_not_kept_for_the_next_run() {
    // No two doubles are each three times the other, which z3 does not prove within a second:
    // a less busy machine, or a longer limit, may; the next run asks again.
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let src = "public class Thirds {\n    static int f(double x, double y) {\n        if (x / y == 3.0 && y / x == 3.0) {\n            return 1;\n        }\n        return 0;\n    }\n}\n";
    std::fs::write(dir.path().join("Thirds.java"), src).unwrap();
    let run = || {
        let out = Command::new(env!("CARGO_BIN_EXE_jreach"))
            .args(["check", "--timeout", "1", "--cache-dir", cache.to_str().unwrap()])
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let first = run();
    assert!(first.contains("1 methods without a verdict"), "{first}");
    let second = run();
    assert!(!second.contains("cached"), "{second}");
}
