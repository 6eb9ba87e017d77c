//! Dead code with reasons: which blocks and branch edges of a function no input can reach, and why.
//!
//! One [`DeadCode`] holds one encoding of the whole function and one incremental solver. Every
//! question is asked through an assumption, so the solver keeps what it learns between questions:
//!
//! - *Is block `b` reachable?* When it is asked (not before), `r ⇒ guard(b)` is asserted for a
//!   fresh literal `r`, which is assumed. The solver holds the guards of the questions asked so
//!   far only: asserting every block's guard up front made z3 take in every string, floating-point
//!   and arithmetic term of the function for the first question, and queries that answer in
//!   milliseconds alone took seconds or ran out of time (`--slow-queries` shows them). A model
//!   answers many questions at once: every block and edge on the path its inputs take is live.
//! - *A quick look* (`try_block`, `try_edge`): the same question with a short time limit, whose
//!   "needs longer" is not recorded, so the caller can look for an answer another way (concrete
//!   runs) before it asks in full. Questions that take longer than a quick look can share a
//!   limit on the time they spend past it (`limit_slow_questions`).
//! - *Why is block `t` dead?* The **decisions** of `t` are the branch outcomes every path to `t`
//!   takes: branches of the dominators of `t` whose one side leads to `t` and the other does not
//!   (the function is a DAG, so "leads to" is one backward walk). Each decision is a tracked
//!   literal `d ⇒ (cond == outcome)`, asserted in a scope popped after the explanation; if the
//!   decisions alone are unsatisfiable (the values are terms of the parameters, so no extra
//!   definitions are needed), the unsat core, minimised by deletion, names the conditions that
//!   contradict each other.
//!
//! An UNSAT answer is a proof only for a lowering without proof blockers: the caller checks that.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use jreach_ir::interp::Value;
use jreach_ir::types::Ty;
use jreach_ir::{BlockId, Function, Terminator};
use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

use crate::encode::Encoder;
use crate::slow_log;
use crate::solve::GaveUp;

/// What the solver says about a block or an edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Some input of the encoding reaches it.
    Live,
    /// No input reaches it (a proof when the lowering had no proof blockers).
    Dead,
    /// The solver gave up; the reason.
    Unknown(GaveUp),
}

/// The solver needed longer than the quick look it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NeedsLonger;

/// A branch outcome on the way to a target: block `block` ends in a branch and takes its `then`
/// side when `taken` is true, its `else` side otherwise.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Decision {
    pub block: BlockId,
    pub taken: bool,
}

/// How many questions of one kind a [`DeadCode`] asked the solver, how they came out and how long
/// they took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    pub sat: u32,
    pub unsat: u32,
    pub unknown: u32,
    /// Of the `unknown` ones, those that were a quick look ([`DeadCode::try_block`]): the
    /// solver needed longer, and the question was left to be asked again.
    pub deferred: u32,
    pub time: Duration,
}

impl QueryStats {
    /// All the questions asked.
    pub fn count(&self) -> u32 {
        self.sat + self.unsat + self.unknown
    }

    fn record(&mut self, r: SatResult, took: Duration) {
        match r {
            SatResult::Sat => self.sat += 1,
            SatResult::Unsat => self.unsat += 1,
            SatResult::Unknown => self.unknown += 1,
        }
        self.time += took;
    }

    /// The questions the solver gave up on: those not answered in time ([`QueryStats::unknown`])
    /// less those that were only a quick look and were asked again.
    pub fn gave_up(&self) -> u32 {
        self.unknown - self.deferred
    }

    /// The sum of two tallies.
    pub fn add(&mut self, o: &QueryStats) {
        self.sat += o.sat;
        self.unsat += o.unsat;
        self.unknown += o.unknown;
        self.deferred += o.deferred;
        self.time += o.time;
    }
}

