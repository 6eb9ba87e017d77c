//! A concrete interpreter over the IR with exact Java semantics.
//!
//! Synthesis replays every solver model here before it offers a test: a test is honest only when
//! this run visits the target block. The interpreter is deliberately independent of the SMT
//! encoding so that the two can check each other.
//!
//! - Integral values are `Value::Int(ty, v)` with `v` normalised to `ty` (sign-extended, `char`
//!   zero-extended); arithmetic wraps at the type's width, shift distances are masked by 31 or 63,
//!   `>>>` is logical on the operand's width, `/` and `%` truncate toward zero.
//! - `float` and `double` are IEEE (Rust's `f32`/`f64` arithmetic is round-to-nearest like Java's;
//!   `%` is fmod in both), comparisons involving NaN are false except `!=`.
//! - `Cast` follows JLS 5.1.2/5.1.3: floating to integral saturates with NaN to 0, and narrowing
//!   from floating to `byte`/`short`/`char` goes through `int`.
//! - `Nondet` values are `Value::Unknown` (or what the caller of [`run_choosing`] picks for them);
//!   unknowns propagate through computations, and a branch on one ends the run with
//!   [`End::Unknown`] naming what was unknown.
//! - Anything the IR should never contain (a type mismatch, a zero divisor reaching `Div`, a value
//!   used on a path that did not define it) ends the run with [`End::Unknown`] instead of
//!   panicking.

mod arrays;
mod math;
mod objects;
mod strings;
mod value;

pub use arrays::default_value;
pub use strings::parse_int;
pub use value::Value;

use crate::func::*;
use crate::types::{normalize, Ty};

/// How a run ends.
#[derive(Clone, Debug, PartialEq)]
pub enum End {
    /// Normal completion, with the returned value (absent for `void`).
    Return(Option<Value>),
    /// Abrupt completion with an exception of this class.
    Throw(String),
    /// The path left what was lowered.
    Cutoff(CutoffKind),
    /// The run could not be completed; the string says why.
    Unknown(String),
}

/// The result of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub end: End,
    /// The blocks visited, in order.
    pub blocks: Vec<BlockId>,
    /// For each branch taken that has a source origin: the condition and whether it was true.
    pub decisions: Vec<(CondOrigin, bool)>,
}

impl Run {
    /// Whether the run visited any of `targets` (the blocks a statement begins in).
    pub fn reached(&self, targets: &[BlockId]) -> bool {
        self.blocks.iter().any(|b| targets.contains(b))
    }
}

/// Runs `f` on `args` (one per parameter), visiting at most `max_steps` blocks.
pub fn run(f: &Function, args: &[Value], max_steps: usize) -> Run {
    run_choosing(f, args, &|_, _| None, max_steps)
}

/// What a run takes for a `Nondet` value (its id and type): `None` leaves it unknown. A choice
/// must be a value of the type, and the same for the same id within one run.
pub type NondetChoice<'c> = &'c dyn Fn(ValueId, Ty) -> Option<Value>;

/// [`run`], with `choose` picking the values of `Nondet`s: the run is then one of the executions
/// the lowering stands for (in the over-approximating mode, with those results of unknown calls,
/// those states after havocked loops...).
pub fn run_choosing(f: &Function, args: &[Value], choose: NondetChoice<'_>, max_steps: usize) -> Run {
    let mut interp = Interp { f, args, choose, env: vec![None; f.values.len()] };
    let mut blocks = Vec::new();
    let mut decisions = Vec::new();
    let end = interp.go(&mut blocks, &mut decisions, max_steps);
    Run { end, blocks, decisions }
}

struct Interp<'a> {
    f: &'a Function,
    args: &'a [Value],
    choose: NondetChoice<'a>,
    env: Vec<Option<Value>>,
}

