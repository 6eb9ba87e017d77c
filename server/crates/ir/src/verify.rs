//! The IR verifier: structural, SSA and type invariants every lowered [`Function`] must satisfy.
//!
//! - every block is terminated and every edge goes forward (successor id > block id), so block
//!   order is a topological order of the acyclic CFG;
//! - each block's `preds` is the multiset of blocks whose terminators name it;
//! - every value in a block's `insts` is listed exactly once, in the block its `ValueData::block`
//!   names; a value listed nowhere is tolerated only while nothing uses it (the builder leaves
//!   removed trivial φs behind in the arena);
//! - φs come first in a block and have one operand per predecessor, in `preds` order;
//! - every operand is defined before its use: earlier in the same block, or in an earlier block.
//!   A φ, whose value depends on the path, must dominate its uses (a φ operand: the predecessor
//!   it comes from); any other value is one function of its operands on every path (one term in
//!   the encoding, computed off its path by the interpreter), so models may compare with an
//!   object made on another branch. In blocks no path from the entry reaches, dominance is
//!   vacuous; there the defining block must at least come earlier, so that a single pass in
//!   block order always sees definitions first;
//! - types agree: see [`check_types`].

use crate::func::*;
use crate::types::{normalize, Const, Ty};

/// Checks `f`; the errors, if any, name the blocks and values concerned.
pub fn verify(f: &Function) -> Result<(), Vec<String>> {
    let mut v = Verifier { f, errors: Vec::new() };
    v.structure();
    if v.errors.is_empty() {
        // The SSA checks index blocks and values by the ids they find; only run them on a
        // well-formed graph.
        v.ssa();
        v.types();
    }
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

struct Verifier<'a> {
    f: &'a Function,
    errors: Vec<String>,
}

/// Where a value is listed: its block and its index in the block's `insts`.
#[derive(Copy, Clone)]
struct Place {
    block: BlockId,
    at: usize,
}

