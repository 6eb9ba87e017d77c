//! Solving a reachability question and reading the inputs back from the model.

use std::time::Duration;

use jreach_ir::interp::Value;
use jreach_ir::{BlockId, Function, Ty};
use z3::ast::{Bool, Dynamic, BV};
use z3::{Params, SatResult, Solver};

use crate::encode::{param_name, Encoder};

/// Limits and preferences of one solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub timeout: Duration,
    /// Ask first for small, human-looking inputs.
    pub prefer_small: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { timeout: Duration::from_secs(10), prefer_small: true }
    }
}

/// The solver's answer.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Inputs (one per parameter) under which the formula says a target runs.
    Sat(Vec<Value>),
    /// No input reaches a target in this encoding.
    Unsat,
    /// The solver gave up (time-out or incompleteness).
    Unknown(String),
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
    let goal = enc.reach(targets);
    let solver = make_solver(opts);
    solver.assert(&goal);
    match solver.check() {
        SatResult::Unsat => return Verdict::Unsat,
        SatResult::Unknown => {
            return Verdict::Unknown(solver.get_reason_unknown().unwrap_or_else(|| "the solver gave up".into()))
        }
        SatResult::Sat => {}
    }
    let params = param_terms(f);
    if opts.prefer_small {
        for bound in [16i64, 128, 1 << 15] {
            let assumptions = small_assumptions(f, &params, bound);
            if assumptions.is_empty() {
                break;
            }
            if solver.check_assumptions(&assumptions) == SatResult::Sat {
                return Verdict::Sat(read_model(&solver, f, &params));
            }
        }
        // Re-establish a model of the unconstrained query.
        if solver.check() != SatResult::Sat {
            return Verdict::Unknown("the solver lost its model".into());
        }
    }
    Verdict::Sat(read_model(&solver, f, &params))
}

fn param_terms(f: &Function) -> Vec<Option<Dynamic>> {
    f.params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let sort = match p.ty {
                Ty::Bool => z3::Sort::bool(),
                Ty::Float => z3::Sort::float32(),
                Ty::Double => z3::Sort::double(),
                t if t.is_integral() => z3::Sort::bitvector(t.bits().expect("integral")),
                _ => return None,
            };
            Some(Dynamic::new_const(param_name(i as u32), &sort))
        })
        .collect()
}

/// Constraints that keep integral inputs within ±bound (chars printable).
fn small_assumptions(f: &Function, params: &[Option<Dynamic>], bound: i64) -> Vec<Bool> {
    let mut out = Vec::new();
    for (p, term) in f.params.iter().zip(params) {
        let Some(term) = term else { continue };
        match p.ty {
            Ty::Char => {
                let x = term.as_bv().expect("char is a bit-vector");
                let hi = if bound <= 128 { 126 } else { 0xffff };
                out.push(Bool::and(&[x.bvuge(&BV::from_u64(32, 16)), x.bvule(&BV::from_u64(hi, 16))]));
            }
            t if t.is_integral() => {
                let bits = t.bits().expect("integral");
                let b = bound.min(match bits {
                    8 => 127,
                    16 => 32767,
                    _ => bound,
                });
                let x = term.as_bv().expect("integral is a bit-vector");
                out.push(Bool::and(&[x.bvsge(&BV::from_i64(-b, bits)), x.bvsle(&BV::from_i64(b, bits))]));
            }
            _ => {}
        }
    }
    out
}

fn read_model(solver: &Solver, f: &Function, params: &[Option<Dynamic>]) -> Vec<Value> {
    let model = solver.get_model().expect("a model after SAT");
    f.params
        .iter()
        .zip(params)
        .map(|(p, term)| {
            let Some(term) = term else { return Value::Null };
            let v = model.eval(term, true).expect("model completion evaluates every constant");
            match p.ty {
                Ty::Bool => Value::Bool(v.as_bool().and_then(|b| b.as_bool()).unwrap_or(false)),
                Ty::Float | Ty::Double => {
                    let x = v.as_float().expect("a float");
                    let is_nan = model.eval(&x.is_nan(), true).and_then(|b| b.as_bool()).unwrap_or(false);
                    let bits = model.eval(&x.to_ieee_bv(), true).and_then(|b| b.as_u64()).unwrap_or(0);
                    if p.ty == Ty::Float {
                        Value::Float(if is_nan { f32::NAN } else { f32::from_bits(bits as u32) })
                    } else {
                        Value::Double(if is_nan { f64::NAN } else { f64::from_bits(bits) })
                    }
                }
                t => {
                    let raw = v.as_bv().and_then(|b| b.as_u64()).unwrap_or(0);
                    Value::Int(t, jreach_ir::types::normalize(t, raw as i64))
                }
            }
        })
        .collect()
}