/// Reachability questions about one function, sharing one encoding and one solver.
pub struct DeadCode<'f> {
    f: &'f Function,
    enc: Encoder<'f>,
    solver: Solver,
    blocks: Vec<Option<Status>>,
    edges: HashMap<Decision, Status>,
    idom: Vec<Option<BlockId>>,
    /// Why a query ran out of time (or was canceled), once one did: the later ones are not
    /// asked (a method whose queries time out would otherwise take a timeout per block).
    gave_up: Option<GaveUp>,
    /// The time limit of one query.
    timeout: Duration,
    /// When the questions about this function must all be answered: each query gets at most
    /// what is left, and none is asked after it.
    deadline: Instant,
    /// Is a block or an edge reachable?
    reach_stats: QueryStats,
    /// Which decisions contradict each other?
    explain_stats: QueryStats,
    /// Whether the solver's last answer was a model nobody has taken the inputs of yet.
    model_untaken: bool,
    /// The limit on the time questions spend past a quick look, when there is one.
    slow: Option<SlowLimit>,
}

/// Questions that take longer than `over` spend at most `total` past it in all: a method whose
/// every question costs the solver a second gets the time of a few, not its whole budget.
#[derive(Clone, Copy, Debug)]
struct SlowLimit {
    over: Duration,
    total: Duration,
    spent: Duration,
}

impl<'f> DeadCode<'f> {
    /// Encodes all of `f`; every query gets at most `timeout`, and all of them together end by
    /// `deadline`.
    pub fn new(f: &'f Function, timeout: Duration, deadline: Instant) -> DeadCode<'f> {
        let all: Vec<BlockId> = f.block_ids().collect();
        let enc = Encoder::new(f, &all);
        DeadCode {
            f,
            enc,
            solver: Solver::new(),
            blocks: vec![None; f.blocks.len()],
            edges: HashMap::new(),
            idom: dominators(f),
            gave_up: None,
            timeout,
            deadline,
            reach_stats: QueryStats::default(),
            explain_stats: QueryStats::default(),
            model_untaken: false,
            slow: None,
        }
    }

    /// Limits the time the questions that take longer than `over` spend past it to `total` in
    /// all; once it is spent, the questions left are not asked (the method's budget ran out).
    pub fn limit_slow_questions(&mut self, over: Duration, total: Duration) {
        self.slow = Some(SlowLimit { over, total, spent: Duration::ZERO });
    }

    /// The reachability questions asked so far, and the explaining ones (unsat cores).
    pub fn stats(&self) -> (QueryStats, QueryStats) {
        (self.reach_stats, self.explain_stats)
    }

    /// Whether block `b` can run.
    pub fn block(&mut self, b: BlockId) -> Status {
        if let Some(s) = &self.blocks[b.index()] {
            return s.clone();
        }
        let goal = self.enc.guard(b);
        let s = self.ask(&goal, || format!("can block b{} run", b.index()));
        self.blocks[b.index()] = Some(s.clone());
        s
    }

    /// Whether the branch at the end of `d.block` can go to its `d.taken` side. `None` when the
    /// block does not end in a two-way branch.
    pub fn edge(&mut self, d: Decision) -> Option<Status> {
        let succ = branch_succ(self.f, d)?;
        if let Some(s) = self.edges.get(&d) {
            return Some(s.clone());
        }
        let goal = self.enc.edge_guard(d.block, succ);
        let s =
            self.ask(&goal, || format!("can the branch ending block b{} go to its {} side", d.block.index(), d.taken));
        self.edges.insert(d, s.clone());
        Some(s)
    }

    /// [`DeadCode::block`] when the solver answers within `quick` (less than the query time
    /// limit); `None` when it needs longer, which is not recorded: the question may be asked
    /// again (after concrete runs looked for an input that reaches `b`, say).
    pub fn try_block(&mut self, b: BlockId, quick: Duration) -> Option<Status> {
        if let Some(s) = &self.blocks[b.index()] {
            return Some(s.clone());
        }
        let goal = self.enc.guard(b);
        let s = self.ask_within(&goal, quick, || format!("can block b{} run (a quick look)", b.index()))?;
        self.blocks[b.index()] = Some(s.clone());
        Some(s)
    }

    /// [`DeadCode::edge`] when the solver answers within `quick`; `Err` when it needs longer
    /// (not recorded, as with [`DeadCode::try_block`]).
    pub fn try_edge(&mut self, d: Decision, quick: Duration) -> Result<Option<Status>, NeedsLonger> {
        let Some(succ) = branch_succ(self.f, d) else { return Ok(None) };
        if let Some(s) = self.edges.get(&d) {
            return Ok(Some(s.clone()));
        }
        let goal = self.enc.edge_guard(d.block, succ);
        let question =
            || format!("can the branch ending block b{} go to its {} side (a quick look)", d.block.index(), d.taken);
        let s = self.ask_within(&goal, quick, question).ok_or(NeedsLonger)?;
        self.edges.insert(d, s.clone());
        Ok(Some(s))
    }

    /// The values the model of the solver's last answer gave the parameters of primitive and
    /// string types (`None` for the others): an input that reaches the block or edge asked.
    /// `None` when the last answer had no model, or its inputs were taken or forgotten; read
    /// from the model only here, for the callers that want them.
    pub fn take_model_inputs(&mut self) -> Option<Vec<Option<Value>>> {
        if !std::mem::take(&mut self.model_untaken) {
            return None;
        }
        let model = self.solver.get_model()?;
        let terms = crate::solve::param_terms(self.f);
        let inputs = self
            .f
            .params
            .iter()
            .zip(&terms)
            .map(|(p, term)| match (p.ty, term) {
                (t, Some(term)) if matches!(t, Ty::Str | Ty::Bool) || t.is_numeric() => {
                    Some(crate::solve::read_value(&model, self.f, term, t, 0, &mut Vec::new()))
                }
                _ => None,
            })
            .collect();
        Some(inputs)
    }

    /// Forgets the last model: [`DeadCode::take_model_inputs`] has nothing until the next one.
    pub fn forget_model(&mut self) {
        self.model_untaken = false;
    }

    /// Whether block `b` is known to be live (by a model or a concrete run).
    pub fn is_live(&self, b: BlockId) -> bool {
        self.blocks[b.index()] == Some(Status::Live)
    }

    /// Whether the branch at the end of `d.block` is known to go to its `d.taken` side.
    pub fn is_live_edge(&self, d: Decision) -> bool {
        self.edges.get(&d) == Some(&Status::Live)
    }

    /// [`DeadCode::ask`] with at most `quick` (when that is less than the time limit and what
    /// is left of the budget): `None` when the solver ran out of that time.
    fn ask_within(&mut self, goal: &Bool, quick: Duration, question: impl FnOnce() -> String) -> Option<Status> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if self.gave_up.is_some() || quick >= self.timeout.min(left) {
            return Some(self.ask(goal, question));
        }
        let (r, _) = self.check(goal, quick, question);
        match r {
            SatResult::Unsat => Some(Status::Dead),
            SatResult::Sat => {
                self.learn_from_model();
                Some(Status::Live)
            }
            SatResult::Unknown => {
                self.reach_stats.deferred += 1;
                None
            }
        }
    }

