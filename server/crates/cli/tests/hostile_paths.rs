//! The command line against paths and names crafted to make it read forever or write where it
//! should not: a package declaration that spells a path out of the test folder, a FIFO or a link to
//! `/dev/zero` named like a Java file, a symbolic link that loops back up the tree. Each run has a
//! deadline: a command that hangs fails the test instead of hanging the suite.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const METHOD: &str =
    "public class P {\n  static int f(int x) {\n    if (x > 3) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";

/// Runs jreach with `args` in `dir`, killing it after `limit`: (exit code, stdout + stderr).
fn jreach(dir: &Path, args: &[&str], limit: Duration) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jreach"))
        .args(args)
        .current_dir(dir)
        .env("JREACH_CACHE_DIR", dir.join(".cache"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("jreach starts");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "jreach {args:?} still ran after {limit:?}:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// Every file and folder under `root`, relative to it, sorted.
fn listing(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p: PathBuf = e.unwrap().path();
            out.push(p.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            if p.symlink_metadata().unwrap().is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_package_that_spells_a_path_gets_no_test_and_nothing_is_written() {
    let outside = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    // `/` and `..` are no part of a package name; the absolute part once replaced the test root.
    let escape = format!("a/..{}/escaped", outside.path().display());
    std::fs::write(work.path().join("P.java"), format!("package {escape};\n{METHOD}")).unwrap();
    let (code, text) = jreach(work.path(), &["gen", "P.java", "--line", "5", "--out", "out"], Duration::from_secs(120));
    assert_ne!(code, 0, "{text}");
    assert!(text.contains("is not a Java package name"), "{text}");
    assert_eq!(listing(outside.path()), Vec::<String>::new(), "nothing outside: {text}");
    assert!(!work.path().join("out").exists(), "no test folder either: {text}");
}

#[test]
fn a_fifo_or_device_named_like_java_is_refused_at_once() {
    let work = tempfile::tempdir().unwrap();
    let fifo = work.path().join("X.java");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo (coreutils) runs").success());
    std::os::unix::fs::symlink("/dev/zero", work.path().join("Z.java")).unwrap();
    for file in ["X.java", "Z.java"] {
        let (code, text) = jreach(work.path(), &["gen", file, "--line", "1"], Duration::from_secs(60));
        assert_eq!(code, 2, "{text}");
        assert!(text.contains("not a regular file"), "{text}");
    }
}

#[test]
fn check_walks_a_tree_with_a_fifo_a_device_and_a_link_loop_and_finishes() {
    let work = tempfile::tempdir().unwrap();
    let src = work.path().join("src/p");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("P.java"), format!("package p;\n{METHOD}")).unwrap();
    assert!(Command::new("mkfifo").arg(src.join("X.java")).status().unwrap().success());
    std::os::unix::fs::symlink("/dev/zero", src.join("Z.java")).unwrap();
    std::os::unix::fs::symlink("..", src.join("loop")).unwrap();
    let (code, text) = jreach(work.path(), &["check", "src"], Duration::from_secs(120));
    assert_eq!(code, 1, "files were skipped: {text}");
    assert!(text.contains("error: skipped src/p/X.java: not a regular file"), "{text}");
    assert!(text.contains("error: skipped src/p/Z.java: not a regular file"), "{text}");
    assert!(text.contains("3 files (9 lines), 1 methods"), "P.java is walked once, not again through the loop: {text}");
}
