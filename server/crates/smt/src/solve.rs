//! Solving a reachability question and reading the inputs back from the model.

use std::time::Duration;

use jreach_ir::interp::Value;
use jreach_ir::{BlockId, Function, Ty};
use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::{Params, SatResult, Solver};

use crate::encode::{param_name, Encoder};

/// Limits and preferences of one solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Set from another thread to stop a solve that is under way (it then answers Unknown).
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    pub timeout: Duration,
    /// Ask first for small, human-looking inputs.
    pub prefer_small: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { timeout: Duration::from_secs(10), prefer_small: true, cancel: None }
    }
}

/// The solver's answer.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Inputs (one per parameter) under which the formula says a target runs.
    Sat(Vec<Value>),
    /// No input reaches a target in this encoding.
    Unsat,
    /// The solver gave up.
    Unknown(GaveUp),
}

/// Why the solver gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GaveUp {
    /// A query ran out of its time limit.
    Timeout(Duration),
    /// The cancel flag was set.
    Canceled,
    /// The time budget of all the queries about one method ran out (`check`).
    Budget,
    /// The solver's memory limit (MB, [`crate::limit_solver_memory`]) was reached.
    Memory(u32),
    /// Anything else: the solver's incompleteness, an engine's size budget.
    Other(String),
}

impl std::fmt::Display for GaveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GaveUp::Timeout(t) => write!(f, "a solver query ran out of its {} s", t.as_secs_f64()),
            GaveUp::Canceled => f.write_str("canceled"),
            GaveUp::Budget => f.write_str("the method's time budget ran out"),
            GaveUp::Memory(mb) => write!(f, "the solver reached its memory limit ({mb} MB)"),
            GaveUp::Other(why) => f.write_str(why),
        }
    }
}

impl GaveUp {
    /// Whether the answer might have come on a machine with more time to spare: the query or the
    /// method ran out of time, was canceled, or reached the memory limit the process shares with
    /// its other queries. An incompleteness of the solver (`Other`) gives the same answer again.
    pub fn depends_on_the_clock(&self) -> bool {
        !matches!(self, GaveUp::Other(_))
    }

    /// What z3 said (`reason_unknown`) after a query with time limit `timeout` that took
    /// `took`, when `canceled` tells whether the cancel flag was set.
    pub(crate) fn from_solver(reason: Option<String>, timeout: Duration, canceled: bool, took: Duration) -> GaveUp {
        let memory_limit = crate::SOLVER_MEMORY_MB.load(std::sync::atomic::Ordering::Relaxed);
        match reason {
            _ if canceled => GaveUp::Canceled,
            // z3 stops a query that takes the process past its memory limit the way it stops one
            // that runs out of time, only well before the time is up.
            Some(r)
                if memory_limit > 0
                    && (r.contains("memout") || (r.contains("canceled") && took < timeout.mul_f64(0.9))) =>
            {
                GaveUp::Memory(memory_limit)
            }
            // z3 says "canceled" when its own timer stops it, too.
            Some(r) if r.contains("timeout") || r.contains("canceled") => GaveUp::Timeout(timeout),
            Some(r) => GaveUp::Other(r),
            None => GaveUp::Other("the solver gave up".into()),
        }
    }
}

fn make_solver(opts: &SolveOptions) -> Solver {
    let solver = Solver::new();
    let mut p = Params::new();
    p.set_u32("timeout", opts.timeout.as_millis().min(u32::MAX as u128) as u32);
    solver.set_params(&p);
    solver
}

/// Is any of `targets` reachable in `f`'s encoding? With a model: the parameter values.
pub fn solve_reach(f: &Function, targets: &[BlockId], opts: &SolveOptions) -> Verdict {
    let enc = Encoder::new(f, targets);
    let mut conjuncts = vec![enc.reach(targets)];
    conjuncts.extend(enc.side_conditions().iter().cloned());
    solve_goal(f, &Bool::and(&conjuncts), opts)
}

