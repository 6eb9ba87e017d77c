//! The reference engine: conditional definitions and their resolution by substitution, as Lichman
//! & Gross describe them (seed paper 000, section 3, figures 6, 7 and 9).
//!
//! Nothing here is shared or memoised on purpose. Expressions are trees ([`Expr`], `Clone`, no
//! sharing), path conditions are sets of conjunctions (one per path from the entry), and resolving a
//! condition substitutes every φ-defined local by each of its conditional definitions. The size of
//! the result is exponential in the number of sequential branches that redefine the locals a
//! condition reads; that is the point of this module: it is the differential-testing oracle for the
//! production encoding (`jreach_smt::Encoder`, linear size) and the baseline of its speed-up. A
//! `budget` bounds the work; past it the engine answers [`Blowup`] instead of exhausting memory.
//!
//! # The pieces
//!
//! * **Expressions.** [`Expr`] is built from an IR value by substituting the definitions of non-φ
//!   values (a value that is not a φ has exactly one conditional definition, `(true, its
//!   expression)`, so substituting it up front changes nothing). φs stay as [`Expr::Local`] leaves;
//!   values the production encoder treats as fresh unknowns become [`Expr::Fresh`] leaves, shared by
//!   value id so every occurrence denotes the same unknown. Strings are such leaves here too (see
//!   [`is_opaque`]): conditions on them are over-approximated, so the engine is an oracle for
//!   primitive arithmetic and control flow.
//! * **Path conditions** (section 3.2, computed by one forward pass over the acyclic CFG):
//!   `CC(entry) = {⊤}`, `CC(b) = ∪_pred {c ∧ edgecond(pred→b) : c ∈ CC(pred)}`. Literals are
//!   [`Literal`]s: the expression of a branch condition with a polarity.
//! * **Conditional definitions** of a φ `x = φ((p1, x1), …)` in block `b`: the pairs
//!   `(c ∧ edgecond(pᵢ→b), xᵢ)` for every `c ∈ CC(pᵢ)`.
//! * **Resolution** of a condition expression returns a set of implications [`Implies`], read as
//!   their conjunction: constants, parameters and fresh leaves give `{⊤ ⇒ leaf}`; unary operators
//!   and casts wrap the right side of each child implication (figure 9); binary operators (and the
//!   three operands of a select) take the cartesian product of the children's implications,
//!   concatenating the left sides (figure 7); a local is resolved with figure 6's work queue.
//!
//! # Locals on the left side
//!
//! The conditions of conditional definitions are path conditions, whose literals are branch
//! conditions that may read φs themselves. Figure 6's `find(curr)` looks for a local anywhere in
//! the implication `curr`, left side included, and `replace` substitutes it throughout, so the
//! guard literals are resolved by the very same substitution as the right side: an implication
//! leaves the work queue only when neither side mentions a local. Among the locals of `curr` we
//! pick the one defined last (in the latest block). The definitions of a φ only mention values of
//! strictly earlier blocks (its incoming values and the branch conditions on paths to its block),
//! so the queue terminates, and a local once substituted never reappears in that implication: each
//! implication commits to one definition per local, consistently on both sides.
//!
//! Why the result is right: for an execution that reaches the φ's block, exactly one conditional
//! definition of each local it reads has a true condition (the prefix of the path taken). In the
//! implication that picks the true definition for every local, the left side holds and the right
//! side has the value the execution computes; any implication that picks a wrong definition has,
//! for the earliest wrong pick, a left literal that is false. The cartesian products of figure 7
//! may combine different picks for the same local from two operands; those combinations are
//! likewise vacuous.
//!
//! # The reachability formula
//!
//! For targets `T`: `⋁_{t ∈ T} ⋁_{c ∈ CC(t)} ⋀_{l ∈ c} ⋀_{(L ⇒ R) ∈ resolve(l)} (⋀L ⇒ ±R)`, where
//! `±` is the literal's polarity. Each literal is resolved afresh for every conjunction it occurs
//! in, as the paper resolves each guarding condition on its own.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::rc::Rc;

use jreach_ir::{BinOp, BlockId, Const, Function, Op, Ty, UnOp, ValueId};

use crate::{edge_cond, EdgeCond, Slice};

/// Default limit on the work of one formula: expression nodes created, counting every clone.
pub const DEFAULT_BUDGET: usize = 2_000_000;

/// Settings of the reference engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveOptions {
    /// Limit on the expression nodes created (every clone counts); past it: [`Blowup`].
    pub budget: usize,
    /// Join, at every block, two path conditions that differ only in the polarity of their last
    /// literal (`c ∧ l`, `c ∧ ¬l` become `c`), as the paper's conditions do after an if/else
    /// (figure 3: `w`'s definitions are guarded by the second `if` alone). Without it every
    /// conditional definition carries one conjunction per path from the entry, and the resolution
    /// grows as 2^(n²/2) rather than 2^n in the number n of sequential branches.
    pub join_complements: bool,
}