impl Interp<'_> {
    fn go(&mut self, visited: &mut Vec<BlockId>, decisions: &mut Vec<(CondOrigin, bool)>, max_steps: usize) -> End {
        let f = self.f;
        let mut cur = f.entry;
        let mut prev: Option<BlockId> = None;
        loop {
            if visited.len() >= max_steps {
                return End::Unknown("step limit".into());
            }
            let Some(block) = f.blocks.get(cur.index()) else {
                return End::Unknown(format!("jump to missing block {cur}"));
            };
            if let Err(e) = self.enter(cur, prev) {
                return End::Unknown(e);
            }
            visited.push(cur);
            let next = match &block.term {
                Terminator::Jump(t) => *t,
                Terminator::Branch { cond, then_to, else_to, origin } => {
                    let c = match self.get(*cond) {
                        Ok(Value::Bool(c)) => c,
                        Ok(Value::Unknown(why)) => {
                            return End::Unknown(format!("a branch depends on {why}, which jreach cannot compute"))
                        }
                        Ok(other) => return End::Unknown(format!("branch in {cur} on non-boolean {other}")),
                        Err(e) => return End::Unknown(e),
                    };
                    if let Some(o) = origin {
                        decisions.push((o.clone(), c));
                    }
                    if c {
                        *then_to
                    } else {
                        *else_to
                    }
                }
                Terminator::Return(None) => return End::Return(None),
                Terminator::Return(Some(v)) => {
                    return match self.get(*v) {
                        Ok(v) => End::Return(Some(v)),
                        Err(e) => End::Unknown(e),
                    }
                }
                Terminator::Throw { class, .. } => return End::Throw(class.clone()),
                Terminator::Cutoff(k) => return End::Cutoff(k.clone()),
                Terminator::Unterminated => return End::Unknown(format!("{cur} is unterminated")),
            };
            prev = Some(cur);
            cur = next;
        }
    }

    /// Evaluates the instructions of `b`, entered from `prev`.
    fn enter(&mut self, b: BlockId, prev: Option<BlockId>) -> Result<(), String> {
        let insts = &self.f.block(b).insts;
        // φs read their operands as of the end of the predecessor, all at once.
        let mut phis = Vec::new();
        for &v in insts {
            let Some(vd) = self.f.values.get(v.index()) else {
                return Err(format!("{b} lists missing value {v}"));
            };
            let Op::Phi(ins) = &vd.op else { break };
            let Some(p) = prev else {
                return Err(format!("φ {v} in the entry block"));
            };
            let Some((_, x)) = ins.iter().find(|(from, _)| *from == p) else {
                return Err(format!("φ {v} in {b} has no operand for {p}"));
            };
            phis.push((v, self.get(*x)?));
        }
        let n_phis = phis.len();
        for (v, x) in phis {
            self.set(v, x)?;
        }
        for &v in &insts[n_phis..] {
            let x = self.eval(v)?;
            self.set(v, x)?;
        }
        Ok(())
    }

    fn set(&mut self, v: ValueId, x: Value) -> Result<(), String> {
        let vd = self.f.value(v);
        match x.ty() {
            // Null belongs to every reference type.
            Some(t) if t != vd.ty && !(x == Value::Null && vd.ty == Ty::Str) => {
                Err(format!("{v} should be {} but computed {x}", vd.ty))
            }
            _ => {
                self.env[v.index()] = Some(x);
                Ok(())
            }
        }
    }

    fn get(&self, v: ValueId) -> Result<Value, String> {
        match self.env.get(v.index()) {
            Some(Some(x)) => Ok(x.clone()),
            // A value the run's path did not compute: the encoding gives every value one term,
            // whatever the path, so a function of its operands is computed here the same way
            // (a model of an object made on another path compares with it, say). A φ depends
            // on the path: it has no value off it.
            Some(None) if !matches!(self.f.value(v).op, Op::Phi(_)) => self.eval(v),
            Some(None) => Err(format!("{v} used on a path that does not define it")),
            None => Err(format!("missing value {v}")),
        }
    }

    fn eval(&self, v: ValueId) -> Result<Value, String> {
        let vd = self.f.value(v);
        match &vd.op {
            Op::Param(i) => {
                let Some(x) = self.args.get(*i as usize) else {
                    return Err(format!("no argument for parameter {i}"));
                };
                arg_value(x, vd.ty).ok_or_else(|| format!("argument {i} ({x}) is not a {}", vd.ty))
            }
            Op::Const(c) => Ok(Value::from_const(c)),
            Op::Unary(op, a) => unary(*op, self.get(*a)?).map_err(|e| format!("{v}: {e}")),
            Op::Binary(op, a, b) => binary(*op, self.get(*a)?, self.get(*b)?).map_err(|e| format!("{v}: {e}")),
            Op::Cast(a) => cast(self.get(*a)?, vd.ty).map_err(|e| format!("{v}: {e}")),
            Op::Select(c, a, b) => match self.get(*c)? {
                Value::Bool(true) => self.get(*a),
                Value::Bool(false) => self.get(*b),
                Value::Unknown(why) => {
                    let (a, b) = (self.get(*a)?, self.get(*b)?);
                    Ok(if a == b && !a.is_unknown() { a } else { Value::Unknown(why) })
                }
                other => Err(format!("{v}: select on non-boolean {other}")),
            },
            Op::Phi(_) => Err(format!("φ {v} after a non-φ instruction")),
            Op::Nondet(kind) => Ok((self.choose)(v, vd.ty)
                .and_then(|x| arg_value(&x, vd.ty))
                .unwrap_or_else(|| Value::Unknown(kind.to_string()))),
            Op::Math(op, args) => {
                let mut xs = Vec::with_capacity(args.len());
                for a in args {
                    match self.get(*a)? {
                        Value::Double(x) => xs.push(x),
                        Value::Unknown(why) => return Ok(Value::Unknown(why)),
                        other => return Err(format!("{v}: Math.{} of {other}", op.name())),
                    }
                }
                Ok(Value::Double(math::eval(*op, &xs)))
            }
            Op::Str(op, args) => {
                let vals = args.iter().map(|a| self.get(*a)).collect::<Result<Vec<_>, _>>()?;
                strings::eval(*op, &vals).map_err(|e| format!("{v}: {e}"))
            }
            Op::Obj(ObjOp::Init, _) => match vd.ty {
                Ty::Fields(c, i) => Ok(objects::initial_fields(self.f, self.args, c, i)),
                other => Err(format!("{v}: initial fields of type {other}")),
            },
            Op::Obj(op, args) => {
                let vals = args.iter().map(|a| self.get(*a)).collect::<Result<Vec<_>, _>>()?;
                objects::eval(*op, &vals).map_err(|e| format!("{v}: {e}"))
            }
            Op::Arr(ArrOp::Init, _) => match vd.ty {
                Ty::Mem(t) => Ok(arrays::initial_memory(self.f, self.args, t)),
                other => Err(format!("{v}: initial memory of type {other}")),
            },
            Op::Arr(op, args) => {
                let vals = args.iter().map(|a| self.get(*a)).collect::<Result<Vec<_>, _>>()?;
                arrays::eval(*op, &vals, vd.ty).map_err(|e| format!("{v}: {e}"))
            }
        }
    }
}

