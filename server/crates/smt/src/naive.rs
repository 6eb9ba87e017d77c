//! The reference engine on z3: the formula of `jreach_analysis::naive` (Lichman & Gross's
//! resolution by substitution) converted tree by tree, without sharing or memoisation, as the paper
//! does, with the same Java semantics as the production encoding and the same solving and model
//! reading. It exists to check the production encoding and to measure what sharing saves.

use jreach_analysis::naive::{reach_formula, Expr, Implies, NaiveOptions};
use jreach_ir::{BlockId, Function, Ty};
use z3::ast::{Bool, Dynamic};
use z3::Sort;

use crate::encode::{binary, cast, constant, param_name, unary};
use crate::solve::{solve_goal, GaveUp, SolveOptions, Verdict};

/// Is any of `targets` reachable according to the reference resolution? Gives up with
/// `Verdict::Unknown` when the formula would exceed the default size budget.
pub fn solve_naive(f: &Function, targets: &[BlockId], opts: &SolveOptions) -> Verdict {
    solve_naive_with(f, targets, opts, &NaiveOptions::default())
}

/// [`solve_naive`] with explicit settings of the reference engine.
pub fn solve_naive_with(f: &Function, targets: &[BlockId], opts: &SolveOptions, naive: &NaiveOptions) -> Verdict {
    let formula = match reach_formula(f, targets, naive) {
        Ok(formula) => formula,
        Err(_) => return Verdict::Unknown(GaveUp::Other("the reference engine ran out of its size budget".into())),
    };
    let disjuncts: Vec<Bool> = formula.disjuncts.iter().map(|d| conjunction(d)).collect();
    let goal = match disjuncts.len() {
        0 => Bool::from_bool(false),
        1 => disjuncts[0].clone(),
        _ => Bool::or(&disjuncts),
    };
    solve_goal(f, &goal, opts)
}

/// `⋀ (⋀left ⇒ right)` over the implications of one path.
fn conjunction(imps: &[Implies]) -> Bool {
    let parts: Vec<Bool> = imps
        .iter()
        .map(|imp| {
            let right = as_bool(&term(&imp.right));
            if imp.left.is_empty() {
                return right;
            }
            let left: Vec<Bool> = imp.left.iter().map(|l| as_bool(&term(l))).collect();
            Bool::and(&left).implies(&right)
        })
        .collect();
    Bool::and(&parts)
}

fn as_bool(d: &Dynamic) -> Bool {
    d.as_bool().expect("conditions are boolean terms")
}

fn sort_of(ty: Ty) -> Sort {
    match ty {
        Ty::Bool => Sort::bool(),
        Ty::Float => Sort::float32(),
        Ty::Double => Sort::double(),
        t if t.is_integral() => Sort::bitvector(t.bits().expect("integral")),
        _ => Sort::uninterpreted("Ref".into()),
    }
}

/// The z3 term of an expression tree, every node converted afresh.
fn term(e: &Expr) -> Dynamic {
    match e {
        Expr::Param(i, ty) => Dynamic::new_const(param_name(*i), &sort_of(*ty)),
        Expr::Const(c) => constant(c),
        Expr::Fresh(v, ty) => Dynamic::new_const(format!("naive!fresh!{}", v.0), &sort_of(*ty)),
        // A resolved formula has no locals left; an unknown keeps this sound if one slips through.
        Expr::Local(v) => {
            debug_assert!(false, "unresolved local {v} in a naive formula");
            Dynamic::fresh_const("naive!local", &Sort::bool())
        }
        Expr::Unary(op, ty, a) => unary(*op, &term(a), *ty),
        Expr::Binary(op, ty, a, b) => binary(*op, &term(a), &term(b), *ty),
        Expr::Cast { from, to, arg } => cast(&term(arg), *from, *to),
        Expr::Select(c, a, b) => as_bool(&term(c)).ite(&term(a), &term(b)),
    }
}

#[cfg(test)]
mod tests {
    use jreach_ir::interp::{run, Value};
    use jreach_ir::{BinOp, Block, Const, LowerMode, Op, ParamInfo, Terminator, ValueData, ValueId};

    use super::*;
    use crate::solve_reach;