impl Default for NaiveOptions {
    fn default() -> Self {
        NaiveOptions { budget: DEFAULT_BUDGET, join_complements: true }
    }
}

/// Deepest expression tree the engine builds (the trees are walked recursively).
pub const MAX_DEPTH: usize = 2_000;

/// The reference engine gave up: the formula would exceed its size budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blowup {
    /// The budget that was exceeded (expression nodes).
    pub budget: usize,
}

impl fmt::Display for Blowup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the reference resolution needs more than {} expression nodes", self.budget)
    }
}

impl std::error::Error for Blowup {}

/// An expression tree over parameters, constants and unknowns. Types are those of the IR: the
/// type of a unary operation's operand (and result), the operand type of a binary operation (its
/// left operand's, as the production encoder takes it), both sides of a cast.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// The i-th parameter.
    Param(u32, Ty),
    Const(Const),
    /// An unknown: the value with this id in the IR, opaque to the analysis. Occurrences with the
    /// same id denote the same unknown.
    Fresh(ValueId, Ty),
    /// A φ-defined local not yet substituted by its conditional definitions.
    Local(ValueId),
    Unary(UnOp, Ty, Box<Expr>),
    Binary(BinOp, Ty, Box<Expr>, Box<Expr>),
    Cast {
        from: Ty,
        to: Ty,
        arg: Box<Expr>,
    },
    /// `cond ? a : b`.
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The number of nodes and the depth of the tree.
    pub fn measure(&self) -> (usize, usize) {
        match self {
            Expr::Param(..) | Expr::Const(_) | Expr::Fresh(..) | Expr::Local(_) => (1, 1),
            Expr::Unary(_, _, a) | Expr::Cast { arg: a, .. } => {
                let (s, d) = a.measure();
                (s + 1, d + 1)
            }
            Expr::Binary(_, _, a, b) => {
                let ((sa, da), (sb, db)) = (a.measure(), b.measure());
                (sa + sb + 1, da.max(db) + 1)
            }
            Expr::Select(c, a, b) => {
                let ((sc, dc), (sa, da), (sb, db)) = (c.measure(), a.measure(), b.measure());
                (sc + sa + sb + 1, dc.max(da).max(db) + 1)
            }
        }
    }

    /// The number of nodes.
    pub fn size(&self) -> usize {
        self.measure().0
    }

    /// Calls `visit` on every local the tree mentions, left to right.
    pub fn for_each_local(&self, visit: &mut impl FnMut(ValueId)) {
        match self {
            Expr::Local(x) => visit(*x),
            Expr::Param(..) | Expr::Const(_) | Expr::Fresh(..) => {}
            Expr::Unary(_, _, a) | Expr::Cast { arg: a, .. } => a.for_each_local(visit),
            Expr::Binary(_, _, a, b) => {
                a.for_each_local(visit);
                b.for_each_local(visit);
            }
            Expr::Select(c, a, b) => {
                c.for_each_local(visit);
                a.for_each_local(visit);
                b.for_each_local(visit);
            }
        }
    }

    /// A copy with every occurrence of local `x` replaced by `by`.
    pub fn substitute(&self, x: ValueId, by: &Expr) -> Expr {
        match self {
            Expr::Local(y) if *y == x => by.clone(),
            Expr::Param(..) | Expr::Const(_) | Expr::Fresh(..) | Expr::Local(_) => self.clone(),
            Expr::Unary(op, ty, a) => Expr::Unary(*op, *ty, Box::new(a.substitute(x, by))),
            Expr::Cast { from, to, arg } => Expr::Cast { from: *from, to: *to, arg: Box::new(arg.substitute(x, by)) },
            Expr::Binary(op, ty, a, b) => {
                Expr::Binary(*op, *ty, Box::new(a.substitute(x, by)), Box::new(b.substitute(x, by)))
            }
            Expr::Select(c, a, b) => Expr::Select(
                Box::new(c.substitute(x, by)),
                Box::new(a.substitute(x, by)),
                Box::new(b.substitute(x, by)),
            ),
        }
    }
}

/// `!e`.
impl std::ops::Not for Expr {
    type Output = Expr;

    fn not(self) -> Expr {
        Expr::Unary(UnOp::Not, Ty::Bool, Box::new(self))
    }
}

/// Java-like text: parameters `p0`, unknowns `?v7`, unresolved locals `φv9`.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Param(i, _) => write!(f, "p{i}"),
            Expr::Const(c) => write!(f, "{c}"),
            Expr::Fresh(v, _) => write!(f, "?{v}"),
            Expr::Local(v) => write!(f, "φ{v}"),
            Expr::Unary(op, _, a) => {
                let s = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::Not => "!",
                };
                write!(f, "{s}{a}")
            }
            Expr::Binary(op, _, a, b) => write!(f, "({a} {} {b})", op.symbol()),
            Expr::Cast { to, arg, .. } => write!(f, "({to}) {arg}"),
            Expr::Select(c, a, b) => write!(f, "({c} ? {a} : {b})"),
        }
    }
}

