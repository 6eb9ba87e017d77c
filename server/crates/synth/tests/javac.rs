//! Rendered tests are real Java: a small class under test, tests for it written through
//! `place`/`write` for JUnit 5 and JUnit 4, compiled with `javac` against Debian's JUnit jars and
//! run with the JUnit console launcher. Missing tools make this test fail, not skip.

use std::path::{Path, PathBuf};
use std::process::Command;

use jreach_synth::{place, write, JUnit, JavaValue, Outcome, TestRequest};
use JavaValue::*;

const JARS: &str = "/usr/share/java";
const V5_JARS: [&str; 4] =
    ["junit-jupiter-api.jar", "apiguardian-api.jar", "opentest4j.jar", "junit-platform-commons.jar"];
const V4_JARS: [&str; 2] = ["junit4.jar", "hamcrest-core.jar"];
const LAUNCHER: &str = "junit-platform-console-standalone.jar";
const INSTALL: &str = "install them with `apt-get install -y default-jdk-headless junit5 junit4`";

const CALC: &str = r#"package demo;

public class Calc {
    public static int abs(int x) { return x < 0 ? -x : x; }
    public static int div(int a, int b) { return a / b; }
    public static byte b(byte x) { return x; }
    public static short s(short x) { return x; }
    public static char c(char x) { return x; }
    public static long l(long x) { return x; }
    public static float f(float x) { return x; }
    public static double d(double x) { return x; }
    public static boolean not(boolean x) { return !x; }
    public static String echo(String s) { return s; }
    public static Integer boxed(int x) { return x; }
    public static Object obj(char c) { return c; }
    public static double mix(byte b, short s, char c, long l, float f, double d) { return b + s + c + l + f + d; }
    public static void sink(int[] xs, String s, Node n, int... rest) { }
    public static String nothing(String s) { return null; }

    public static class Node {
        int v;
        public Node() { }
        public Node(int v) {
            if (v < 0) throw new IllegalArgumentException("negative");
            this.v = v;
        }
        public int get(int a, long b) { return (int) (v + a + b); }
        public int next() { throw new java.util.NoSuchElementException(); }
    }
}
"#;

fn req(method: &str, params: &[(&str, &str)], args: Vec<JavaValue>, ret: &str, outcome: Outcome) -> TestRequest {
    TestRequest {
        package: Some("demo".into()),
        classes: vec!["Calc".into()],
        method: method.into(),
        is_static: true,
        is_constructor: false,
        params: params.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect(),
        args,
        return_ty: ret.into(),
        outcome,
        target_line: 4,
        // Comment text that must not break out of its comment.
        target_text: r"return x; /* */ '\u000a' \\u0022 \\\u000d".into(),
        target_member: Some("f(int) /* */ \\u0022".into()),
        target_action: jreach_syntax::Action::Returns(None),
        path_condition: vec![r"c == '\u000a'".into(), "a || b".into(), "x */ 2 > 0".into()],
        junit: JUnit::V5,
        receiver_args: vec![],
        receiver_calls: vec![],
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
        statics: vec![],
        receiver_body: None,
        receiver_fields: None,
        receiver_class: None,
    }
}

fn returns(v: JavaValue) -> Outcome {
    Outcome::Returns(Some(v))
}