    /// Figure 8 of the paper: `int x = 0, y = -1; if (a < 0) { x = 1; y = 4; } if (x > y)` with
    /// the target under `x > y` (reachable) or under `x > y && x < y` (unreachable, by a second
    /// branch on `x < y`).
    fn figure8() -> (Function, BlockId, BlockId) {
        let mut f = Function {
            name: "T.m".into(),
            params: vec![ParamInfo { name: "a".into(), ty: Ty::Int, java_ty: "int".into() }],
            return_ty: Ty::Void,
            blocks: vec![],
            values: vec![],
            entry: BlockId(0),
            mode: LowerMode::Synthesis { unroll: 1 },
            proof_blockers: vec![],
            classes: vec![],
            setup: Default::default(),
        };
        for _ in 0..6 {
            f.blocks.push(Block { insts: vec![], term: Terminator::Unterminated, preds: vec![], stmts: vec![] });
        }
        let val = |f: &mut Function, b: u32, op: Op, ty: Ty| {
            f.values.push(ValueData { op, ty, block: BlockId(b), span: None });
            let v = ValueId(f.values.len() as u32 - 1);
            f.blocks[b as usize].insts.push(v);
            v
        };
        let int = |k| Op::Const(Const::int(Ty::Int, k));
        let a = val(&mut f, 0, Op::Param(0), Ty::Int);
        let zero = val(&mut f, 0, int(0), Ty::Int);
        let minus1 = val(&mut f, 0, int(-1), Ty::Int);
        let neg = val(&mut f, 0, Op::Binary(BinOp::Lt, a, zero), Ty::Bool);
        let one = val(&mut f, 1, int(1), Ty::Int);
        let four = val(&mut f, 1, int(4), Ty::Int);
        let x = val(&mut f, 2, Op::Phi(vec![(BlockId(0), zero), (BlockId(1), one)]), Ty::Int);
        let y = val(&mut f, 2, Op::Phi(vec![(BlockId(0), minus1), (BlockId(1), four)]), Ty::Int);
        let gt = val(&mut f, 2, Op::Binary(BinOp::Gt, x, y), Ty::Bool);
        let lt = val(&mut f, 3, Op::Binary(BinOp::Lt, x, y), Ty::Bool);
        let edges = [(0, 1), (0, 2), (1, 2), (2, 3), (2, 5), (3, 4), (3, 5)];
        for (p, s) in edges {
            f.blocks[s].preds.push(BlockId(p));
        }
        f.blocks[0].term = Terminator::Branch { cond: neg, then_to: BlockId(1), else_to: BlockId(2), origin: None };
        f.blocks[1].term = Terminator::Jump(BlockId(2));
        f.blocks[2].term = Terminator::Branch { cond: gt, then_to: BlockId(3), else_to: BlockId(5), origin: None };
        f.blocks[3].term = Terminator::Branch { cond: lt, then_to: BlockId(4), else_to: BlockId(5), origin: None };
        f.blocks[4].term = Terminator::Return(None);
        f.blocks[5].term = Terminator::Return(None);
        (f, BlockId(3), BlockId(4))
    }

    #[test]
    fn figure_8_reachable_with_a_replayable_model() {
        let (f, reach, _) = figure8();
        let Verdict::Sat(args) = solve_naive(&f, &[reach], &SolveOptions::default()) else { panic!("expected SAT") };
        let Value::Int(_, a) = args[0] else { panic!("an int argument") };
        assert!(a >= 0, "x > y needs the else path: a = {a}");
        assert!(run(&f, &args, 100).reached(&[reach]));
        assert!(matches!(solve_reach(&f, &[reach], &SolveOptions::default()), Verdict::Sat(_)));
    }

    #[test]
    fn figure_8_contradiction_is_unsat() {
        let (f, _, dead) = figure8();
        assert!(matches!(solve_naive(&f, &[dead], &SolveOptions::default()), Verdict::Unsat));
        assert!(matches!(solve_reach(&f, &[dead], &SolveOptions::default()), Verdict::Unsat));
    }

    #[test]
    fn blowup_is_unknown() {
        let (f, reach, _) = figure8();
        let tiny = NaiveOptions { budget: 10, ..NaiveOptions::default() };
        let Verdict::Unknown(why) = solve_naive_with(&f, &[reach], &SolveOptions::default(), &tiny) else {
            panic!("expected Unknown")
        };
        assert_eq!(why, GaveUp::Other("the reference engine ran out of its size budget".into()));
    }
}
