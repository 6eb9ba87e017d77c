//! Concolic rounds (LCT's loop, `../shared/seeds/001_*`): for a target whose path crosses calls
//! jreach does not model, the model's inputs are run on the JVM, what those calls returned there is
//! read back, fixed as constants in the next query, and the solver's new inputs are run again,
//! until a run reaches the line or the rounds run out.
//!
//! This crate runs no code: the caller hands in the run (`jreach_jvm::Verifier::observe_calls`),
//! which reports, per call of the target's file, its line, its method's name and the value it
//! returned ([`jreach_synth::CallObservation`]). A call the lowering could not see into is an
//! `Op::Nondet` of kind `CallResult` whose span is the call expression; it is matched to the run's
//! records by line and name, the k-th time the model meets a call site taking the k-th value the
//! JVM saw there. Fixing a call's result while the solver changes the inputs it depends on is a
//! guess (the concretisation of concolic testing), which the next run confirms or refutes; nothing
//! found here is offered before a run on the JVM shows it reaches its line.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use jreach_ir::interp::{self, Value};
use jreach_ir::{Const, Function, NondetKind, Op, Ty, ValueId};
use jreach_smt::{solve_reach, solve_reach_fixing, SolveOptions, Verdict};
use jreach_syntax::{SourceFile, Target};
use jreach_synth::{CallObservation, JavaValue, Outcome, TestRequest};

use super::receiver::{unmodelled_params, unsupported_signature};
use super::{callers, lower_for_synthesis, replay, GenOptions, SynthesisSource, MAX_STEPS};

/// How far concolic rounds go for one target.
#[derive(Clone, Copy, Debug)]
pub struct ConcolicLimits {
    /// Runs on the JVM, at most.
    pub rounds: u32,
    /// Time for the rounds, solving included (a round already started finishes).
    pub time: Duration,
}

impl Default for ConcolicLimits {
    fn default() -> Self {
        ConcolicLimits { rounds: 6, time: Duration::from_secs(5) }
    }
}

/// A run of a candidate test on the JVM: what the calls of the target's file returned, and
/// whether the line ran; `None` when it could not run.
pub type RunOnJvm<'a> = &'a mut dyn FnMut(&TestRequest) -> Option<CallObservation>;

/// Inputs for the statement on 0-based `line` of `file` found by concolic rounds: `Some` only for
/// a candidate that one of `run`'s runs showed reaching the line (the caller still verifies the
/// test as written before it offers it). `None` when the method calls nothing jreach does not
/// model on the way, or the rounds found nothing.
pub fn concolic(
    file: &SourceFile,
    line: usize,
    opts: &GenOptions,
    limits: ConcolicLimits,
    run: RunOnJvm<'_>,
) -> Option<TestRequest> {
    crate::contain::contain(|| {
        let (target, entries) = callers::target_entries(file, line)?;
        let started = Instant::now();
        let mut rounds_left = limits.rounds;
        for m in entries {
            let via = Target { method: m, ..target.clone() };
            if let Some(found) = rounds_for(file, &via, opts, limits.time, started, &mut rounds_left, run) {
                return Some(found);
            }
        }
        None
    })
    .ok()
    .flatten()
}