impl Verifier<'_> {
    fn err(&mut self, msg: String) {
        self.errors.push(msg);
    }

    /// Ids in range, terminators, forward edges, predecessor lists, value listing.
    fn structure(&mut self) {
        let f = self.f;
        let n = f.blocks.len();
        if f.entry.index() >= n {
            self.err(format!("entry {} does not exist", f.entry));
            return;
        }
        if !f.block(f.entry).preds.is_empty() {
            self.err(format!("entry {} has predecessors", f.entry));
        }
        let mut expected_preds: Vec<Vec<BlockId>> = vec![Vec::new(); n];
        for b in f.block_ids() {
            let blk = f.block(b);
            if blk.term == Terminator::Unterminated {
                self.err(format!("{b} is unterminated"));
            }
            for s in blk.term.successors() {
                if s.index() >= n {
                    self.err(format!("{b} jumps to missing block {s}"));
                } else if s <= b {
                    self.err(format!("edge {b} -> {s} does not go forward"));
                } else {
                    expected_preds[s.index()].push(b);
                }
            }
            for v in term_uses(&blk.term) {
                if v.index() >= f.values.len() {
                    self.err(format!("terminator of {b} uses missing value {v}"));
                }
            }
        }
        for b in f.block_ids() {
            let mut have = f.block(b).preds.clone();
            let mut want = std::mem::take(&mut expected_preds[b.index()]);
            have.sort();
            want.sort();
            if have != want {
                self.err(format!("{b} has preds {} but the edges into it come from {}", list(&have), list(&want)));
            }
        }
        let mut listed = vec![0usize; f.values.len()];
        for b in f.block_ids() {
            for &v in &f.block(b).insts {
                let Some(vd) = f.values.get(v.index()) else {
                    self.err(format!("{b} lists missing value {v}"));
                    continue;
                };
                listed[v.index()] += 1;
                if vd.block != b {
                    self.err(format!("{v} is listed in {b} but says it belongs to {}", vd.block));
                }
                for o in vd.op.operands() {
                    if o.index() >= f.values.len() {
                        self.err(format!("{v} uses missing value {o}"));
                    }
                }
                if let Op::Phi(ins) = &vd.op {
                    for (p, _) in ins {
                        if p.index() >= n {
                            self.err(format!("φ {v} names missing block {p}"));
                        }
                    }
                }
            }
        }
        for (i, count) in listed.iter().enumerate() {
            if *count > 1 {
                self.err(format!("v{i} is listed {count} times"));
            }
        }
    }

    /// φ placement and operands, definition before use.
    fn ssa(&mut self) {
        let f = self.f;
        let mut place: Vec<Option<Place>> = vec![None; f.values.len()];
        for b in f.block_ids() {
            for (at, &v) in f.block(b).insts.iter().enumerate() {
                place[v.index()] = Some(Place { block: b, at });
            }
        }
        let dom = Dominators::new(f);
        for b in f.block_ids() {
            let blk = f.block(b);
            let mut phis_done = false;
            for (at, &v) in blk.insts.iter().enumerate() {
                match &f.value(v).op {
                    Op::Phi(ins) => {
                        if phis_done {
                            self.err(format!("φ {v} in {b} follows a non-φ instruction"));
                        }
                        let from: Vec<BlockId> = ins.iter().map(|(p, _)| *p).collect();
                        if from != blk.preds {
                            self.err(format!(
                                "φ {v} in {b} has operands for {} but the block's preds are {}",
                                list(&from),
                                list(&blk.preds)
                            ));
                        }
                        for (p, o) in ins {
                            // The operand is read at the end of the predecessor.
                            match place[o.index()] {
                                None => self.err(format!("φ {v} uses {o}, which no block lists")),
                                Some(d) if !dom.dominates(d.block, *p) => self.err(format!(
                                    "φ {v} in {b} uses {o} (defined in {}) on the edge from {p}",
                                    d.block
                                )),
                                _ => {}
                            }
                        }
                    }
                    op => {
                        phis_done = true;
                        for o in op.operands() {
                            self.check_use(&dom, &place, b, Some(at), o, &v.to_string());
                        }
                    }
                }
            }
            for o in term_uses(&blk.term) {
                self.check_use(&dom, &place, b, None, o, "the terminator");
            }
        }
    }

    /// A use of `o` in block `b` at instruction `at` (`None`: the terminator).
    fn check_use(
        &mut self,
        dom: &Dominators,
        place: &[Option<Place>],
        b: BlockId,
        at: Option<usize>,
        o: ValueId,
        user: &str,
    ) {
        let Some(d) = place[o.index()] else {
            self.err(format!("{user} uses {o}, which no block lists"));
            return;
        };
        let ok = match at {
            // A φ has a value only on the paths through its block; any other value is one
            // function of its operands everywhere (the encoding gives it one term, the
            // interpreter computes it off its path), so it only has to come first.
            _ if d.block != b && matches!(self.f.value(o).op, Op::Phi(_)) => dom.dominates(d.block, b),
            _ if d.block != b => d.block.index() < b.index(),
            Some(at) => d.at < at,
            None => true,
        };
        if !ok {
            self.err(format!("{user} in {b} uses {o} before its definition (in {})", d.block));
        }
    }

    fn types(&mut self) {
        let f = self.f;
        for b in f.block_ids() {
            let blk = f.block(b);
            for &v in &blk.insts {
                if let Err(e) = check_types(f, v) {
                    self.err(format!("{v} in {b}: {e}"));
                }
            }
            match &blk.term {
                Terminator::Branch { cond, .. } if f.value(*cond).ty != Ty::Bool => {
                    self.err(format!("branch in {b} on {cond} of type {}", f.value(*cond).ty))
                }
                Terminator::Return(None) if f.return_ty != Ty::Void => {
                    self.err(format!("{b} returns nothing from a method returning {}", f.return_ty))
                }
                Terminator::Return(Some(r)) if f.value(*r).ty != f.return_ty || f.return_ty == Ty::Void => self
                    .err(format!("{b} returns {r} of type {} from a method returning {}", f.value(*r).ty, f.return_ty)),
                _ => {}
            }
        }
    }
}

