//! The JVM runner on the real JDK: line probes, failures, `System.exit`, endless loops, compile
//! errors and missing annotation packages. Needs a JDK, ASM and JUnit 5 (Debian:
//! `default-jdk-headless libasm-java junit5`); `scripts/setup.sh` installs them.

use std::path::PathBuf;

use jreach_jvm::{Jdk, RunRequest, RunStatus, Runner, SearchRequest, SearchStatus, SourceText};

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
            observe_calls: None,
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

    static int h(int[] a) {
        int s = 2;
        s = s + a.length;
        return s;
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
    // Started is not completed: the line of the throwing call never ran to its end (JaCoCo does
    // not count it); the condition before the throw and the throw itself did.
    assert!(!report.completed("p/A.java", 5), "the line of the throwing call: {:?}", report.completed);
    assert!(report.completed("p/A.java", 10) && report.completed("p/A.java", 11), "{:?}", report.completed);
    assert!(fx.cache.join("classes/p/A.class").is_file(), "classes from the source root are kept for the next run");

    let report = runner.run(&fx.request(&test_calling("assertEquals(3, A.f(1));"), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::Fail, "{report:?}");
    assert_eq!(report.exception.as_deref(), Some("org.opentest4j.AssertionFailedError"));
    assert!(report.ran("p/A.java", 6) && report.ran("p/A.java", 13), "{:?}", report.lines);
    let all = |ls: &[usize]| ls.iter().all(|l| report.completed("p/A.java", *l));
    assert!(all(&[5, 6, 10, 13]), "every line that ran also completed: {:?}", report.completed);
    assert_eq!(runner.starts, 1, "one JVM for both runs");
}

#[test]
fn observed_calls_report_what_they_returned_in_order() {
    let fx = fixture(&[(
        "p/B.java",
        "package p;\n\npublic class B {\n    public static long f(String s, char c) {\n        int n = s\n            .indexOf(c);\n        long m = Long.reverse(n);\n        String t = s.substring(n).trim();\n        return m + t.length() + Math.max(n, 0) + (s.isEmpty() ? 1 : 0) + new StringBuilder().append(s).toString().length();\n    }\n}\n",
    )]);
    let mut runner = fx.runner();
    let test = "package p;\nimport org.junit.jupiter.api.Test;\nclass ATest {\n    @Test\n    void t() {\n        B.f(\"ab c\", 'c');\n    }\n}\n";
    let mut req = fx.request(test, 5000);
    let plain = runner.run(&req).unwrap();
    assert!(plain.calls.is_empty(), "nothing observed unless asked: {:?}", plain.calls);
    req.observe_calls = Some("p/B.java".into());
    let report = runner.run(&req).unwrap();
    assert_eq!(report.status, RunStatus::Pass, "{report:?}");
    let seen: Vec<(usize, &str, &serde_json::Value)> =
        report.calls.iter().map(|c| (c.line, c.name.as_str(), &c.value)).collect();
    // The line of a call is the line of its `(`; values in the order the calls returned.
    assert_eq!(seen[0], (6, "indexOf", &serde_json::json!(3)), "{seen:?}");
    assert_eq!(seen[1], (7, "reverse", &serde_json::json!(Long::reverse(3))), "{seen:?}");
    assert_eq!(seen[2], (8, "substring", &serde_json::json!("c")), "{seen:?}");
    assert_eq!(seen[3], (8, "trim", &serde_json::json!("c")), "{seen:?}");
    assert!(seen.iter().any(|c| c.1 == "isEmpty" && *c.2 == serde_json::json!(false)), "{seen:?}");
    // Another object is named by its class, never printed.
    let append = report.calls.iter().find(|c| c.name == "append").expect("append observed");
    assert_eq!(append.kind, jreach_jvm::ReturnedKind::Object);
    assert_eq!(append.value, serde_json::json!("java.lang.StringBuilder"));
}

/// Java's `Long.reverse`.
#[allow(non_snake_case)]
mod Long {
    pub fn reverse(x: i64) -> i64 {
        x.reverse_bits()
    }
}

#[test]
fn straight_code_before_an_exception_is_not_counted_as_run() {
    // As JaCoCo: `int s = 2;` has no probe of its own; the null array throws on the next line
    // before any, so neither line counts as run. With an array, both do.
    let fx = fixture(&[("p/A.java", A)]);
    let mut runner = fx.runner();
    let report = runner
        .run(&fx.request(&test_calling("assertThrows(NullPointerException.class, () -> A.h(null));"), 5000))
        .unwrap();
    assert_eq!(report.status, RunStatus::Pass, "{report:?}");
    assert!(report.ran("p/A.java", 17) && report.ran("p/A.java", 18), "{:?}", report.lines);
    assert!(!report.completed("p/A.java", 17) && !report.completed("p/A.java", 18), "{:?}", report.completed);
    let report = runner.run(&fx.request(&test_calling("assertEquals(3, A.h(new int[1]));"), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::Pass, "{report:?}");
    assert!([17, 18, 19].iter().all(|l| report.completed("p/A.java", *l)), "{:?}", report.completed);
}

/// A switch whose first case throws at once.
const S: &str = "package p;\npublic class S {\n    public static int k(int n, int[] a) {\n        int r = 1;\n        switch (n) {\n        case 3:\n            r += a[2];\n            // falls through\n        case 2:\n            r += a[1];\n        }\n        return r;\n    }\n}\n";

#[test]
fn code_before_a_switch_counts_once_the_case_taken_reaches_a_probe() {
    // As JaCoCo: no probe before the switch, nor on its edge to `case 3` (no other way in), so
    // `a[2]` throwing leaves lines 4 and 5 uncounted; a case that gets on counts them.
    let fx = fixture(&[("p/S.java", S)]);
    let mut runner = fx.runner();
    let call = "assertThrows(ArrayIndexOutOfBoundsException.class, () -> S.k(3, new int[0]));";
    let report = runner.run(&fx.request(&test_calling(call), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::Pass, "{report:?}");
    assert!(report.ran("p/S.java", 4) && report.ran("p/S.java", 7), "{:?}", report.lines);
    assert!(!report.completed("p/S.java", 4) && !report.completed("p/S.java", 5), "{:?}", report.completed);
    for call in ["assertEquals(1, S.k(5, new int[0]));", "assertEquals(1, S.k(3, new int[3]));"] {
        let report = runner.run(&fx.request(&test_calling(call), 5000)).unwrap();
        assert_eq!(report.status, RunStatus::Pass, "{report:?}");
        assert!([4, 5, 12].iter().all(|l| report.completed("p/S.java", *l)), "{call}: {:?}", report.completed);
    }
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
fn code_reading_standard_input_gets_an_empty_one_or_the_tests_own() {
    let fx = fixture(&[("p/A.java", A)]);
    let mut runner = fx.runner();
    // Not the runner's requests: an empty input, at its end at once.
    let read = "int n = new java.util.Scanner(System.in).nextInt();";
    let report = runner.run(&fx.request(&test_calling(read), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::Fail, "{report:?}");
    assert_eq!(report.exception.as_deref(), Some("java.util.NoSuchElementException"), "{report:?}");
    // A test that sets its own reads it; the next test gets an empty one again.
    let own = "System.setIn(new java.io.ByteArrayInputStream(\"7\".getBytes()));\n        \
               assertEquals(7, new java.util.Scanner(System.in).nextInt());";
    let report = runner.run(&fx.request(&test_calling(own), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::Pass, "{report:?}");
    let report = runner.run(&fx.request(&test_calling(read), 5000)).unwrap();
    assert_eq!(report.status, RunStatus::Fail, "{report:?}");
    assert_eq!(runner.starts, 1, "no run timed out");
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

/// The search harness running `body` (Java, reading its inputs with `jreach.runner.Inputs`).
fn harness(body: &str) -> String {
    format!(
        "package p;\nimport org.junit.jupiter.api.Test;\nclass ATest {{\n    @Test\n    void t() {{\n        \
         {body}\n    }}\n}}\n"
    )
}

impl Fixture {
    /// A search whose harness observes what `call` returns.
    fn search(
        &self,
        session: &str,
        call: &str,
        target: (&str, usize),
        inputs: Vec<Vec<serde_json::Value>>,
    ) -> SearchRequest {
        self.search_running(session, &format!("jreach.runner.Inputs.observe({call});"), target, inputs)
    }

    /// A search whose harness runs `body`.
    fn search_running(
        &self,
        session: &str,
        body: &str,
        target: (&str, usize),
        inputs: Vec<Vec<serde_json::Value>>,
    ) -> SearchRequest {
        SearchRequest {
            session: session.into(),
            source_roots: vec![self.root.clone()],
            classpath: self.jdk.junit.clone(),
            cache_dir: self.cache.join("classes"),
            sources: vec![SourceText { path: "p/ATest.java".into(), text: harness(body) }],
            test_class: "p.ATest".into(),
            test_method: "t".into(),
            target_source: target.0.into(),
            target_line: target.1,
            inputs,
            timeout_ms: 300,
        }
    }
}

const B: &str = "package p;

public class B {
    public static int h(int x) {
        if (x * 2 > 1000) {
            return 1;
        }
        return 0;
    }

    public static int longLoop(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (sb.length() > 30) {
                return i;
            }
            sb.append('a');
        }
        return -1;
    }

    public static int coupon(String s) {
        int v = Parser.parse(s);
        return v + 1;
    }

    public static int spin(int n) {
        while (n > 0) {
            n = n + 0;
        }
        return n;
    }
}
";

const PARSER: &str = "package p;

class Parser {
    static int parse(String s) {
        if (!s.startsWith(\"KEY\")) {
            throw new IllegalArgumentException(\"not a key\");
        }
        return s.length();
    }
}
";

fn ints(xs: &[i64]) -> Vec<Vec<serde_json::Value>> {
    xs.iter().map(|x| vec![(*x).into()]).collect()
}

#[test]
fn branch_distances_shrink_as_inputs_come_closer_to_the_target() {
    let fx = fixture(&[("p/B.java", B), ("p/Parser.java", PARSER)]);
    let mut runner = fx.runner();
    let report = runner
        .search(&fx.search("s1", "p.B.h(jreach.runner.Inputs.i(0))", ("p/B.java", 6), ints(&[0, 400, 500, 501])))
        .unwrap();
    assert_eq!(report.status, SearchStatus::Ok, "{report:?}");
    let r = &report.results;
    assert_eq!(r.len(), 4);
    assert!(!r[0].hit && !r[1].hit && !r[2].hit && r[3].hit, "{r:?}");
    let d = |i: usize| r[i].fitness.expect("a divergence").1;
    assert!(d(0) > d(1) && d(1) > d(2), "{r:?}");
    // What the call returned.
    assert_eq!(r[3].returned.as_ref().map(|v| v.value.clone()), Some(serde_json::json!(1)));
    assert_eq!(r[0].returned.as_ref().map(|v| v.value.clone()), Some(serde_json::json!(0)));

    // In a loop, the jump inside it that guards the target is the one measured (the loop's own
    // condition comes back to it either way): more iterations, closer.
    let report = runner
        .search(&fx.search("s2", "p.B.longLoop(jreach.runner.Inputs.i(0))", ("p/B.java", 15), ints(&[3, 10, 20, 40])))
        .unwrap();
    let r = &report.results;
    assert!(!r[0].hit && !r[1].hit && !r[2].hit && r[3].hit, "{r:?}");
    let d = |i: usize| r[i].fitness.expect("a divergence");
    assert!(d(0).1 > d(1).1 && d(1).1 > d(2).1, "{r:?}");
}

const THROUGH: &str = "package p;

public class R {
    public static int outer(int x) {
        if (x > 100) {
            return inner(x);
        }
        return 0;
    }

    private static int inner(int x) {
        switch (x) {
            case 150:
                return 1;
            case 90:
                return 3;
            default:
                return 2;
        }
    }
}
";

#[test]
fn a_private_methods_line_is_approached_through_its_callers_and_a_switchs_cases() {
    let fx = fixture(&[("p/R.java", THROUGH)]);
    let mut runner = fx.runner();
    let report = runner
        .search(&fx.search(
            "s6",
            "p.R.outer(jreach.runner.Inputs.i(0))",
            ("p/R.java", 14),
            ints(&[0, 50, 101, 140, 150]),
        ))
        .unwrap();
    assert_eq!(report.status, SearchStatus::Ok, "{report:?}");
    let r = &report.results;
    assert!(r[..4].iter().all(|r| !r.hit) && r[4].hit, "{r:?}");
    let f = |i: usize| r[i].fitness.expect("a divergence");
    // In the caller, short of the call: farther than any divergence inside the method
    // holding the line, and closer as `x` comes to 100.
    assert!(f(0).0 > f(2).0 && f(1).0 > f(3).0, "{r:?}");
    assert!(f(0).1 > f(1).1, "{r:?}");
    // Inside, at the switch: closer as `x` comes to the case that holds the line.
    assert!(f(2).1 > f(3).1, "{r:?}");
}

const SITES: &str = "package p;

public class D {
    public static int parse(String s) {
        int year = digits(s, 0, 2);
        if (at(s, 2, ':')) {
            return year;
        }
        return -1;
    }

    private static int digits(String s, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') throw new IllegalArgumentException(s);
            v = 10 * v + (c - '0');
        }
        return v;
    }

    private static boolean at(String s, int i, char c) {
        return i < s.length() && s.charAt(i) == c;
    }

    public static int twice(String s) {
        int a = digits(s, 0, 1);
        int b = digits(s, 1, 2);
        return a + b;
    }
}
";

#[test]
fn inside_a_call_that_throws_or_whose_boolean_is_tested_the_callees_jumps_give_the_distance() {
    let fx = fixture(&[("p/D.java", SITES)]);
    let mut runner = fx.runner();
    let strs = |xs: &[&str]| xs.iter().map(|x| vec![serde_json::Value::from(*x)]).collect::<Vec<_>>();
    let inputs = strs(&["1z", "1A", "12a", "12.", "12:"]);
    let report =
        runner.search(&fx.search("s8", "p.D.parse(jreach.runner.Inputs.str(0))", ("p/D.java", 7), inputs)).unwrap();
    let r = &report.results;
    assert!(r[..4].iter().all(|r| !r.hit) && r[4].hit, "{r:?}");
    let f = |i: usize| r[i].fitness.expect("a divergence");
    // `digits` throws on the second character: closer as it comes to '9'.
    assert!(f(0).0 == f(1).0 && f(0).1 > f(1).1, "{r:?}");
    // `at` returns false, which the jump tests as a flag: closer as the character comes to ':'
    // (and closer than a throw in `digits`, which comes before).
    assert!(f(2).0 < f(0).0 && f(2).0 == f(3).0 && f(2).1 > f(3).1, "{r:?}");

    // Past a call that returned, a run is closer than one whose call threw there, though
    // nothing after it measures a distance ("1": the second call throws out of bounds).
    let inputs = strs(&["x", "1", "1x", "12"]);
    let report =
        runner.search(&fx.search("s9", "p.D.twice(jreach.runner.Inputs.str(0))", ("p/D.java", 29), inputs)).unwrap();
    let r = &report.results;
    assert!(r[..3].iter().all(|r| !r.hit) && r[3].hit, "{r:?}");
    let f = |i: usize| r[i].fitness.expect("a divergence");
    assert!(f(1).0 == f(0).0 && f(1).1 < f(0).1 && f(2).0 < f(1).0, "{r:?}");
}

const BOXES: &str = "package p;

public class Boxes {
    public static int count(Short[] xs, Character[] cs) {
        if (xs.length == 2 && xs[1] == 7 && cs[0] == 'q') {
            return 1;
        }
        return 0;
    }
}
";

#[test]
fn arrays_of_boxes_are_read_from_their_numbers() {
    let fx = fixture(&[("p/Boxes.java", BOXES)]);
    let mut runner = fx.runner();
    let call = "p.Boxes.count(jreach.runner.Inputs.shortBoxes(0), jreach.runner.Inputs.charBoxes(1))";
    let inputs = vec![
        vec![serde_json::json!([1, 6]), serde_json::json!([113])],
        vec![serde_json::json!([1, 7]), serde_json::json!([113])],
    ];
    let report = runner.search(&fx.search("s10", call, ("p/Boxes.java", 6), inputs)).unwrap();
    let r = &report.results;
    assert!(!r[0].hit && r[1].hit, "{r:?}");
}

const SAME: &str = "package p;

public class S {
    static final String KEY = \"key\";

    public static int same(String s) {
        if (s == KEY) {
            return 1;
        }
        return 0;
    }
}
";

#[test]
fn a_string_input_is_the_same_object_as_the_constant_a_tests_literal_would_be() {
    let fx = fixture(&[("p/S.java", SAME)]);
    let mut runner = fx.runner();
    let inputs = vec![vec!["kez".into()], vec!["key".into()]];
    let report =
        runner.search(&fx.search("s7", "p.S.same(jreach.runner.Inputs.str(0))", ("p/S.java", 8), inputs)).unwrap();
    let r = &report.results;
    assert!(!r[0].hit && r[1].hit, "{r:?}");
}

#[test]
fn the_constants_of_the_class_that_threw_become_seeds() {
    let fx = fixture(&[("p/B.java", B), ("p/Parser.java", PARSER)]);
    let mut runner = fx.runner();
    let inputs = vec![vec!["".into()], vec!["KEY1".into()]];
    let report =
        runner.search(&fx.search("s3", "p.B.coupon(jreach.runner.Inputs.str(0))", ("p/B.java", 24), inputs)).unwrap();
    let r = &report.results;
    assert_eq!(r[0].status, RunStatus::Fail, "{r:?}");
    assert_eq!(r[0].exception.as_deref(), Some("java.lang.IllegalArgumentException"));
    assert!(!r[0].hit && r[1].hit, "{r:?}");
    assert!(report.constants.contains(&serde_json::json!("KEY")), "{:?}", report.constants);
}

const QUOTED: &str = "package p;

public class Q {
    public static int quoted(String s) {
        if (s.length() < 2 || s.charAt(0) != '\"') {
            return -1;
        }
        return Integer.parseInt(s.substring(1, s.length() - 1));
    }
}
";

#[test]
fn a_line_whose_call_throws_is_started_not_hit_and_the_codes_characters_are_reported() {
    let fx = fixture(&[("p/Q.java", QUOTED)]);
    let mut runner = fx.runner();
    let inputs = vec![vec!["".into()], vec!["\"x\"".into()], vec!["\"12\"".into()]];
    let report =
        runner.search(&fx.search("s5", "p.Q.quoted(jreach.runner.Inputs.str(0))", ("p/Q.java", 8), inputs)).unwrap();
    let r = &report.results;
    assert!(!r[0].started && !r[0].hit, "{r:?}");
    assert!(r[1].started && !r[1].hit, "{r:?}");
    assert!(r[2].started && r[2].hit, "{r:?}");
    assert!(report.chars.contains('"'), "{:?}", report.chars);
}

const PAST: &str = "package p;

public class P {
    private int n;

    public void add(int k) {
        n += k;
        n += 1;
    }

    public int get() {
        if (n > 5) {
            return 1;
        }
        return 0;
    }

    public static String cut(String s, int from) {
        if (s == null) {
            return null;
        }
        String t = s.substring(from);
        return t;
    }
}
";

#[test]
fn a_run_past_a_jump_that_then_throws_is_closer_than_one_that_went_the_bad_way() {
    let fx = fixture(&[("p/P.java", PAST)]);
    let mut runner = fx.runner();
    let inputs = vec![vec![serde_json::Value::Null, 0.into()], vec!["ab".into(), 5.into()]];
    let call = "p.P.cut(jreach.runner.Inputs.str(0), jreach.runner.Inputs.i(1))";
    let report = runner.search(&fx.search("s10", call, ("p/P.java", 23), inputs)).unwrap();
    let r = &report.results;
    assert!(!r[0].hit && !r[1].hit, "{r:?}");
    // `s == null` the bad way, and the good way before `substring` throws (out of range).
    let f = |i: usize| r[i].fitness.expect("a divergence");
    assert!(f(1).0 < f(0).0, "{r:?}");
}

#[test]
fn a_run_says_which_inputs_it_read() {
    let fx = fixture(&[("p/P.java", PAST)]);
    let mut runner = fx.runner();
    let call =
        "p.P.cut(jreach.runner.Inputs.i(0) == 0 ? null : jreach.runner.Inputs.str(1), jreach.runner.Inputs.i(2))";
    let inputs = vec![vec![0.into(), "x".into(), 0.into()], vec![1.into(), "x".into(), 0.into()]];
    let report = runner.search(&fx.search("s11", call, ("p/P.java", 23), inputs)).unwrap();
    let r = &report.results;
    let read = |i: usize| r[i].read.clone().expect("the inputs read")[..3].to_vec();
    assert_eq!(read(0), vec![true, false, true], "{r:?}");
    assert_eq!(read(1), vec![true, true, true], "{r:?}");
}

#[test]
fn the_lines_a_run_ran_before_the_call_under_test_are_no_progress_but_still_count_as_run() {
    let fx = fixture(&[("p/P.java", PAST)]);
    let mut runner = fx.runner();
    let made = "p.P obj = new p.P(); obj.add(jreach.runner.Inputs.i(0));";
    let marked = format!("{made} jreach.runner.Inputs.begin(); jreach.runner.Inputs.observe(obj.get());");
    let unmarked = format!("{made} jreach.runner.Inputs.observe(obj.get());");
    let mut lines = |session: &str, body: &str, target: usize| {
        let report = runner.search(&fx.search_running(session, body, ("p/P.java", target), ints(&[1]))).unwrap();
        assert_eq!(report.status, SearchStatus::Ok, "{report:?}");
        report.results[0].clone()
    };
    // `get()` runs its `if` and `return 0;`; making the object ran four lines more before it.
    let (with, without) = (lines("s12", &marked, 15), lines("s13", &unmarked, 15));
    assert!(with.hit && without.hit, "{with:?} {without:?}");
    assert_eq!(with.lines, 2, "{with:?}");
    assert!(without.lines > with.lines, "{without:?}");
    // A target that ran before the mark still ran.
    assert!(lines("s14", &marked, 8).hit);
}

#[test]
fn a_run_past_its_limit_is_stopped_and_the_batch_goes_on() {
    let fx = fixture(&[("p/B.java", B), ("p/Parser.java", PARSER)]);
    let mut runner = fx.runner();
    let report = runner
        .search(&fx.search("s4", "p.B.spin(jreach.runner.Inputs.i(0))", ("p/B.java", 31), ints(&[1, 0])))
        .unwrap();
    let r = &report.results;
    assert_eq!(r.first().map(|r| &r.status), Some(&RunStatus::Timeout), "{r:?}");
    // This JDK can stop the thread, so the same runner goes on with the next input.
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r[1].hit, "{r:?}");
    assert_eq!(runner.starts, 1);
}

/// `text` written as `src/p/<class>.java` in a new temporary folder (kept while the first value lives).
fn source_in_package_p(class: &str, text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("src/p/{class}.java"));
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, text).unwrap();
    (dir, file)
}

/// A search's start for the one-parameter method `class.method` of package `p`: the test
/// request the engine would hand the verifier, with `arg` where the search begins.
fn search_start(
    class: &str,
    (method, is_static, return_ty): (&str, bool, &str),
    param: (&str, &str),
    arg: jreach_synth::JavaValue,
    (target_line, target_text): (usize, &str),
) -> jreach_synth::TestRequest {
    jreach_synth::TestRequest {
        package: Some("p".into()),
        classes: vec![class.into()],
        method: method.into(),
        is_static,
        is_constructor: false,
        params: vec![(param.0.into(), param.1.into())],
        args: vec![arg],
        return_ty: return_ty.into(),
        outcome: jreach_synth::Outcome::Undetermined("start".into()),
        target_line,
        target_text: target_text.into(),
        target_member: None,
        target_action: jreach_syntax::Action::Other,
        path_condition: vec![],
        junit: jreach_synth::JUnit::V5,
        receiver_args: vec![],
        receiver_calls: vec![],
        receiver_body: None,
        receiver_fields: None,
        receiver_class: None,
        statics: vec![],
        imports: vec![],
        unmodelled_before_target: None,
        declares_checked: false,
        receiver_call_choices: vec![],
        receiver_factory: None,
        receiver_from: None,
        then_call: None,
        null_casts: Default::default(),
        named_classes: vec![],
        held_by: None,
        initializes_class: false,
        outer: None,
        also_runs: vec![],
    }
}

#[test]
fn the_verifier_searches_a_loop_bound_the_model_cannot_unroll_to() {
    let (_dir, file) = source_in_package_p("B", B);
    std::fs::write(file.with_file_name("Parser.java"), PARSER).unwrap();
    let mut v = jreach_jvm::Verifier::new(vec![]).unwrap_or_else(|e| panic!("these tests run Java: {e}"));
    let start =
        search_start("B", ("longLoop", true, "int"), ("n", "int"), jreach_synth::JavaValue::Int(0), (15, "return i;"));
    let found = v.search(&file, B, &start).unwrap().expect("found");
    // The smallest bound that runs the line, and what the JVM returned with it, asserted.
    assert_eq!(found.args, vec![jreach_synth::JavaValue::Int(32)]);
    assert_eq!(found.outcome, jreach_synth::Outcome::Returns(Some(jreach_synth::JavaValue::Int(31))));
}

const DICE: &str = "package p;

public class Dice {
    public static int roll(int n) {
        if (n > 3) {
            return new java.util.Random().nextInt(1000000) + n;
        }
        return 0;
    }
}
";

#[test]
fn what_differs_between_two_runs_with_the_same_inputs_is_not_asserted() {
    let (_dir, file) = source_in_package_p("Dice", DICE);
    let mut v = jreach_jvm::Verifier::new(vec![]).unwrap_or_else(|e| panic!("these tests run Java: {e}"));
    let start = search_start(
        "Dice",
        ("roll", true, "int"),
        ("n", "int"),
        jreach_synth::JavaValue::Int(0),
        (6, "return new java.util.Random().nextInt(1000000) + n;"),
    );
    let found = v.search(&file, DICE, &start).unwrap().expect("found");
    assert!(matches!(found.outcome, jreach_synth::Outcome::Undetermined(_)), "{:?}", found.outcome);
    // The same search on a method whose result the inputs decide asserts it.
    let fixed = DICE.replace("new java.util.Random().nextInt(1000000)", "7");
    let start = jreach_synth::TestRequest { target_text: "return 7 + n;".into(), ..start };
    let found = v.search(&file, &fixed, &start).unwrap().expect("found");
    assert!(matches!(found.outcome, jreach_synth::Outcome::Returns(Some(_))), "{:?}", found.outcome);
}

const LOTTERY: &str = "package p;

public class Lottery {
    private static final long SEED = System.nanoTime();

    public static int draw(int n) {
        if (n > 3) {
            return new java.util.Random(SEED).nextInt(2) + n;
        }
        return 0;
    }
}
";

#[test]
fn a_result_from_random_numbers_is_not_asserted_even_when_two_runs_agree() {
    // The seed is the same in every run of one loaded class (the two runs agree) and differs in
    // the JVM that runs the test later: asserted, the test would fail there half the time.
    let (_dir, file) = source_in_package_p("Lottery", LOTTERY);
    assert_draw_is_not_asserted(&file, ("Lottery", LOTTERY), (8, "return new java.util.Random(SEED).nextInt(2) + n;"));
}

/// A search for the line of `class`'s `static int draw(int n)` (in `file`, with the text
/// `source`) finds inputs, and the test asserts nothing because of random numbers.
fn assert_draw_is_not_asserted(file: &std::path::Path, (class, source): (&str, &str), target: (usize, &str)) {
    let mut v = jreach_jvm::Verifier::new(vec![]).unwrap_or_else(|e| panic!("these tests run Java: {e}"));
    let start = search_start(class, ("draw", true, "int"), ("n", "int"), jreach_synth::JavaValue::Int(0), target);
    let found = v.search(file, source, &start).unwrap().expect("found");
    match &found.outcome {
        jreach_synth::Outcome::Undetermined(why) => assert!(why.contains("random numbers"), "{why}"),
        other => panic!("{other:?}"),
    }
}

const DRAWS: &str = "package p;

public class Draws {
    public static int draw(int n) {
        if (n > 3) {
            return Lottery.draw(n);
        }
        return 0;
    }
}
";

#[test]
fn a_result_from_random_numbers_drawn_in_another_file_of_the_project_is_not_asserted() {
    // `Draws` names no random source; `Lottery`, which it calls, does (the two runs of the
    // search agree, as above).
    let (_dir, file) = source_in_package_p("Draws", DRAWS);
    std::fs::write(file.with_file_name("Lottery.java"), LOTTERY).unwrap();
    assert_draw_is_not_asserted(&file, ("Draws", DRAWS), (6, "return Lottery.draw(n);"));
}

const DECK: &str = "package p;

public class Deck {
    private static final java.util.Random RANDOM = new java.util.Random();

    public static void shuffle(int[] cards) {
        for (int i = cards.length - 1; i > 0; i--) {
            int j = RANDOM.nextInt(i + 1);
            int t = cards[i];
            cards[i] = cards[j];
            cards[j] = t;
        }
    }

    public static int count(int n) {
        if (n > 3) {
            return n * 2;
        }
        return 0;
    }
}
";

#[test]
fn a_result_is_asserted_when_no_line_that_ran_draws_random_numbers_though_the_file_does() {
    let (_dir, file) = source_in_package_p("Deck", DECK);
    let mut v = jreach_jvm::Verifier::new(vec![]).unwrap_or_else(|e| panic!("these tests run Java: {e}"));
    let start = search_start(
        "Deck",
        ("count", true, "int"),
        ("n", "int"),
        jreach_synth::JavaValue::Int(0),
        (17, "return n * 2;"),
    );
    let found = v.search(&file, DECK, &start).unwrap().expect("found");
    match (&found.args[..], &found.outcome) {
        ([jreach_synth::JavaValue::Int(n)], jreach_synth::Outcome::Returns(Some(jreach_synth::JavaValue::Int(r)))) => {
            assert_eq!(*r, n * 2)
        }
        other => panic!("{other:?}"),
    }
}

const COIN: &str = "package p;

public class Coin {
    public static int toss(int n) {
        long now = System.nanoTime();
        int runs = Integer.getInteger(\"p.coin.runs\", 0);
        System.setProperty(\"p.coin.runs\", Integer.toString(runs + 1));
        if (runs % 2 == 0) {
            return 1;
        }
        return 0;
    }
}
";

#[test]
fn a_test_whose_line_runs_only_in_some_runs_of_code_reading_the_clock_is_not_offered() {
    // The line runs in every other run of the JVM that runs the tests (as a branch on a random
    // number would in some): the first run reaches it, and a test offered on that run alone
    // would miss it in the next one.
    let (_dir, file) = source_in_package_p("Coin", COIN);
    let mut v = jreach_jvm::Verifier::new(vec![]).unwrap_or_else(|e| panic!("these tests run Java: {e}"));
    let req =
        search_start("Coin", ("toss", true, "int"), ("n", "int"), jreach_synth::JavaValue::Int(0), (9, "return 1;"));
    match v.check(&file, COIN, &req).unwrap() {
        jreach_jvm::Checked::Missed(why) => assert!(why.contains("reached line 9 in 1 of 2 runs"), "{why}"),
        jreach_jvm::Checked::Reached { .. } => panic!("offered a test that reaches its line every other run"),
    }
}

const HASHES: &str = "package p;

public class Hashes {
    public static int of(int n) {
        if (n > 0) {
            return n + java.util.concurrent.TimeUnit.SECONDS.hashCode();
        }
        return 0;
    }
}
";

#[test]
fn a_value_from_an_identity_hash_code_is_not_asserted() {
    // The runner's JVM keeps the enum constant's identity hash code from run to run, so the
    // value a search observes passes there; another JVM (a developer's test suite) gives the
    // constant another: the test makes the call and asserts nothing.
    let (_dir, file) = source_in_package_p("Hashes", HASHES);
    let mut v = jreach_jvm::Verifier::new(vec![]).unwrap_or_else(|e| panic!("these tests run Java: {e}"));
    v.search_budget = std::time::Duration::from_secs(60);
    let start =
        search_start("Hashes", ("of", true, "int"), ("n", "int"), jreach_synth::JavaValue::Int(0), (6, "return"));
    let found = v.search(&file, HASHES, &start).unwrap().expect("found");
    match &found.outcome {
        jreach_synth::Outcome::Undetermined(why) => assert!(why.contains("identity hash codes"), "{why}"),
        other => panic!("asserted {other:?}"),
    }
}

const SORTS: &str = "package p;

import java.util.List;

public class Sorts implements Sorter {
    @Override
    public <T extends Comparable<T>> T[] sort(T[] array) {
        if (array.length > 2 && array[2].compareTo(array[0]) > 0) {
            return array;
        }
        return null;
    }
}

interface Sorter {
    <T extends Comparable<T>> T[] sort(T[] array);

    default <T extends Comparable<T>> List<T> sort(List<T> list) {
        return list;
    }
}
";

#[test]
fn the_search_grows_an_array_of_a_type_variable_from_null() {
    // `sort(null)` does not compile here (the list overload also takes it), and a null array
    // never gets past `array.length`: the search starts from an empty `Integer[]` (what the
    // lowering takes `T` as) and grows it.
    let (_dir, file) = source_in_package_p("Sorts", SORTS);
    let mut v = jreach_jvm::Verifier::new(vec![]).unwrap_or_else(|e| panic!("these tests run Java: {e}"));
    // The budget includes starting the JVM and compiling: generous, for a loaded machine.
    v.search_budget = std::time::Duration::from_secs(60);
    let start = search_start(
        "Sorts",
        ("sort", false, "T[]"),
        ("array", "Integer[]"),
        jreach_synth::JavaValue::Null,
        (9, "return array;"),
    );
    let found = v.search(&file, SORTS, &start).unwrap().expect("found");
    let jreach_synth::JavaValue::Array { elem_ty, items, .. } = &found.args[0] else {
        panic!("an array: {:?}", found.args)
    };
    assert_eq!(elem_ty, "Integer");
    assert!(items.len() >= 3, "{items:?}");
    let int = |v: &jreach_synth::JavaValue| match v {
        jreach_synth::JavaValue::Int(i) => *i,
        other => panic!("an int: {other:?}"),
    };
    assert!(int(&items[2]) > int(&items[0]), "{items:?}");
}

const C: &str = "package p;

public class C {
    public static int viaConst() { return tail(0); }
    public static int via(int x) { return tail(x); }
    private static int tail(int x) {
        if (x > 10) {
            return 1;
        }
        return 0;
    }
}
";

#[test]
fn a_search_from_several_callers_goes_on_to_the_next_when_one_gets_nowhere() {
    let (_dir, file) = source_in_package_p("C", C);
    let mut v = jreach_jvm::Verifier::new(vec![]).unwrap_or_else(|e| panic!("these tests run Java: {e}"));
    let through_const = jreach_synth::TestRequest {
        method: "viaConst".into(),
        params: vec![],
        args: vec![],
        ..search_start("C", ("viaConst", true, "int"), ("x", "int"), jreach_synth::JavaValue::Int(0), (8, "return 1;"))
    };
    let through_via =
        search_start("C", ("via", true, "int"), ("x", "int"), jreach_synth::JavaValue::Int(0), (8, "return 1;"));
    assert_eq!(v.search(&file, C, &through_const).unwrap(), None, "viaConst never runs line 8");
    let started = std::time::Instant::now();
    let found = v.search_each(&file, C, &[through_const, through_via]).unwrap().expect("found through via");
    assert_eq!((found.method.as_str(), found.args.clone()), ("via", vec![jreach_synth::JavaValue::Int(11)]));
    assert!(started.elapsed() < v.search_budget + std::time::Duration::from_secs(2), "{:?}", started.elapsed());
}