    /// Asks whether `goal` can hold within `limit`: `r ⇒ goal` is asserted for a fresh literal
    /// `r`, which is assumed. Returns the answer and when the question was asked.
    fn check(&mut self, goal: &Bool, limit: Duration, question: impl FnOnce() -> String) -> (SatResult, Instant) {
        self.model_untaken = false;
        let mut p = Params::new();
        p.set_u32("timeout", limit.as_millis().clamp(1, u32::MAX as u128) as u32);
        self.solver.set_params(&p);
        let lit = Bool::fresh_const("reach");
        self.solver.assert(lit.implies(goal));
        let started = Instant::now();
        let r = self.solver.check_assumptions(std::slice::from_ref(&lit));
        let took = started.elapsed();
        self.reach_stats.record(r, took);
        slow_log::record(&self.solver, &self.f.name, question, std::slice::from_ref(&lit), r, took);
        (r, started)
    }

    /// Whether `goal` (a block's or an edge's guard) can hold, within the query time limit.
    fn ask(&mut self, goal: &Bool, question: impl FnOnce() -> String) -> Status {
        if let Some(why) = &self.gave_up {
            return Status::Unknown(why.clone());
        }
        let mut left = self.deadline.saturating_duration_since(Instant::now());
        if let Some(slow) = &self.slow {
            let slow_left = slow.total.saturating_sub(slow.spent);
            left = left.min(if slow_left.is_zero() { Duration::ZERO } else { slow.over + slow_left });
        }
        if left.is_zero() {
            self.gave_up = Some(GaveUp::Budget);
            return Status::Unknown(GaveUp::Budget);
        }
        let (r, started) = self.check(goal, self.timeout.min(left), question);
        let took = started.elapsed();
        if let Some(slow) = &mut self.slow {
            slow.spent += took.saturating_sub(slow.over);
        }
        match r {
            SatResult::Unsat => Status::Dead,
            SatResult::Unknown => {
                let limit = self.timeout.min(left);
                let mut why = GaveUp::from_solver(self.solver.get_reason_unknown(), limit, false, took);
                if why == GaveUp::Timeout(limit) && limit < self.timeout {
                    // The method's budget, or the time of its slow questions, was the limit.
                    why = GaveUp::Budget;
                } else if why == GaveUp::Timeout(limit) {
                    why = GaveUp::Timeout(self.timeout);
                }
                if matches!(why, GaveUp::Timeout(_) | GaveUp::Budget | GaveUp::Memory(_)) {
                    self.gave_up = Some(why.clone());
                }
                Status::Unknown(why)
            }
            SatResult::Sat => {
                self.learn_from_model();
                Status::Live
            }
        }
    }