/// Proves that no input of `f` starts a loop iteration past the ones its lowering unrolled
/// (`Function::unwinding_blocks`: CBMC's unwinding assertion); then its loops are exact, and `f`
/// loses its `Blocker::Unwinding` (the only place that removes it). `false` when some input may,
/// or the solver cannot tell within `opts`.
pub fn discharge_unwinding(f: &mut Function, opts: &SolveOptions) -> bool {
    let blocks = f.unwinding_blocks();
    let exact = blocks.is_empty() || matches!(solve_reach(f, &blocks, opts), Verdict::Unsat);
    if exact {
        f.unwinding_proved();
    }
    exact
}

/// Proves that no input of `f` reaches a check of a candidate loop invariant that fails
/// (`Function::invariant_blocks`); then the candidates hold at every loop head where the
/// lowering assumes them, and `f` loses its `Blocker::Invariant` (the only place that removes
/// it). `Err`: the candidates some input may break (or the solver could not clear in time),
/// which the caller drops before it lowers again (Houdini).
pub fn discharge_invariants(f: &mut Function, opts: &SolveOptions) -> Result<(), Vec<u32>> {
    let mut failed = Vec::new();
    for (n, blocks) in f.invariant_blocks() {
        if !matches!(solve_reach(f, &blocks, opts), Verdict::Unsat) {
            failed.push(n);
        }
    }
    if failed.is_empty() {
        f.invariants_proved();
        Ok(())
    } else {
        Err(failed)
    }
}

/// The candidate class invariants whose checks in `f` some input may reach, or the solver could
/// not clear within `opts` (`Function::class_invariant_blocks`). Removing
/// `Blocker::ClassInvariant` needs more than this function can see (every constructor and method
/// of the class with the same candidates), so it is left to the caller.
pub fn broken_class_invariants(f: &Function, opts: &SolveOptions) -> Vec<u32> {
    let mut failed = Vec::new();
    for (n, blocks) in f.class_invariant_blocks() {
        if !matches!(solve_reach(f, &blocks, opts), Verdict::Unsat) {
            failed.push(n);
        }
    }
    failed
}

/// Like [`solve_reach`], with the values in `fixed` (results of calls jreach does not model, as a
/// run on the JVM showed them: a concolic round) taken as those constants. A value outside the
/// slice of the targets is not constrained. The answer is about this guess only: UNSAT says
/// nothing about the method.
pub fn solve_reach_fixing(
    f: &Function,
    targets: &[BlockId],
    fixed: &[(jreach_ir::ValueId, jreach_ir::Const)],
    opts: &SolveOptions,
) -> Verdict {
    let enc = Encoder::new(f, targets);
    let mut conjuncts = vec![enc.reach(targets)];
    conjuncts.extend(enc.side_conditions().iter().cloned());
    for (v, c) in fixed {
        if let Some(term) = enc.value(*v) {
            let value = crate::encode::constant(c);
            if term.get_sort() == value.get_sort() {
                conjuncts.push(term.eq(&value));
            }
        }
    }
    solve_goal(f, &Bool::and(&conjuncts), opts)
}

/// Like [`solve_reach`], for inputs under which none of `avoid` runs (a test that reaches its
/// line without throwing on it, which coverage tools then count as run).
pub fn solve_reach_avoiding(f: &Function, targets: &[BlockId], avoid: &[BlockId], opts: &SolveOptions) -> Verdict {
    let both: Vec<BlockId> = targets.iter().chain(avoid).copied().collect();
    let enc = Encoder::new(f, &both);
    let mut conjuncts = vec![enc.reach(targets), enc.reach(avoid).not()];
    conjuncts.extend(enc.side_conditions().iter().cloned());
    solve_goal(f, &Bool::and(&conjuncts), opts)
}

