//! Asking `gen` again for a line it wrote a test for adds nothing: the test class has that test
//! (the same statements), which `gen` names instead of appending a copy as `..._2`. Other
//! inputs for the same line are a new test.

use std::path::Path;
use std::process::Command;

const SRC: &str = "package p;

public class Grade {
    public static int of(int score) {
        if (score > 90) {
            return 1;
        }
        return 0;
    }
}
";

fn gen(dir: &Path, line: &str) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jreach"))
        .current_dir(dir)
        .args(["gen", "Grade.java", "--line", line, "--out", "out", "--no-run"])
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn the_same_test_is_not_added_twice() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Grade.java"), SRC).unwrap();
    let test = dir.path().join("out/p/GradeTest.java");
    let (code, _, err) = gen(dir.path(), "6");
    assert_eq!(code, 0, "{err}");
    let first = std::fs::read_to_string(&test).unwrap();
    assert_eq!(first.matches("@Test").count(), 1, "{first}");

    let (code, out, err) = gen(dir.path(), "6");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), test.strip_prefix(dir.path()).unwrap().to_str().unwrap(), "{err}");
    assert!(err.contains("(of_returns1) already reaches") && err.contains("nothing added"), "{err}");
    assert_eq!(std::fs::read_to_string(&test).unwrap(), first, "the file is unchanged");

    // Another line is another test.
    let (code, _, err) = gen(dir.path(), "8");
    assert_eq!(code, 0, "{err}");
    let both = std::fs::read_to_string(&test).unwrap();
    assert_eq!(both.matches("@Test").count(), 2);
    // Named by what the statement does, the comment naming its line and method.
    assert!(both.contains("void of_returns0()") && both.contains("// Reaches line 8 in of(int): return 0;"), "{both}");
}