/// The typing rules of one value: a `void` value is only a `Nondet` placeholder (the result of a
/// void expression) and nothing uses it; Binary operands share a type except a shift's `int` distance,
/// comparisons yield `boolean`, arithmetic yields the operand type, Select's condition is `boolean`
/// and its arms have the value's type, φ operands have the φ's type, a Param's type is its
/// parameter's, a constant's type is the constant's and integral constants are normalised; `Cast`
/// converts between numeric types (or is the identity).
fn check_types(f: &Function, v: ValueId) -> Result<(), String> {
    let vd = f.value(v);
    let ty = vd.ty;
    let t = |x: &ValueId| f.value(*x).ty;
    if let Some(o) = vd.op.operands().iter().find(|o| t(o) == Ty::Void) {
        return Err(format!("uses {o}, which has type void"));
    }
    if ty == Ty::Void && !matches!(vd.op, Op::Nondet(_)) {
        return Err("only a nondet placeholder may have type void".into());
    }
    let expect = |want: Ty, what: &str| {
        if ty == want {
            Ok(())
        } else {
            Err(format!("{what} should be {want}, not {ty}"))
        }
    };
    match &vd.op {
        Op::Param(i) => match f.params.get(*i as usize) {
            None => Err(format!("parameter {i} of a method with {} parameters", f.params.len())),
            Some(p) => expect(p.ty, &format!("parameter {i} ({})", p.name)),
        },
        Op::Const(c) => {
            if let Const::Int(ct, x) = c {
                if !ct.is_integral() {
                    return Err(format!("integral constant of type {ct}"));
                }
                if normalize(*ct, *x) != *x {
                    return Err(format!("constant {x} is not normalised to {ct}"));
                }
            }
            expect(c.ty(), "a constant")
        }
        Op::Unary(op, a) => {
            let ok = match op {
                UnOp::Neg => t(a).is_numeric(),
                UnOp::BitNot => t(a).is_integral(),
                UnOp::Not => t(a) == Ty::Bool,
            };
            if !ok {
                return Err(format!("{op:?} of {a} of type {}", t(a)));
            }
            expect(t(a), "the result")
        }
        Op::Binary(op, a, b) => {
            let (ta, tb) = (t(a), t(b));
            if op.is_shift() {
                if !ta.is_integral() || tb != Ty::Int {
                    return Err(format!("shift of {ta} by {tb} (the distance must be int)"));
                }
                return expect(ta, "the result");
            }
            if ta != tb {
                return Err(format!("{op:?} of {ta} and {tb}"));
            }
            let ok = match op {
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => ta.is_numeric(),
                BinOp::And | BinOp::Or | BinOp::Xor => ta.is_integral() || ta == Ty::Bool,
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => ta.is_numeric(),
                BinOp::Eq | BinOp::Ne => true,
                BinOp::Shl | BinOp::Shr | BinOp::Ushr => unreachable!("handled above"),
            };
            if !ok {
                return Err(format!("{op:?} of {ta}"));
            }
            if op.is_comparison() {
                expect(Ty::Bool, "a comparison")
            } else {
                expect(ta, "the result")
            }
        }
        Op::Cast(a) => {
            if t(a) == ty || (t(a).is_numeric() && ty.is_numeric()) {
                Ok(())
            } else {
                Err(format!("cast from {} to {ty}", t(a)))
            }
        }
        Op::Select(c, a, b) => {
            if t(c) != Ty::Bool {
                return Err(format!("select on {c} of type {}", t(c)));
            }
            if t(a) != ty || t(b) != ty {
                return Err(format!("select of {} and {} as {ty}", t(a), t(b)));
            }
            Ok(())
        }
        Op::Phi(ins) => match ins.iter().find(|(_, x)| t(x) != ty) {
            Some((p, x)) => Err(format!("φ of type {ty} takes {x} of type {} from {p}", t(x))),
            None => Ok(()),
        },
        Op::Nondet(_) => Ok(()),
        Op::Math(op, args) => {
            if args.len() != op.arity() || args.iter().any(|a| t(a) != Ty::Double) || ty != Ty::Double {
                return Err(format!("Math.{} takes {} doubles and gives a double", op.name(), op.arity()));
            }
            Ok(())
        }
        Op::Obj(op, args) => {
            if args.len() != op.arity() {
                return Err(format!("{} takes {} operands, not {}", op.name(), op.arity(), args.len()));
            }
            let ok = match (op, ty) {
                (ObjOp::Init | ObjOp::Put, Ty::Fields(c, i)) => {
                    (c as usize) < f.classes.len() && (i as usize) < f.classes[c as usize].fields.len()
                }
                (ObjOp::Ref(_), Ty::Obj(c)) => (c as usize) < f.classes.len(),
                (ObjOp::Get, _) => match t(&args[0]) {
                    Ty::Fields(c, i) => f.field_ty(c, i) == ty,
                    _ => false,
                },
                _ => false,
            };
            if ok {
                Ok(())
            } else {
                Err(format!("{} producing {ty}", op.name()))
            }
        }
        Op::Arr(op, args) => {
            if args.len() != op.arity() {
                return Err(format!("{} takes {} operands, not {}", op.name(), op.arity(), args.len()));
            }
            let want = match (op, ty) {
                (ArrOp::Init | ArrOp::New | ArrOp::Store, Ty::Mem(_)) => true,
                (ArrOp::Ref(_), Ty::Arr(_)) => true,
                (ArrOp::Len, Ty::Int) => true,
                (ArrOp::Load, _) => match t(&args[0]) {
                    Ty::Mem(a) => a.elem() == ty,
                    _ => false,
                },
                _ => false,
            };
            if want {
                Ok(())
            } else {
                Err(format!("{} producing {ty}", op.name()))
            }
        }
        Op::Str(op, args) => {
            if args.len() != op.arity() {
                return Err(format!("{} takes {} operands, not {}", op.name(), op.arity(), args.len()));
            }
            expect(op.result_ty(), op.name())
        }
    }
}