/// Solves `goal`, a formula over `f`'s parameters, and reads their values from a model (also the
/// back end of the reference engine, `solve_naive`).
pub(crate) fn solve_goal(f: &Function, goal: &Bool, opts: &SolveOptions) -> Verdict {
    let solver = make_solver(opts);
    solver.assert(goal);
    let started = std::time::Instant::now();
    if cancelled(opts) {
        return Verdict::Unknown(GaveUp::Canceled);
    }
    let answer = interruptible(opts, || solver.check());
    crate::slow_log::record(&solver, &f.name, || "can any target run".into(), &[], answer, started.elapsed());
    match answer {
        SatResult::Unsat => return Verdict::Unsat,
        SatResult::Unknown => {
            let why =
                GaveUp::from_solver(solver.get_reason_unknown(), opts.timeout, cancelled(opts), started.elapsed());
            return Verdict::Unknown(why);
        }
        SatResult::Sat => {}
    }
    let params = param_terms(f);
    if opts.prefer_small {
        // Tighten one parameter at a time to the smallest range that keeps the target reachable,
        // keeping the model of the last success. Looking for nicer values may cost about as much
        // again as finding any, and never more than a second.
        let first = started.elapsed();
        let mut best = read_model(&solver, f, &params);
        let budget = (first * 2).max(std::time::Duration::from_millis(100)).min(std::time::Duration::from_secs(1));
        if first < budget {
            let search_start = std::time::Instant::now();
            let mut kept: Vec<Bool> = Vec::new();
            // Every created input and JDK value not null, each one that can be while the target
            // stays reachable (a test passing `null` where the code calls a method on it reaches
            // little past that call, and a line that starts with that call throws before it
            // counts as run); then the least aliasing: every created input an object or
            // collection of its own.
            let own = own_objects(f, &params);
            let tries = present_objects(f, &params).into_iter().chain((!own.is_empty()).then(|| Bool::and(&own)));
            for wanted in tries {
                let left = budget.saturating_sub(search_start.elapsed());
                if left.is_zero() {
                    break;
                }
                let mut limit = Params::new();
                limit.set_u32("timeout", left.as_millis().max(1) as u32);
                solver.set_params(&limit);
                let mut assumptions = kept.clone();
                assumptions.push(wanted.clone());
                if interruptible(opts, || solver.check_assumptions(&assumptions)) == SatResult::Sat {
                    best = read_model(&solver, f, &params);
                    kept.push(wanted);
                }
            }
            'params: for (p, term) in f.params.iter().zip(&params) {
                let Some(term) = term else { continue };
                for range in small_ranges(p.ty, term) {
                    let left = budget.saturating_sub(search_start.elapsed());
                    if left.is_zero() {
                        break 'params;
                    }
                    let mut limit = Params::new();
                    limit.set_u32("timeout", left.as_millis().max(1) as u32);
                    solver.set_params(&limit);
                    let mut assumptions = kept.clone();
                    assumptions.push(range.clone());
                    if interruptible(opts, || solver.check_assumptions(&assumptions)) == SatResult::Sat {
                        best = read_model(&solver, f, &params);
                        kept.push(range);
                        break;
                    }
                }
            }
        }
        return Verdict::Sat(best);
    }
    Verdict::Sat(read_model(&solver, f, &params))
}

/// For each created input that may be an earlier one's object or collection
/// (`Setup::built_params`' aliases, the lists' and maps' `same_as`): the constraint that it is
/// not.
fn own_objects(f: &Function, params: &[Option<Dynamic>]) -> Vec<Bool> {
    let int = |i: usize| params.get(i).and_then(|t| t.as_ref()).and_then(|t| t.as_bv());
    let setup = &f.setup;
    let built = setup.built_params.iter().filter(|b| !b.aliases.is_empty()).filter_map(|b| {
        // 0 null, 1 a new object; from 2 on an earlier one's.
        int(b.how).map(|h| h.bvsle(&BV::from_i64(1, 32)))
    });
    let same = setup
        .list_params
        .iter()
        .filter_map(|l| l.same_as)
        .chain(setup.map_params.iter().filter_map(|m| m.same_as))
        .filter_map(|i| int(i).map(|x| x.eq(&BV::from_i64(0, 32))));
    built.chain(same).collect()
}

