//! Snapshot tests of the lowering: inline Java fixtures, dumped with `jreach_ir::dump`, compared
//! with expect-test (`UPDATE_EXPECT=1 cargo test -p jreach-ir` rewrites the snapshots after a
//! deliberate change). Every dump is also run through the verifier.

use expect_test::{expect, Expect};
use jreach_ir::lower::{lower_method, LowerOptions};
use jreach_ir::LowerMode;
use jreach_syntax::{MethodInfo, SourceFile};

fn check(src: &str, method: &str, mode: LowerMode, expected: Expect) {
    let file = SourceFile::parse(src);
    let m = MethodInfo::all(&file).into_iter().find(|m| m.name == method).expect("the fixture has the method");
    let f = lower_method(&file, &m, &LowerOptions { mode, ..Default::default() });
    if let Err(errors) = jreach_ir::verify::verify(&f) {
        panic!("{method} does not verify: {errors:#?}");
    }
    expected.assert_eq(&jreach_ir::dump::dump(&f, Some(&file.lines)));
}

#[test]
fn phi_at_a_merge() {
    check(
        "class A {\n  static int f(int a) {\n    int x = 0;\n    if (a < 0) {\n      x = 1;\n    }\n    return x;\n  }\n}\n",
        "f",
        LowerMode::Synthesis { unroll: 2 },
        expect![[r#"
            fn A.f(a: int) -> int [synthesis, unroll 2]
            b0:
              ; stmt line 3
              ; stmt line 4
              v0 = param 0 (a): int
              v1 = const 0: int
              v2 = const 0: int
              v3 = lt v0, v2: boolean
              branch v3 ? b1 : b2  ; a < 0
            b1: <- b0
              ; stmt line 4
              ; stmt line 5
              v4 = const 1: int
              jump b3
            b2: <- b0
              jump b3
            b3: <- b1, b2
              ; stmt line 7
              v5 = phi [b1 v4] [b2 v1]: int
              jump b4
            b4: <- b3
              return v5
            proof blockers: (none)
        "#]],
    );
}

#[test]
fn short_circuit_and_division() {
    check(
        "class A {\n  static int f(int a, int b) {\n    if (b != 0 && a / b > 2 || a == 7) {\n      return 1;\n    }\n    return a % b;\n  }\n}\n",
        "f",
        LowerMode::Synthesis { unroll: 2 },
        expect![[r#"
            fn A.f(a: int, b: int) -> int [synthesis, unroll 2]
            b0:
              ; stmt line 3
              v0 = param 0 (a): int
              v1 = param 1 (b): int
              v2 = const 0: int
              v3 = ne v1, v2: boolean
              branch v3 ? b1 : b4  ; b != 0
            b1: <- b0
              v4 = const 0: int
              v5 = eq v1, v4: boolean
              branch v5 ? b2 : b3
            b2: <- b1
              throw ArithmeticException  ; line 3
            b3: <- b1
              v6 = div v0, v1: int
              v7 = const 2: int
              v8 = gt v6, v7: boolean
              branch v8 ? b5 : b4  ; a / b > 2
            b4: <- b0, b3
              v10 = const 7: int
              v11 = eq v0, v10: boolean
              branch v11 ? b5 : b6  ; a == 7
            b5: <- b3, b4
              ; stmt line 3
              ; stmt line 4
              v12 = const 1: int
              jump b10
            b6: <- b4
              jump b7
            b7: <- b6
              ; stmt line 6
              v14 = const 0: int
              v15 = eq v1, v14: boolean
              branch v15 ? b8 : b9
            b8: <- b7
              throw ArithmeticException  ; line 6
            b9: <- b7
              v16 = rem v0, v1: int
              jump b10
            b10: <- b5, b9
              v17 = phi [b5 v12] [b9 v16]: int
              return v17
            proof blockers: (none)
        "#]],
    );
}

#[test]
fn unrolled_loop() {
    check(
        "class A {\n  static int f(int n) {\n    int i = 0;\n    while (i < n) {\n      i++;\n    }\n    return i;\n  }\n}\n",
        "f",
        LowerMode::Synthesis { unroll: 2 },
        expect![[r#"
            fn A.f(n: int) -> int [synthesis, unroll 2]
            b0:
              ; stmt line 3
              ; stmt line 4
              v0 = param 0 (n): int
              v1 = const 0: int
              v2 = lt v1, v0: boolean
              branch v2 ? b1 : b6  ; i < n
            b1: <- b0
              ; stmt line 4
              ; stmt line 5
              v3 = const 1: int
              v4 = add v1, v3: int
              jump b2
            b2: <- b1
              v5 = lt v4, v0: boolean
              branch v5 ? b3 : b6  ; i < n
            b3: <- b2
              ; stmt line 4
              ; stmt line 5
              v6 = const 1: int
              v7 = add v4, v6: int
              jump b4
            b4: <- b3
              v8 = lt v7, v0: boolean
              branch v8 ? b5 : b6  ; i < n
            b5: <- b4
              cutoff unroll-bound: a loop needs more iterations than the unroll bound
            b6: <- b0, b2, b4
              ; stmt line 7
              v9 = phi [b0 v1] [b2 v4] [b4 v7]: int
              jump b7
            b7: <- b6
              return v9
            b8:
              cutoff unsupported: unfinished block
            proof blockers:
              - a loop needs more iterations than the unroll bound
        "#]],
    );
}

#[test]
fn abstracted_loop() {
    check(
        "class A {\n  static int f(int n) {\n    int i = 0;\n    while (i < n) {\n      i++;\n    }\n    return i;\n  }\n}\n",
        "f",
        LowerMode::OverApprox,
        expect![[r#"
            fn A.f(n: int) -> int [over-approximation]
            b0:
              ; stmt line 3
              ; stmt line 4
              v0 = param 0 (n): int
              v1 = const 0: int
              jump b1
            b1: <- b0
              v2 = nondet havoc (i after any number of loop iterations): int
              v3 = lt v2, v0: boolean
              branch v3 ? b2 : b4  ; i < n
            b2: <- b1
              ; stmt line 4
              ; stmt line 5
              v4 = const 1: int
              v5 = add v2, v4: int
              jump b3
            b3: <- b2
              cutoff loop-iteration: end of an abstracted loop iteration
            b4: <- b1
              ; stmt line 7
              jump b5
            b5: <- b4
              return v2
            proof blockers: (none)
        "#]],
    );
}

#[test]
fn try_catch_finally_and_throw() {
    check(
        "class A {\n  static int f(int a) {\n    int r;\n    try {\n      r = 10 / a;\n      if (r > 5) throw new IllegalStateException();\n    } catch (ArithmeticException e) {\n      r = -1;\n    } finally {\n      a++;\n    }\n    return r + a;\n  }\n}\n",
        "f",
        LowerMode::Synthesis { unroll: 2 },
        expect![[r#"
            fn A.f(a: int) -> int [synthesis, unroll 2]
            b0:
              ; stmt line 3
              ; stmt line 4
              ; stmt line 4
              ; stmt line 5
              v0 = param 0 (a): int
              v1 = const 10: int
              v2 = const 0: int
              v3 = eq v0, v2: boolean
              branch v3 ? b1 : b3
            b1: <- b0
              jump b2
            b2: <- b1
              ; stmt line 7
              ; stmt line 8
              ; stmt line 9
              ; stmt line 10
              v11 = nondet opaque (the caught exception): ref
              v12 = const 1: int
              v13 = neg v12: int
              v14 = const 1: int
              v15 = add v0, v14: int
              jump b7
            b3: <- b0
              ; stmt line 6
              v4 = div v1, v0: int
              v5 = const 5: int
              v6 = gt v4, v5: boolean
              branch v6 ? b4 : b5  ; r > 5
            b4: <- b3
              ; stmt line 6
              ; stmt line 9
              ; stmt line 10
              v7 = const 1: int
              v8 = add v0, v7: int
              throw IllegalStateException  ; line 6
            b5: <- b3
              jump b6
            b6: <- b5
              ; stmt line 9
              ; stmt line 10
              v9 = const 1: int
              v10 = add v0, v9: int
              jump b7
            b7: <- b6, b2
              ; stmt line 12
              v16 = phi [b6 v4] [b2 v13]: int
              v17 = phi [b6 v10] [b2 v15]: int
              v18 = add v16, v17: int
              jump b8
            b8: <- b7
              return v18
            proof blockers: (none)
        "#]],
    );
}

#[test]
fn switch_with_fall_through_and_inlined_call() {
    check(
        "class A {\n  static int twice(int v) { return 2 * v; }\n  static int f(int d) {\n    int k;\n    switch (d) {\n      case 1: k = 0; break;\n      case 3: k = 2;\n      case 4: k = twice(3); break;\n      default: k = 1;\n    }\n    return k;\n  }\n}\n",
        "f",
        LowerMode::Synthesis { unroll: 2 },
        expect![[r#"
            fn A.f(d: int) -> int [synthesis, unroll 2]
            b0:
              ; stmt line 4
              ; stmt line 5
              v0 = param 0 (d): int
              v1 = const 1: int
              v2 = eq v0, v1: boolean
              branch v2 ? b1 : b2  ; d == 1
            b1: <- b0
              ; stmt line 6
              ; stmt line 6
              v7 = const 0: int
              jump b9
            b2: <- b0
              v3 = const 3: int
              v4 = eq v0, v3: boolean
              branch v4 ? b3 : b4  ; d == 3
            b3: <- b2
              ; stmt line 7
              v8 = const 2: int
              jump b5
            b4: <- b2
              v5 = const 4: int
              v6 = eq v0, v5: boolean
              branch v6 ? b5 : b7  ; d == 4
            b5: <- b4, b3
              ; stmt line 8
              ; stmt line 2
              v9 = const 3: int
              v10 = const 2: int
              v11 = mul v10, v9: int
              jump b6
            b6: <- b5
              ; stmt line 8
              jump b9
            b7: <- b4
              jump b8
            b8: <- b7
              ; stmt line 9
              v12 = const 1: int
              jump b9
            b9: <- b1, b6, b8
              ; stmt line 11
              v13 = phi [b1 v7] [b6 v11] [b8 v12]: int
              jump b10
            b10: <- b9
              return v13
            proof blockers: (none)
        "#]],
    );
}

#[test]
fn strings() {
    check(
        "class A {\n  static boolean f(String s) {\n    String t = s.trim();\n    return t.startsWith(\"#\") && t.length() == 3;\n  }\n}\n",
        "f",
        LowerMode::Synthesis { unroll: 2 },
        expect![[r##"
            fn A.f(s: String) -> boolean [synthesis, unroll 2]
            b0:
              ; stmt line 3
              v0 = param 0 (s): String
              v1 = str.isnull v0: boolean
              branch v1 ? b1 : b2
            b1: <- b0
              throw NullPointerException  ; line 3
            b2: <- b0
              ; stmt line 4
              v2 = str.trim v0: String
              v3 = const "#": String
              v4 = str.startswith v2, v3: boolean
              branch v4 ? b3 : b5  ; t.startsWith("#")
            b3: <- b2
              v5 = str.length v2: int
              v6 = const 3: int
              v7 = eq v5, v6: boolean
              branch v7 ? b4 : b5  ; t.length() == 3
            b4: <- b3
              v8 = const true: boolean
              jump b6
            b5: <- b2, b3
              v9 = const false: boolean
              jump b6
            b6: <- b4, b5
              v10 = phi [b4 v8] [b5 v9]: boolean
              jump b7
            b7: <- b6
              return v10
            proof blockers:
              - string inputs are limited to printable characters when looking for tests
        "##]],
    );
}

#[test]
fn arrays_with_bounds_and_null_checks() {
    check(
        "class A {\n  static int f(int[] a, int i) {\n    a[i] += 2;\n    return a.length;\n  }\n}\n",
        "f",
        LowerMode::Synthesis { unroll: 2 },
        expect![[r#"
            fn A.f(a: array, i: int) -> int [synthesis, unroll 2]
            b0:
              ; stmt line 3
              v0 = arr.init: memory
              v1 = param 0 (a): array
              v2 = param 1 (i): int
              v3 = arr.ref 0: array
              v4 = eq v1, v3: boolean
              branch v4 ? b1 : b2
            b1: <- b0
              throw NullPointerException  ; line 3
            b2: <- b0
              v5 = arr.len v0, v1: int
              v6 = const 0: int
              v7 = lt v2, v6: boolean
              v8 = ge v2, v5: boolean
              v9 = or v7, v8: boolean
              branch v9 ? b3 : b4
            b3: <- b2
              throw ArrayIndexOutOfBoundsException  ; line 3
            b4: <- b2
              ; stmt line 4
              v10 = arr.load v0, v1, v2: int
              v11 = const 2: int
              v12 = add v10, v11: int
              v13 = arr.store v0, v1, v2, v12: memory
              v14 = arr.ref 0: array
              v15 = eq v1, v14: boolean
              branch v15 ? b5 : b6
            b5: <- b4
              throw NullPointerException  ; line 4
            b6: <- b4
              v16 = arr.len v13, v1: int
              jump b7
            b7: <- b6
              return v16
            proof blockers: (none)
        "#]],
    );
}

#[test]
fn unsupported_constructs_become_blockers() {
    // Synthesis cannot write a test on a multi-dimensional array's contents: the path ends there.
    check(
        "class A {\n  static int f(int n) {\n    int[][] m = new int[n][n];\n    return m.length;\n  }\n}\n",
        "f",
        LowerMode::Synthesis { unroll: 2 },
        expect![[r#"
            fn A.f(n: int) -> int [synthesis, unroll 2]
            b0:
              ; stmt line 3
              v0 = arr.init: memory
              v1 = arr.init: memory
              v2 = param 0 (n): int
              v3 = const 0: int
              v4 = lt v2, v3: boolean
              branch v4 ? b1 : b2
            b1: <- b0
              throw NegativeArraySizeException  ; line 3
            b2: <- b0
              v5 = const 0: int
              v6 = lt v2, v5: boolean
              branch v6 ? b3 : b4
            b3: <- b2
              throw NegativeArraySizeException  ; line 3
            b4: <- b2
              cutoff unsupported: multi-dimensional array creation is not modelled yet
            b5:
              ; stmt line 4
              v7 = nondet opaque (`new int[n][n]`): array
              v8 = arr.ref 0: array
              v9 = eq v7, v8: boolean
              v10 = nondet opaque (unassigned $mem:int[][]): memory
              branch v9 ? b6 : b7
            b6: <- b5
              throw NullPointerException  ; line 4
            b7: <- b5
              v11 = arr.len v10, v7: int
              jump b8
            b8: <- b7
              return v11
            proof blockers:
              - multi-dimensional array creation is not modelled yet
        "#]],
    );
}

#[test]
fn multi_dimensional_arrays_are_untracked_in_proofs() {
    // The lengths are evaluated and checked (a negative one throws); the array is any array of
    // its type.
    check(
        "class A {\n  static int f(int n) {\n    int[][] m = new int[n][n + 1];\n    return m.length;\n  }\n}\n",
        "f",
        LowerMode::OverApprox,
        expect![[r#"
            fn A.f(n: int) -> int [over-approximation]
            b0:
              ; stmt line 3
              v0 = arr.init: memory
              v1 = arr.init: memory
              v2 = param 0 (n): int
              v3 = const 1: int
              v4 = add v2, v3: int
              v5 = const 0: int
              v6 = lt v2, v5: boolean
              branch v6 ? b1 : b2
            b1: <- b0
              throw NegativeArraySizeException  ; line 3
            b2: <- b0
              v7 = const 0: int
              v8 = lt v4, v7: boolean
              branch v8 ? b3 : b4
            b3: <- b2
              throw NegativeArraySizeException  ; line 3
            b4: <- b2
              ; stmt line 4
              v9 = nondet opaque (`new int[n][n + 1]`): array
              v10 = arr.ref 0: array
              v11 = eq v9, v10: boolean
              branch v11 ? b5 : b6
            b5: <- b4
              throw NullPointerException  ; line 4
            b6: <- b4
              v12 = arr.len v1, v9: int
              jump b7
            b7: <- b6
              return v12
            proof blockers: (none)
        "#]],
    );
}

/// Every method of the end-to-end fixtures and of the shared corpus (when it is beside the
/// repository) verifies in both modes: the verifier runs in `FunctionBuilder::finish` only in
/// debug builds, so this is where release builds (and CI) check it on real lowerings.
#[test]
fn every_fixture_method_verifies() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(3).expect("the repository root");
    let mut files = Vec::new();
    for dir in [root.join("tests/fixtures/java"), root.join("examples"), root.join("../shared/corpus")] {
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "java") {
                    files.push(p);
                }
            }
        }
    }
    assert!(files.len() > 20, "the fixtures are missing: {files:?}");
    let mut failures = Vec::new();
    let mut lowered = 0;
    for path in &files {
        let file = SourceFile::parse(std::fs::read_to_string(path).expect("a readable fixture"));
        for m in MethodInfo::all(&file) {
            for mode in [LowerMode::OverApprox, LowerMode::Synthesis { unroll: 4 }] {
                let f = lower_method(&file, &m, &LowerOptions { mode, ..Default::default() });
                lowered += 1;
                if let Err(errors) = jreach_ir::verify::verify(&f) {
                    failures.push(format!("{}: {} ({mode:?}): {errors:?}", path.display(), m.signature()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {lowered} lowerings do not verify:\n{}", failures.len(), failures.join("\n"));
}

/// Shapes the front-end fuzzer found lowered to ill-typed IR: values widened into types jreach
/// does not see, steps of variables of unknown types, a `void` field, a string returned as an int
/// (broken code javac rejects still gets a well-typed lowering).
#[test]
fn widened_unknown_and_broken_types_lower_to_verified_ir() {
    let src = r#"
class W {
    static class Tally {
        public void broken fields;
    }
    static Object boxed(int x) { return x > 0 ? x * 2 : null; }
    static Object widened(String s, int[] a, Tally t, boolean b) {
        Object o = b ? s : a;
        if (o == null) { return t; }
        return o;
    }
    static int stepped(int k) {
        for (unknownType i = 1; i <= 6; i++) { k++; }
        Number n = k;
        return k;
    }
    static int wrong(int n) { return "Hi " + n; }
    static int voidField(Tally t) { return t.fields == null ? 1 : 0; }
}
"#;
    let file = SourceFile::parse(src);
    let methods = MethodInfo::all(&file);
    assert_eq!(methods.len(), 5);
    for m in &methods {
        for mode in [LowerMode::OverApprox, LowerMode::Synthesis { unroll: 4 }] {
            let f = lower_method(&file, m, &LowerOptions { mode, ..Default::default() });
            if let Err(errors) = jreach_ir::verify::verify(&f) {
                panic!("{} ({mode:?}): {errors:?}", m.signature());
            }
        }
    }
}

#[test]
fn a_builders_text_after_a_loop_is_never_null() {
    // `sb.toString()` after the loop reads a φ of concatenations: no null check (it used to pull
    // every append of every iteration into each query that needs the method to return).
    let src = "class A {\n  static String f(String s, int n) {\n    StringBuilder sb = new StringBuilder();\n    for (int i = 0; i < n; i++) {\n      if (n > 3) {\n        sb.append('a');\n      } else {\n        sb.append(s);\n      }\n    }\n    String t = sb.toString();\n    return t.trim();\n  }\n}\n";
    let file = SourceFile::parse(src);
    let m = MethodInfo::all(&file).into_iter().find(|m| m.name == "f").unwrap();
    let f = lower_method(&file, &m, &LowerOptions { mode: LowerMode::Synthesis { unroll: 4 }, ..Default::default() });
    jreach_ir::verify::verify(&f).unwrap();
    let dump = jreach_ir::dump::dump(&f, Some(&file.lines));
    assert!(!dump.contains("NullPointerException"), "{dump}");
    // A string that may be null still is checked.
    let src = "class A {\n  static String f(String s, int n) {\n    String t = n > 0 ? s : \"x\";\n    return t.trim();\n  }\n}\n";
    let file = SourceFile::parse(src);
    let m = MethodInfo::all(&file).into_iter().find(|m| m.name == "f").unwrap();
    let f = lower_method(&file, &m, &LowerOptions { mode: LowerMode::Synthesis { unroll: 4 }, ..Default::default() });
    assert!(jreach_ir::dump::dump(&f, Some(&file.lines)).contains("NullPointerException"));
}

#[test]
fn recursion_is_inlined_within_a_budget() {
    // Three recursive calls per level: at the inlining depth that is 3^8 copies; the budget keeps
    // the lowering linear in it, and a larger budget grows it.
    let src = "class R {\n    static int f(int n) {\n        if (n <= 0) return 0;\n        return f(n - 1) + f(n - 2) + f(n - 3);\n    }\n}\n";
    let file = SourceFile::parse(src);
    let m = MethodInfo::all(&file).into_iter().find(|m| m.name == "f").unwrap();
    let size = |budget: u32| {
        let opts =
            LowerOptions { mode: LowerMode::Synthesis { unroll: 2 }, recursive_inlines: budget, ..Default::default() };
        lower_method(&file, &m, &opts).values.len()
    };
    let (small, default) = (size(4), size(jreach_ir::lower::RECURSIVE_INLINES));
    assert!(small < default, "{small} values with 4 recursive inlines, {default} with the default");
    assert!(default < 40 * jreach_ir::lower::RECURSIVE_INLINES as usize, "{default} values");
    let f = lower_method(&file, &m, &LowerOptions { mode: LowerMode::Synthesis { unroll: 2 }, ..Default::default() });
    assert!(f.proof_blockers.iter().any(|b| b.is_inline_depth()), "the cut recursion is a blocker");
}