/// A literal of a path condition: a branch condition that must evaluate to `positive`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Literal {
    /// The branch condition's value in the IR (its identity when path conditions are joined).
    pub value: ValueId,
    pub cond: Expr,
    pub positive: bool,
}

impl Literal {
    /// The literal as a boolean expression (`!cond` when negative).
    pub fn to_expr(&self) -> Expr {
        if self.positive {
            self.cond.clone()
        } else {
            !self.cond.clone()
        }
    }

    fn size(&self) -> usize {
        self.cond.size() + usize::from(!self.positive)
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.positive {
            write!(f, "{}", self.cond)
        } else {
            write!(f, "!{}", self.cond)
        }
    }
}

/// One path condition: the conjunction of its literals (empty: ⊤).
pub type Conjunction = Vec<Literal>;

/// One conditional definition `(cond, value)` of a φ: on a path whose condition is `cond` the φ
/// takes `value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CondDef {
    pub cond: Conjunction,
    pub value: Expr,
}

/// `⋀ left ⇒ right`. In a set of implications resolved from one expression, `right` is a value the
/// expression takes when the conjuncts on the left hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Implies {
    pub left: Vec<Expr>,
    pub right: Expr,
}

impl Implies {
    fn size(&self) -> usize {
        self.left.iter().map(Expr::size).sum::<usize>() + self.right.size()
    }

    fn depth(&self) -> usize {
        self.left.iter().map(|e| e.measure().1).chain([self.right.measure().1]).max().unwrap_or(0)
    }

    fn for_each_local(&self, visit: &mut impl FnMut(ValueId)) {
        for l in &self.left {
            l.for_each_local(visit);
        }
        self.right.for_each_local(visit);
    }
}

impl fmt::Display for Implies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.left.is_empty() {
            f.write_str("true")?;
        }
        for (i, l) in self.left.iter().enumerate() {
            if i > 0 {
                f.write_str(" && ")?;
            }
            write!(f, "{l}")?;
        }
        write!(f, " => {}", self.right)
    }
}

/// The reachability formula of a set of targets: the disjunction over its `disjuncts`, each the
/// conjunction of its implications.
#[derive(Clone, Debug)]
pub struct ReachFormula {
    pub disjuncts: Vec<Vec<Implies>>,
    /// Expression nodes created while building it (the measure the budget bounds).
    pub work: usize,
}

impl ReachFormula {
    /// Expression nodes in the formula itself.
    pub fn size(&self) -> usize {
        self.disjuncts.iter().flatten().map(Implies::size).sum()
    }
}

/// Builds the reference formula for reaching any of `targets`, or gives up past the budget.
pub fn reach_formula(f: &Function, targets: &[BlockId], opts: &NaiveOptions) -> Result<ReachFormula, Blowup> {
    let mut n = Naive::new(f, targets, opts)?;
    let mut ts = targets.to_vec();
    ts.sort();
    ts.dedup();
    let mut disjuncts = Vec::new();
    for t in ts {
        for i in 0..n.path_conditions(t).len() {
            let conj = n.path_conditions(t)[i].clone();
            n.charge(conj.iter().map(Literal::size).sum())?;
            let mut imps = Vec::new();
            for lit in conj {
                for mut imp in n.resolve(&lit.cond)? {
                    if !lit.positive {
                        imp.right = !imp.right;
                        n.charge(1)?;
                    }
                    imps.push(imp);
                }
            }
            disjuncts.push(imps);
        }
    }
    Ok(ReachFormula { disjuncts, work: n.used })
}

/// Conditional definitions of one function and their resolution (see the module docs).
pub struct Naive<'f> {
    f: &'f Function,
    slice: Slice,
    /// The expression tree of each value built so far, with its size and depth (cloned, and
    /// charged, on every use).
    exprs: Vec<Option<(Expr, usize, usize)>>,
    /// Path conditions of the blocks in the slice.
    cc: Vec<Vec<Conjunction>>,
    /// Conditional definitions of the φs resolved so far.
    defs: HashMap<ValueId, Rc<[CondDef]>>,
    used: usize,
    budget: usize,
    join_complements: bool,
}

