//! The JVM runner on the real JDK: line probes, failures, `System.exit`, endless loops, compile
//! errors and missing annotation packages. Needs a JDK, ASM and JUnit 5 (Debian:
//! `default-jdk-headless libasm-java junit5`); `scripts/setup.sh` installs them.

use std::path::PathBuf;

use jreach_jvm::{Jdk, RunRequest, RunStatus, Runner, SourceText};

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    cache: PathBuf,
    jdk: Jdk,
}

fn fixture(files: &[(&str, &str)]) -> Fixture {
    let jdk = Jdk::find().unwrap_or_else(|e| panic!("these tests run Java: {e}"));
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("src");
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let cache = dir.path().join("cache");
    Fixture { _dir: dir, root, cache, jdk }
}

impl Fixture {
    fn runner(&self) -> Runner {
        Runner::new(self.jdk.clone(), &self.cache).unwrap()
    }

    fn request(&self, test: &str, timeout_ms: u64) -> RunRequest {
        RunRequest {
            source_roots: vec![self.root.clone()],
            classpath: self.jdk.junit.clone(),
            cache_dir: self.cache.join("classes"),
            sources: vec![SourceText { path: "p/ATest.java".into(), text: test.into() }],
            test_class: "p.ATest".into(),
            test_method: "t".into(),
            timeout_ms,
        }
    }
}

const A: &str = "package p;

public class A {
    public static int f(int x) {
        int y = g(x);
        return y + 1;
    }

    static int g(int x) {
        if (x == 0) {
            throw new IllegalStateException(\"zero\");
        }
        return x;
    }
}
";

fn test_calling(body: &str) -> String {
    format!(
        "package p;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n\
         class ATest {{\n    @Test\n    void t() {{\n        {body}\n    }}\n}}\n"
    )
}

#[test]
fn a_line_whose_call_throws_counts_as_run_and_the_next_does_not() {
    let fx = fixture(&[("p/A.java", A)]);
    let mut runner = fx.runner();
    let report = runner
        .run(&fx.request(&test_calling("assertThrows(IllegalStateException.class, () -> A.f(0));"), 5000))
        .unwrap();
    assert_eq!(report.status, RunStatus::Pass, "{report:?}");
    assert!(report.ran("p/A.java", 5), "the line of the throwing call: {:?}", report.lines);
    assert!(report.ran("p/A.java", 11), "the throw: {:?}", report.lines);
    assert!(!report.ran("p/A.java", 6), "after the throw: {:?}", report.lines);
    assert!(!report.ran("p/A.java", 13), "the other branch: {:?}", report.lines);
    assert!(fx.cache.join("classes/p/A.class").is_file(), "classes from the source root are kept for the next run");

    let report = runner.run(&fx.request(&test_calling("assertEquals(3, A.f(1));"), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::Fail, "{report:?}");
    assert_eq!(report.exception.as_deref(), Some("org.opentest4j.AssertionFailedError"));
    assert!(report.ran("p/A.java", 6) && report.ran("p/A.java", 13), "{:?}", report.lines);
    assert_eq!(runner.starts, 1, "one JVM for both runs");
}

#[test]
fn system_exit_is_refused_and_an_endless_loop_costs_only_its_runner() {
    let fx = fixture(&[("p/A.java", A)]);
    let mut runner = fx.runner();
    let report = runner.run(&fx.request(&test_calling("System.exit(3);"), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::Fail, "{report:?}");
    assert!(report.message.contains("System.exit(3)"), "{report:?}");

    let report = runner.run(&fx.request(&test_calling("while (A.f(1) > 0) { }"), 500)).unwrap();
    assert_eq!(report.status, RunStatus::Timeout, "{report:?}");
    let report = runner.run(&fx.request(&test_calling("assertEquals(2, A.f(1));"), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::Pass, "a fresh runner answers: {report:?}");
    assert_eq!(runner.starts, 2);
}

#[test]
fn code_that_does_not_compile_is_reported_with_javacs_message() {
    let fx = fixture(&[("p/A.java", "package p;\npublic class A {\n    int f() { return \"no\"; }\n}\n")]);
    let mut runner = fx.runner();
    let report = runner.run(&fx.request(&test_calling("new A();"), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::CompileError, "{report:?}");
    assert!(report.message.contains("A.java:3") && report.message.contains("incompatible types"), "{}", report.message);
}

#[test]
fn an_annotation_whose_package_is_missing_gets_a_stub() {
    let a = "package p;\n\nimport com.example.checks.Reviewed;\n\npublic class A {\n    \
             @Reviewed(by = \"ann\", year = 2024)\n    public static int one() {\n        return 1;\n    }\n}\n";
    // Another file gives the annotation other elements, one after a string with a parenthesis.
    let b = "package p;\n\nimport com.example.checks.Reviewed;\n\nclass B {\n    \
             @Reviewed(note = \"use f(x)\", since = \"2\", level = 3)\n    static int two() {\n        return 2;\n    }\n}\n";
    let fx = fixture(&[("p/A.java", a), ("p/B.java", b)]);
    let mut runner = fx.runner();
    let report = runner.run(&fx.request(&test_calling("assertEquals(3, A.one() + B.two());"), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::Pass, "{report:?}");
    assert!(report.ran("p/A.java", 8) && report.ran("p/B.java", 8), "{:?}", report.lines);
}

#[test]
fn a_missing_class_is_a_compile_error_not_a_stub() {
    let a = "package p;\nimport com.example.Money;\npublic class A {\n    Money m;\n}\n";
    let fx = fixture(&[("p/A.java", a)]);
    let report = fx.runner().run(&fx.request(&test_calling("new A();"), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::CompileError, "{report:?}");
    assert!(report.message.contains("com.example"), "{}", report.message);
}

#[test]
fn assertions_are_enabled_as_test_runners_enable_them() {
    let a = "package p;\npublic class A {\n    public static int f(int x) {\n        assert x > 0 : \"positive\";\n        return x;\n    }\n}\n";
    let fx = fixture(&[("p/A.java", a)]);
    let report =
        fx.runner().run(&fx.request(&test_calling("assertThrows(AssertionError.class, () -> A.f(0));"), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::Pass, "{report:?}");
    assert!(!report.ran("p/A.java", 5), "{:?}", report.lines);
}

#[test]
fn a_line_that_starts_with_new_keeps_its_frames_valid() {
    // The conditional between `new` and the constructor call makes javac write a frame that
    // names the uninitialized object by the offset of its `new`.
    let a = "package p;\npublic class A {\n    public static String f(char[] cs, int n) {\n        if (n < 0) {\n            n = 0;\n        }\n        return new String(cs, 0, n > 0 ? 1 : 0);\n    }\n}\n";
    let fx = fixture(&[("p/A.java", a)]);
    let report =
        fx.runner().run(&fx.request(&test_calling("assertEquals(\"a\", A.f(new char[] {'a'}, 1));"), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::Pass, "{report:?}");
    assert!(report.ran("p/A.java", 7), "{:?}", report.lines);
}
