//! `gen` never claims "unreachable" for a line that some input reaches, in the cases where
//! synthesis deliberately looks at fewer inputs than Java allows: receivers taken as their
//! constructor (and a few calls) leave them, objects created only through constructors, lambdas
//! that return one value, short lists, short arrays of new objects, printable-only strings,
//! bounded loops.

use jreach_ide::{gen, search_start, GenOptions, GenResult};
use jreach_syntax::SourceFile;

fn answer(src: &str, line: usize) -> GenResult {
    let file = SourceFile::parse(src);
    gen(&file, line - 1, &GenOptions::default()).expect("a statement on the line")
}

fn assert_not_unreachable(src: &str, line: usize) {
    if let GenResult::Unreachable(why) = answer(src, line) {
        panic!("line {line} is reachable, but gen said: {why}");
    }
}

#[test]
fn receiver_state_left_by_other_methods() {
    // Reached by `Box b = new Box(1); b.freeze(); b.take()`, never by the constructor alone.
    let src = "class Box {\n  private boolean frozen;\n  private final int v;\n  Box(int v) { this.v = v; }\n  void freeze() { frozen = true; }\n  int take() {\n    if (frozen) {\n      return -1;\n    }\n    return v;\n  }\n}\n";
    match answer(src, 8) {
        GenResult::Test(req) => {
            assert_eq!(req.receiver_calls, vec![jreach_synth::JavaCall::new("freeze", vec![])], "{req:?}")
        }
        other => panic!("{other:?}"),
    }
    // The only call that sets the state takes an argument jreach does not write: no test, and
    // still no claim that the line is dead.
    let src = src.replace("void freeze() {", "void freeze(Object why) {");
    assert_not_unreachable(&src, 8);
}

#[test]
fn parameters_in_states_their_constructor_does_not_leave() {
    // `b.set(-1)` makes the line run; a Box fresh from its constructor never does.
    let src = "public class T {\n  public static class Box {\n    private int v;\n    public Box(int v) { if (v < 0) throw new IllegalArgumentException(); this.v = v; }\n    public void set(int x) { v = x; }\n    public int get() { return v; }\n  }\n  public static int f(Box b) {\n    if (b != null && b.get() < 0) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    match answer(src, 10) {
        GenResult::Test(req) => {
            let jreach_synth::JavaValue::Constructed { calls, .. } = &req.args[0] else { panic!("{req:?}") };
            assert_eq!(calls.len(), 1, "{req:?}");
            assert_eq!(calls[0].method, "set");
        }
        other => panic!("{other:?}"),
    }
    // Without a setter a test can call, no test; and still no claim that the line is dead.
    let src = src.replace("public void set(int x)", "public void set(Object o, int x)");
    assert_not_unreachable(&src, 10);
}