/// For each input the test creates as an object (`Setup::built_params`) or as a value of a JDK
/// type (`Setup::opaque_params`): the constraint that it is not null.
fn present_objects(f: &Function, params: &[Option<Dynamic>]) -> Vec<Bool> {
    let int = |i: usize| params.get(i).and_then(|t| t.as_ref()).and_then(|t| t.as_bv());
    let bool = |i: usize| params.get(i).and_then(|t| t.as_ref()).and_then(|t| t.as_bool());
    // `how` 0 is null (see `BuiltParam::how`).
    let built = f.setup.built_params.iter().filter_map(|b| int(b.how).map(|h| h.eq(&BV::from_i64(0, 32)).not()));
    built.chain(f.setup.opaque_params.iter().filter_map(|o| bool(o.present))).collect()
}

fn cancelled(opts: &SolveOptions) -> bool {
    opts.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::SeqCst))
}

/// Runs `check`; while it runs, a watcher interrupts this thread's z3 context as soon as the
/// cancel flag is set (z3 then answers Unknown).
fn interruptible<R>(opts: &SolveOptions, check: impl FnOnce() -> R) -> R {
    let Some(flag) = &opts.cancel else { return check() };
    let ctx = z3::Context::thread_local();
    let handle = ctx.handle();
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                if flag.load(std::sync::atomic::Ordering::SeqCst) {
                    handle.interrupt();
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        let r = check();
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        r
    })
}

pub(crate) fn param_terms(f: &Function) -> Vec<Option<Dynamic>> {
    f.params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let sort = match p.ty {
                Ty::Ref | Ty::Void | Ty::Mem(_) | Ty::Fields(..) => return None,
                t => crate::sorts::sort_of(t),
            };
            Some(Dynamic::new_const(param_name(i as u32), &sort))
        })
        .collect()
}

