//! Concrete search for the inputs of functions the solver cannot reason about.
//!
//! `Math.sin` and its kin are unknown doubles to the solver (`Op::Math`), so a model may assume
//! `Math.sin(u) > 0.5` with `u = 0`. The replay on the interpreter, which computes the functions,
//! then misses the target. [`search_math_inputs`] keeps the model's other inputs and tries
//! readable values for the inputs the functions read, on the interpreter, until one run reaches
//! the target (the symcretic fallback to concrete search).

use jreach_ir::interp::{self, Value};
use jreach_ir::{BlockId, Function, Op, Ty, ValueId};

/// The most runs one search makes.
const MAX_RUNS: usize = 4096;

/// The longest one search takes.
const MAX_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// Interpreter steps per run.
const MAX_STEPS: usize = 200_000;

/// Doubles tried for an input a Math function reads, after the model's own value.
const DOUBLES: [f64; 26] = [
    0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    2.0,
    -2.0,
    3.0,
    -3.0,
    0.1,
    -0.1,
    10.0,
    -10.0,
    100.0,
    -100.0,
    std::f64::consts::FRAC_PI_6,
    std::f64::consts::FRAC_PI_4,
    std::f64::consts::FRAC_PI_2,
    std::f64::consts::PI,
    -std::f64::consts::FRAC_PI_2,
    -std::f64::consts::PI,
    std::f64::consts::E,
    0.001,
    1000.0,
    1e6,
    -1e6,
];

/// Integers tried for an input a Math function reads, after the model's own value.
const INTS: [i64; 16] = [0, 1, -1, 2, -2, 3, -3, 4, 5, 10, -10, 16, 100, -100, 1000, 1_000_000];

/// Arguments reaching one of `targets` of `f` that differ from the model's `args` only in the
/// plain inputs that `Math` functions read, if a search of at most [`MAX_RUNS`] runs and
/// [`MAX_TIME`] finds them.
pub(crate) fn search_math_inputs(f: &Function, targets: &[BlockId], args: &[Value]) -> Option<Vec<Value>> {
    let inputs = math_inputs(f);
    if inputs.is_empty() {
        return None;
    }
    let choices: Vec<Vec<Value>> = inputs.iter().map(|i| candidates(f.params[*i].ty, &args[*i])).collect();
    let mut counters = vec![0usize; inputs.len()];
    let started = std::time::Instant::now();
    for _ in 0..MAX_RUNS {
        if started.elapsed() > MAX_TIME {
            return None;
        }
        let mut tried = args.to_vec();
        for (k, i) in inputs.iter().enumerate() {
            tried[*i] = choices[k][counters[k]].clone();
        }
        if interp::run(f, &tried, MAX_STEPS).reached(targets) {
            return Some(tried);
        }
        // The next combination, the first input varying fastest.
        let mut k = 0;
        loop {
            if k == counters.len() {
                return None;
            }
            counters[k] += 1;
            if counters[k] < choices[k].len() {
                break;
            }
            counters[k] = 0;
            k += 1;
        }
    }
    None
}

/// The plain inputs of `f` (numbers the test writes as they are) that some `Math` function reads,
/// directly or through arithmetic.
fn math_inputs(f: &Function) -> Vec<usize> {
    let mut seen = vec![false; f.values.len()];
    let mut work: Vec<ValueId> = f
        .values
        .iter()
        .filter_map(|vd| match &vd.op {
            Op::Math(_, args) => Some(args.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    let mut params = Vec::new();
    while let Some(v) = work.pop() {
        if std::mem::replace(&mut seen[v.index()], true) {
            continue;
        }
        match &f.value(v).op {
            Op::Param(i) => params.push(*i as usize),
            Op::Unary(..) | Op::Binary(..) | Op::Cast(_) | Op::Select(..) | Op::Phi(_) | Op::Math(..) => {
                work.extend(f.value(v).op.operands())
            }
            _ => {}
        }
    }
    params.sort_unstable();
    params.dedup();
    params.retain(|i| {
        let ty = f.params[*i].ty;
        !f.setup.creates(*i) && (ty.is_floating() || ty.is_integral()) && ty != Ty::Char
    });
    params
}

/// The values tried for an input of type `ty` whose model value is `model`: that first, then
/// readable ones.
fn candidates(ty: Ty, model: &Value) -> Vec<Value> {
    let mut out = vec![model.clone()];
    let more: Vec<Value> = match ty {
        Ty::Double => DOUBLES.iter().map(|x| Value::Double(*x)).collect(),
        Ty::Float => DOUBLES.iter().map(|x| Value::Float(*x as f32)).collect(),
        t => INTS.iter().map(|x| Value::Int(t, jreach_ir::types::normalize(t, *x))).collect(),
    };
    for v in more {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use jreach_ir::lower::{lower_method, LowerOptions};
    use jreach_syntax::{find_target, SourceFile};

    use super::*;

    fn function(src: &str, line: usize) -> (Function, Vec<BlockId>) {
        let file = SourceFile::parse(src);
        let target = find_target(&file, line - 1).expect("a statement");
        let f = lower_method(&file, &target.method, &LowerOptions::default());
        let targets = f.blocks_of_stmt(target.stmt.start);
        (f, targets)
    }

    #[test]
    fn finds_an_argument_whose_sine_is_large() {
        let src = "class M {\n  static int f(int n, double u) {\n    if (n == 3 && Math.sin(u) > 0.5) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
        let (f, targets) = function(src, 4);
        let model = vec![Value::Int(Ty::Int, 3), Value::Double(0.0)];
        assert!(!interp::run(&f, &model, MAX_STEPS).reached(&targets));
        let found = search_math_inputs(&f, &targets, &model).expect("an argument");
        assert_eq!(found[0], Value::Int(Ty::Int, 3), "the other input is the model's");
        let Value::Double(u) = found[1] else { panic!("{found:?}") };
        assert!(u.sin() > 0.5, "{u}");
        assert!(interp::run(&f, &found, MAX_STEPS).reached(&targets));
    }

    #[test]
    fn gives_up_when_no_argument_can_reach() {
        let src = "class M {\n  static int f(double u) {\n    if (Math.cos(u) > 2) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
        let (f, targets) = function(src, 4);
        assert_eq!(search_math_inputs(&f, &targets, &[Value::Double(0.0)]), None);
        // Without a Math function there is nothing to search.
        let src = "class M {\n  static int f(double u) {\n    if (u > 2 && u < 1) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
        let (f, targets) = function(src, 4);
        assert_eq!(search_math_inputs(&f, &targets, &[Value::Double(0.0)]), None);
    }
}