fn requests() -> Vec<TestRequest> {
    let nested = |r: TestRequest| TestRequest { classes: vec!["Calc".into(), "Node".into()], is_static: false, ..r };
    vec![
        req("abs", &[("x", "int")], vec![Int(i32::MIN)], "int", returns(Int(i32::MIN))),
        req("abs", &[("x", "int")], vec![Int(-5)], "int", returns(Int(5))),
        req(
            "div",
            &[("a", "int"), ("b", "int")],
            vec![Int(1), Int(0)],
            "int",
            Outcome::Throws("ArithmeticException".into()),
        ),
        req("b", &[("x", "byte")], vec![Byte(-1)], "byte", returns(Byte(-1))),
        req("b", &[("x", "byte")], vec![Byte(i8::MIN)], "byte", returns(Byte(i8::MIN))),
        req("s", &[("x", "short")], vec![Short(300)], "short", returns(Short(300))),
        req("c", &[("x", "char")], vec![Char(0xffff)], "char", returns(Char(0xffff))),
        req("c", &[("x", "char")], vec![Char(b'\'' as u16)], "char", returns(Char(b'\'' as u16))),
        req("c", &[("x", "char")], vec![Char(b'\\' as u16)], "char", returns(Char(b'\\' as u16))),
        req("c", &[("x", "char")], vec![Char(b'\n' as u16)], "char", returns(Char(b'\n' as u16))),
        req("l", &[("x", "long")], vec![Long(i64::MIN)], "long", returns(Long(i64::MIN))),
        req("l", &[("x", "long")], vec![Int(7)], "long", returns(Int(7))),
        req("f", &[("x", "float")], vec![Float(f32::NAN)], "float", returns(Float(f32::NAN))),
        req("f", &[("x", "float")], vec![Float(f32::from_bits(1))], "float", returns(Float(f32::from_bits(1)))),
        req("f", &[("x", "float")], vec![Float(0.1)], "float", returns(Float(0.1))),
        req("d", &[("x", "double")], vec![Double(-0.0)], "double", returns(Double(-0.0))),
        req("d", &[("x", "double")], vec![Double(f64::NEG_INFINITY)], "double", returns(Double(f64::NEG_INFINITY))),
        req("d", &[("x", "double")], vec![Double(f64::MIN)], "double", returns(Double(f64::MIN))),
        req("d", &[("x", "double")], vec![Double(0.1 + 0.2)], "double", returns(Double(0.1 + 0.2))),
        req("d", &[("x", "double")], vec![Double(1e300)], "double", returns(Double(1e300))),
        req("not", &[("x", "boolean")], vec![Bool(false)], "boolean", returns(Bool(true))),
        req(
            "echo",
            &[("s", "String")],
            vec![Str("a\"\\\n\té😀 */ \\u000a".into())],
            "String",
            returns(Str("a\"\\\n\té😀 */ \\u000a".into())),
        ),
        req("boxed", &[("x", "int")], vec![Int(5)], "Integer", returns(Int(5))),
        req("obj", &[("c", "char")], vec![Char(b'x' as u16)], "Object", returns(Char(b'x' as u16))),
        req(
            "mix",
            &[("b", "byte"), ("s", "short"), ("c", "char"), ("l", "long"), ("f", "float"), ("d", "double")],
            vec![Byte(1), Short(2), Char(b'a' as u16), Long(4), Float(0.5), Double(0.25)],
            "double",
            returns(Double(1.0 + 2.0 + 97.0 + 4.0 + 0.5 + 0.25)),
        ),
        req(
            "sink",
            &[("xs", "int[]"), ("s", "String"), ("n", "Node"), ("rest", "int...")],
            vec![Null, Null, Null, Null],
            "void",
            Outcome::Returns(None),
        ),
        req("nothing", &[("s", "String")], vec![Str("".into())], "String", returns(Null)),
        nested(req("get", &[("a", "int"), ("b", "long")], vec![Int(i32::MAX), Long(1)], "int", returns(Int(i32::MIN)))),
        nested(req("next", &[], vec![], "int", Outcome::Throws("NoSuchElementException".into()))),
        TestRequest {
            is_constructor: true,
            ..nested(req(
                "Node",
                &[("v", "int")],
                vec![Int(-1)],
                "void",
                Outcome::Throws("IllegalArgumentException".into()),
            ))
        },
        TestRequest {
            is_constructor: true,
            ..nested(req("Node", &[("v", "int")], vec![Int(3)], "void", Outcome::Returns(None)))
        },
    ]
}

fn jar(name: &str) -> PathBuf {
    Path::new(JARS).join(name)
}

fn require_tools() {
    for tool in ["javac", "java"] {
        let ok = Command::new(tool).arg("-version").output().is_ok_and(|o| o.status.success());
        assert!(ok, "`{tool}` is not available: {INSTALL}");
    }
    for name in V5_JARS.iter().chain(&V4_JARS).chain([&LAUNCHER]) {
        assert!(jar(name).is_file(), "{} is missing: {INSTALL}", jar(name).display());
    }
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

fn classpath(parts: &[PathBuf]) -> String {
    parts.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(":")
}

/// Writes every request's test for `junit` under a fresh root, compiles it with the class under
/// test and runs it; returns the test file's text.
fn compile_and_run(work: &Path, junit: JUnit, jars: &[&str]) -> String {
    let tag = format!("{junit:?}").to_lowercase();
    let src = work.join(format!("src-{tag}"));
    std::fs::create_dir_all(src.join("demo")).unwrap();
    std::fs::write(src.join("demo/Calc.java"), CALC).unwrap();
    let test_root = work.join(format!("test-{tag}"));
    let mut names = Vec::new();
    for r in requests() {
        let p = place(&test_root, &TestRequest { junit, ..r }).unwrap();
        names.push(p.method_name.clone());
        write(&p).unwrap();
    }
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "method names are unique: {names:?}");
    let test_file = test_root.join("demo/CalcTest.java");
    let text = std::fs::read_to_string(&test_file).unwrap();

    let classes = work.join(format!("classes-{tag}"));
    let cp: Vec<PathBuf> = jars.iter().map(|j| jar(j)).collect();
    run(
        Command::new("javac")
            .arg("-Xlint:all")
            .arg("-Werror")
            .arg("-Xlint:-options")
            .arg("-d")
            .arg(&classes)
            .arg("-cp")
            .arg(classpath(&cp))
            .arg(src.join("demo/Calc.java"))
            .arg(&test_file),
        &format!("javac of the {junit} test\n{text}\n"),
    );
    let mut run_cp = vec![classes];
    run_cp.extend(cp);
    let out = run(
        Command::new("java").arg("-jar").arg(jar(LAUNCHER)).arg("-cp").arg(classpath(&run_cp)).args([
            "--select-class",
            "demo.CalcTest",
            "--disable-banner",
            "--details=summary",
            "--fail-if-no-tests",
        ]),
        &format!("running the {junit} test\n{text}\n"),
    );
    let expected = format!("{} tests successful", names.len());
    assert!(out.contains(&expected), "expected `{expected}`:\n{out}");
    text
}

#[test]
fn rendered_tests_compile_and_pass_with_junit5_and_junit4() {
    require_tools();
    let work = tempfile::tempdir().unwrap();
    let v5 = compile_and_run(work.path(), JUnit::V5, &V5_JARS);
    assert!(v5.contains("import org.junit.jupiter.api.Test;"));
    assert!(v5.contains("import java.util.NoSuchElementException;"));
    let v4 = compile_and_run(work.path(), JUnit::V4, &V4_JARS);
    assert!(v4.contains("import org.junit.Test;"));
    assert!(v4.contains("public class CalcTest"));
}