    /// Marks the blocks of a path from the entry, as a concrete run of the function visited them
    /// in order, and the branch edges between them, as live: the run is an input that reaches
    /// them, as a model would be. (Only ever turns questions into "live": proofs are unaffected.)
    /// Returns how many blocks and edges were not known to be live before.
    pub fn mark_live_path(&mut self, path: &[BlockId]) -> usize {
        let mut learned = 0;
        for (i, b) in path.iter().enumerate() {
            let Some(slot) = self.blocks.get_mut(b.index()) else { return learned };
            if *slot != Some(Status::Live) {
                *slot = Some(Status::Live);
                learned += 1;
            }
            let Some(next) = path.get(i + 1) else { return learned };
            if let Terminator::Branch { then_to, else_to, .. } = &self.f.block(*b).term {
                if then_to != else_to {
                    let taken = next == then_to;
                    if (taken || next == else_to)
                        && self.edges.insert(Decision { block: *b, taken }, Status::Live) != Some(Status::Live)
                    {
                        learned += 1;
                    }
                }
            }
        }
        learned
    }

    /// Whether every block is known to be live.
    pub fn all_live(&self) -> bool {
        self.blocks.iter().all(|s| *s == Some(Status::Live))
    }

    /// Marks every block and branch edge that is taken in the current model as live: the model
    /// fixes every branch condition, so it describes one path from the entry, followed here.
    fn learn_from_model(&mut self) {
        let Some(model) = self.solver.get_model() else { return };
        self.model_untaken = true;
        let mut b = self.f.entry;
        loop {
            self.blocks[b.index()] = Some(Status::Live);
            match &self.f.block(b).term {
                Terminator::Jump(t) => b = *t,
                Terminator::Branch { cond, then_to, else_to, .. } => {
                    let Some(c) = self.enc.value(*cond).and_then(|c| c.as_bool()) else { return };
                    let Some(taken) = model.eval(&c, true).and_then(|v| v.as_bool()) else { return };
                    if then_to != else_to {
                        self.edges.insert(Decision { block: b, taken }, Status::Live);
                    }
                    b = if taken { *then_to } else { *else_to };
                }
                _ => return,
            }
        }
    }

    /// The branch outcomes every path from the entry to `t` takes, in block order.
    pub fn decisions(&self, t: BlockId) -> Vec<Decision> {
        let f = self.f;
        // Blocks from which `t` can be reached (including `t`): one backward walk.
        let mut leads = vec![false; f.blocks.len()];
        leads[t.index()] = true;
        let mut work = vec![t];
        while let Some(b) = work.pop() {
            for p in &f.block(b).preds {
                if !leads[p.index()] {
                    leads[p.index()] = true;
                    work.push(*p);
                }
            }
        }
        let mut out = Vec::new();
        let mut cur = self.idom[t.index()];
        while let Some(p) = cur {
            if let Terminator::Branch { then_to, else_to, .. } = &f.block(p).term {
                let (a, b) = (leads[then_to.index()], leads[else_to.index()]);
                if then_to != else_to && a != b {
                    out.push(Decision { block: p, taken: a });
                }
            }
            cur = self.idom[p.index()];
        }
        out.reverse();
        out
    }

    /// A minimal set of `decisions` that cannot all hold, in block order; `None` when they can
    /// (the contradiction lies in the shape of the paths, not in a few conditions) or the solver
    /// gives up.
    pub fn conflict(&mut self, decisions: &[Decision]) -> Option<Vec<Decision>> {
        self.solver.push();
        let core = self.conflict_in_scope(decisions);
        self.solver.pop(1);
        core
    }

