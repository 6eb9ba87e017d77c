//! Arrays and objects end to end through the solver: lower, solve, replay the model on the
//! interpreter, and check that it reaches the target (or that the target is proved dead).

use jreach_ir::interp::{run, Value};
use jreach_ir::lower::{lower_method, LowerOptions};
use jreach_ir::LowerMode;
use jreach_smt::{solve_reach, SolveOptions, Verdict};
use jreach_syntax::{find_target, SourceFile};

fn reach(src: &str, line: usize, mode: LowerMode) -> (Verdict, bool) {
    let file = SourceFile::parse(src);
    let target = find_target(&file, line - 1).expect("a statement on the line");
    let f = lower_method(&file, &target.method, &LowerOptions { mode, ..Default::default() });
    let targets = f.blocks_of_stmt(target.stmt.start);
    let v = solve_reach(&f, &targets, &SolveOptions::default());
    let reached = match &v {
        Verdict::Sat(args) => run(&f, args, 100_000).reached(&targets),
        _ => false,
    };
    (v, reached)
}

fn args_reaching(src: &str, line: usize) -> Vec<Value> {
    match reach(src, line, LowerMode::Synthesis { unroll: 4 }) {
        (Verdict::Sat(args), true) => args,
        other => panic!("line {line}: {other:?}"),
    }
}

#[test]
fn aliased_arrays() {
    let src = "class A {\n static void f(int[] a, int[] b) {\n  a[0] = 1;\n  b[0] = 2;\n  if (a[0] == 2) {\n   a = null;\n  }\n }\n}\n";
    let args = args_reaching(src, 6);
    // Only the same array for both parameters gets there.
    match (&args[0], &args[1]) {
        (Value::Array { id: x, .. }, Value::Array { id: y, .. }) => assert_eq!(x, y),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bounds_and_new_arrays() {
    let src = "class A {\n static int f(int n) {\n  int[] a = new int[n];\n  try {\n   return a[2];\n  } catch (ArrayIndexOutOfBoundsException e) {\n   return -1;\n  }\n }\n}\n";
    args_reaching(src, 5);
    args_reaching(src, 7);
    let dead = "class A {\n static void f(int n) {\n  int[] a = new int[] {1, 2};\n  if (a.length != 2) {\n   n = 0;\n  }\n }\n}\n";
    assert!(matches!(reach(dead, 5, LowerMode::OverApprox).0, Verdict::Unsat));
}

#[test]
fn object_graph_with_a_cycle_and_aliasing() {
    let src = "class A {\n static class Node { int value; Node next; }\n static void f(Node a, Node b) {\n  if (a != null && a.next == a) {\n   b.value = 3;\n   a.value = 4;\n   if (b.value == 4) {\n    a = null;\n   }\n  }\n }\n}\n";
    let args = args_reaching(src, 8);
    match (&args[0], &args[1]) {
        (Value::Object { id: x, .. }, Value::Object { id: y, .. } | Value::ObjRef(y)) => assert_eq!(x, y),
        other => panic!("{other:?}"),
    }
}