/// Ranges of human-looking values for a parameter, narrowest first.
fn small_ranges(ty: Ty, term: &Dynamic) -> Vec<Bool> {
    if let (Ty::Arr(a), Some(r)) = (ty, term.as_bv()) {
        let (_, lens) = crate::arrays::init(a, &crate::sorts::sort_of(a.elem()));
        let len = lens.select(&r).as_bv().expect("a length");
        let nonnull = r.eq(&BV::from_i64(0, 32)).not();
        let short = |n: i64| Bool::and(&[nonnull.clone(), len.bvsle(&BV::from_i64(n, 32))]);
        let mut out = Vec::new();
        if a.dims == 1 {
            // Short arrays of small elements (letters for chars).
            let (contents, _) = crate::arrays::init(a, &crate::sorts::sort_of(a.elem()));
            let row = contents.select(&r).as_array().expect("a row");
            let elem = a.elem();
            let small: Vec<Bool> = (0..3)
                .filter_map(|k| {
                    let x = row.select(&BV::from_u64(k, 32)).as_bv()?;
                    let bits = elem.bits()?;
                    let (lo, hi) = if elem == Ty::Char { ('a' as i64, 'z' as i64) } else { (-10, 10) };
                    let inside = if elem == Ty::Char {
                        Bool::and(&[x.bvuge(&BV::from_i64(lo, bits)), x.bvule(&BV::from_i64(hi, bits))])
                    } else {
                        Bool::and(&[x.bvsge(&BV::from_i64(lo, bits)), x.bvsle(&BV::from_i64(hi, bits))])
                    };
                    Some(inside)
                })
                .collect();
            if !small.is_empty() {
                let mut all = vec![short(3)];
                all.extend(small);
                out.push(Bool::and(&all));
            }
        }
        out.push(short(3));
        out.push(short(8));
        return out;
    }
    if let Some(s) = term.as_string() {
        return crate::strings::small_ranges(&s);
    }
    if let Some(x) = term.as_float() {
        let sort = x.get_sort();
        let lit = |v: f64| {
            z3::ast::Float::from_f64(v)
                .to_fp_with_rounding_mode(&z3::ast::RoundingMode::round_nearest_ties_to_even(), &sort)
        };
        return vec![
            // `0.0` rather than `-0.0`, which a reader takes for a special case.
            x.eq(&lit(0.0)),
            x.eq_fpa(&lit(0.0)),
            Bool::and(&[x.ge(&lit(-1000.0)), x.le(&lit(1000.0))]),
            Bool::and(&[x.is_nan().not(), x.is_infinite().not()]),
        ];
    }
    let Some(x) = term.as_bv() else { return vec![] };
    let within =
        |lo: i64, hi: i64, bits: u32| Bool::and(&[x.bvsge(&BV::from_i64(lo, bits)), x.bvsle(&BV::from_i64(hi, bits))]);
    match ty {
        Ty::Char => vec![
            Bool::and(&[x.bvuge(&BV::from_u64('a' as u64, 16)), x.bvule(&BV::from_u64('z' as u64, 16))]),
            Bool::and(&[x.bvuge(&BV::from_u64(32, 16)), x.bvule(&BV::from_u64(126, 16))]),
            x.bvule(&BV::from_u64(255, 16)),
        ],
        Ty::Byte => vec![within(0, 10, 8), within(-10, 10, 8)],
        Ty::Short => vec![within(0, 10, 16), within(-10, 10, 16), within(-1000, 1000, 16)],
        Ty::Int | Ty::Long => {
            let bits = ty.bits().expect("integral");
            let mut out = vec![within(0, 10, bits), within(-10, 10, bits)];
            let bounds: &[i64] = if bits == 32 {
                &[1000, 100_000, 10_000_000]
            } else {
                &[1000, 1_000_000, 1_000_000_000, 1_000_000_000_000, 1_000_000_000_000_000]
            };
            out.extend(bounds.iter().map(|b| within(-b, *b, bits)));
            out
        }
        _ => vec![],
    }
}

fn read_model(solver: &Solver, f: &Function, params: &[Option<Dynamic>]) -> Vec<Value> {
    let model = solver.get_model().expect("a model after SAT");
    f.params
        .iter()
        .zip(params)
        .map(|(p, term)| match term {
            Some(term) => read_value(&model, f, term, p.ty, 0, &mut Vec::new()),
            None => Value::Null,
        })
        .collect()
}

/// Longest array read from a model: a test writes a long one by its length and the elements that
/// differ from the most common (`jreach_synth::LONG_ARRAY`), one store per element.
const MAX_ARRAY_LEN: u64 = 1 << 20;

