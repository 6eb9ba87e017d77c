//! Live code without the solver: before `check` asks z3 about the blocks of a large method, the
//! concrete interpreter runs the over-approximating lowering on a few inputs, and every block and branch
//! edge a run visits is live (a run is an input, as a model is). The inputs are the method's own
//! integer literals, their neighbours and a few boundaries, given to one integral or boolean
//! parameter at a time (the others 0 or false; anything else unknown, so a branch on it ends the
//! run). A `switch` of a thousand cases is then one run per case label instead of a solver
//! query per case.
//!
//! Runs only ever make a block live, so proofs of unreachability are untouched: a block a run
//! visits is satisfiable in the same lowering the solver is asked about.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use jreach_ir::interp::{run, Value};
use jreach_ir::types::{normalize, Ty};
use jreach_ir::{Const, Function, Op};
use jreach_smt::DeadCode;
use jreach_syntax::MethodInfo;

/// Functions of fewer blocks are left to the solver alone: its first models cover most of their
/// blocks, and the clauses it learns on the easy questions speed up the hard ones (runs that
/// answered the easy ones first left it cold: a few more methods of real projects ran out of
/// time). Beyond this size one query per block is what costs.
const MIN_BLOCKS: usize = 512;

/// Most runs per method.
const MAX_RUNS: usize = 4_096;
/// Most blocks one run visits.
const MAX_STEPS: usize = 100_000;
/// Most time the runs of one method take.
const MAX_TIME: Duration = Duration::from_millis(250);

/// Runs `f` (the over-approximating lowering of `m`) on literal-seeded inputs and marks what the
/// runs visit as live in `dc`. Returns the number of runs made.
pub(crate) fn mark_live_by_runs(f: &Function, m: &MethodInfo, dc: &mut DeadCode<'_>) -> usize {
    if f.blocks.len() < MIN_BLOCKS {
        return 0;
    }
    // The method's own parameters come first among the lowering's; only those are seeded.
    let seeded: Vec<usize> = (0..f.params.len().min(m.params.len()))
        .filter(|&i| f.params[i].name == m.params[i].name && seedable(f.params[i].ty))
        .collect();
    let base: Vec<Value> = f
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| if seeded.contains(&i) { zero(p.ty) } else { Value::Unknown("not seeded".into()) })
        .collect();
    let start = Instant::now();
    let go = |args: &[Value], dc: &mut DeadCode<'_>| dc.mark_live_path(&run(f, args, MAX_STEPS).blocks);
    let mut runs = 1;
    go(&base, dc);
    if seeded.is_empty() {
        return runs;
    }
    let values = candidate_values(f);
    for &i in &seeded {
        let ty = f.params[i].ty;
        let choices: Vec<Value> = if ty == Ty::Bool {
            vec![Value::Bool(true)]
        } else {
            let wrapped: BTreeSet<i64> = values.iter().map(|v| normalize(ty, *v)).filter(|v| *v != 0).collect();
            wrapped.into_iter().map(|v| Value::Int(ty, v)).collect()
        };
        for v in choices {
            if runs >= MAX_RUNS || start.elapsed() > MAX_TIME || dc.all_live() {
                return runs;
            }
            let mut args = base.clone();
            args[i] = v;
            go(&args, dc);
            runs += 1;
        }
    }
    runs
}

fn seedable(ty: Ty) -> bool {
    ty == Ty::Bool || ty.is_integral()
}

fn zero(ty: Ty) -> Value {
    if ty == Ty::Bool {
        Value::Bool(false)
    } else {
        Value::int(ty, 0)
    }
}

/// The integer constants of `f`, each with its neighbours, and a few boundaries.
fn candidate_values(f: &Function) -> BTreeSet<i64> {
    let mut out: BTreeSet<i64> = [1, -1, 2, i32::MAX as i64, i32::MIN as i64].into_iter().collect();
    for v in &f.values {
        if let Op::Const(Const::Int(_, c)) = &v.op {
            for d in [-1, 0, 1] {
                out.insert(c.saturating_add(d));
            }
        }
    }
    out
}