/// An argument as a value of the parameter's type (integral arguments are re-tagged when the
/// value fits the parameter's type).
fn arg_value(x: &Value, ty: Ty) -> Option<Value> {
    match (x, ty) {
        (Value::Unknown(_), _) => Some(x.clone()),
        (Value::Null, Ty::Str | Ty::Ref) => Some(Value::Null),
        (Value::Null, Ty::Arr(_)) => Some(Value::ArrRef(0)),
        (Value::Array { id, .. }, Ty::Arr(_)) => Some(Value::ArrRef(*id)),
        (Value::Null, Ty::Obj(_)) => Some(Value::ObjRef(0)),
        (Value::Object { id, .. } | Value::ObjRef(id), Ty::Obj(_)) => Some(Value::ObjRef(*id)),
        (Value::Int(_, v), t) if t.is_integral() && normalize(t, *v) == *v => Some(Value::Int(t, *v)),
        _ if x.ty() == Some(ty) => Some(x.clone()),
        _ => None,
    }
}

fn unary(op: UnOp, a: Value) -> Result<Value, String> {
    Ok(match (op, a) {
        (_, Value::Unknown(why)) => Value::Unknown(why),
        (UnOp::Neg, Value::Int(t, x)) => Value::int(t, x.wrapping_neg()),
        (UnOp::Neg, Value::Float(x)) => Value::Float(-x),
        (UnOp::Neg, Value::Double(x)) => Value::Double(-x),
        (UnOp::BitNot, Value::Int(t, x)) => Value::int(t, !x),
        (UnOp::Not, Value::Bool(b)) => Value::Bool(!b),
        (op, a) => return Err(format!("{op:?} of {a}")),
    })
}