#[test]
fn lambdas_answering_differently_per_call() {
    // Two answers: a lambda with one special argument (`x -> x == 1 ? 1 : 2`).
    let src = "public class T {\n  public interface F { int at(int x); }\n  public static int f(F g) {\n    if (g.at(1) == 1 && g.at(2) == 2) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    match answer(src, 5) {
        GenResult::Test(req) => {
            let text = jreach_synth::render_class(&req);
            assert!(text.contains("x -> x == "), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // Three answers: two special arguments (`x -> x == 1 ? 1 : x == 2 ? 2 : 3`).
    let src = src.replace("g.at(2) == 2", "g.at(2) == 2 && g.at(3) == 3");
    match answer(&src, 5) {
        GenResult::Test(req) => {
            let text = jreach_synth::render_class(&req);
            assert_eq!(text.matches("x == ").count(), 2, "{text}");
        }
        other => panic!("{other:?}"),
    }
    // Four answers, or answers that change between calls with one argument: beyond that.
    let four = src.replace("g.at(3) == 3", "g.at(3) == 3 && g.at(4) == 4");
    assert_not_unreachable(&four, 5);
    let src = src.replace("g.at(1) == 1 && g.at(2) == 2 && g.at(3) == 3", "g.at(1) != g.at(1)");
    assert_not_unreachable(&src, 5);
}

#[test]
fn code_the_method_hands_on_is_not_judged_by_the_method_s_model() {
    // Statements of a lambda and of an anonymous class that `f` creates: they run when the code
    // they are handed to calls them, which the lowering of `f` does not follow. The model makes
    // no claim (even where the condition cannot hold inside the lambda's own code) and says why;
    // the search on the JVM starts from a call to `f`.
    let src = "public class T {\n  public static void f(java.util.List<Integer> xs, int k) {\n    xs.forEach(x -> {\n      if (x > k && x < k) {\n        System.out.println(x);\n      }\n    });\n    xs.sort(new java.util.Comparator<Integer>() {\n      @Override\n      public int compare(Integer a, Integer b) {\n        return a - b;\n      }\n    });\n  }\n}\n";
    for (line, inside) in [(5, "a lambda"), (11, "a local or anonymous class")] {
        match answer(src, line) {
            GenResult::Unknown(why) => {
                assert!(why.contains(&format!("is in {inside} that f(java.util.List<Integer>, int) creates")), "{why}")
            }
            other => panic!("line {line}: {other:?}"),
        }
        let start = search_start(&SourceFile::parse(src), line - 1, &GenOptions::default()).expect("a start");
        assert_eq!((start.method.as_str(), start.target_line), ("f", line), "{start:?}");
    }
}

#[test]
fn lists_longer_than_synthesis_builds() {
    let src = "import java.util.List;\npublic class T {\n  public static int f(List<String> xs) {\n    if (xs.size() == 9) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_not_unreachable(src, 5);
}

#[test]
fn non_printable_strings() {
    let src = "class S {\n  static int f(String s) {\n    if (s != null && s.length() == 1 && s.charAt(0) == '\\n') {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_not_unreachable(src, 4);
}

#[test]
fn loops_longer_than_the_unroll_bound() {
    let src = "class L {\n  static int f(int n) {\n    int i = 0;\n    while (i < n) {\n      i++;\n    }\n    if (i == 500) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_not_unreachable(src, 8);
}

#[test]
fn constructor_built_receivers_get_tests() {
    let src = "public class Acct {\n  private int balance;\n  public Acct(int b) { balance = b; }\n  public int withdraw(int a) {\n    if (a > balance) {\n      return -2;\n    }\n    return balance - a;\n  }\n}\n";
    match answer(src, 6) {
        GenResult::Test(req) => assert_eq!(req.receiver_args.len(), 1, "{req:?}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn receivers_with_object_fields_get_tests() {
    // The receiver's fields of object types (a class of the file, a List, an interface) start
    // null, as the constructor leaves them.
    let src = "import java.util.List;\npublic class R {\n  public static class Node { public int v; }\n  public interface Cb { int call(int x); }\n  private Node head;\n  private List<String> names;\n  private Cb cb;\n  public int f(int x) {\n    if (head == null && names == null && cb == null && x > 3) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    match answer(src, 10) {
        GenResult::Test(req) => assert!(matches!(req.args[0], jreach_synth::JavaValue::Int(x) if x > 3), "{req:?}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn code_after_a_cut_off_constructor_is_answered() {
    // `this(s, Lib.make(s))` cannot be resolved (two candidates, an argument of unknown type),
    // so the receiver's construction is cut off; the optional calls lowered after it read inputs
    // from before the cut.
    let src = "public class Q {\n  private int n;\n  public Q(String s) { this(s, Lib.make(s)); }\n  public Q(String s, Integer o) { n = 1; }\n  public Q(String s, Long o) { n = 2; }\n  public void set(int x) { n = x; }\n  public int f(int y) {\n    if (n == y) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    match answer(src, 9) {
        GenResult::Unknown(why) => assert!(!why.contains("internal error"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn classes_of_other_files_of_the_package() {
    // `Box` is declared in another file of the package, handed to gen by the caller.
    let src = "package p;\npublic class U {\n  public static int f(Box b) {\n    if (b != null && b.get() == 7) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    let other = "package p;\nimport java.util.List;\npublic class Box {\n  private final int v;\n  public Box(int v) { this.v = v; }\n  public int get() { return v; }\n}\n";
    let file = SourceFile::parse(src);
    let alone = gen(&file, 4, &GenOptions::default()).expect("a statement");
    assert!(matches!(alone, GenResult::Unknown(_)), "without the package: {alone:?}");
    let opts = GenOptions { package_sources: vec![other.to_string()], ..GenOptions::default() };
    match gen(&file, 4, &opts).expect("a statement") {
        GenResult::Test(req) => match &req.args[0] {
            jreach_synth::JavaValue::Constructed { class, args, .. } => {
                assert_eq!(class, "Box");
                assert_eq!(args[0].1, jreach_synth::JavaValue::Int(7));
            }
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

#[test]
fn maps_larger_than_synthesis_builds() {
    let src = "import java.util.Map;\npublic class T {\n  public static int f(Map<String, Integer> m) {\n    if (m.size() == 7) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_not_unreachable(src, 5);
    // A lookup of null: `Map.of` throws, a `HashMap` answers null; synthesis leaves it out.
    let src = "import java.util.Map;\npublic class T {\n  public static int f(Map<String, Integer> m, String k) {\n    if (k == null && m.get(k) == null) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_not_unreachable(src, 5);
}

#[test]
fn lists_handed_to_unseen_code_get_no_test() {
    // `Helper.process` may add to the ArrayList the test would pass: no test may rely on the
    // size jreach computes without it.
    let src = "import java.util.List;\npublic class T {\n  public static int f(List<String> xs) {\n    xs.add(\"a\");\n    Helper.process(xs);\n    if (xs.size() == 1) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    match answer(src, 7) {
        GenResult::Unknown(why) => assert!(why.contains("may change"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn arrays_of_objects_beyond_what_synthesis_builds() {
    let point = "  public static class P {\n    public final int x;\n    public P(int x) { this.x = x; }\n  }\n";
    // Five elements, or two elements that are one object: tests pass at most four, each new.
    let src = format!("public class T {{\n{point}  public static int f(P[] ps) {{\n    if (ps.length == 5 && ps[4] != null) {{\n      return 1;\n    }}\n    return 0;\n  }}\n}}\n");
    assert_not_unreachable(&src, 8);
    // Two elements that are one object: the test assigns one element to the other.
    let src = src.replace("ps.length == 5 && ps[4] != null", "ps.length == 2 && ps[0] == ps[1] && ps[0] != null");
    match answer(&src, 8) {
        GenResult::Test(req) => {
            let text = jreach_synth::render_class(&req);
            assert!(text.contains("ps[1] = ps[0];"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // An element that is another parameter's object: the test assigns the parameter's local.
    let other = src
        .replace("f(P[] ps)", "f(P[] ps, P p)")
        .replace("ps[0] == ps[1] && ps[0] != null", "ps.length == 2 && ps[1] == p && p != null");
    match answer(&other, 8) {
        GenResult::Test(req) => {
            let text = jreach_synth::render_class(&req);
            let (declared, assigned) = (text.find("T.P p = ").expect(&text), text.find("] = p;").expect(&text));
            assert!(declared < assigned, "{text}");
        }
        other => panic!("{other:?}"),
    }
    // An element that is an element of another array: beyond what synthesis builds.
    let across = src
        .replace("f(P[] ps)", "f(P[] ps, P[] qs)")
        .replace("ps[0] == ps[1] && ps[0] != null", "qs.length == 1 && ps[1] == qs[0] && ps[1] != null");
    assert_not_unreachable(&across, 8);
    // What synthesis does build: the array as `new T.P[] {...}` of constructed elements.
    let src = src.replace("ps[0] == ps[1] && ps[0] != null", "ps[1] != null && ps[1].x == 3");
    match answer(&src, 8) {
        GenResult::Test(req) => match &req.args[0] {
            jreach_synth::JavaValue::Array { elem_ty, items, .. } => {
                assert_eq!(elem_ty, "T.P");
                assert_eq!(items.len(), 2, "{items:?}");
                let jreach_synth::JavaValue::Constructed { args, .. } = &items[1] else { panic!("{items:?}") };
                assert_eq!(args[0].1, jreach_synth::JavaValue::Int(3));
            }
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

#[test]
fn classes_of_other_packages_only_through_public_members() {
    // `q.Box` is imported from another package: a test in `p` may call only its public members.
    let src = "package p;\nimport q.Box;\npublic class U {\n  public static int f(Box b) {\n    if (b != null && b.get() == 7) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    let other = "package q;\npublic class Box {\n  private int v;\n  public Box() { }\n  void set(int x) { v = x; }\n  public int get() { return v; }\n}\n";
    let imported = |text: &str| GenOptions {
        imported_sources: vec![jreach_synth::ImportedSource { qualified: "q.Box".into(), text: text.into() }],
        ..GenOptions::default()
    };
    let file = SourceFile::parse(src);
    // Only the package-private `set` leaves 7 in the box: no test, and no claim that the line
    // is dead.
    match gen(&file, 5, &imported(other)).expect("a statement") {
        GenResult::Unknown(_) => {}
        other => panic!("{other:?}"),
    }
    // With `set` public, the test calls it, and imports the class.
    let public = other.replace("  void set(", "  public void set(");
    match gen(&file, 5, &imported(&public)).expect("a statement") {
        GenResult::Test(req) => {
            assert_eq!(req.imports, vec!["q.Box".to_string()]);
            let jreach_synth::JavaValue::Constructed { calls, .. } = &req.args[0] else { panic!("{req:?}") };
            assert_eq!(calls.len(), 1, "{req:?}");
            assert_eq!(calls[0].method, "set");
            let text = jreach_synth::render_class(&req);
            assert!(text.contains("import q.Box;"), "{text}");
        }
        other => panic!("{other:?}"),
    }
}

/// Neither `gen` nor `check` calls line `line` of `src` dead.
fn assert_live_everywhere(src: &str, line: usize) {
    assert_not_unreachable(src, line);
    let report = jreach_ide::check_file(&SourceFile::parse(src), std::time::Duration::from_secs(10));
    assert!(report.findings.is_empty(), "check flags live code: {:?}", report.findings);
}

#[test]
fn static_fields_changed_where_jreach_cannot_see() {
    // `Helper.bump` may set `n`; so may a loop's call, or another test before this one.
    let src = "public class T {\n  static int n;\n  public static int f() {\n    n = 0;\n    Helper.bump();\n    if (n == 1) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_live_everywhere(src, 7);
    let src = "public class T {\n  static int n;\n  public static int f(int k) {\n    n = 0;\n    for (int i = 0; i < k; i++) {\n      T.n = i;\n    }\n    if (n == 1) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_live_everywhere(src, 9);
    // A private field a test cannot assign: whatever earlier calls left in it.
    let src = "public class T {\n  private static int n;\n  public static int f() {\n    if (n == 5) {\n      return 1;\n    }\n    n = 5;\n    return 0;\n  }\n}\n";
    assert_live_everywhere(src, 5);
    // What a test does assign: the field, restored after the call.
    let src = src.replace("private static", "static");
    match answer(&src, 5) {
        GenResult::Test(req) => {
            assert_eq!(req.statics.len(), 1, "{req:?}");
            assert_eq!(req.statics[0].value, jreach_synth::JavaValue::Int(5));
            let text = jreach_synth::render_class(&req);
            assert!(text.contains("T.n = 5;") && text.contains("T.n = savedN;"), "{text}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn anonymous_classes_answering_differently_per_call() {
    // A real implementation may answer `open()` differently each time; the test's anonymous
    // class answers one value per method.
    let src = "public class T {\n  public interface Gate {\n    boolean open();\n    int size();\n  }\n  public static int f(Gate g) {\n    if (g.open() && !g.open()) {\n      return 1;\n    }\n    return g.size();\n  }\n}\n";
    assert_live_everywhere(src, 8);
    match answer(src, 10) {
        GenResult::Test(req) => {
            let jreach_synth::JavaValue::Stub { interface, methods } = &req.args[0] else { panic!("{req:?}") };
            assert_eq!(interface, "T.Gate");
            assert_eq!(methods.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), vec!["open", "size"]);
        }
        other => panic!("{other:?}"),
    }
    // The same for an abstract class, whose concrete method calls the abstract one twice.
    let src = "public class T {\n  public abstract static class Gate {\n    public abstract boolean open();\n    public boolean flips() { return open() != open(); }\n  }\n  public static int f(Gate g) {\n    if (g.flips()) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_live_everywhere(src, 8);
    match answer(src, 10) {
        GenResult::Test(req) => {
            let jreach_synth::JavaValue::Constructed { class, body, .. } = &req.args[0] else { panic!("{req:?}") };
            assert_eq!(class, "T.Gate");
            assert_eq!(body.as_ref().map(Vec::len), Some(1), "{body:?}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn receivers_of_abstract_classes() {
    // The test's anonymous subclass answers `next()` with one value; a real subclass may not.
    let src = "public abstract class T {\n  protected abstract int next();\n  protected abstract String name();\n  public int twice() {\n    if (next() != next()) {\n      return 1;\n    }\n    return name().length();\n  }\n}\n";
    assert_live_everywhere(src, 6);
    match answer(src, 8) {
        GenResult::Test(req) => {
            assert_eq!(req.receiver_body.as_ref().map(Vec::len), Some(2), "{req:?}");
            let text = jreach_synth::render_class(&req);
            assert!(text.contains("T obj = new T() {"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // An abstract method returning a type a test cannot write: no subclass, and it says why.
    let src = src.replace("protected abstract String name();", "protected abstract java.util.Date name();");
    match answer(&src, 8) {
        GenResult::Unknown(why) => assert!(why.contains("anonymous subclass"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn receivers_of_abstract_classes_without_abstract_methods() {
    // Nothing to implement: the receiver is an empty anonymous subclass, also of a class that
    // implements a marker interface.
    let src = "public abstract class T implements java.io.Serializable {\n  private int width = 3;\n  protected T() {}\n  public int pad(int n) {\n    if (n + width == 10) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    match answer(src, 6) {
        GenResult::Test(req) => {
            assert_eq!(req.receiver_body, Some(vec![]), "{req:?}");
            let text = jreach_synth::render_class(&req);
            assert!(text.contains("T obj = new T() {};") && text.contains("obj.pad(7)"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // A class that implements an interface, or extends an abstract class, may owe methods it
    // does not declare: no subclass, and it says why.
    for (from, to) in [
        ("implements java.io.Serializable", "implements Comparable<T>"),
        ("implements java.io.Serializable", "extends Base"),
    ] {
        let src = format!("{}\nabstract class Base {{\n  protected abstract int size();\n}}\n", src.replace(from, to));
        match answer(&src, 6) {
            GenResult::Unknown(why) => assert!(why.contains("anonymous subclass"), "{from} -> {to}: {why}"),
            other => panic!("{from} -> {to}: {other:?}"),
        }
    }
    // A concrete class of the file as its superclass owes nothing.
    let src = format!(
        "{}\nclass Base {{\n  protected int size() {{ return 1; }}\n}}\n",
        src.replace("implements java.io.Serializable", "extends Base")
    );
    match answer(&src, 6) {
        GenResult::Test(req) => assert_eq!(req.receiver_body, Some(vec![]), "{req:?}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn calls_through_super_may_change_the_receiver() {
    // `Base.touch` calls `hook`, which `Sub` overrides to set `y`.
    let src = "class Base {\n  void touch() { hook(); }\n  void hook() { }\n}\nclass Sub extends Base {\n  int y;\n  void hook() { y = 7; }\n  int f() {\n    y = 0;\n    super.touch();\n    if (y == 7) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_live_everywhere(src, 12);
    // And `check` still decides the method (a verdict, not "not modelled").
    let report = jreach_ide::check_file(&SourceFile::parse(src), std::time::Duration::from_secs(10));
    let f = report.methods.iter().find(|(m, _)| m.starts_with("f(")).expect("f is checked");
    assert_eq!(f.1, jreach_ide::MethodVerdict::Verdict, "{report:?}");
}

#[test]
fn lists_and_maps_the_method_creates() {
    // Nine elements: more than synthesis follows a list through.
    let src = "import java.util.*;\npublic class T {\n  public static int f() {\n    List<String> xs = new ArrayList<>();\n    for (int i = 0; i < 9; i++) {\n      xs.add(\"a\");\n    }\n    if (xs.size() == 9) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_live_everywhere(src, 9);
    // Handed to code jreach cannot see, which may add to it.
    let src = "import java.util.*;\npublic class T {\n  public static int f() {\n    List<String> xs = new ArrayList<>();\n    Helper.fill(xs);\n    if (xs.size() == 1) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_live_everywhere(src, 7);
    // Followed through `add` and `get`.
    let src = "import java.util.*;\npublic class T {\n  public static int f(String s) {\n    List<String> xs = new ArrayList<>();\n    xs.add(s);\n    if (xs.get(0).equals(\"go\")) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    match answer(src, 7) {
        GenResult::Test(req) => assert_eq!(req.args[0], jreach_synth::JavaValue::Str("go".into())),
        other => panic!("{other:?}"),
    }
    // A HashMap takes a null key; synthesis leaves such paths out.
    let src = "import java.util.*;\npublic class T {\n  public static int f(String k) {\n    Map<String, Integer> m = new HashMap<>();\n    m.put(k, 1);\n    if (k == null && m.size() == 1) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_live_everywhere(src, 7);
}

#[test]
fn objects_only_a_builder_creates() {
    // The builder's setter takes an `Object`, which a test cannot write: no test, no claim.
    let src = "public class T {\n  private final int n;\n  private T(int n) { this.n = n; }\n  public static class B {\n    private int n;\n    public B n(Object o) { n = 7; return this; }\n    public T build() { return new T(n); }\n  }\n  public static int f(T t) {\n    if (t.n == 7) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_not_unreachable(src, 11);
    // With a writable setter: one chain, `new T.B().n(7).build()`.
    let src = src.replace("public B n(Object o) { n = 7;", "public B n(int v) { n = v;");
    match answer(&src, 11) {
        GenResult::Test(req) => {
            let text = jreach_synth::render_class(&req);
            assert!(text.contains("new T.B().n(7).build()"), "{text}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn subclasses_that_override_what_a_parameter_calls() {
    // Only a `Premium` charges more than 5; a test creates an `Account` as exactly that class.
    let src = "class T {\n  static class Account {\n    int fee() { return 5; }\n  }\n  static class Premium extends Account {\n    int fee() { return 60; }\n  }\n  static int f(Account a) {\n    if (a.fee() > 50) {\n      return 1;\n    }\n    return 0;\n  }\n  static int g(Account a) {\n    Account b = a == null ? new Premium() : new Account();\n    if (b.fee() > 50) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_live_everywhere(src, 10);
    // A `Premium` the method creates itself, seen as an `Account`: its override still runs.
    assert_live_everywhere(src, 17);
    // The receiver too: `Account.describe` runs `fee()`, which a subclass may override.
    let src = src.replace("int fee() { return 5; }", "int fee() { return 5; }\n    int describe() {\n      if (fee() > 50) {\n        return 1;\n      }\n      return 0;\n    }");
    assert_live_everywhere(&src, 6);
}

#[test]
fn optionals_through_calls_jreach_does_not_model() {
    // `map` takes a function: not modelled, so no test, and never "unreachable".
    let src = "import java.util.Optional;\nclass T {\n  static int f(Optional<String> o) {\n    if (o.map(String::length).orElse(0) > 3) {\n      return 1;\n    }\n    return 0;\n  }\n  static int g(Optional<String> o, String s) {\n    Optional<String> p = s == null ? o : Optional.of(s);\n    if (p.isPresent() && p.get().length() == 5) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_live_everywhere(src, 5);
    // An Optional that is either a parameter or one the method made: both are followed.
    match answer(src, 12) {
        GenResult::Test(_) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn list_parameters_that_are_one_list() {
    // Only `f(xs, xs)` reaches the line: adding to `b` grows `a`.
    let src = "import java.util.List;\nclass T {\n  static int f(List<String> a, List<String> b) {\n    int n = a.size();\n    b.add(\"x\");\n    if (a.size() == n + 1) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    match answer(src, 7) {
        GenResult::Test(req) => assert_eq!(req.args[1], jreach_synth::JavaValue::SameAs(0), "{req:?}"),
        other => panic!("{other:?}"),
    }
    // The least aliasing: two lists of their own when that is enough.
    let apart = src.replace("a.size() == n + 1", "b.size() == 1");
    match answer(&apart, 7) {
        GenResult::Test(req) => assert!(!matches!(req.args[1], jreach_synth::JavaValue::SameAs(_)), "{req:?}"),
        other => panic!("{other:?}"),
    }
    // Maps too.
    let src = "import java.util.Map;\nclass T {\n  static int f(Map<String, Integer> a, Map<String, Integer> b) {\n    if (a == null || a.containsKey(\"k\")) {\n      return 0;\n    }\n    b.put(\"k\", 1);\n    if (a.containsKey(\"k\")) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_live_everywhere(src, 9);
    match answer(src, 9) {
        GenResult::Test(req) => assert_eq!(req.args[1], jreach_synth::JavaValue::SameAs(0), "{req:?}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn grids_of_objects_beyond_what_synthesis_builds() {
    let point = "  public static class P {\n    public final int x;\n    public P(int x) { this.x = x; }\n  }\n";
    // What synthesis builds: two rows of at most two elements each.
    let src = format!("public class T {{\n{point}  public static int f(P[][] g) {{\n    if (g.length == 2 && g[1].length == 2 && g[1][0] != null && g[1][0].x == 4) {{\n      return 1;\n    }}\n    return 0;\n  }}\n}}\n");
    match answer(&src, 8) {
        GenResult::Test(req) => match &req.args[0] {
            jreach_synth::JavaValue::Array { elem_ty, items, .. } => {
                assert_eq!(elem_ty, "T.P[]");
                assert_eq!(items.len(), 2, "{items:?}");
            }
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
    // Three rows, or two rows that are one array: beyond that, and never "dead".
    let wide = src.replace("g.length == 2 && g[1].length == 2", "g.length == 3 && g[2].length == 2");
    assert_not_unreachable(&wide, 8);
    let shared = src.replace("g[1].length == 2 && g[1][0] != null && g[1][0].x == 4", "g[0] == g[1] && g[0] != null");
    assert_not_unreachable(&shared, 8);
}

#[test]
fn objects_only_reflection_makes() {
    // No constructor, factory or builder a test may call: the receiver is made by reflection,
    // and the test says so.
    let dice = "public class T {\n  public static final class Dice {\n    private final java.util.Random rng;\n    private int rolls;\n    private Dice(java.util.Random rng) { this.rng = rng; }\n    public static int roll(long seed) { return new Dice(new java.util.Random(seed)).next(); }\n    int next() {\n      if (rolls > 2) {\n        return 0;\n      }\n      if (rng != null) {\n        rolls++;\n        return rng.nextInt(6);\n      }\n      return -1;\n    }\n  }\n}\n";
    match answer(dice, 9) {
        GenResult::Test(req) => {
            let fields = req.receiver_fields.as_ref().expect("a receiver made by reflection");
            assert!(fields.iter().any(|(f, v)| f == "rolls" && *v == jreach_synth::JavaValue::Int(3)), "{fields:?}");
            let text = jreach_synth::render_class(&req);
            assert!(text.contains("made by reflection"), "{text}");
            assert!(text.contains("setFieldByReflection(obj, \"rolls\", 3);"), "{text}");
            assert!(text.contains("private static <T> T allocateByReflection(Class<T> type)"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // A field of a type jreach cannot see stays null in the object it makes: the line needing
    // it set gets no test, and is not called dead.
    match answer(dice, 12) {
        GenResult::Unknown(_) => {}
        other => panic!("{other:?}"),
    }
    // A field of a class a test makes with its constructor, inside an object made by
    // reflection: not written, and not called dead either.
    let holder = "public class T {\n  public static class Box {\n    public final int v;\n    public Box(int v) { this.v = v; }\n  }\n  public static final class Holder {\n    private Box box;\n    private Holder() { }\n  }\n  public static int f(Holder h) {\n    if (h != null && h.box != null && h.box.v == 3) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    assert_not_unreachable(holder, 12);
    // A `final` field with a constant initializer may be inlined by javac where it is read:
    // setting it by reflection would not change what runs, so no reflection, and no test.
    let constant = "public class T {\n  public static final class Limit {\n    private final int max = 5;\n    private int used;\n    private Limit() { }\n    int left() {\n      if (used > max) {\n        return 0;\n      }\n      return max - used;\n    }\n  }\n}\n";
    match answer(constant, 8) {
        GenResult::Unknown(why) => assert!(why.contains("no accessible constructor"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn reflection_only_without_a_public_route() {
    // A public factory makes the object: the test uses it, never reflection.
    let src = "public class T {\n  public static final class Id {\n    private final int n;\n    private Id(int n) { this.n = n; }\n    public static Id of(int n) { return new Id(n); }\n    public int get() { return n; }\n  }\n  public static int f(Id id) {\n    if (id != null && id.get() == 7) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    match answer(src, 10) {
        GenResult::Test(req) => {
            let text = jreach_synth::render_class(&req);
            assert!(text.contains("T.Id.of(7)"), "{text}");
            assert!(!text.contains("Reflection"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // A public constructor whose argument jreach cannot write: a route exists, so no
    // reflection; the line gets no test and is not called dead.
    let src = src
        .replace("private Id(int n) { this.n = n; }", "public Id(java.util.Random r) { this.n = r.nextInt(); }")
        .replace("    public static Id of(int n) { return new Id(n); }\n", "");
    match answer(&src, 9) {
        GenResult::Unknown(_) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn functions_the_solver_cannot_reason_about() {
    // The solver takes `Math.sin(t)` as any double; the search on the interpreter finds a `t`.
    let src = "public class W {\n  public static int f(double t) {\n    if (Math.sin(t) > 0.9) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    match answer(src, 4) {
        GenResult::Test(req) => {
            let jreach_synth::JavaValue::Double(t) = req.args[0] else { panic!("{req:?}") };
            assert!(t.sin() > 0.9, "{t}");
        }
        other => panic!("{other:?}"),
    }
    // No sine is above 1, and jreach cannot prove it: no test, and no claim either way.
    let src = src.replace("Math.sin(t) > 0.9", "Math.sin(t) > 1.5");
    match answer(&src, 4) {
        GenResult::Unknown(_) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn receivers_whose_constructor_takes_collaborators() {
    // The receiver's constructor takes an object of the file, a lambda and a list: the test
    // creates them inside `new Cart(...)`.
    let src = "import java.util.List;\npublic class Shop {\n  public interface Pricing { int price(int qty); }\n  public static class Config {\n    private final int limit;\n    public Config(int limit) { this.limit = limit; }\n    public int limit() { return limit; }\n  }\n  public static class Cart {\n    private final Config config;\n    private final Pricing pricing;\n    private final List<String> banned;\n    public Cart(Config config, Pricing pricing, List<String> banned) { this.config = config; this.pricing = pricing; this.banned = banned; }\n    public int total(String item, int qty) {\n      if (banned.contains(item) || qty > config.limit()) {\n        return -1;\n      }\n      if (pricing.price(qty) > 100) {\n        return 1;\n      }\n      return 0;\n    }\n  }\n}\n";
    match answer(src, 19) {
        GenResult::Test(req) => {
            let text = jreach_synth::render_class(&req);
            assert!(text.contains("new Shop.Cart(new Shop.Config("), "{text}");
            assert!(text.contains("x -> "), "{text}");
            assert!(text.contains("import java.util.List;"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // Four answers from the lambda: beyond what a test passes, and not called dead.
    let src = src.replace(
        "pricing.price(qty) > 100",
        "pricing.price(1) == 1 && pricing.price(2) == 2 && pricing.price(3) == 3 && pricing.price(4) == 4",
    );
    assert_not_unreachable(&src, 19);
}

#[test]
fn member_types_shadow_the_package_classes_of_their_name() {
    // In `Checkout`, `Pricing` is its member interface, not the package's class `Pricing`.
    let src = "public class Checkout {\n  public interface Pricing { int price(int qty); }\n  public static int total(Pricing p) {\n    if (p != null && p.price(2) > 100) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    let package = "public class Pricing {\n  public final int base;\n  public Pricing(int base) { this.base = base; }\n  public int price(int qty) { return base * qty; }\n}\n";
    let file = SourceFile::parse(src);
    let opts = GenOptions { package_sources: vec![package.to_string()], ..GenOptions::default() };
    match gen(&file, 4, &opts).expect("a statement") {
        GenResult::Test(req) => {
            let text = jreach_synth::render_class(&req);
            assert!(text.contains("Checkout.total(x -> ") || text.contains("Checkout.total(ignored -> "), "{text}");
            assert!(!text.contains("new Pricing("), "{text}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn small_unroll_bounds_are_limits_not_proofs() {
    // The line needs five iterations; with at most two unrolled, the answer is "unknown", at
    // every bound, for a builder, a local and a field the loop changes.
    let src = "class T {\n  static int f(int n) {\n    StringBuilder t = new StringBuilder();\n    int hits = 0;\n    for (int i = 0; i < n; i++) {\n      if (t.length() > 3) {\n        hits++;\n      }\n      t.append('a');\n    }\n    return hits;\n  }\n  int count;\n  int g(int n) {\n    for (int i = 0; i < n; i++) {\n      count++;\n    }\n    if (count == 4) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    for unroll in [1, 2, 3] {
        for line in [7, 19] {
            let opts = GenOptions { unroll, ..GenOptions::default() };
            let got = gen(&SourceFile::parse(src), line - 1, &opts).expect("a statement on the line");
            assert!(!matches!(got, GenResult::Unreachable(_)), "--unroll {unroll}, line {line}: {got:?}");
        }
    }
    // With room to unroll, a test.
    assert!(matches!(answer(src, 7), GenResult::Test(_)));
    assert!(matches!(answer(src, 19), GenResult::Test(_)));
}

#[test]
fn string_builders_shared_changed_elsewhere_or_in_loops() {
    // Aliases, a callee, an unseen callee and a loop all change the builder.
    let src = "import java.util.function.Consumer;\nclass T {\n  static void add(StringBuilder sb) { sb.append('x'); }\n  static int alias() {\n    StringBuilder a = new StringBuilder();\n    StringBuilder b = a;\n    b.append('x');\n    if (a.length() > 0) {\n      return 1;\n    }\n    return 0;\n  }\n  static int callee() {\n    StringBuilder a = new StringBuilder();\n    add(a);\n    if (a.length() > 0) {\n      return 1;\n    }\n    return 0;\n  }\n  static int unseen(Consumer<StringBuilder> c) {\n    StringBuilder a = new StringBuilder();\n    c.accept(a);\n    if (a.length() > 0) {\n      return 1;\n    }\n    return 0;\n  }\n  static int loop(String s) {\n    StringBuilder r = new StringBuilder();\n    for (int i = 0; i < s.length(); i++) {\n      if (s.charAt(i) == '}' && r.length() > 0) {\n        return r.length();\n      }\n      r.append(s.charAt(i));\n    }\n    return -1;\n  }\n}\n";
    for line in [9, 17, 25, 33] {
        assert_not_unreachable(src, line);
    }
    let report = jreach_ide::check_file(&SourceFile::parse(src), std::time::Duration::from_secs(10));
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert!(matches!(answer(src, 9), GenResult::Test(_)));
    assert!(matches!(answer(src, 17), GenResult::Test(_)));
}

#[test]
fn methods_of_private_classes_are_reached_through_their_callers() {
    // A test cannot name `T.Rule`: its method is reached through `T.f`, which creates one.
    let src = "public class T {\n  private static class Rule {\n    int limit;\n    Rule(int limit) { this.limit = limit; }\n    int check(int x) {\n      if (x > limit) {\n        return 1;\n      }\n      return 0;\n    }\n  }\n  public static int f(int x) {\n    return new Rule(5).check(x);\n  }\n  private static class Unused {\n    int g(int x) {\n      if (x == 3) {\n        return 1;\n      }\n      return 0;\n    }\n  }\n}\n";
    match answer(src, 7) {
        GenResult::Test(req) => {
            assert_eq!(req.method, "f", "{req:?}");
            let text = jreach_synth::render_class(&req);
            // The code does not name the private class; the comment names where the line is.
            let code: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
            assert!(!code.concat().contains("Rule"), "{text}");
            assert!(text.contains("// Reaches line 7 in Rule.check(int): return 1;"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    // Nothing a test may call calls `Unused.g`: no test, and it says why.
    match answer(src, 18) {
        GenResult::Unknown(why) => assert!(why.contains("is in the private class T.Unused"), "{why}"),
        other => panic!("{other:?}"),
    }
    // Not a proof either: another class of the file may still subclass it.
    assert_not_unreachable(src, 18);
}

#[test]
fn search_starts_create_their_objects() {
    // The start enters the method's body, so every created input has a way to be made: two
    // parameters of one class (the second may be the first), beside a string the model cannot
    // see through.
    let src = "public class T {\n  public static class Box {\n    int v;\n    public Box(int v) { this.v = v; }\n  }\n  public static int f(Box a, Box b, String s) {\n    int h = s.hashCode();\n    if (h == 123456789 && a.v == b.v) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    let file = SourceFile::parse(src);
    let start = search_start(&file, 8, &GenOptions::default()).expect("a start");
    assert_eq!(start.method, "f");
    assert_eq!(start.args.len(), 3, "{start:?}");
    let text = jreach_synth::render_class(&start);
    assert!(text.contains("T.f("), "{text}");
}

#[test]
fn statements_of_class_initialization_are_reached_by_loading_the_class() {
    let src = "package p;\npublic class T {\n  static final int LIMIT = limit();\n  static int[] table = new int[4];\n  static {\n    table[0] = 1;\n    Runnable later = () -> {\n      table[1] = 2;\n    };\n  }\n  private static int limit() {\n    return 7;\n  }\n  public static class Inner {\n    static int n;\n    static {\n      n = 3;\n    }\n  }\n}\n";
    for (line, class) in [(6, "p.T"), (12, "p.T"), (17, "p.T$Inner")] {
        match answer(src, line) {
            GenResult::Test(req) => {
                assert!(req.initializes_class && req.declares_checked, "{req:?}");
                let text = jreach_synth::render_class(&req);
                assert!(text.contains(&format!("Class.forName(\"{class}\");")), "line {line}: {text}");
                assert!(text.contains("throws Exception"), "{text}");
            }
            other => panic!("line {line}: {other:?}"),
        }
    }
    // The lambda's body runs when something calls it, not as the class is initialized.
    // Nor does a local class's block, whose class a test cannot name.
    let local = "public class T {\n  public static int f() {\n    class Local {\n      static int n;\n      static {\n        n = 3;\n      }\n    }\n    return Local.n;\n  }\n}\n";
    let local = gen(&SourceFile::parse(local), 5, &GenOptions::default());
    assert!(!matches!(local, Ok(GenResult::Test(_))), "{local:?}");
    let lambda = gen(&SourceFile::parse(src), 7, &GenOptions::default());
    assert!(!matches!(lambda, Ok(GenResult::Test(_))), "{lambda:?}");
    // A private method the anonymous class of a static field calls runs when that object's
    // method is called, not as the class is initialized: loading the class is no test of it,
    // nor is calling `run()` on a `T`.
    let held = "package p;\npublic class T {\n  private static final Runnable R = new Runnable() {\n    @Override\n    public void run() {\n      later(3);\n    }\n  };\n  private static int later(int n) {\n    int m = n + 1;\n    return m;\n  }\n}\n";
    match answer(held, 10) {
        GenResult::Unknown(why) => assert!(why.why.contains("later(int) is private"), "{why:?}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn private_methods_that_anonymous_classes_call() {
    // `later` is called by the anonymous class `go()` creates: a test enters by `go()`, and
    // only the run on the JVM shows that the line runs.
    let src = "package p;\npublic class T {\n  public static int go(int k) {\n    Runnable r = new Runnable() {\n      @Override\n      public void run() {\n        later(k);\n      }\n    };\n    r.run();\n    return k;\n  }\n  private static int later(int n) {\n    int m = n + 1;\n    return m;\n  }\n}\n";
    let start = search_start(&SourceFile::parse(src), 13, &GenOptions::default()).expect("a start");
    assert_eq!(start.method, "go", "{start:?}");
    assert!(jreach_synth::render_class(&start).contains("T.go("), "{start:?}");
}

#[test]
fn receivers_whose_constructor_takes_a_class_of_another_file() {
    // The constructor's parameter is a class of the package, in a file of its own: the test
    // makes one (or passes null) like any created input. Before, only the file's own classes
    // counted as writable there, and the method was refused up front.
    let src = "package p;\npublic class Meter {\n  private final Scale scale;\n  public Meter(Scale scale) { this.scale = scale; }\n  public int bump(int x) {\n    if (x > 10) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    let scale =
        "package p;\npublic class Scale {\n  final int unit;\n  public Scale(int unit) { this.unit = unit; }\n}\n";
    let file = SourceFile::parse(src);
    let alone = gen(&file, 6, &GenOptions::default()).expect("a statement on the line");
    assert!(matches!(alone, GenResult::Unknown(_)), "{alone:?}");
    let opts = GenOptions { package_sources: vec![scale.to_string()], ..GenOptions::default() };
    match gen(&file, 6, &opts).expect("a statement on the line") {
        GenResult::Test(req) => {
            let text = jreach_synth::render_class(&req);
            assert!(text.contains("new Meter("), "{text}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn jdk_calls_that_leave_their_arguments_as_they_were() {
    // `Arrays.copyOf` copies its array: the path goes on past it. A call that may change the
    // array (`Arrays.fill`) still ends the path, since the replay could not follow it.
    let src = "class T {\n  static int f(int[] a, int x) {\n    int[] b = java.util.Arrays.copyOf(a, 3);\n    if (x > 5) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    match answer(src, 5) {
        GenResult::Test(_) => {}
        other => panic!("{other:?}"),
    }
    let fill = src.replace("int[] b = java.util.Arrays.copyOf(a, 3);", "java.util.Arrays.fill(a, 3);");
    match answer(&fill, 5) {
        GenResult::Unknown(why) => assert!(why.contains("may change"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn calls_that_bring_the_receiver_into_a_state_come_before_getters() {
    // A reader with more methods than a search takes: the getters (which assign and call
    // nothing) come last, so `next()` and `peek()`, which move it, are among the calls chosen.
    let getters: String = (0..16).map(|i| format!("  public int get{i}() {{ return pos + {i}; }}\n")).collect();
    let src = format!(
        "public class Rd {{\n  private int pos;\n{getters}  public int next() {{ return pos++; }}\n  public int peek() {{ return look(); }}\n  private int look() {{ return pos; }}\n  public int at() {{\n    if (pos == 3) {{\n      return 1;\n    }}\n    return 0;\n  }}\n}}\n"
    );
    let line = src.lines().position(|l| l.contains("return 1;")).expect("target");
    let start = search_start(&SourceFile::parse(&src), line, &GenOptions::default()).expect("a start");
    let choice = start.receiver_call_choices.first().expect("calls on the receiver");
    let names: Vec<&str> = choice.calls.iter().map(|c| c.method.as_str()).collect();
    assert_eq!(&names[..2], ["next", "peek"], "{names:?}");
    assert!(!names.contains(&"get15"), "{names:?}");
}

#[test]
fn an_unknown_names_the_call_it_comes_from() {
    // `today.getYear()` is unknown because `LocalDate.now()` is: the reason names the clock.
    let src = "import java.time.LocalDate;\nclass Due {\n    static int overdue(int days) {\n        LocalDate today = LocalDate.now();\n        if (today.getYear() > 3000 && days > 5) {\n            return 1;\n        }\n        return 0;\n    }\n}\n";
    match answer(src, 6) {
        GenResult::Unknown(why) => assert!(
            why.contains("it comes from `LocalDate.now()`, the machine's clock, which a test cannot set"),
            "{why}"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn code_that_reads_standard_input_gets_a_searched_one() {
    let src = "import java.util.Scanner;\npublic class Echo {\n    private static Scanner in;\n    public static void main(String[] args) {\n        in = new Scanner(System.in);\n        String a = in.nextLine();\n        String b = in.nextLine();\n        if (a.equals(b)) {\n            System.out.println(\"same\");\n        }\n    }\n}\n";
    let start = search_start(&SourceFile::parse(src), 8, &GenOptions::default()).expect("a start");
    let stdin: Vec<_> = start.statics.iter().filter(|s| s.is_stdin()).collect();
    assert_eq!(stdin.len(), 1, "{:?}", start.statics);
    assert!(matches!(&stdin[0].value, jreach_synth::JavaValue::Str(s) if s.lines().count() >= 2), "{:?}", stdin[0]);
    // Code that does not read it gets none.
    let plain = "public class P {\n    public static int f(int x) {\n        if (Integer.toString(x).length() > 3) {\n            return 1;\n        }\n        return 0;\n    }\n}\n";
    let start = search_start(&SourceFile::parse(plain), 3, &GenOptions::default()).expect("a start");
    assert!(start.statics.is_empty(), "{:?}", start.statics);
}

#[test]
fn an_object_the_code_tests_with_instanceof_is_searched_as_those_types_first() {
    let src = "public class K {\n  public static int kind(Object v) {\n    if (v instanceof Long) {\n      return 1;\n    }\n    if (v instanceof java.util.Calendar) {\n      return 2;\n    }\n    return 0;\n  }\n}\n";
    assert_not_unreachable(src, 4);
    let start = search_start(&SourceFile::parse(src), 3, &GenOptions::default()).expect("a start");
    match &start.args[0] {
        jreach_synth::JavaValue::Choice { options, .. } => {
            let written: Vec<String> = options.iter().map(jreach_synth::literal).collect();
            assert_eq!(written[..3], ["1L", "new GregorianCalendar(2024, 0, 31, 12, 30, 15)", "\"a\""], "{written:?}");
        }
        other => panic!("{other:?}"),
    }
    assert!(start.imports.iter().any(|i| i == "java.util.GregorianCalendar"), "{:?}", start.imports);
}

#[test]
fn values_of_type_variables_are_written_as_literals() {
    // `K` is taken as `Integer`, and `Node.getKey()` returns a `K`: that makes it no builder of
    // integers (the raw `new Node(...).getKey()` is an `Object`, which does not compile as one).
    let src = "public class T<K extends Comparable<K>> {\n  static final class Node<K> {\n    final K key;\n    Node(K key) { this.key = key; }\n    public K getKey() { return key; }\n  }\n  Node<K> root;\n  public int find(K key, int h) {\n    int x = h * 31 + 7;\n    if (x == 100 && key != null && root == null) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
    let file = SourceFile::parse(src);
    let start = search_start(&file, 10, &GenOptions::default()).expect("a start");
    let text = jreach_synth::render_class(&start);
    assert!(!text.contains("getKey()"), "{text}");
    match answer(src, 11) {
        GenResult::Test(req) => {
            let text = jreach_synth::render_class(&req);
            assert!(!text.contains("getKey()"), "{text}");
        }
        other => panic!("{other:?}"),
    }
}