    /// [`DeadCode::conflict`] in a scope the caller pushed and pops: the decisions' literals are
    /// asserted in it.
    fn conflict_in_scope(&mut self, decisions: &[Decision]) -> Option<Vec<Decision>> {
        let mut lits = Vec::new();
        for d in decisions {
            if let Some(l) = self.decision_lit(*d) {
                lits.push((*d, l));
            }
        }
        let all: Vec<Bool> = lits.iter().map(|(_, l)| l.clone()).collect();
        if self.explain_check(&all) != SatResult::Unsat {
            return None;
        }
        let core = self.solver.get_unsat_core();
        let mut kept: Vec<(Decision, Bool)> = lits.into_iter().filter(|(_, l)| core.contains(l)).collect();
        // Deletion-based minimisation: drop every literal the contradiction does not need.
        let mut i = 0;
        while i < kept.len() {
            let without: Vec<Bool> =
                kept.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, (_, l))| l.clone()).collect();
            if self.explain_check(&without) == SatResult::Unsat {
                kept.remove(i);
            } else {
                i += 1;
            }
        }
        let mut out: Vec<Decision> = kept.into_iter().map(|(d, _)| d).collect();
        out.sort();
        Some(out)
    }

    /// Why the `d.taken` side of a branch never runs although the branch does: the decisions on
    /// the way to the branch that contradict the outcome (empty when the condition alone
    /// decides), or `None` when no such set is found.
    pub fn edge_conflict(&mut self, d: Decision) -> Option<Vec<Decision>> {
        let mut ds = self.decisions(d.block);
        ds.push(d);
        let core = self.conflict(&ds)?;
        core.contains(&d).then(|| core.into_iter().filter(|x| *x != d).collect())
    }

    fn explain_check(&mut self, assumptions: &[Bool]) -> SatResult {
        self.model_untaken = false;
        let started = Instant::now();
        let r = self.solver.check_assumptions(assumptions);
        self.explain_stats.record(r, started.elapsed());
        r
    }

    /// A literal tracking `d`, its implication asserted in the current scope.
    fn decision_lit(&mut self, d: Decision) -> Option<Bool> {
        let Terminator::Branch { cond, .. } = &self.f.block(d.block).term else { return None };
        let c = self.enc.value(*cond)?.as_bool()?;
        let lit = Bool::fresh_const("decision");
        let holds = if d.taken { c } else { c.not() };
        self.solver.assert(lit.implies(&holds));
        Some(lit)
    }
}

/// The successor on the `d.taken` side of a two-way branch.
fn branch_succ(f: &Function, d: Decision) -> Option<BlockId> {
    match &f.block(d.block).term {
        Terminator::Branch { then_to, else_to, .. } if then_to != else_to => {
            Some(if d.taken { *then_to } else { *else_to })
        }
        _ => None,
    }
}

/// Immediate dominators (`None` for the entry and for blocks no path reaches). Blocks are in
/// topological order, so one forward pass suffices (Cooper, Harvey and Kennedy's intersection).
fn dominators(f: &Function) -> Vec<Option<BlockId>> {
    let n = f.blocks.len();
    let mut idom: Vec<Option<BlockId>> = vec![None; n];
    let mut reached = vec![false; n];
    if n == 0 {
        return idom;
    }
    reached[f.entry.index()] = true;
    for b in f.block_ids() {
        if b == f.entry {
            continue;
        }
        let mut acc: Option<BlockId> = None;
        for p in &f.block(b).preds {
            if !reached[p.index()] || p.index() >= b.index() {
                continue;
            }
            acc = Some(match acc {
                None => *p,
                Some(a) => intersect(&idom, f.entry, a, *p),
            });
        }
        if acc.is_some() {
            reached[b.index()] = true;
            idom[b.index()] = acc;
        }
    }
    idom
}

fn intersect(idom: &[Option<BlockId>], entry: BlockId, mut a: BlockId, mut b: BlockId) -> BlockId {
    while a != b {
        while a > b {
            match idom[a.index()] {
                Some(x) => a = x,
                None => return entry,
            }
        }
        while b > a {
            match idom[b.index()] {
                Some(x) => b = x,
                None => return entry,
            }
        }
    }
    a
}