/// The value of `term` (of type `ty`) in the model; arrays with their elements.
/// `seen`: the objects already described (a second mention is an `ObjRef`).
pub(crate) fn read_value(
    model: &z3::Model,
    f: &Function,
    term: &Dynamic,
    ty: Ty,
    depth: u32,
    seen: &mut Vec<i64>,
) -> Value {
    let v = model.eval(term, true).expect("model completion evaluates every constant");
    match ty {
        Ty::Bool => Value::Bool(v.as_bool().and_then(|b| b.as_bool()).unwrap_or(false)),
        Ty::Str => {
            let text = v.as_string().and_then(|s| s.as_string()).unwrap_or_default();
            match crate::strings::from_model(&text) {
                Some(s) => Value::Str(s),
                None => Value::Null,
            }
        }
        Ty::Float | Ty::Double => {
            let x = v.as_float().expect("a float");
            let is_nan = model.eval(&x.is_nan(), true).and_then(|b| b.as_bool()).unwrap_or(false);
            let bits = model.eval(&x.to_ieee_bv(), true).and_then(|b| b.as_u64()).unwrap_or(0);
            if ty == Ty::Float {
                Value::Float(if is_nan { f32::NAN } else { f32::from_bits(bits as u32) })
            } else {
                Value::Double(if is_nan { f64::NAN } else { f64::from_bits(bits) })
            }
        }
        Ty::Arr(a) => {
            let id = v.as_bv().and_then(|b| b.as_u64()).map(|x| x as u32 as i32 as i64).unwrap_or(0);
            if id == 0 {
                return Value::Null;
            }
            if depth > 8 {
                return Value::Unknown("arrays nested too deeply".into());
            }
            let (contents, lens) = crate::arrays::init(a, &crate::sorts::sort_of(a.elem()));
            let r = BV::from_i64(id, 32);
            let len = model.eval(&lens.select(&r), true).and_then(|l| l.as_bv()).and_then(|l| l.as_u64()).unwrap_or(0);
            // Every length the formula reads is constrained to be non-negative (`arrays::len`),
            // so a negative one is a length nothing on the path reads: the empty array will do
            // (the replay checks it).
            let len = if (len as u32 as i32) < 0 { 0 } else { len };
            if len > MAX_ARRAY_LEN {
                return Value::Unknown(format!("an array of {len} elements"));
            }
            let row = contents.select(&r).as_array().expect("a row of an array memory");
            // The row's value once, rather than the memory's for each element of a long array.
            let row = if len > 64 { model.eval(&row, true).unwrap_or(row) } else { row };
            if id < 0 {
                return Value::Unknown("an input referring to an array the method creates".into());
            }
            let items = (0..len)
                .map(|k| read_value(model, f, &row.select(&BV::from_u64(k, 32)), a.elem(), depth + 1, seen))
                .collect();
            Value::Array { id, items }
        }
        Ty::Obj(c) => {
            let id = v.as_bv().and_then(|b| b.as_u64()).map(|x| x as u32 as i32 as i64).unwrap_or(0);
            if id == 0 {
                return Value::Null;
            }
            if id < 0 {
                return Value::Unknown("an input referring to an object the method creates".into());
            }
            if seen.contains(&id) || f.classes[c as usize].is_enum() {
                return Value::ObjRef(id);
            }
            seen.push(id);
            let r = Dynamic::from_ast(&BV::from_i64(id, 32));
            let fields = (0..f.classes[c as usize].fields.len())
                .map(|k| {
                    let fty = f.field_ty(c, k as u16);
                    let mem = crate::arrays::field_init(c, k as u16, &crate::sorts::sort_of(fty));
                    read_value(model, f, &mem.select(&r), fty, depth + 1, seen)
                })
                .collect();
            Value::Object { id, fields }
        }
        t => {
            let raw = v.as_bv().and_then(|b| b.as_u64()).unwrap_or(0);
            Value::Int(t, jreach_ir::types::normalize(t, raw as i64))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn why_the_solver_stopped() {
        let ten = Duration::from_secs(10);
        let canceled = Some("canceled".to_string());
        // What `limit_solver_memory(640)` records (z3 itself is left alone here).
        crate::SOLVER_MEMORY_MB.store(640, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(GaveUp::from_solver(canceled.clone(), ten, false, ten), GaveUp::Timeout(ten));
        assert_eq!(GaveUp::from_solver(Some("timeout".into()), ten, false, ten), GaveUp::Timeout(ten));
        // Stopped long before its time: the memory limit.
        assert!(matches!(GaveUp::from_solver(canceled.clone(), ten, false, Duration::from_secs(1)), GaveUp::Memory(_)));
        assert!(matches!(GaveUp::from_solver(Some("memout".into()), ten, false, ten), GaveUp::Memory(_)));
        assert_eq!(GaveUp::from_solver(canceled, ten, true, Duration::from_secs(1)), GaveUp::Canceled);
        assert_eq!(
            GaveUp::from_solver(Some("incomplete quantifiers".into()), ten, false, Duration::ZERO),
            GaveUp::Other("incomplete quantifiers".into())
        );
    }
}