fn binary(op: BinOp, a: Value, b: Value) -> Result<Value, String> {
    use BinOp::*;
    if let Value::Unknown(why) = a {
        return Ok(Value::Unknown(why));
    }
    if let Value::Unknown(why) = b {
        return Ok(Value::Unknown(why));
    }
    if let (Value::ArrRef(x), Value::ArrRef(y)) | (Value::ObjRef(x), Value::ObjRef(y)) = (&a, &b) {
        return match op {
            Eq => Ok(Value::Bool(x == y)),
            Ne => Ok(Value::Bool(x != y)),
            _ => Err(format!("{op:?} of array references")),
        };
    }
    if op.is_shift() {
        let (Value::Int(t, x), Value::Int(_, d)) = (&a, &b) else {
            return Err(format!("shift of {a} by {b}"));
        };
        let (t, x) = (*t, *x);
        let bits = t.bits().unwrap_or(64);
        let d = (d & if t == Ty::Long { 63 } else { 31 }) as u32;
        let r = match op {
            Shl => x.wrapping_shl(d),
            Shr => x >> d,
            _ => {
                let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
                ((x as u64 & mask) >> d) as i64
            }
        };
        return Ok(Value::int(t, r));
    }
    let mismatch = || format!("{} {} {}", a, op.symbol(), b);
    Ok(match (&a, &b) {
        (Value::Int(t, x), Value::Int(u, y)) if t == u => {
            let (t, x, y) = (*t, *x, *y);
            match op {
                Add => Value::int(t, x.wrapping_add(y)),
                Sub => Value::int(t, x.wrapping_sub(y)),
                Mul => Value::int(t, x.wrapping_mul(y)),
                Div | Rem if y == 0 => {
                    return Err(format!("{x} {} 0: the lowering should have thrown ArithmeticException", op.symbol()))
                }
                Div => Value::int(t, x.wrapping_div(y)),
                Rem => Value::int(t, x.wrapping_rem(y)),
                And => Value::Int(t, x & y),
                Or => Value::Int(t, x | y),
                Xor => Value::Int(t, x ^ y),
                _ => Value::Bool(compare(op, x, y)),
            }
        }
        (Value::Float(x), Value::Float(y)) => {
            let (x, y) = (*x, *y);
            match op {
                Add => Value::Float(x + y),
                Sub => Value::Float(x - y),
                Mul => Value::Float(x * y),
                Div => Value::Float(x / y),
                Rem => Value::Float(x % y),
                Eq | Ne | Lt | Le | Gt | Ge => Value::Bool(compare(op, x, y)),
                _ => return Err(mismatch()),
            }
        }
        (Value::Double(x), Value::Double(y)) => {
            let (x, y) = (*x, *y);
            match op {
                Add => Value::Double(x + y),
                Sub => Value::Double(x - y),
                Mul => Value::Double(x * y),
                Div => Value::Double(x / y),
                Rem => Value::Double(x % y),
                Eq | Ne | Lt | Le | Gt | Ge => Value::Bool(compare(op, x, y)),
                _ => return Err(mismatch()),
            }
        }
        (Value::Bool(x), Value::Bool(y)) => {
            let (x, y) = (*x, *y);
            match op {
                And => Value::Bool(x & y),
                Or => Value::Bool(x | y),
                Xor | Ne => Value::Bool(x ^ y),
                Eq => Value::Bool(x == y),
                _ => return Err(mismatch()),
            }
        }
        // References: the only strings the IR produces are literals (and arguments written as
        // literals by the generated test), which Java interns, so equal contents mean the same
        // reference.
        (Value::Str(_) | Value::Null, Value::Str(_) | Value::Null) => match op {
            Eq => Value::Bool(a == b),
            Ne => Value::Bool(a != b),
            _ => return Err(mismatch()),
        },
        _ => return Err(mismatch()),
    })
}

/// A comparison (`op.is_comparison()`; panics on any other operator). On floats, Rust's
/// `PartialOrd` is IEEE like Java's: every comparison with NaN is false except `!=`, and
/// `0.0 == -0.0`.
pub fn compare<T: PartialOrd>(op: BinOp, x: T, y: T) -> bool {
    match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        _ => unreachable!("not a comparison: {op:?}"),
    }
}