/// The rounds entered through `target.method`.
fn rounds_for(
    file: &SourceFile,
    target: &Target,
    opts: &GenOptions,
    time: Duration,
    started: Instant,
    rounds_left: &mut u32,
    run: RunOnJvm<'_>,
) -> Option<TestRequest> {
    let m = &target.method;
    let source = SynthesisSource::new(file, m, opts);
    let ctx = source.context(file);
    if unsupported_signature(&ctx, m).is_some() {
        return None;
    }
    let f = lower_for_synthesis(&source, &ctx, m, opts, ROUNDS_UNROLL);
    // An abstract class's receiver is an anonymous subclass, when a test can write one.
    if unmodelled_params(&f).is_some() || (m.class_is_abstract && !m.is_static && !f.setup.receiver_subclassed) {
        return None;
    }
    let sites = call_sites(file, &f);
    let targets = f.blocks_of_stmt(target.stmt.start);
    if sites.is_empty() || targets.is_empty() {
        return None;
    }
    let solve = SolveOptions { timeout: opts.timeout.min(time), prefer_small: true, cancel: opts.cancel.clone() };
    let Verdict::Sat(mut args) = solve_reach(&f, &targets, &solve) else { return None };
    let mut tried: Vec<Vec<Value>> = Vec::new();
    while *rounds_left > 0 && started.elapsed() < time && !cancelled(opts) {
        *rounds_left -= 1;
        tried.push(args.clone());
        let req = replay::request(file, target, &f, &targets, &args, opts, false, &[]).ok()?;
        let seen = run(&req)?;
        if seen.reached {
            // Written with the outcome the model computes from what the calls returned, when
            // it reaches the line with them too; else asserting nothing.
            let picks = Picks::new(&sites, &seen);
            let choose = |v: ValueId, ty: Ty| picks.pick(v, ty);
            let asserted = replay::request_choosing(file, target, &f, &targets, &args, opts, true, &[], &choose);
            return Some(asserted.unwrap_or(TestRequest {
                outcome: Outcome::Undetermined("the result depends on calls jreach does not model".into()),
                ..req
            }));
        }
        // The run on the model with the JVM's results: the calls it met, and what they returned.
        let picks = Picks::new(&sites, &seen);
        let _ = interp::run_choosing(&f, &args, &|v, ty| picks.pick(v, ty), MAX_STEPS);
        let fixed = picks.fixed(&f);
        if fixed.is_empty() {
            return None;
        }
        // The next inputs reach the line with those results; with fewer of them fixed (the
        // first ones met) when no input does.
        let mut next = None;
        for n in prefixes(fixed.len()) {
            if started.elapsed() >= time {
                break;
            }
            if let Verdict::Sat(a) = solve_reach_fixing(&f, &targets, &fixed[..n], &solve) {
                if !tried.contains(&a) {
                    next = Some(a);
                    break;
                }
            }
        }
        args = next?;
    }
    None
}

/// Loops are unrolled this many times in the rounds' lowering (the model's first guess is as
/// good as `gen`'s first rung).
const ROUNDS_UNROLL: u32 = 8;

/// How many of the fixed results each query keeps: all, then half, then the first.
fn prefixes(n: usize) -> Vec<usize> {
    let mut out = vec![n];
    if n / 2 > 0 && n / 2 < n {
        out.push(n / 2);
    }
    if n > 1 && !out.contains(&1) {
        out.push(1);
    }
    out
}

fn cancelled(opts: &GenOptions) -> bool {
    opts.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
}

/// A call site as the JVM runner names it: the 1-based line of the call's `(` and the method name.
type Site = (usize, String);

/// The call sites of `f`'s results of unseen calls that lie in `file` (not in classes appended
/// for synthesis): value → site.
fn call_sites(file: &SourceFile, f: &Function) -> HashMap<ValueId, Site> {
    let mut out = HashMap::new();
    for (i, vd) in f.values.iter().enumerate() {
        let Op::Nondet(NondetKind::CallResult { .. }) = &vd.op else { continue };
        let Some(span) = &vd.span else { continue };
        if span.end > file.text.len() {
            continue;
        }
        if let Some(site) = site_of(file, span.clone()) {
            out.insert(ValueId(i as u32), site);
        }
    }
    out
}

/// The innermost method call around `span`: its name and the line of its arguments' `(`.
fn site_of(file: &SourceFile, span: std::ops::Range<usize>) -> Option<Site> {
    let mut n = file.tree.root_node().descendant_for_byte_range(span.start, span.end)?;
    while n.kind() != "method_invocation" {
        n = n.parent()?;
    }
    let name = n.child_by_field_name("name")?;
    let args = n.child_by_field_name("arguments")?;
    Some((file.lines.line_of(args.start_byte()) + 1, file.text[name.byte_range()].to_string()))
}