/// Values a terminator reads.
fn term_uses(t: &Terminator) -> Vec<ValueId> {
    match t {
        Terminator::Branch { cond, .. } => vec![*cond],
        Terminator::Return(Some(v)) => vec![*v],
        _ => vec![],
    }
}

fn list(bs: &[BlockId]) -> String {
    if bs.is_empty() {
        return "(none)".into();
    }
    bs.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(", ")
}

/// Immediate dominators of a forward-edged DAG, computed in one pass in block order (every
/// predecessor of a block has a lower id, so its dominators are known when the block is reached).
struct Dominators {
    /// `None` for the entry and for blocks the entry does not reach.
    idom: Vec<Option<BlockId>>,
    reachable: Vec<bool>,
}

impl Dominators {
    fn new(f: &Function) -> Dominators {
        let n = f.blocks.len();
        let mut reachable = vec![false; n];
        let mut idom: Vec<Option<BlockId>> = vec![None; n];
        reachable[f.entry.index()] = true;
        for b in f.block_ids() {
            if b != f.entry {
                let mut acc: Option<BlockId> = None;
                for &p in &f.block(b).preds {
                    if p < b && reachable[p.index()] {
                        acc = Some(match acc {
                            None => p,
                            Some(a) => Self::intersect(&idom, a, p),
                        });
                    }
                }
                if acc.is_some() {
                    reachable[b.index()] = true;
                    idom[b.index()] = acc;
                }
            }
        }
        Dominators { idom, reachable }
    }

