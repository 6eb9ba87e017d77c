//! Honesty of generated tests on code jreach does not model (`tests/fixtures/java/projects/shop`):
//! the checkout calls `CouponParser.discountCents` from a jar jreach cannot see, which throws for
//! the coupon the model picks. No test for the line after it is written unless a run shows it
//! runs the line; a test that is written runs its line under JaCoCo too. A PIN checked against
//! what the jar computes is found by concolic rounds. Needs a JDK, ASM, JUnit 5
//! and JaCoCo (Debian: `default-jdk-headless libasm-java junit5 libjacoco-java`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").canonicalize().unwrap()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

fn ok(cmd: &mut Command, what: &str) -> Output {
    let out =
        cmd.output().unwrap_or_else(|e| panic!("{what}: {e} (install a JDK: apt-get install default-jdk-headless)"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The shop, with `lib/coupons.jar` built from `coupons-src/`, in a fresh folder.
fn shop() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let shop = dir.path().join("shop");
    copy_dir(&repo_root().join("tests/fixtures/java/projects/shop"), &shop);
    let _ = std::fs::remove_dir_all(shop.join("lib"));
    let classes = dir.path().join("coupon-classes");
    ok(
        Command::new("javac").arg("-d").arg(&classes).arg(shop.join("coupons-src/coupons/CouponParser.java")),
        "javac CouponParser",
    );
    std::fs::create_dir_all(shop.join("lib")).unwrap();
    ok(
        Command::new("jar").arg("cf").arg(shop.join("lib/coupons.jar")).arg("-C").arg(&classes).arg("."),
        "jar coupons.jar",
    );
    (dir, shop)
}

fn gen(dir: &Path, shop: &Path, line: usize, extra: &[&str], path_env: Option<&str>) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_jreach"));
    cmd.arg("gen")
        .arg(shop.join("src/main/java/shop/Checkout.java"))
        .args(["--line", &line.to_string(), "--out"])
        .arg(dir.join("tests"))
        .args(extra)
        .env("JREACH_CACHE_DIR", dir.join("cache"));
    if let Some(p) = path_env {
        cmd.env("PATH", p).env_remove("JAVA_HOME");
    }
    let out = cmd.output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

const VIP_LINE: usize = 20;
const ORDERS_LINE: usize = 17;

#[test]
fn no_test_claims_a_line_that_a_throwing_unseen_call_keeps_from_running() {
    let (dir, shop) = shop();
    // Without the search on the JVM, the model's test (an empty coupon) is run, fails before
    // the line, and is not offered.
    let (code, text) = gen(dir.path(), &shop, VIP_LINE, &["--search", "0"], None);
    assert_eq!(code, 4, "unknown, not a test: {text}");
    assert!(text.contains("fails on the JVM before line 20") && text.contains("not a coupon"), "{text}");
    assert!(!dir.path().join("tests").exists(), "nothing written: {text}");

    let (code, text) = gen(dir.path(), &shop, VIP_LINE, &["--no-run"], None);
    assert_eq!(code, 4, "{text}");
    assert!(text.contains("does not model") && text.contains("CouponParser.discountCents"), "{text}");

    // No JDK: the same honest answer, and the reason it was not run.
    let (code, text) = gen(dir.path(), &shop, VIP_LINE, &[], Some("/nonexistent"));
    assert_eq!(code, 4, "{text}");
    assert!(text.contains("missing a JDK"), "{text}");
}

#[test]
fn a_written_test_runs_its_line_under_jacoco() {
    let (dir, shop) = shop();
    let (code, text) = gen(dir.path(), &shop, ORDERS_LINE, &["--search", "0"], None);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("checked on the JVM"), "{text}");
    let test = dir.path().join("tests/shop/CheckoutTest.java");
    assert!(test.is_file(), "{text}");
    let lines = lines_run(dir.path(), &shop, &test);
    assert!(lines.contains(&ORDERS_LINE), "line {ORDERS_LINE} ran: {lines:?}");
    assert!(!lines.contains(&VIP_LINE), "the VIP line did not: {lines:?}");
}

#[test]
fn the_search_on_the_jvm_finds_a_coupon_the_unseen_parser_accepts() {
    let (dir, shop) = shop();
    let (code, text) = gen(dir.path(), &shop, VIP_LINE, &[], None);
    assert_eq!(code, 0, "a test: {text}");
    assert!(text.contains("checked on the JVM"), "{text}");
    let test = dir.path().join("tests/shop/CheckoutTest.java");
    let written = std::fs::read_to_string(&test).unwrap();
    // The parser's one constant, "SAVE", found in its class file, with a digit after it.
    assert!(written.contains("\"SAVE"), "{written}");
    // What the JVM returned is asserted, not swallowed.
    assert!(written.contains("assertEquals(") && !written.contains("catch"), "{written}");
    let lines = lines_run(dir.path(), &shop, &test);
    assert!(lines.contains(&VIP_LINE), "line {VIP_LINE} ran: {lines:?}");
}

const REDEEM_LINE: usize = 29;

#[test]
fn concolic_rounds_solve_with_what_an_unseen_call_returned() {
    // `redeem` compares a PIN with the checksum of a constant card computed in the jar jreach
    // cannot see: the model guesses the checksum, a run on the JVM shows it, and the next query
    // solves the PIN for it (a search over the PIN alone does not find the one value that works).
    let (dir, shop) = shop();
    let (code, text) = gen(dir.path(), &shop, REDEEM_LINE, &[], None);
    assert_eq!(code, 0, "a test: {text}");
    assert!(text.contains("checked on the JVM"), "{text}");
    let test = dir.path().join("tests/shop/CheckoutTest.java");
    let written = std::fs::read_to_string(&test).unwrap();
    assert!(written.contains("assertEquals(\"redeemed\", obj.redeem("), "{written}");
    let lines = lines_run(dir.path(), &shop, &test);
    assert!(lines.contains(&REDEEM_LINE), "line {REDEEM_LINE} ran: {lines:?}");
    // With runs off, no rounds: the honest unknown names the call.
    let (code, text) = gen(dir.path(), &shop, REDEEM_LINE, &["--search", "0"], None);
    assert_eq!(code, 4, "{text}");
    assert!(text.contains("CouponParser.checksum"), "{text}");
}

/// Compiles the shop and `test`, runs the test under JaCoCo and returns the lines of
/// `Checkout.java` that ran.
fn lines_run(dir: &Path, shop: &Path, test: &Path) -> Vec<usize> {
    let share = Path::new("/usr/share/java");
    let jar = |n: &str| share.join(n);
    let junit = jar("junit-platform-console-standalone.jar");
    for j in [&junit, &jar("org.jacoco.agent.jar")] {
        assert!(j.is_file(), "{} is missing: apt-get install junit5 libjacoco-java", j.display());
    }
    // The agent jar proper ships inside Debian's org.jacoco.agent.jar.
    ok(
        Command::new("jar").arg("xf").arg(jar("org.jacoco.agent.jar")).arg("jacocoagent.jar").current_dir(dir),
        "unpack jacocoagent.jar",
    );
    let agent = dir.join("jacocoagent.jar");
    let classes = dir.join("classes");
    let coupons = shop.join("lib/coupons.jar");
    let cp = |parts: &[&Path]| std::env::join_paths(parts).unwrap();
    let sources: Vec<PathBuf> =
        ["Checkout.java", "Customer.java"].iter().map(|f| shop.join("src/main/java/shop").join(f)).collect();
    ok(
        Command::new("javac")
            .arg("-g")
            .arg("-d")
            .arg(&classes)
            .arg("-cp")
            .arg(cp(&[&coupons, &junit]))
            .args(&sources)
            .arg(test),
        "javac shop + test",
    );
    let exec = dir.join("jacoco.exec");
    ok(
        Command::new("java")
            .arg(format!("-javaagent:{}=destfile={}", agent.display(), exec.display()))
            .arg("-jar")
            .arg(&junit)
            .arg("--class-path")
            .arg(cp(&[&classes, &coupons]))
            .arg("--select-class")
            .arg("shop.CheckoutTest")
            .arg("--fail-if-no-tests"),
        "JUnit run of the written test",
    );
    let support = dir.join("support");
    let core = [jar("org.jacoco.core.jar"), jar("asm.jar"), jar("asm-commons.jar"), jar("asm-tree.jar")];
    let core_cp: Vec<&Path> = core.iter().map(PathBuf::as_path).collect();
    ok(
        Command::new("javac")
            .arg("-d")
            .arg(&support)
            .arg("-cp")
            .arg(cp(&core_cp))
            .arg(repo_root().join("tests/support/LineCoverage.java")),
        "javac LineCoverage",
    );
    let mut cov_cp = core_cp.clone();
    cov_cp.push(&support);
    let out = ok(
        Command::new("java").arg("-cp").arg(cp(&cov_cp)).arg("LineCoverage").arg(&exec).arg(&classes),
        "LineCoverage",
    );
    let report = String::from_utf8_lossy(&out.stdout);
    report
        .lines()
        .find_map(|l| l.strip_prefix("shop/Checkout.java:"))
        .unwrap_or_else(|| panic!("no coverage of Checkout.java: {report}"))
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect()
}

#[test]
fn a_line_whose_call_always_throws_gets_no_test() {
    // The model knows `go` throws, so its test expects the exception; on the JVM the line
    // starts but never runs to its end, and coverage tools do not count it: no test is offered.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src/main/java/p/T.java");
    std::fs::create_dir_all(src.parent().unwrap()).unwrap();
    std::fs::write(
        &src,
        "package p;\n\npublic class T {\n    public static int f(int x) {\n        int y = go(x) + 1;\n        return y;\n    }\n\n    static int go(int x) {\n        throw new IllegalStateException(\"always\");\n    }\n}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_jreach"))
        .arg("gen")
        .arg(&src)
        .args(["--line", "5", "--out"])
        .arg(dir.path().join("tests"))
        .env("JREACH_CACHE_DIR", dir.path().join("cache"))
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(4), "unknown, not a test: {text}");
    assert!(text.contains("an exception comes before coverage tools count it as run"), "{text}");
    assert!(!dir.path().join("tests").exists(), "nothing written: {text}");
}