/// The values one JVM run showed for the model's unknowns, picked in the order a run on the
/// model meets them: one `Picks` per run on the model (the same id always gets the same value).
struct Picks<'a> {
    sites: &'a HashMap<ValueId, Site>,
    /// Per site, the values the JVM saw there, in order.
    seen: HashMap<Site, Vec<Option<JavaValue>>>,
    next: RefCell<HashMap<Site, usize>>,
    picked: RefCell<Vec<(ValueId, Value)>>,
}

impl<'a> Picks<'a> {
    fn new(sites: &'a HashMap<ValueId, Site>, obs: &CallObservation) -> Picks<'a> {
        let mut seen: HashMap<Site, Vec<Option<JavaValue>>> = HashMap::new();
        for c in &obs.calls {
            seen.entry((c.line, c.name.clone())).or_default().push(c.value.clone());
        }
        Picks { sites, seen, next: RefCell::new(HashMap::new()), picked: RefCell::new(Vec::new()) }
    }

    fn pick(&self, v: ValueId, ty: Ty) -> Option<Value> {
        if let Some((_, x)) = self.picked.borrow().iter().find(|(w, _)| *w == v) {
            return Some(x.clone());
        }
        let site = self.sites.get(&v)?;
        let k = {
            let mut next = self.next.borrow_mut();
            let k = next.entry(site.clone()).or_insert(0);
            *k += 1;
            *k - 1
        };
        let value = model_value(self.seen.get(site)?.get(k)?.as_ref()?, ty)?;
        self.picked.borrow_mut().push((v, value.clone()));
        Some(value)
    }

    /// What was picked, as constants of the values' types.
    fn fixed(&self, f: &Function) -> Vec<(ValueId, Const)> {
        self.picked.borrow().iter().filter_map(|(v, x)| Some((*v, constant(x, f.value(*v).ty)?))).collect()
    }
}

/// A value the JVM reported as a value of the model's type `ty`.
fn model_value(v: &JavaValue, ty: Ty) -> Option<Value> {
    Some(match (v, ty) {
        (JavaValue::Bool(b), Ty::Bool) => Value::Bool(*b),
        (JavaValue::Long(n), t) if t.is_integral() => Value::int(t, *n),
        (JavaValue::Double(d), Ty::Double) => Value::Double(*d),
        (JavaValue::Double(d), Ty::Float) => Value::Float(*d as f32),
        (JavaValue::Str(s), Ty::Str) => Value::Str(s.clone()),
        (JavaValue::Null, Ty::Str) => Value::Null,
        _ => return None,
    })
}

/// A model value as a solver constant (null strings are left free).
fn constant(v: &Value, ty: Ty) -> Option<Const> {
    Some(match v {
        Value::Bool(b) => Const::Bool(*b),
        Value::Int(_, n) if ty.is_integral() => Const::int(ty, *n),
        Value::Float(x) => Const::Float(x.to_bits()),
        Value::Double(x) => Const::Double(x.to_bits()),
        Value::Str(s) => Const::Str(s.clone()),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fewer_fixed_results_each_time() {
        assert_eq!(prefixes(1), vec![1]);
        assert_eq!(prefixes(2), vec![2, 1]);
        assert_eq!(prefixes(5), vec![5, 2, 1]);
    }

    #[test]
    fn a_call_site_is_the_line_of_its_parenthesis_and_its_name() {
        let file =
            SourceFile::parse("class A {\n  int f(String s) {\n    return s\n      .hashCode(\n      );\n  }\n}\n");
        let start = file.text.find("s\n").unwrap();
        let end = file.text.find(");").unwrap() + 1;
        assert_eq!(site_of(&file, start..end), Some((4, "hashCode".to_string())));
    }

    #[test]
    fn jvm_values_become_values_of_the_model_type() {
        assert_eq!(model_value(&JavaValue::Long(65), Ty::Char), Some(Value::int(Ty::Char, 65)));
        assert_eq!(model_value(&JavaValue::Long(300), Ty::Byte), Some(Value::int(Ty::Byte, 44)));
        assert_eq!(model_value(&JavaValue::Str("x".into()), Ty::Int), None);
        assert_eq!(constant(&Value::int(Ty::Int, -3), Ty::Int), Some(Const::int(Ty::Int, -3)));
        assert_eq!(constant(&Value::Null, Ty::Str), None);
    }
}