/// Primitive conversion to `to` (JLS 5.1.2 widening, 5.1.3 narrowing). Rust's `as` between
/// floating and integral types saturates with NaN to 0 and rounds integers to the nearest float,
/// as Java does.
fn cast(a: Value, to: Ty) -> Result<Value, String> {
    Ok(match (a, to) {
        (Value::Unknown(why), _) => Value::Unknown(why),
        (Value::Int(_, v), t) if t.is_integral() => Value::int(t, v),
        (Value::Int(_, v), Ty::Float) => Value::Float(v as f32),
        (Value::Int(_, v), Ty::Double) => Value::Double(v as f64),
        (Value::Float(x), Ty::Long) => Value::Int(Ty::Long, x as i64),
        (Value::Double(x), Ty::Long) => Value::Int(Ty::Long, x as i64),
        // To int, then (for byte, short and char) on to the narrower type.
        (Value::Float(x), t) if t.is_integral() => Value::int(t, x as i32 as i64),
        (Value::Double(x), t) if t.is_integral() => Value::int(t, x as i32 as i64),
        (Value::Float(x), Ty::Float) => Value::Float(x),
        (Value::Float(x), Ty::Double) => Value::Double(x as f64),
        (Value::Double(x), Ty::Float) => Value::Float(x as f32),
        (Value::Double(x), Ty::Double) => Value::Double(x),
        (a, t) if a.ty() == Some(t) => a,
        (a, t) => return Err(format!("cannot convert {a} to {t}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::FunctionBuilder;
    use crate::types::Const;

    fn param(name: &str, ty: Ty) -> ParamInfo {
        ParamInfo { name: name.into(), ty, java_ty: ty.java_name().into() }
    }

    fn synth() -> LowerMode {
        LowerMode::Synthesis { unroll: 4 }
    }

    /// `(a, b) -> a op b` with both parameters of type `ty`; the result type is `ret`.
    fn binop_fn(op: BinOp, ty: Ty, rty: Ty, ret: Ty) -> Function {
        let mut fb = FunctionBuilder::new("T.f".into(), vec![param("a", ty), param("b", rty)], ret, synth());
        let e = fb.entry();
        let a = fb.push(e, Op::Param(0), ty, None);
        let b = fb.push(e, Op::Param(1), rty, None);
        let r = fb.push(e, Op::Binary(op, a, b), ret, None);
        fb.terminate(e, Terminator::Return(Some(r)));
        fb.finish()
    }

    fn eval_bin(op: BinOp, a: Value, b: Value) -> Value {
        let ty = a.ty().unwrap();
        let rty = b.ty().unwrap();
        let ret = if op.is_comparison() { Ty::Bool } else { ty };
        match run(&binop_fn(op, ty, rty, ret), &[a, b], 10).end {
            End::Return(Some(v)) => v,
            other => panic!("{op:?}: {other:?}"),
        }
    }

    fn eval_cast(a: Value, to: Ty) -> Value {
        let from = a.ty().unwrap();
        let mut fb = FunctionBuilder::new("T.c".into(), vec![param("a", from)], to, synth());
        let e = fb.entry();
        let p = fb.push(e, Op::Param(0), from, None);
        let c = fb.push(e, Op::Cast(p), to, None);
        fb.terminate(e, Terminator::Return(Some(c)));
        match run(&fb.finish(), &[a], 10).end {
            End::Return(Some(v)) => v,
            other => panic!("{other:?}"),
        }
    }

    fn int(v: i64) -> Value {
        Value::int(Ty::Int, v)
    }

    fn long(v: i64) -> Value {
        Value::Int(Ty::Long, v)
    }

    #[test]
    fn integer_arithmetic_wraps() {
        assert_eq!(eval_bin(BinOp::Add, int(i32::MAX as i64), int(1)), int(i32::MIN as i64));
        assert_eq!(eval_bin(BinOp::Mul, int(65536), int(65536)), int(0));
        assert_eq!(eval_bin(BinOp::Sub, long(i64::MIN), long(1)), long(i64::MAX));
        assert_eq!(
            eval_bin(BinOp::Add, Value::int(Ty::Byte, 127), Value::int(Ty::Byte, 1)),
            Value::int(Ty::Byte, -128)
        );
        assert_eq!(eval_bin(BinOp::Sub, Value::int(Ty::Char, 0), Value::int(Ty::Char, 1)), Value::Int(Ty::Char, 65535));
    }

    #[test]
    fn division_truncates_and_min_over_minus_one_wraps() {
        assert_eq!(eval_bin(BinOp::Div, int(-7), int(2)), int(-3));
        assert_eq!(eval_bin(BinOp::Rem, int(-7), int(2)), int(-1));
        assert_eq!(eval_bin(BinOp::Rem, int(7), int(-2)), int(1));
        assert_eq!(eval_bin(BinOp::Div, int(i32::MIN as i64), int(-1)), int(i32::MIN as i64));
        assert_eq!(eval_bin(BinOp::Rem, int(i32::MIN as i64), int(-1)), int(0));
        assert_eq!(eval_bin(BinOp::Div, long(i64::MIN), long(-1)), long(i64::MIN));
        let f = binop_fn(BinOp::Div, Ty::Int, Ty::Int, Ty::Int);
        assert!(matches!(run(&f, &[int(1), int(0)], 10).end, End::Unknown(_)));
    }

    #[test]
    fn shifts_mask_the_distance() {
        assert_eq!(eval_bin(BinOp::Shl, int(1), int(33)), int(2));
        assert_eq!(eval_bin(BinOp::Shl, int(1), int(31)), int(i32::MIN as i64));
        assert_eq!(eval_bin(BinOp::Shl, long(1), int(65)), long(2));
        assert_eq!(eval_bin(BinOp::Shr, int(-8), int(1)), int(-4));
        assert_eq!(eval_bin(BinOp::Ushr, int(-1), int(28)), int(15));
        assert_eq!(eval_bin(BinOp::Ushr, int(-1), int(32)), int(-1));
        assert_eq!(eval_bin(BinOp::Ushr, long(-1), int(60)), long(15));
        assert_eq!(eval_bin(BinOp::Shr, long(-1), int(-1)), long(-1));
        assert_eq!(eval_bin(BinOp::Ushr, Value::int(Ty::Byte, -1), int(4)), Value::int(Ty::Byte, 15));
    }

    #[test]
    fn bitwise_and_comparisons() {
        assert_eq!(eval_bin(BinOp::Xor, int(0b1100), int(0b1010)), int(0b0110));
        assert_eq!(eval_bin(BinOp::Lt, int(-1), int(0)), Value::Bool(true));
        assert_eq!(eval_bin(BinOp::Ge, long(5), long(6)), Value::Bool(false));
        assert_eq!(eval_bin(BinOp::And, Value::Bool(true), Value::Bool(false)), Value::Bool(false));
        assert_eq!(eval_bin(BinOp::Ne, Value::Bool(true), Value::Bool(false)), Value::Bool(true));
        assert_eq!(eval_bin(BinOp::Eq, Value::Str("a".into()), Value::Str("a".into())), Value::Bool(true));
        assert_eq!(eval_bin(BinOp::Lt, Value::int(Ty::Char, 65535), Value::int(Ty::Char, 1)), Value::Bool(false));
    }

    #[test]
    fn floating_point_follows_ieee_and_java_nan_rules() {
        let nan = Value::Double(f64::NAN);
        for op in [BinOp::Eq, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge] {
            assert_eq!(eval_bin(op, nan.clone(), nan.clone()), Value::Bool(false), "{op:?}");
        }
        assert_eq!(eval_bin(BinOp::Ne, nan.clone(), nan.clone()), Value::Bool(true));
        assert_eq!(eval_bin(BinOp::Eq, Value::Double(0.0), Value::Double(-0.0)), Value::Bool(true));
        assert_eq!(eval_bin(BinOp::Rem, Value::Double(-5.5), Value::Double(2.0)), Value::Double(-1.5));
        assert_eq!(eval_bin(BinOp::Div, Value::Float(1.0), Value::Float(0.0)), Value::Float(f32::INFINITY));
        assert_eq!(eval_bin(BinOp::Add, Value::Float(16777216.0), Value::Float(1.0)), Value::Float(16777216.0));
        let Value::Double(r) = eval_bin(BinOp::Rem, Value::Double(1.0), Value::Double(0.0)) else { panic!() };
        assert!(r.is_nan());
    }

    #[test]
    fn casts_follow_jls_5_1_3() {
        assert_eq!(eval_cast(int(200), Ty::Byte), Value::int(Ty::Byte, -56));
        assert_eq!(eval_cast(int(-1), Ty::Char), Value::Int(Ty::Char, 65535));
        assert_eq!(eval_cast(Value::Int(Ty::Char, 65535), Ty::Int), int(65535));
        assert_eq!(eval_cast(Value::int(Ty::Byte, -1), Ty::Char), Value::Int(Ty::Char, 65535));
        assert_eq!(eval_cast(long(0x1_0000_0005), Ty::Int), int(5));
        assert_eq!(eval_cast(Value::Double(1e20), Ty::Int), int(i32::MAX as i64));
        assert_eq!(eval_cast(Value::Double(-1e20), Ty::Long), long(i64::MIN));
        assert_eq!(eval_cast(Value::Float(f32::NAN), Ty::Int), int(0));
        assert_eq!(eval_cast(Value::Double(-3.9), Ty::Int), int(-3));
        // Floating to byte goes through int: (byte) 1e10 == (byte) Integer.MAX_VALUE == -1.
        assert_eq!(eval_cast(Value::Double(1e10), Ty::Byte), Value::int(Ty::Byte, -1));
        assert_eq!(eval_cast(Value::Double(300.7), Ty::Byte), Value::int(Ty::Byte, 44));
        assert_eq!(eval_cast(Value::Float(-1.0), Ty::Char), Value::Int(Ty::Char, 65535));
        assert_eq!(eval_cast(int(16777217), Ty::Float), Value::Float(16777216.0));
        assert_eq!(eval_cast(long(i64::MAX), Ty::Double), Value::Double(2f64.powi(63)));
        assert_eq!(eval_cast(Value::Double(0.1), Ty::Float), Value::Float(0.1));
        assert_eq!(eval_cast(Value::Float(0.1), Ty::Double), Value::Double(0.1f32 as f64));
    }

    /// `int f(int a) { if (a < 0) a = -a; return a; }`
    fn abs_fn() -> (Function, BlockId) {
        let mut fb = FunctionBuilder::new("T.abs".into(), vec![param("a", Ty::Int)], Ty::Int, synth());
        let var = fb.new_var("a", Ty::Int);
        let e = fb.entry();
        let p = fb.push(e, Op::Param(0), Ty::Int, None);
        fb.def_var(var, e, p);
        let zero = fb.push(e, Op::Const(Const::int(Ty::Int, 0)), Ty::Int, None);
        let c = fb.push(e, Op::Binary(BinOp::Lt, p, zero), Ty::Bool, None);
        let then_b = fb.create_block();
        let join = fb.create_block();
        let origin = CondOrigin { span: 10..15, text: "a < 0".into(), note: None };
        fb.terminate(e, Terminator::Branch { cond: c, then_to: then_b, else_to: join, origin: Some(origin) });
        fb.seal(then_b);
        let a = fb.use_var(var, then_b);
        let neg = fb.push(then_b, Op::Unary(UnOp::Neg, a), Ty::Int, None);
        fb.def_var(var, then_b, neg);
        fb.terminate(then_b, Terminator::Jump(join));
        fb.seal(join);
        let r = fb.use_var(var, join);
        fb.terminate(join, Terminator::Return(Some(r)));
        (fb.finish(), then_b)
    }

    #[test]
    fn phis_take_the_operand_of_the_incoming_edge() {
        let (f, then_b) = abs_fn();
        let r = run(&f, &[int(-5)], 100);
        assert_eq!(r.end, End::Return(Some(int(5))));
        assert_eq!(r.blocks, vec![BlockId(0), BlockId(1), BlockId(2)]);
        assert_eq!(r.decisions.len(), 1);
        assert_eq!((r.decisions[0].0.text.as_str(), r.decisions[0].1), ("a < 0", true));
        assert!(r.reached(&[then_b]));

        let r = run(&f, &[int(7)], 100);
        assert_eq!(r.end, End::Return(Some(int(7))));
        assert_eq!(r.blocks, vec![BlockId(0), BlockId(2)]);
        assert!(!r.reached(&[BlockId(1)]));
        assert!(!r.decisions[0].1);

        assert_eq!(run(&f, &[int(i32::MIN as i64)], 100).end, End::Return(Some(int(i32::MIN as i64))));
        assert_eq!(run(&f, &[int(-5)], 2).end, End::Unknown("step limit".into()));
        assert!(matches!(run(&f, &[], 100).end, End::Unknown(_)));
        assert!(matches!(run(&f, &[Value::Bool(true)], 100).end, End::Unknown(_)));
    }

    #[test]
    fn unknowns_propagate_and_stop_at_branches() {
        let mut fb = FunctionBuilder::new("T.u".into(), vec![param("a", Ty::Int)], Ty::Int, synth());
        let e = fb.entry();
        let a = fb.push(e, Op::Param(0), Ty::Int, None);
        let kind = NondetKind::CallResult { callee: "Helper.f".into() };
        let u = fb.push(e, Op::Nondet(kind), Ty::Int, None);
        let s = fb.push(e, Op::Binary(BinOp::Add, a, u), Ty::Int, None);
        let c = fb.push(e, Op::Binary(BinOp::Gt, s, a), Ty::Bool, None);
        let t = fb.create_block();
        let el = fb.create_block();
        fb.terminate(e, Terminator::Branch { cond: c, then_to: t, else_to: el, origin: None });
        fb.terminate(t, Terminator::Return(Some(s)));
        fb.terminate(el, Terminator::Return(Some(a)));
        let f = fb.finish();
        let r = run(&f, &[int(1)], 10);
        let End::Unknown(why) = &r.end else { panic!("{:?}", r.end) };
        assert!(why.contains("result of Helper.f"), "{why}");
        assert_eq!(r.blocks, vec![BlockId(0)]);

        // A run that picks the unknown's value goes on; a value of another type is not taken.
        let picks = |x: Value| move |v: ValueId, _: Ty| (v == u).then(|| x.clone());
        let r = run_choosing(&f, &[int(1)], &picks(int(5)), 10);
        assert_eq!((r.end, r.blocks), (End::Return(Some(int(6))), vec![BlockId(0), BlockId(1)]));
        let r = run_choosing(&f, &[int(1)], &picks(int(-5)), 10);
        assert_eq!((r.end, r.blocks), (End::Return(Some(int(1))), vec![BlockId(0), BlockId(2)]));
        let r = run_choosing(&f, &[int(1)], &picks(Value::Bool(true)), 10);
        assert!(matches!(r.end, End::Unknown(_)), "{:?}", r.end);
    }

    #[test]
    fn a_value_made_on_another_path_is_its_function_of_the_operands() {
        // `then` computes `a + 1`; the join reads it though the run went the other way (the
        // encoding has one term per value, so the replay must too). A φ off the path has no value.
        let mut fb = FunctionBuilder::new("T.o".into(), vec![param("a", Ty::Int)], Ty::Int, synth());
        let e = fb.entry();
        let a = fb.push(e, Op::Param(0), Ty::Int, None);
        let zero = fb.push(e, Op::Const(Const::int(Ty::Int, 0)), Ty::Int, None);
        let c = fb.push(e, Op::Binary(BinOp::Lt, a, zero), Ty::Bool, None);
        let (t, join) = (fb.create_block(), fb.create_block());
        fb.terminate(e, Terminator::Branch { cond: c, then_to: t, else_to: join, origin: None });
        let one = fb.push(t, Op::Const(Const::int(Ty::Int, 1)), Ty::Int, None);
        let inc = fb.push(t, Op::Binary(BinOp::Add, a, one), Ty::Int, None);
        fb.terminate(t, Terminator::Jump(join));
        let same = fb.push(join, Op::Binary(BinOp::Eq, inc, a), Ty::Bool, None);
        let r = fb.push(join, Op::Select(same, zero, inc), Ty::Int, None);
        fb.terminate(join, Terminator::Return(Some(r)));
        let f = fb.finish();
        assert_eq!(run(&f, &[int(4)], 10).end, End::Return(Some(int(5))));
    }

    #[test]
    fn select_and_unknown_return() {
        let mut fb = FunctionBuilder::new("T.s".into(), vec![param("c", Ty::Bool)], Ty::Long, synth());
        let e = fb.entry();
        let c = fb.push(e, Op::Param(0), Ty::Bool, None);
        let one = fb.push(e, Op::Const(Const::int(Ty::Long, 1)), Ty::Long, None);
        let u = fb.push(
            e,
            Op::Nondet(NondetKind::Havoc { what: "x after any number of loop iterations".into() }),
            Ty::Long,
            None,
        );
        let s = fb.push(e, Op::Select(c, one, u), Ty::Long, None);
        fb.terminate(e, Terminator::Return(Some(s)));
        let f = fb.finish();
        assert_eq!(run(&f, &[Value::Bool(true)], 10).end, End::Return(Some(long(1))));
        let End::Return(Some(Value::Unknown(why))) = run(&f, &[Value::Bool(false)], 10).end else { panic!() };
        assert_eq!(why, "x after any number of loop iterations");
    }

    #[test]
    fn throws_cutoffs_and_void_returns() {
        let mut fb = FunctionBuilder::new("T.t".into(), vec![param("b", Ty::Bool)], Ty::Void, synth());
        let e = fb.entry();
        let b = fb.push(e, Op::Param(0), Ty::Bool, None);
        let nb = fb.push(e, Op::Unary(UnOp::Not, b), Ty::Bool, None);
        let t = fb.create_block();
        let el = fb.create_block();
        fb.terminate(e, Terminator::Branch { cond: nb, then_to: t, else_to: el, origin: None });
        fb.terminate(t, Terminator::Throw { class: "IllegalStateException".into(), span: None });
        fb.terminate(el, Terminator::Cutoff(CutoffKind::UnrollBound));
        let f = fb.finish();
        assert_eq!(run(&f, &[Value::Bool(false)], 10).end, End::Throw("IllegalStateException".into()));
        assert_eq!(run(&f, &[Value::Bool(true)], 10).end, End::Cutoff(CutoffKind::UnrollBound));

        let mut fb = FunctionBuilder::new("T.v".into(), vec![], Ty::Void, synth());
        let e = fb.entry();
        let s = fb.push(e, Op::Const(Const::Str("x".into())), Ty::Str, None);
        let n = fb.push(e, Op::Str(StrOp::Null, vec![]), Ty::Str, None);
        let _ = fb.push(e, Op::Binary(BinOp::Eq, s, n), Ty::Bool, None);
        fb.terminate(e, Terminator::Return(None));
        assert_eq!(run(&fb.finish(), &[], 10).end, End::Return(None));
    }

    #[test]
    fn display_uses_java_syntax() {
        assert_eq!(Value::int(Ty::Int, -5).to_string(), "-5");
        assert_eq!(long(7).to_string(), "7L");
        assert_eq!(Value::int(Ty::Byte, -1).to_string(), "(byte) -1");
        assert_eq!(Value::Int(Ty::Char, 'a' as i64).to_string(), "'a'");
        assert_eq!(Value::Int(Ty::Char, '\'' as i64).to_string(), "'\\''");
        assert_eq!(Value::Int(Ty::Char, 0xe9).to_string(), "'\\u00e9'");
        assert_eq!(Value::Float(1.5).to_string(), "1.5f");
        assert_eq!(Value::Double(f64::NAN).to_string(), "Double.NaN");
        assert_eq!(Value::Float(f32::NEG_INFINITY).to_string(), "Float.NEGATIVE_INFINITY");
        assert_eq!(Value::Str("a\"b\n".into()).to_string(), "\"a\\\"b\\n\"");
        assert_eq!(Value::Null.to_string(), "null");
        assert_eq!(Value::from_const(&Const::f64(2.0)), Value::Double(2.0));
        assert_eq!(Value::from_const(&Const::int(Ty::Short, 40000)), Value::Int(Ty::Short, -25536));
    }
}