    /// The nearest common dominator of two reachable blocks.
    fn intersect(idom: &[Option<BlockId>], mut a: BlockId, mut b: BlockId) -> BlockId {
        while a != b {
            // Dominators have lower ids, so walk up from the higher one.
            let (hi, lo) = if a > b { (a, b) } else { (b, a) };
            match idom[hi.index()] {
                Some(up) => {
                    a = up;
                    b = lo;
                }
                None => return hi,
            }
        }
        a
    }

    /// Whether `d` dominates `b` (reflexive). For a block the entry does not reach, any earlier
    /// block counts.
    fn dominates(&self, d: BlockId, b: BlockId) -> bool {
        if !self.reachable[b.index()] {
            return d <= b;
        }
        let mut x = b;
        loop {
            if x == d {
                return true;
            }
            if x < d {
                return false;
            }
            match self.idom[x.index()] {
                Some(up) => x = up,
                None => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::FunctionBuilder;

    fn param(name: &str, ty: Ty) -> ParamInfo {
        ParamInfo { name: name.into(), ty, java_ty: ty.java_name().into() }
    }

    /// `int f(int a) { if (a < 0) a = -a; return a; }`, built with the SSA builder.
    fn abs_fn() -> Function {
        let mut fb = FunctionBuilder::new(
            "T.abs".into(),
            vec![param("a", Ty::Int)],
            Ty::Int,
            LowerMode::Synthesis { unroll: 2 },
        );
        let var = fb.new_var("a", Ty::Int);
        let e = fb.entry();
        let p = fb.push(e, Op::Param(0), Ty::Int, None);
        fb.def_var(var, e, p);
        let zero = fb.push(e, Op::Const(Const::int(Ty::Int, 0)), Ty::Int, None);
        let c = fb.push(e, Op::Binary(BinOp::Lt, p, zero), Ty::Bool, None);
        let t = fb.create_block();
        let join = fb.create_block();
        fb.terminate(e, Terminator::Branch { cond: c, then_to: t, else_to: join, origin: None });
        fb.seal(t);
        let a = fb.use_var(var, t);
        let neg = fb.push(t, Op::Unary(UnOp::Neg, a), Ty::Int, None);
        fb.def_var(var, t, neg);
        fb.terminate(t, Terminator::Jump(join));
        fb.seal(join);
        let r = fb.use_var(var, join);
        fb.terminate(join, Terminator::Return(Some(r)));
        fb.finish()
    }

    fn errors(f: &Function) -> Vec<String> {
        verify(f).expect_err("the verifier should reject this function")
    }

    fn has(errs: &[String], needle: &str) -> bool {
        errs.iter().any(|e| e.contains(needle))
    }

    #[test]
    fn accepts_builder_output() {
        assert_eq!(verify(&abs_fn()), Ok(()));
    }

    #[test]
    fn tolerates_unused_removed_trivial_phis() {
        // `x` is not assigned on either arm, so the φ for it at the join is trivial and removed.
        let mut fb = FunctionBuilder::new("T.g".into(), vec![param("b", Ty::Bool)], Ty::Int, LowerMode::OverApprox);
        let x = fb.new_var("x", Ty::Int);
        let e = fb.entry();
        let b = fb.push(e, Op::Param(0), Ty::Bool, None);
        let one = fb.push(e, Op::Const(Const::int(Ty::Int, 1)), Ty::Int, None);
        fb.def_var(x, e, one);
        let (t, el, join) = (fb.create_block(), fb.create_block(), fb.create_block());
        fb.terminate(e, Terminator::Branch { cond: b, then_to: t, else_to: el, origin: None });
        fb.terminate(t, Terminator::Jump(join));
        fb.terminate(el, Terminator::Jump(join));
        let r = fb.use_var(x, join); // `join` is not sealed: an incomplete φ
        fb.terminate(join, Terminator::Return(Some(r)));
        let f = fb.finish();
        assert!(f.values.iter().any(|v| matches!(v.op, Op::Phi(_))), "the removed φ stays in the arena");
        assert!(f.blocks.iter().all(|b| b.insts.iter().all(|v| !matches!(f.value(*v).op, Op::Phi(_)))));
        assert_eq!(verify(&f), Ok(()));
    }

    #[test]
    fn rejects_unterminated_blocks_and_backward_edges() {
        let mut f = abs_fn();
        f.blocks[2].term = Terminator::Unterminated;
        assert!(has(&errors(&f), "b2 is unterminated"));

        let mut f = abs_fn();
        f.blocks[2].term = Terminator::Jump(BlockId(1));
        let errs = errors(&f);
        assert!(has(&errs, "edge b2 -> b1 does not go forward"), "{errs:?}");
    }

    #[test]
    fn rejects_wrong_predecessor_lists() {
        let mut f = abs_fn();
        f.blocks[2].preds = vec![BlockId(0)];
        let errs = errors(&f);
        assert!(has(&errs, "b2 has preds b0 but the edges into it come from b0, b1"), "{errs:?}");
    }

    #[test]
    fn rejects_phis_out_of_order_or_misplaced() {
        let mut f = abs_fn();
        let phi = f.blocks[2].insts[0];
        let Op::Phi(ins) = &mut f.values[phi.index()].op else { panic!("expected a φ") };
        ins.reverse();
        assert!(has(&errors(&f), "has operands for b1, b0 but the block's preds are b0, b1"));

        let mut f = abs_fn();
        let c = f.push_for_test(BlockId(2), Op::Const(Const::int(Ty::Int, 3)), Ty::Int);
        f.blocks[2].insts.retain(|v| *v != c);
        f.blocks[2].insts.insert(0, c);
        assert!(has(&errors(&f), "follows a non-φ instruction"));
    }

    #[test]
    fn rejects_use_before_definition() {
        // b1 (the then-arm) uses a value defined in b1's sibling path: not dominated.
        let mut f = abs_fn();
        let neg = f.blocks[1].insts[0];
        let x = f.push_for_test(BlockId(0), Op::Binary(BinOp::Add, neg, neg), Ty::Int);
        let errs = errors(&f);
        assert!(has(&errs, &format!("{x} in b0 uses {neg} before its definition (in b1)")), "{errs:?}");

        // Same block, but listed after the use.
        let mut f = abs_fn();
        let later = f.push_for_test(BlockId(0), Op::Const(Const::int(Ty::Int, 2)), Ty::Int);
        let early = f.blocks[0].insts[0];
        f.values[early.index()].op = Op::Unary(UnOp::Neg, later);
        assert!(has(&errors(&f), "before its definition"));

        // The join reads a value of the then-arm (not a φ): one term on every path, accepted.
        let mut f = abs_fn();
        let neg = f.blocks[1].insts[0];
        f.blocks[2].term = Terminator::Return(Some(neg));
        assert_eq!(verify(&f), Ok(()));

        // A φ read where its block does not dominate: it has no value there.
        let mut f = abs_fn();
        let phi = f.blocks[2].insts[0];
        let after = f.push_for_test(BlockId(1), Op::Unary(UnOp::Neg, phi), Ty::Int);
        assert!(has(&errors(&f), &format!("{after} in b1 uses {phi} before its definition (in b2)")));
    }

    #[test]
    fn rejects_values_in_the_wrong_block_or_listed_twice() {
        let mut f = abs_fn();
        f.values[0].block = BlockId(1);
        assert!(has(&errors(&f), "v0 is listed in b0 but says it belongs to b1"));

        let mut f = abs_fn();
        let v = f.blocks[0].insts[1];
        f.blocks[0].insts.push(v);
        assert!(has(&errors(&f), "is listed 2 times"));
    }

    #[test]
    fn rejects_type_errors() {
        let mut f = abs_fn();
        f.blocks[0].term = match f.blocks[0].term.clone() {
            Terminator::Branch { then_to, else_to, origin, .. } => {
                Terminator::Branch { cond: ValueId(0), then_to, else_to, origin }
            }
            t => t,
        };
        assert!(has(&errors(&f), "branch in b0 on v0 of type int"));

        let mut f = abs_fn();
        f.return_ty = Ty::Long;
        assert!(has(&errors(&f), "returns v"));

        let mut f = abs_fn();
        let l = f.push_for_test(BlockId(0), Op::Const(Const::int(Ty::Long, 1)), Ty::Long);
        f.push_for_test(BlockId(0), Op::Binary(BinOp::Add, ValueId(0), l), Ty::Int);
        assert!(has(&errors(&f), "Add of int and long"));

        let mut f = abs_fn();
        let l = l_of(&mut f, Ty::Long);
        f.push_for_test(BlockId(0), Op::Binary(BinOp::Shl, l, ValueId(0)), Ty::Long);
        assert_eq!(verify(&f), Ok(()), "a long shifted by an int distance is fine");
        let l = l_of(&mut f, Ty::Long);
        f.push_for_test(BlockId(0), Op::Binary(BinOp::Shl, ValueId(0), l), Ty::Int);
        assert!(has(&errors(&f), "shift of int by long"));

        let mut f = abs_fn();
        f.push_for_test(BlockId(0), Op::Binary(BinOp::Lt, ValueId(0), ValueId(0)), Ty::Int);
        assert!(has(&errors(&f), "a comparison should be boolean, not int"));

        let mut f = abs_fn();
        f.push_for_test(BlockId(0), Op::Param(1), Ty::Int);
        assert!(has(&errors(&f), "parameter 1 of a method with 1 parameters"));

        let mut f = abs_fn();
        f.push_for_test(BlockId(0), Op::Param(0), Ty::Long);
        assert!(has(&errors(&f), "parameter 0 (a) should be int, not long"));

        let mut f = abs_fn();
        f.push_for_test(BlockId(0), Op::Select(ValueId(0), ValueId(0), ValueId(0)), Ty::Int);
        assert!(has(&errors(&f), "select on v0 of type int"));

        let mut f = abs_fn();
        let void = f.push_for_test(BlockId(0), Op::Nondet(NondetKind::Opaque { what: "no value".into() }), Ty::Void);
        assert_eq!(verify(&f), Ok(()), "an unused void placeholder is fine");
        f.push_for_test(BlockId(0), Op::Cast(void), Ty::Int);
        assert!(has(&errors(&f), &format!("uses {void}, which has type void")));

        let mut f = abs_fn();
        f.push_for_test(BlockId(0), Op::Const(Const::Bool(true)), Ty::Void);
        assert!(has(&errors(&f), "only a nondet placeholder may have type void"));

        let mut f = abs_fn();
        f.push_for_test(BlockId(0), Op::Const(Const::Int(Ty::Byte, 200)), Ty::Byte);
        assert!(has(&errors(&f), "not normalised"));
    }

    fn l_of(f: &mut Function, ty: Ty) -> ValueId {
        f.push_for_test(BlockId(0), Op::Const(Const::int(ty, 1)), ty)
    }

    trait PushForTest {
        fn push_for_test(&mut self, b: BlockId, op: Op, ty: Ty) -> ValueId;
    }

    impl PushForTest for Function {
        /// Appends a value to the end of `b`'s instructions.
        fn push_for_test(&mut self, b: BlockId, op: Op, ty: Ty) -> ValueId {
            let id = ValueId(self.values.len() as u32);
            self.values.push(ValueData { op, ty, block: b, span: None });
            self.blocks[b.index()].insts.push(id);
            id
        }
    }
}
