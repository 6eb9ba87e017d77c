//! Generated tests are safe to run in a build: no test is written whose run would end the JVM of
//! the test run (`System.exit`, `Runtime.halt`, also when the call is in code jreach does not
//! model and the test catches the runner's refusal), a line after such a call gets no test and no
//! "unreachable" claim, and every test carries a time limit. The runs on the JVM need a JDK, ASM
//! and JUnit 5 (Debian: `default-jdk-headless libasm-java junit5`).

use std::path::{Path, PathBuf};
use std::process::Command;

const QUIT: &str = r#"package p;

public class Quit {
    static final Runnable STOP = () -> System.exit(7);

    public static int unseen(int x) {
        if (x > 3) {
            x = x + 1;
        }
        STOP.run();
        return x;
    }

    public static int exits(int x) {
        if (x > 3) {
            x = x + 1;
        }
        System.exit(3);
        return x;
    }

    public static int halts(int x) {
        if (x > 3) {
            x = x + 1;
        }
        Runtime.getRuntime().halt(2);
        return x;
    }

    public static int after(int x) {
        System.exit(3);
        if (x > 3) {
            x = x + 1;
        }
        return x;
    }

    public static int sometimes(int x) {
        if (x > 3) {
            x = x + 1;
        }
        if (x > 100) {
            System.exit(4);
        }
        return x;
    }
}
"#;

const UNSEEN_LINE: usize = 8;
const EXITS_LINE: usize = 16;
const HALTS_LINE: usize = 24;
const AFTER_LINE: usize = 33;
const SOMETIMES_LINE: usize = 40;

fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src/main/java/p/Quit.java");
    std::fs::create_dir_all(src.parent().unwrap()).unwrap();
    std::fs::write(&src, QUIT).unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    (dir, src)
}

fn gen(dir: &Path, src: &Path, line: usize, extra: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jreach"))
        .arg("gen")
        .arg(src)
        .args(["--line", &line.to_string(), "--out"])
        .arg(dir.join("tests"))
        .args(["--search", "2"])
        .args(extra)
        .env("JREACH_CACHE_DIR", dir.join("cache"))
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

fn test_file(dir: &Path) -> PathBuf {
    dir.join("tests/p/QuitTest.java")
}

#[test]
fn an_exit_in_code_jreach_does_not_model_is_caught_by_the_run_even_when_the_test_catches_it() {
    let (dir, src) = project();
    // The model cannot see into `STOP.run()`: its test catches what the call throws, so the
    // runner's refusal of `System.exit` would be swallowed and the test would pass there. In a
    // build, the same test ends the JVM.
    let (code, text) = gen(dir.path(), &src, UNSEEN_LINE, &[]);
    assert_eq!(code, 4, "{text}");
    assert!(text.contains("System.exit(7)") && text.contains("end the JVM"), "{text}");
    assert!(!test_file(dir.path()).exists(), "a test was written:\n{text}");
}

#[test]
fn no_test_for_a_line_followed_by_a_call_that_ends_the_jvm_even_without_running_it() {
    let (dir, src) = project();
    for (line, call) in [(EXITS_LINE, "System.exit(3)"), (HALTS_LINE, "Runtime.getRuntime().halt(2)")] {
        for extra in [&["--no-run"][..], &[]] {
            let (code, text) = gen(dir.path(), &src, line, extra);
            assert_eq!(code, 4, "line {line} {extra:?}: {text}");
            assert!(text.contains(call) && text.contains("end the JVM"), "line {line} {extra:?}: {text}");
            assert!(!test_file(dir.path()).exists(), "line {line} {extra:?}: a test was written:\n{text}");
        }
    }
}

#[test]
fn a_line_after_system_exit_gets_neither_a_test_nor_a_claim() {
    let (dir, src) = project();
    let (code, text) = gen(dir.path(), &src, AFTER_LINE, &["--no-run"]);
    assert_eq!(code, 4, "{text}");
    assert!(text.contains("System.exit(3)"), "{text}");
    assert!(!test_file(dir.path()).exists(), "a test was written:\n{text}");
}

#[test]
fn inputs_that_avoid_the_exit_still_give_a_test_with_a_time_limit() {
    let (dir, src) = project();
    let (code, text) = gen(dir.path(), &src, SOMETIMES_LINE, &[]);
    assert_eq!(code, 0, "{text}");
    let test = std::fs::read_to_string(test_file(dir.path())).unwrap();
    assert!(test.contains("@Timeout(30)") && test.contains("import org.junit.jupiter.api.Timeout;"), "{test}");
    // The call's argument keeps the run away from `System.exit(4)`.
    let arg: i64 = test
        .split("Quit.sometimes(")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no call with a literal argument:\n{test}"));
    assert!(arg > 3 && arg < 100, "{test}");

    let (dir, src) = project();
    let (code, text) = gen(dir.path(), &src, SOMETIMES_LINE, &["--junit", "4", "--no-run"]);
    assert_eq!(code, 0, "{text}");
    let test = std::fs::read_to_string(test_file(dir.path())).unwrap();
    assert!(test.contains("@Test(timeout = 30000L)"), "{test}");
}