impl<'f> Naive<'f> {
    /// Computes the path conditions of every block from which a target can be reached.
    pub fn new(f: &'f Function, targets: &[BlockId], opts: &NaiveOptions) -> Result<Naive<'f>, Blowup> {
        let slice = Slice::for_targets(f, targets);
        let mut n = Naive {
            f,
            slice,
            exprs: vec![None; f.values.len()],
            cc: vec![Vec::new(); f.blocks.len()],
            defs: HashMap::new(),
            used: 0,
            budget: opts.budget,
            join_complements: opts.join_complements,
        };
        n.path_condition_flow()?;
        Ok(n)
    }

    /// Expression nodes created so far.
    pub fn work(&self) -> usize {
        self.used
    }

    fn charge(&mut self, nodes: usize) -> Result<(), Blowup> {
        self.used = self.used.saturating_add(nodes);
        if self.used > self.budget {
            Err(Blowup { budget: self.budget })
        } else {
            Ok(())
        }
    }

    /// Charges a new implication and checks its depth.
    fn charge_implies(&mut self, imp: &Implies) -> Result<(), Blowup> {
        if imp.depth() > MAX_DEPTH {
            return Err(Blowup { budget: self.budget });
        }
        self.charge(imp.size())
    }

    /// Section 3.2, forward: `CC(entry) = {⊤}`, `CC(b) = ∪_pred {c ∧ edgecond(pred→b)}`. Blocks
    /// are in topological order, so one pass suffices.
    fn path_condition_flow(&mut self) -> Result<(), Blowup> {
        let f = self.f;
        self.cc[f.entry.index()] = vec![Vec::new()];
        for b in f.block_ids() {
            if b == f.entry || !self.slice.has_block(b) {
                continue;
            }
            let mut preds = f.block(b).preds.clone();
            preds.sort();
            preds.dedup();
            let mut out = Vec::new();
            for p in preds {
                let lit = self.edge_literal(p, b)?;
                for i in 0..self.cc[p.index()].len() {
                    let mut c = self.cc[p.index()][i].clone();
                    c.extend(lit.clone());
                    self.charge(c.iter().map(Literal::size).sum::<usize>().max(1))?;
                    out.push(c);
                }
            }
            self.cc[b.index()] = if self.join_complements { join_complements(out) } else { out };
        }
        Ok(())
    }

    /// The literal of the edge `p → b`, if the edge is conditional.
    fn edge_literal(&mut self, p: BlockId, b: BlockId) -> Result<Option<Literal>, Blowup> {
        Ok(match edge_cond(self.f, p, b) {
            EdgeCond::Always => None,
            EdgeCond::If(c, positive) => Some(Literal { value: c, cond: self.expr_of(c, 0)?, positive }),
        })
    }

    /// The path conditions of block `b` (empty when `b` cannot reach a target or be reached).
    pub fn path_conditions(&self, b: BlockId) -> &[Conjunction] {
        &self.cc[b.index()]
    }

    /// The expression tree of value `v`: non-φ definitions substituted, φs as locals.
    pub fn expr(&mut self, v: ValueId) -> Result<Expr, Blowup> {
        self.expr_of(v, 0)
    }

    fn expr_of(&mut self, v: ValueId, depth: usize) -> Result<Expr, Blowup> {
        if depth > MAX_DEPTH {
            return Err(Blowup { budget: self.budget });
        }
        if let Some((e, size, _)) = &self.exprs[v.index()] {
            let (e, size) = (e.clone(), *size);
            self.charge(size)?;
            return Ok(e);
        }
        let f = self.f;
        let vd = f.value(v);
        let e = if is_opaque(f, v) {
            Expr::Fresh(v, vd.ty)
        } else {
            match &vd.op {
                Op::Param(i) => Expr::Param(*i, vd.ty),
                Op::Const(c) => Expr::Const(c.clone()),
                Op::Phi(_) => Expr::Local(v),
                Op::Nondet(_) | Op::Math(..) => Expr::Fresh(v, vd.ty),
                Op::Unary(op, a) => Expr::Unary(*op, vd.ty, Box::new(self.expr_of(*a, depth + 1)?)),
                Op::Binary(op, a, b) => {
                    let ty = f.value(*a).ty;
                    let (a, b) = (self.expr_of(*a, depth + 1)?, self.expr_of(*b, depth + 1)?);
                    Expr::Binary(*op, ty, Box::new(a), Box::new(b))
                }
                Op::Cast(a) => {
                    Expr::Cast { from: f.value(*a).ty, to: vd.ty, arg: Box::new(self.expr_of(*a, depth + 1)?) }
                }
                Op::Select(c, a, b) => {
                    let c = self.expr_of(*c, depth + 1)?;
                    let a = self.expr_of(*a, depth + 1)?;
                    let b = self.expr_of(*b, depth + 1)?;
                    Expr::Select(Box::new(c), Box::new(a), Box::new(b))
                }
                // Ops this engine does not model (added to the IR after it): unknowns.
                #[allow(unreachable_patterns)]
                _ => Expr::Fresh(v, vd.ty),
            }
        };
        self.charge(1)?;
        // Cached trees are reused above without walking them again: bound their depth here.
        let (size, tree_depth) = e.measure();
        if tree_depth > MAX_DEPTH {
            return Err(Blowup { budget: self.budget });
        }
        self.exprs[v.index()] = Some((e.clone(), size, tree_depth));
        Ok(e)
    }

    /// The conditional definitions of φ `x`: `(c ∧ edgecond(pᵢ→b), xᵢ)` for each `c ∈ CC(pᵢ)`.
    /// Any other value has the single definition `(⊤, its expression)`.
    pub fn cond_defs(&mut self, x: ValueId) -> Result<Rc<[CondDef]>, Blowup> {
        if let Some(d) = self.defs.get(&x) {
            return Ok(d.clone());
        }
        let f = self.f;
        let vd = f.value(x);
        let defs: Vec<CondDef> = match &vd.op {
            Op::Phi(ins) if !is_opaque(f, x) => {
                let mut defs = Vec::new();
                for (p, xi) in ins {
                    let value = self.expr_of(*xi, 0)?;
                    let lit = self.edge_literal(*p, vd.block)?;
                    for i in 0..self.cc[p.index()].len() {
                        let mut cond = self.cc[p.index()][i].clone();
                        cond.extend(lit.clone());
                        self.charge(cond.iter().map(Literal::size).sum::<usize>() + value.size())?;
                        defs.push(CondDef { cond, value: value.clone() });
                    }
                }
                defs
            }
            _ => vec![CondDef { cond: Vec::new(), value: self.expr_of(x, 0)? }],
        };
        let defs: Rc<[CondDef]> = defs.into();
        self.defs.insert(x, defs.clone());
        Ok(defs)
    }

    /// Figures 7 and 9: the implications of an expression, bottom-up.
    pub fn resolve(&mut self, e: &Expr) -> Result<Vec<Implies>, Blowup> {
        match e {
            Expr::Param(..) | Expr::Const(_) | Expr::Fresh(..) => {
                self.charge(1)?;
                Ok(vec![Implies { left: Vec::new(), right: e.clone() }])
            }
            Expr::Local(x) => self.resolve_local(*x),
            Expr::Unary(op, ty, a) => {
                let mut out = self.resolve(a)?;
                for imp in &mut out {
                    let right = std::mem::replace(&mut imp.right, Expr::Local(ValueId(0)));
                    imp.right = Expr::Unary(*op, *ty, Box::new(right));
                }
                self.charge(out.len())?;
                Ok(out)
            }
            Expr::Cast { from, to, arg } => {
                let mut out = self.resolve(arg)?;
                for imp in &mut out {
                    let right = std::mem::replace(&mut imp.right, Expr::Local(ValueId(0)));
                    imp.right = Expr::Cast { from: *from, to: *to, arg: Box::new(right) };
                }
                self.charge(out.len())?;
                Ok(out)
            }
            Expr::Binary(op, ty, a, b) => {
                let (ra, rb) = (self.resolve(a)?, self.resolve(b)?);
                let mut out = Vec::with_capacity(ra.len().saturating_mul(rb.len()).min(1 << 16));
                for ia in &ra {
                    for ib in &rb {
                        let left = ia.left.iter().chain(&ib.left).cloned().collect();
                        let right = Expr::Binary(*op, *ty, Box::new(ia.right.clone()), Box::new(ib.right.clone()));
                        let imp = Implies { left, right };
                        self.charge_implies(&imp)?;
                        out.push(imp);
                    }
                }
                Ok(out)
            }
            Expr::Select(c, a, b) => {
                let (rc, ra, rb) = (self.resolve(c)?, self.resolve(a)?, self.resolve(b)?);
                let mut out = Vec::new();
                for ic in &rc {
                    for ia in &ra {
                        for ib in &rb {
                            let left = ic.left.iter().chain(&ia.left).chain(&ib.left).cloned().collect();
                            let right = Expr::Select(
                                Box::new(ic.right.clone()),
                                Box::new(ia.right.clone()),
                                Box::new(ib.right.clone()),
                            );
                            let imp = Implies { left, right };
                            self.charge_implies(&imp)?;
                            out.push(imp);
                        }
                    }
                }
                Ok(out)
            }
        }
    }

    /// Figure 6's `find`: the local of `curr` defined last (in the latest block, then by id).
    fn find(&self, curr: &Implies) -> Option<ValueId> {
        let mut best: Option<(BlockId, ValueId)> = None;
        curr.for_each_local(&mut |x| {
            let key = (self.f.value(x).block, x);
            if Some(key) > best {
                best = Some(key);
            }
        });
        best.map(|(_, x)| x)
    }

    /// Figure 6: the implications of local `x`, substituting the locals of each definition (on
    /// both sides, see the module docs) by each of their definitions until none is left.
    pub fn resolve_local(&mut self, x: ValueId) -> Result<Vec<Implies>, Blowup> {
        let mut resolved = Vec::new();
        for def in self.cond_defs(x)?.iter() {
            let mut q = VecDeque::new();
            let first = Implies { left: def.cond.iter().map(Literal::to_expr).collect(), right: def.value.clone() };
            self.charge_implies(&first)?;
            q.push_back(first);
            while let Some(curr) = q.pop_front() {
                let Some(to_resolve) = self.find(&curr) else {
                    resolved.push(curr);
                    continue;
                };
                for d in self.cond_defs(to_resolve)?.iter() {
                    let mut clone = Implies {
                        left: curr.left.iter().map(|l| l.substitute(to_resolve, &d.value)).collect(),
                        right: curr.right.substitute(to_resolve, &d.value),
                    };
                    clone.left.extend(d.cond.iter().map(Literal::to_expr));
                    self.charge_implies(&clone)?;
                    q.push_back(clone);
                }
            }
        }
        Ok(resolved)
    }
}

/// Replaces pairs `c ∧ l`, `c ∧ ¬l` (the same branch value, last in both) by `c`, to a fixpoint,
/// and drops duplicates. The result is an equivalent disjunction; the order is deterministic.
fn join_complements(conjs: Vec<Conjunction>) -> Vec<Conjunction> {
    type Key = Vec<(ValueId, bool)>;
    let key = |c: &Conjunction| -> Key { c.iter().map(|l| (l.value, l.positive)).collect() };
    let mut items: Vec<Option<Conjunction>> = Vec::new();
    let mut index: HashMap<Key, usize> = HashMap::new();
    let mut work = Vec::new();
    for c in conjs {
        if let std::collections::hash_map::Entry::Vacant(e) = index.entry(key(&c)) {
            e.insert(items.len());
            work.push(items.len());
            items.push(Some(c));
        }
    }
    work.reverse();
    while let Some(i) = work.pop() {
        let Some(c) = &items[i] else { continue };
        let mut k = key(c);
        let Some(last) = k.last_mut() else { continue };
        last.1 = !last.1;
        let Some(&j) = index.get(&k) else { continue };
        if items[j].is_none() {
            continue;
        }
        let mut prefix = items[i].take().expect("checked above");
        items[j] = None;
        index.remove(&k);
        let own = key(&prefix);
        index.remove(&own);
        prefix.pop();
        let pk = key(&prefix);
        if index.get(&pk).is_some_and(|&p| items[p].is_some()) {
            continue;
        }
        index.insert(pk, items.len());
        work.push(items.len());
        items.push(Some(prefix));
    }
    items.into_iter().flatten().collect()
}

/// Whether the reference engine treats value `v` as an unknown ([`Expr::Fresh`], one per value):
/// wherever the production encoder gives a value a fresh term rather than one computed from its
/// operands, and also for strings (string constants and `Op::Str`), which the production encoder
/// models on z3's string theory but this engine does not: there it over-approximates.
pub fn is_opaque(f: &Function, v: ValueId) -> bool {
    let vd = f.value(v);
    match &vd.op {
        Op::Nondet(_) | Op::Math(..) => true,
        Op::Phi(ins) => ins.is_empty(),
        Op::Const(c) => matches!(c, Const::Str(_) | Const::Null),
        Op::Param(_) => false,
        Op::Unary(_, a) => {
            let t = f.value(*a).ty;
            !(t == Ty::Bool || t.is_numeric())
        }
        Op::Cast(a) => {
            let (from, to) = (f.value(*a).ty, vd.ty);
            let ok = from == to
                || (from.is_integral() && (to.is_integral() || to.is_floating()))
                || (from.is_floating() && (to.is_integral() || to.is_floating()));
            !ok
        }
        Op::Binary(op, a, _) => {
            let t = f.value(*a).ty;
            if t == Ty::Bool {
                !matches!(op, BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Ne | BinOp::Eq)
            } else if t.is_floating() {
                !matches!(
                    op,
                    BinOp::Add
                        | BinOp::Sub
                        | BinOp::Mul
                        | BinOp::Div
                        | BinOp::Eq
                        | BinOp::Ne
                        | BinOp::Lt
                        | BinOp::Le
                        | BinOp::Gt
                        | BinOp::Ge
                )
            } else {
                !t.is_integral()
            }
        }
        Op::Select(..) => false,
        #[allow(unreachable_patterns)]
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;
    use jreach_ir::{Block, LowerMode, ParamInfo, Terminator, ValueData};

    use super::*;

    /// A function built by hand: int parameters, blocks created in topological order.
    struct Build {
        f: Function,
    }

    impl Build {
        fn new(params: usize) -> Build {
            let params =
                (0..params).map(|i| ParamInfo { name: format!("p{i}"), ty: Ty::Int, java_ty: "int".into() }).collect();
            let f = Function {
                name: "T.m".into(),
                params,
                return_ty: Ty::Void,
                blocks: vec![],
                values: vec![],
                entry: BlockId(0),
                mode: LowerMode::Synthesis { unroll: 1 },
                proof_blockers: vec![],
                classes: vec![],
                setup: Default::default(),
            };
            let mut b = Build { f };
            b.block();
            b
        }

        fn block(&mut self) -> BlockId {
            self.f.blocks.push(Block { insts: vec![], term: Terminator::Unterminated, preds: vec![], stmts: vec![] });
            BlockId(self.f.blocks.len() as u32 - 1)
        }

        fn val(&mut self, b: BlockId, op: Op, ty: Ty) -> ValueId {
            self.f.values.push(ValueData { op, ty, block: b, span: None });
            let v = ValueId(self.f.values.len() as u32 - 1);
            self.f.blocks[b.index()].insts.push(v);
            v
        }

        fn int(&mut self, b: BlockId, k: i64) -> ValueId {
            self.val(b, Op::Const(Const::int(Ty::Int, k)), Ty::Int)
        }

        fn bin(&mut self, b: BlockId, op: BinOp, x: ValueId, y: ValueId) -> ValueId {
            let ty = if op.is_comparison() { Ty::Bool } else { Ty::Int };
            self.val(b, Op::Binary(op, x, y), ty)
        }

        fn jump(&mut self, from: BlockId, to: BlockId) {
            self.f.blocks[from.index()].term = Terminator::Jump(to);
            self.f.blocks[to.index()].preds.push(from);
        }

        fn branch(&mut self, from: BlockId, cond: ValueId, then_to: BlockId, else_to: BlockId) {
            self.f.blocks[from.index()].term = Terminator::Branch { cond, then_to, else_to, origin: None };
            self.f.blocks[then_to.index()].preds.push(from);
            self.f.blocks[else_to.index()].preds.push(from);
        }

        fn ret(&mut self, b: BlockId) {
            self.f.blocks[b.index()].term = Terminator::Return(None);
        }
    }

    fn show(imps: &[Implies]) -> String {
        imps.iter().map(|i| format!("{i}\n")).collect()
    }

    /// Figure 8: `int x = 0, y = -1; if (a < 0) { x = 1; y = 4; } if (x > y) target;`
    fn figure8() -> (Function, ValueId, ValueId, BlockId) {
        let mut t = Build::new(1);
        let b0 = BlockId(0);
        let (b1, b2, b3, b4) = (t.block(), t.block(), t.block(), t.block());
        let a = t.val(b0, Op::Param(0), Ty::Int);
        let zero = t.int(b0, 0);
        let minus1 = t.int(b0, -1);
        let c = t.bin(b0, BinOp::Lt, a, zero);
        t.branch(b0, c, b1, b2);
        let one = t.int(b1, 1);
        let four = t.int(b1, 4);
        t.jump(b1, b2);
        let x = t.val(b2, Op::Phi(vec![(b0, zero), (b1, one)]), Ty::Int);
        let y = t.val(b2, Op::Phi(vec![(b0, minus1), (b1, four)]), Ty::Int);
        let gt = t.bin(b2, BinOp::Gt, x, y);
        t.branch(b2, gt, b3, b4);
        t.ret(b3);
        t.ret(b4);
        (t.f, x, y, b3)
    }

    #[test]
    fn conditional_definitions_of_figure_4() {
        let (f, x, _, target) = figure8();
        let mut n = Naive::new(&f, &[target], &NaiveOptions::default()).unwrap();
        let defs: String = n
            .cond_defs(x)
            .unwrap()
            .iter()
            .map(|d| format!("{:?} -> {}\n", d.cond.iter().map(|l| l.to_string()).collect::<Vec<_>>(), d.value))
            .collect();
        expect![[r#"
            ["!(p0 < 0)"] -> 0
            ["(p0 < 0)"] -> 1
        "#]]
        .assert_eq(&defs);
        let cc = |n: &Naive<'_>| -> Vec<String> {
            n.path_conditions(target)
                .iter()
                .map(|c| c.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(" && "))
                .collect()
        };
        // The two paths through the first `if` join back into ⊤ before the second.
        assert_eq!(cc(&n), ["(φv6 > φv7)"]);
        let opts = NaiveOptions { join_complements: false, ..NaiveOptions::default() };
        let n = Naive::new(&f, &[target], &opts).unwrap();
        assert_eq!(cc(&n), ["!(p0 < 0) && (φv6 > φv7)", "(p0 < 0) && (φv6 > φv7)"]);
    }

    #[test]
    fn binary_operator_takes_the_cartesian_product_as_in_figure_7() {
        let (f, x, y, target) = figure8();
        let mut n = Naive::new(&f, &[target], &NaiveOptions::default()).unwrap();
        let e = Expr::Binary(BinOp::Gt, Ty::Int, Box::new(Expr::Local(x)), Box::new(Expr::Local(y)));
        expect![[r#"
            !(p0 < 0) && !(p0 < 0) => (0 > -1)
            !(p0 < 0) && (p0 < 0) => (0 > 4)
            (p0 < 0) && !(p0 < 0) => (1 > -1)
            (p0 < 0) && (p0 < 0) => (1 > 4)
        "#]]
        .assert_eq(&show(&n.resolve(&e).unwrap()));
        let neg = Expr::Unary(UnOp::Neg, Ty::Int, Box::new(Expr::Local(x)));
        expect![[r#"
            !(p0 < 0) => -0
            (p0 < 0) => -1
        "#]]
        .assert_eq(&show(&n.resolve(&neg).unwrap()));
    }

    #[test]
    fn reach_formula_is_a_disjunction_over_paths() {
        let (f, _, _, target) = figure8();
        let r = reach_formula(&f, &[target], &NaiveOptions::default()).unwrap();
        let text: String = r.disjuncts.iter().enumerate().map(|(i, d)| format!("path {i}:\n{}", show(d))).collect();
        expect![[r#"
            path 0:
            !(p0 < 0) && !(p0 < 0) => (0 > -1)
            !(p0 < 0) && (p0 < 0) => (0 > 4)
            (p0 < 0) && !(p0 < 0) => (1 > -1)
            (p0 < 0) && (p0 < 0) => (1 > 4)
        "#]]
        .assert_eq(&text);
        assert!(r.size() > 0 && r.work >= r.size());
    }

    /// `x = 0; for i in 0..n { if (x > p0) x = x + 1; else x = x - 1; }` unrolled: n diamonds whose
    /// conditions read the local the previous diamond redefined. Returns the function, the last
    /// diamond's φ and a target after it guarded by `x == p1`.
    fn chain(n: usize) -> (Function, ValueId, BlockId) {
        let mut t = Build::new(2);
        let b0 = BlockId(0);
        let p0 = t.val(b0, Op::Param(0), Ty::Int);
        let p1 = t.val(b0, Op::Param(1), Ty::Int);
        let mut x = t.int(b0, 0);
        let mut cur = b0;
        for _ in 0..n {
            let (th, el, join) = (t.block(), t.block(), t.block());
            let c = t.bin(cur, BinOp::Gt, x, p0);
            t.branch(cur, c, th, el);
            let one = t.int(th, 1);
            let xt = t.bin(th, BinOp::Add, x, one);
            t.jump(th, join);
            let one = t.int(el, 1);
            let xe = t.bin(el, BinOp::Sub, x, one);
            t.jump(el, join);
            x = t.val(join, Op::Phi(vec![(th, xt), (el, xe)]), Ty::Int);
            cur = join;
        }
        let (hit, miss) = (t.block(), t.block());
        let c = t.bin(cur, BinOp::Eq, x, p1);
        t.branch(cur, c, hit, miss);
        t.ret(hit);
        t.ret(miss);
        (t.f, x, hit)
    }

    #[test]
    fn locals_in_guards_are_substituted_too() {
        let (f, x, target) = chain(2);
        let mut n = Naive::new(&f, &[target], &NaiveOptions::default()).unwrap();
        let imps = n.resolve_local(x).unwrap();
        // 2 paths to the last join, each guarded by literals over the first φ (2 definitions).
        expect![[r#"
            ((0 + 1) > p0) && (0 > p0) => ((0 + 1) + 1)
            ((0 - 1) > p0) && !(0 > p0) => ((0 - 1) + 1)
            !((0 + 1) > p0) && (0 > p0) => ((0 + 1) - 1)
            !((0 - 1) > p0) && !(0 > p0) => ((0 - 1) - 1)
        "#]]
        .assert_eq(&show(&imps));
        let mut locals = 0;
        for imp in &imps {
            imp.for_each_local(&mut |_| locals += 1);
        }
        assert_eq!(locals, 0);
    }

    #[test]
    fn the_resolution_grows_exponentially_and_stops_at_the_budget() {
        let sizes = |join_complements: bool, ks: std::ops::RangeInclusive<usize>| -> Vec<usize> {
            let opts = NaiveOptions { join_complements, ..NaiveOptions::default() };
            ks.map(|k| {
                let (f, _, target) = chain(k);
                reach_formula(&f, &[target], &opts).unwrap().size()
            })
            .collect()
        };
        let joined = sizes(true, 1..=8);
        for w in joined.windows(2) {
            assert!(w[1] >= 2 * w[0], "{joined:?}");
        }
        // Without joins, each definition carries every path from the entry.
        let unjoined = sizes(false, 1..=3);
        for w in unjoined.windows(2) {
            assert!(w[1] >= 16 * w[0], "{unjoined:?}");
        }
        assert!(unjoined[2] > 100 * joined[2], "{unjoined:?} vs {joined:?}");
        let (f, _, target) = chain(30);
        let opts = NaiveOptions { budget: 100_000, ..NaiveOptions::default() };
        assert_eq!(reach_formula(&f, &[target], &opts).unwrap_err(), Blowup { budget: 100_000 });
    }

    #[test]
    fn unknowns_are_shared_by_value() {
        let mut t = Build::new(1);
        let b0 = BlockId(0);
        let (b1, b2) = (t.block(), t.block());
        let u = t.val(b0, Op::Nondet(jreach_ir::NondetKind::Opaque { what: "x".into() }), Ty::Int);
        let s = t.val(b0, Op::Const(Const::Str("a".into())), Ty::Ref);
        let sum = t.bin(b0, BinOp::Add, u, u);
        let zero = t.int(b0, 0);
        let c = t.bin(b0, BinOp::Eq, sum, zero);
        t.branch(b0, c, b1, b2);
        t.ret(b1);
        t.ret(b2);
        let f = t.f;
        assert!(is_opaque(&f, u) && is_opaque(&f, s) && !is_opaque(&f, sum));
        let mut n = Naive::new(&f, &[b1], &NaiveOptions::default()).unwrap();
        assert_eq!(n.expr(c).unwrap().to_string(), "((?v0 + ?v0) == 0)");
    }
}
