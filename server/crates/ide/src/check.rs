//! `check`: the statements of a file that provably never run, and the conditions that never
//! change, each with the reason.
//!
//! Each method is lowered once in the over-approximating mode (loops havocked, unknown calls return
//! anything and may throw inside a `try`, fields unknown). A method with anything unmodelled (a
//! proof blocker) gets no verdict. For the rest, one encoding and one incremental solver answer
//! every question ([`DeadCode`]): a statement is dead when every block it begins in is unreachable,
//! which is a proof because the lowering over-approximates the method.
//!
//! Reporting:
//! - `unreachable-code`: one finding per dead region: statements nested in a dead statement are
//!   not reported again, and consecutive dead sibling statements share one range. The message
//!   names the conditions that contradict each other (a minimal unsat core over the branch
//!   decisions every path to the region takes), with a related location for each.
//! - `condition-always-false` / `condition-always-true`: a branch condition (in the method's own
//!   text) that runs but one side of which never does.

use std::collections::BTreeMap;
use std::ops::Range;
use std::time::{Duration, Instant};

use jreach_ir::lower::{lower_in, FileContext, LowerOptions};
use jreach_ir::{BinOp, BlockId, Blocker, Const, CutoffKind, Function, LowerMode, ObjOp, Op, StrOp, Terminator};
use jreach_smt::{DeadCode, Decision, NeedsLonger, QueryStats, Status};

use crate::class_invariants::ClassInvariants;
use crate::live_runs::Effort;
use jreach_syntax::{methods::is_statement_kind, LineIndex, MethodInfo, Node, SourceFile};

/// Code of a finding on dead statements.
pub const UNREACHABLE_CODE: &str = "unreachable-code";
/// Code of a finding on a condition that is false whenever it is evaluated.
pub const CONDITION_ALWAYS_FALSE: &str = "condition-always-false";
/// Code of a finding on a condition that is true whenever it is evaluated.
pub const CONDITION_ALWAYS_TRUE: &str = "condition-always-true";

/// A place that explains a finding (one of the conditions that contradict each other).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    /// Byte range of the condition.
    pub range: Range<usize>,
    pub message: String,
}

/// A condition as a finding names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// As written (white space squeezed).
    pub text: String,
    /// What holds when its branch goes the way the finding is about: the condition or its
    /// negation in Java syntax.
    pub pred: String,
    /// Where it is written; `None` for a branch of the lowering's own (an implicit check).
    pub span: Option<Range<usize>>,
    /// Why it holds, when the code does not test it but a proof showed it (a class invariant).
    pub note: Option<String>,
}

/// What a finding says, as data; [`Finding::message`] puts it in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FindingKind {
    /// Dead statements: `head` can never hold there (or always holds, when `always` is set)
    /// given the `reasons`, which hold on every path; `None` when no such explanation was found.
    Unreachable(Option<Conflict>),
    /// A condition that is false (`value: false`) or true whenever it is evaluated, given the
    /// `reasons`.
    Constant { condition: String, value: bool, reasons: Vec<Condition> },
}

/// Why statements are dead: the condition their path needs and the ones that contradict it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub head: Condition,
    /// The path needs `head` false, but it always holds.
    pub always: bool,
    pub reasons: Vec<Condition>,
}

/// Dead code, or a condition that never changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Byte range of the dead statements (or of the condition).
    pub range: Range<usize>,
    pub method: String,
    pub kind: FindingKind,
    /// The conditions behind the finding.
    pub related: Vec<Related>,
}

impl Finding {
    /// [`UNREACHABLE_CODE`], [`CONDITION_ALWAYS_FALSE`] or [`CONDITION_ALWAYS_TRUE`].
    pub fn code(&self) -> &'static str {
        match self.kind {
            FindingKind::Unreachable(_) => UNREACHABLE_CODE,
            FindingKind::Constant { value: false, .. } => CONDITION_ALWAYS_FALSE,
            FindingKind::Constant { value: true, .. } => CONDITION_ALWAYS_TRUE,
        }
    }

    /// The finding in words, with the lines of the file it is in (`lines`).
    pub fn message(&self, lines: &LineIndex) -> String {
        let line = |r: &Range<usize>| lines.line_of(r.start) + 1;
        let because = |reasons: &[Condition]| {
            if reasons.is_empty() {
                return String::new();
            }
            let parts: Vec<String> = reasons
                .iter()
                .map(|c| {
                    let at = match &c.span {
                        Some(s) => format!("`{}` (line {})", c.pred, line(s)),
                        None => format!("`{}`", c.pred),
                    };
                    match &c.note {
                        Some(note) => format!("{at}, which {note}"),
                        None => at,
                    }
                })
                .collect();
            format!(": {}", parts.join(", "))
        };
        match &self.kind {
            FindingKind::Unreachable(Some(c)) => {
                let main = if c.always {
                    format!("`{}` is always true here", c.head.text)
                } else {
                    format!("`{}` can never hold here", c.head.text)
                };
                format!("unreachable code: {main}{}", because(&c.reasons))
            }
            FindingKind::Unreachable(None) => {
                format!("unreachable code: no input to {} reaches line {}", self.method, line(&self.range))
            }
            FindingKind::Constant { condition, value, reasons } => {
                format!("condition `{condition}` is always {value}{}", because(reasons))
            }
        }
    }

    /// The finding with every byte offset (its range, its related places and the places of
    /// its conditions) moved by `to - from`: relative to a method's start and back.
    pub fn moved(mut self, from: usize, to: usize) -> Finding {
        let mv = |r: &mut Range<usize>| *r = r.start - from + to..r.end - from + to;
        mv(&mut self.range);
        for r in &mut self.related {
            mv(&mut r.range);
        }
        let conditions: Vec<&mut Condition> = match &mut self.kind {
            FindingKind::Unreachable(Some(c)) => std::iter::once(&mut c.head).chain(c.reasons.iter_mut()).collect(),
            FindingKind::Unreachable(None) => vec![],
            FindingKind::Constant { reasons, .. } => reasons.iter_mut().collect(),
        };
        for c in conditions {
            if let Some(s) = &mut c.span {
                mv(s);
            }
        }
        self
    }
}

/// What became of one method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MethodVerdict {
    /// Every statement was decided (reachable on the over-approximation, or proved dead).
    Verdict,
    /// No verdict (or only a partial one): the reason.
    NoVerdict(String),
}

/// The result of checking one file.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    pub findings: Vec<Finding>,
    pub methods: Vec<(String, MethodVerdict)>,
}

/// Finds provably dead statements and constant conditions in `file`.
pub fn check_file(file: &SourceFile, timeout: Duration) -> CheckReport {
    let mut report = CheckReport::default();
    let ctx = FileContext::new(file, None, None);
    let invariants = ClassInvariants::new();
    for m in ctx.methods() {
        let (verdict, findings) = check_method(&ctx, &invariants, m, timeout);
        report.findings.extend(findings);
        report.methods.push((m.signature(), verdict));
    }
    report
}

/// Where the time of checking one method went (`jreach check --timings`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MethodProfile {
    /// The over-approximating lowering.
    pub lower: Duration,
    /// Building the solver's terms for every block ([`DeadCode::new`]).
    pub encode: Duration,
    /// Concrete runs that mark blocks live before the solver is asked.
    pub runs: Duration,
    /// Is a block or a branch side reachable?
    pub reach: QueryStats,
    /// Which conditions contradict each other (the reasons of findings)?
    pub explain: QueryStats,
    /// Blocks of the lowering.
    pub blocks: usize,
    /// The attempt with loops unrolled and exact (`exact_loops`): its lowering, runs and
    /// queries (not counted in the fields above).
    pub exact_loops: Duration,
    /// The search for loop invariants and the check on the lowering they strengthen (not counted
    /// in the fields above).
    pub invariants: Duration,
    /// The search for the class's invariants (on the first method of the class that asks) and
    /// the check on the lowering they strengthen (not counted in the fields above).
    pub class_invariants: Duration,
    /// Whether the method was left undecided because a query or its budget ran out of time
    /// ([`jreach_smt::GaveUp::depends_on_the_clock`]): a less busy machine may decide it.
    pub ran_out_of_time: bool,
}

impl MethodProfile {
    /// The sum of two profiles.
    pub fn add(&mut self, o: &MethodProfile) {
        self.lower += o.lower;
        self.encode += o.encode;
        self.runs += o.runs;
        self.reach.add(&o.reach);
        self.explain.add(&o.explain);
        self.blocks += o.blocks;
        self.exact_loops += o.exact_loops;
        self.invariants += o.invariants;
        self.class_invariants += o.class_invariants;
        self.ran_out_of_time |= o.ran_out_of_time;
    }
}

/// The solver's time limit per query of `check` and of the editor's dead-code diagnostics,
/// unless the user sets another. Shorter than `gen`'s: on real code the queries that take longer
/// than this are about live code (whose answer is no finding) or never answered at all, while a
/// time-out costs the whole limit (commons-lang, gson, jsoup, TheAlgorithms: no query that
/// proved code dead took a second; the time-outs took 60 to 75% of `check`'s time at 10 s).
pub const DEFAULT_CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// Why a method whose warnings `@SuppressWarnings("jreach")` turns off has no verdict: it is
/// not checked.
pub const SUPPRESSED: &str = "not checked: @SuppressWarnings(\"jreach\")";

/// The time all the queries of one method may take together, in query time limits...
pub const METHOD_BUDGET_QUERIES: u32 = 2;
/// ... or this, when it is longer: a method of many quick questions (a `switch` of 1,000 cases
/// asks one per case) needs time that does not depend on how long one question may take. The
/// questions that take longer than a quick look spend at most one query time limit past it in
/// all, as much as one question that runs out of time (a parser whose every question costs a
/// second of string solving would otherwise take the whole floor).
pub const METHOD_BUDGET_FLOOR: Duration = Duration::from_secs(20);

/// The time all the queries of one method may take together when each may take `timeout`.
pub fn method_budget(timeout: Duration) -> Duration {
    (timeout * METHOD_BUDGET_QUERIES).max(METHOD_BUDGET_FLOOR)
}

/// Checks one method: its verdict and its findings (in source order). Each solver query gets at
/// most `timeout`, and all of them together [`method_budget`]. Findings proved
/// before the time ran out are kept; the verdict then says why the method was not fully decided.
/// `ctx` is the context of the method's file (one for all its methods: see [`FileContext`]), and
/// `invariants` the class invariants proved in it so far (one for all its methods too).
pub fn check_method(
    ctx: &FileContext<'_>,
    invariants: &ClassInvariants,
    m: &MethodInfo,
    timeout: Duration,
) -> (MethodVerdict, Vec<Finding>) {
    let (verdict, findings, _) = check_method_profiled(ctx, invariants, m, timeout);
    (verdict, findings)
}

/// [`check_method`], and where its time went.
pub fn check_method_profiled(
    ctx: &FileContext<'_>,
    invariants: &ClassInvariants,
    m: &MethodInfo,
    timeout: Duration,
) -> (MethodVerdict, Vec<Finding>, MethodProfile) {
    let mut profile = MethodProfile::default();
    match crate::contain::contain(|| check_method_inner(ctx, invariants, m, timeout, &mut profile)) {
        Ok((verdict, findings)) => (verdict, findings, profile),
        Err(why) => (MethodVerdict::NoVerdict(why), vec![], profile),
    }
}

fn check_method_inner(
    ctx: &FileContext<'_>,
    invariants: &ClassInvariants,
    m: &MethodInfo,
    timeout: Duration,
    profile: &mut MethodProfile,
) -> (MethodVerdict, Vec<Finding>) {
    let deadline = Instant::now() + method_budget(timeout);
    if m.has_error {
        return (MethodVerdict::NoVerdict("syntax errors".into()), vec![]);
    }
    let file = ctx.file();
    if jreach_syntax::suppress::suppressed_by(m.node(file), &file.text).is_some() {
        return (MethodVerdict::NoVerdict(SUPPRESSED.into()), vec![]);
    }
    let started = Instant::now();
    let f = lower_in(ctx, m, &LowerOptions { mode: LowerMode::OverApprox, ..Default::default() });
    profile.lower = started.elapsed();
    profile.blocks = f.blocks.len();
    if !f.sound_for_proofs() {
        let why: Vec<String> = f.proof_blockers.iter().map(|b| b.to_string()).collect();
        return (MethodVerdict::NoVerdict(why.join("; ")), vec![]);
    }
    let started = Instant::now();
    let mut dc = DeadCode::new(&f, timeout, deadline);
    dc.limit_slow_questions(QUICK_LOOK, timeout);
    profile.encode = started.elapsed();
    let started = Instant::now();
    let questions = Questions::of(file, m, &f);
    crate::live_runs::mark_live_by_runs(&f, m, &mut dc, Effort::first(&f), None, |dc| questions.all_live(dc));
    profile.runs = started.elapsed();
    let mut ck = Checker::new(file, m, &f, dc, questions);
    ck.dead_statements();
    ck.constant_conditions();
    profile.runs += ck.more_runs_time;
    let Checker { unknown, mut out, dc, .. } = ck;
    (profile.reach, profile.explain) = dc.stats();
    let has_loops = f.abstracts_loops();
    let mut exact = None;
    if has_loops && unknown.is_none() && crate::exact_loops::small_counted_loops(file, m) {
        let started = Instant::now();
        exact = exact_loop_findings(ctx, m, timeout);
        profile.exact_loops = started.elapsed();
    }
    if has_loops && unknown.is_none() && exact.is_none() {
        let started = Instant::now();
        exact = invariant_findings(ctx, m, timeout);
        profile.invariants = started.elapsed();
    }
    if unknown.is_none() && exact.is_none() {
        let started = Instant::now();
        exact = class_invariant_findings(ctx, invariants, m, timeout);
        profile.class_invariants = started.elapsed();
    }
    if let Some(more) = exact {
        out = more;
    }
    out.sort_by_key(|fd| (fd.range.start, fd.range.end));
    profile.ran_out_of_time = unknown.as_ref().is_some_and(|why| why.depends_on_the_clock());
    let verdict = match unknown {
        Some(why) => MethodVerdict::NoVerdict(format!("solver: {why}")),
        None => MethodVerdict::Verdict,
    };
    (verdict, out)
}

/// The time the attempt with exact loops may take for one method, queries included.
const EXACT_BUDGET: Duration = Duration::from_secs(1);

/// The time a search for loop invariants may take for one method, queries included.
const INVARIANT_BUDGET: Duration = Duration::from_millis(300);

/// The findings of `m` on its proof lowering strengthened by the loop invariants that hold
/// (`loop_invariants`): they include the abstraction's. `None` when no candidate holds or a
/// question is left open.
fn invariant_findings(ctx: &FileContext<'_>, m: &MethodInfo, timeout: Duration) -> Option<Vec<Finding>> {
    let budget = INVARIANT_BUDGET.min(timeout);
    let f = crate::loop_invariants::proved_lowering(ctx, m, LowerOptions::default().inline_depth, budget)?;
    debug_assert!(f.sound_for_proofs());
    findings_on(ctx.file(), m, &f, budget, |_| true)
}

/// The time the search for a class's invariants may take (once per class and file), queries
/// included, and the check of one method on the lowering they strengthen.
const CLASS_INVARIANT_BUDGET: Duration = Duration::from_secs(2);

/// The findings of `m` on its proof lowering strengthened by the invariants of its class that
/// hold (`class_invariants`): they include the abstraction's. `None` when its class has none
/// that `m` tests, or a question is left open.
fn class_invariant_findings(
    ctx: &FileContext<'_>,
    invariants: &ClassInvariants,
    m: &MethodInfo,
    timeout: Duration,
) -> Option<Vec<Finding>> {
    let budget = CLASS_INVARIANT_BUDGET.min(timeout);
    let f = crate::class_invariants::proved_lowering(ctx, invariants, m, LowerOptions::default().inline_depth, budget)?;
    debug_assert!(f.sound_for_proofs());
    findings_on(ctx.file(), m, &f, budget, |_| true)
}

/// The findings of `m` with its loops unrolled instead of abstracted (`exact_loops`), when
/// that lowering is exact: no input starts an iteration past the unrolled ones (the unwinding
/// check, invariant 5), and nothing else stands in the way of a proof. Exact loops see everything
/// the abstraction does and more (a sum of three digits stays below 1000), so these findings
/// replace the abstraction's. `None` when a loop may run longer, the lowering grows too large, or
/// a question is left open within [`EXACT_BUDGET`].
fn exact_loop_findings(ctx: &FileContext<'_>, m: &MethodInfo, timeout: Duration) -> Option<Vec<Finding>> {
    let f = crate::exact_loops::exact_lowering(ctx, m, LowerOptions::default().inline_depth);
    if f.proof_blockers.iter().any(|b| *b != Blocker::Unwinding) {
        return None;
    }
    let budget = EXACT_BUDGET.min(timeout);
    // The unrolled loops stand for the method only if no input needs another iteration.
    findings_on(ctx.file(), m, &f, budget, |dc| {
        f.unwinding_blocks().iter().all(|b| matches!(dc.block(*b), Status::Dead))
    })
}

/// The findings of `m` on `f`, a lowering other than its plain abstraction, within `budget`,
/// when `stands_for_m` (asked after the runs, before any other question) says it is a sound
/// lowering of `m`, and no question is left open.
fn findings_on(
    file: &SourceFile,
    m: &MethodInfo,
    f: &Function,
    budget: Duration,
    stands_for_m: impl FnOnce(&mut DeadCode<'_>) -> bool,
) -> Option<Vec<Finding>> {
    let mut dc = DeadCode::new(f, budget, Instant::now() + budget);
    let questions = Questions::of(file, m, f);
    crate::live_runs::mark_live_by_runs(f, m, &mut dc, Effort::first(f), None, |dc| questions.all_live(dc));
    if !stands_for_m(&mut dc) {
        return None;
    }
    let mut ck = Checker::new(file, m, f, dc, questions);
    ck.dead_statements();
    ck.constant_conditions();
    let Checker { unknown, out, .. } = ck;
    unknown.is_none().then_some(out)
}

/// How long the solver may take over a question before concrete runs look for an input that
/// answers it; when they find none, the question is asked again with the full time limit. On
/// real code nearly every question is answered within milliseconds; one that takes longer is
/// most often about a live block the first runs missed, which more runs find in less time than
/// the solver takes (proofs of dead code seldom take more than a tenth of a second).
const QUICK_LOOK: Duration = Duration::from_millis(50);

/// Most time the runs with more effort take in all for one method.
const MORE_RUNS_TIME: Duration = Duration::from_secs(1);

struct Checker<'a> {
    file: &'a SourceFile,
    m: &'a MethodInfo,
    f: &'a Function,
    dc: DeadCode<'a>,
    unknown: Option<jreach_smt::GaveUp>,
    out: Vec<Finding>,
    /// Whether runs with more effort may still find something: they are the same runs each
    /// time, stopped once they reach the question's block or edge, so once they ran to their
    /// end without reaching it, another time would find nothing new.
    more_runs_may_find: bool,
    /// The time the runs with more effort took, and those from models.
    more_runs_time: Duration,
    questions: Questions,
}

impl<'a> Checker<'a> {
    fn new(
        file: &'a SourceFile,
        m: &'a MethodInfo,
        f: &'a Function,
        dc: DeadCode<'a>,
        questions: Questions,
    ) -> Checker<'a> {
        Checker {
            file,
            m,
            f,
            dc,
            unknown: None,
            out: Vec::new(),
            more_runs_may_find: true,
            more_runs_time: Duration::ZERO,
            questions,
        }
    }

    /// Whether the runs with more effort are worth making.
    fn more_runs_worth_it(&self) -> bool {
        self.more_runs_may_find && self.more_runs_time < MORE_RUNS_TIME
    }

    /// Whether block `b` can run: a quick look by the solver first; when that is not enough,
    /// runs with more effort (until one reaches `b`), then the solver with the full time limit.
    fn block(&mut self, b: BlockId) -> Status {
        if self.more_runs_worth_it() {
            if let Some(s) = self.dc.try_block(b, QUICK_LOOK) {
                self.dc.forget_model();
                return s;
            }
            if self.more_runs(|dc| dc.is_live(b)) {
                return Status::Live;
            }
        }
        let s = self.dc.block(b);
        self.runs_near_a_model();
        s
    }

    /// Whether the branch ending `d.block` can go to its `d.taken` side, as [`Checker::block`].
    fn edge(&mut self, d: Decision) -> Option<Status> {
        if self.more_runs_worth_it() {
            match self.dc.try_edge(d, QUICK_LOOK) {
                Ok(s) => {
                    self.dc.forget_model();
                    return s;
                }
                Err(NeedsLonger) => {
                    if self.more_runs(|dc| dc.is_live_edge(d)) {
                        return Some(Status::Live);
                    }
                }
            }
        }
        let s = self.dc.edge(d);
        self.runs_near_a_model();
        s
    }

    /// After the solver took its full time limit to find a model (more than a quick look):
    /// runs from the model's input and near it, which is often near what the next questions
    /// ask about (a parser's next case): each find spares such a question.
    fn runs_near_a_model(&mut self) {
        let Some(start) = self.dc.take_model_inputs() else { return };
        let started = Instant::now();
        let (f, m, questions) = (self.f, self.m, &self.questions);
        let effort = Effort::near_a_model(f);
        crate::live_runs::mark_live_by_runs(f, m, &mut self.dc, effort, Some(&start), |dc| questions.all_live(dc));
        self.more_runs_time += started.elapsed();
    }

    /// The runs with more effort, stopping early once `done` holds. Returns whether it does.
    fn more_runs(&mut self, done: impl Fn(&DeadCode<'_>) -> bool + Copy) -> bool {
        let started = Instant::now();
        crate::live_runs::mark_live_by_runs(self.f, self.m, &mut self.dc, Effort::more(self.f), None, done);
        self.more_runs_time += started.elapsed();
        self.more_runs_may_find = done(&self.dc);
        self.more_runs_may_find
    }

    /// The status of a set of blocks: dead when all are.
    fn status_of(&mut self, blocks: &[BlockId]) -> Status {
        let mut any_unknown = None;
        for b in blocks {
            match self.block(*b) {
                Status::Live => return Status::Live,
                Status::Unknown(why) => any_unknown = Some(why),
                Status::Dead => {}
            }
        }
        match any_unknown {
            Some(why) => Status::Unknown(why),
            None => Status::Dead,
        }
    }

    fn dead_statements(&mut self) {
        let body = self.m.body_node(self.file);
        let mut dead_until = 0usize;
        // The finding being extended and the last statement merged into it.
        let mut open: Option<(usize, usize)> = None;
        for stmt in statements(body) {
            if stmt.start_byte() < dead_until {
                continue;
            }
            let targets = self.f.blocks_of_stmt(stmt.start_byte());
            if targets.is_empty() {
                continue;
            }
            match self.status_of(&targets) {
                Status::Live => continue,
                Status::Unknown(why) => {
                    self.unknown.get_or_insert(why);
                    continue;
                }
                Status::Dead => {}
            }
            dead_until = stmt.end_byte();
            if let Some((idx, last_id)) = open {
                if prev_statement(stmt).is_some_and(|p| p.id() == last_id) {
                    self.out[idx].range.end = stmt.end_byte();
                    open = Some((idx, stmt.id()));
                    continue;
                }
            }
            let finding = self.explain_dead(stmt.byte_range(), &targets);
            self.out.push(finding);
            open = Some((self.out.len() - 1, stmt.id()));
        }
    }

    fn explain_dead(&mut self, range: Range<usize>, targets: &[BlockId]) -> Finding {
        let t = *targets.iter().min().expect("a target");
        let decisions = self.dc.decisions(t);
        let core = self.dc.conflict(&decisions).filter(|c| !c.is_empty());
        let (kind, related) = match core {
            Some(core) => {
                let (last, reasons) = core.split_last().expect("non-empty");
                let head = self.describe(*last);
                let mut related: Vec<Related> = reasons.iter().map(|d| self.describe(*d).related()).collect();
                if let Some(span) = head.span.clone() {
                    let msg = if last.taken { "never true here" } else { "always true here" };
                    related.push(Related { range: span, message: format!("`{}` is {msg}", head.text) });
                }
                let reasons = reasons.iter().map(|d| self.describe(*d).condition()).collect();
                let conflict = Conflict { head: head.condition(), always: !last.taken, reasons };
                (FindingKind::Unreachable(Some(conflict)), related)
            }
            None => (FindingKind::Unreachable(None), Vec::new()),
        };
        Finding { range, method: self.m.signature(), kind, related }
    }

    fn describe(&self, d: Decision) -> Cond {
        let Terminator::Branch { cond, origin, then_to, .. } = &self.f.block(d.block).term else {
            return Cond::implicit("an implicit branch".into(), d.taken);
        };
        match origin {
            Some(o) => {
                let text = squeeze(&o.text);
                let pred = if d.taken { text.clone() } else { negate(&text) };
                Cond { text, pred, span: Some(o.span.clone()), note: o.note.clone() }
            }
            None => {
                // A null check of a value with a source expression: `x != null` on the way.
                let checked = match &self.f.value(*cond).op {
                    Op::Str(StrOp::IsNull, a) => a.first().copied(),
                    Op::Binary(BinOp::Eq, a, z) if matches!(self.f.value(*z).op, Op::Obj(ObjOp::Ref(0), _)) => Some(*a),
                    _ => None,
                };
                let named = checked.and_then(|a| match (&self.f.value(a).span, &self.f.value(a).op) {
                    (Some(span), _) => Some((squeeze(&self.file.text[span.clone()]), Some(span.clone()))),
                    (None, Op::Param(i)) => self.f.params.get(*i as usize).map(|p| (p.name.clone(), None)),
                    _ => None,
                });
                if let Some((value, span)) = named {
                    let text = format!("{value} == null");
                    let pred = if d.taken { text.clone() } else { format!("{value} != null") };
                    return Cond { text, pred, span, note: None };
                }
                // The lowering's own branches: a zero divisor, or an unknown call that throws.
                let what = match &self.f.value(*cond).op {
                    Op::Binary(BinOp::Eq, _, z) if matches!(self.f.value(*z).op, Op::Const(Const::Int(_, 0))) => {
                        "a zero divisor".to_string()
                    }
                    Op::Nondet(k) => k.to_string(),
                    Op::Str(StrOp::IsNull, _) => "a null string".to_string(),
                    Op::Binary(BinOp::Eq, _, z) if matches!(self.f.value(*z).op, Op::Obj(ObjOp::Ref(0), _)) => {
                        "a null reference".to_string()
                    }
                    _ => match &self.f.block(*then_to).term {
                        // The lowering's own check before a throw (`raise_if`): named by what it throws.
                        Terminator::Throw { class, .. } => {
                            let article = if class.starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
                            format!("{article} {class}")
                        }
                        _ => "an implicit branch".to_string(),
                    },
                };
                Cond::implicit(what, d.taken)
            }
        }
    }

    fn constant_conditions(&mut self) {
        for blocks in condition_groups(self.f, self.m) {
            let mut live = Vec::new();
            let mut unknown = false;
            for b in blocks {
                match self.block(b) {
                    Status::Live => live.push(b),
                    Status::Unknown(_) => unknown = true,
                    Status::Dead => {}
                }
            }
            if unknown || live.is_empty() {
                continue;
            }
            for taken in [true, false] {
                let all_dead =
                    live.clone().into_iter().all(|b| self.edge(Decision { block: b, taken }) == Some(Status::Dead));
                if !all_dead {
                    continue;
                }
                let d = Decision { block: live[0], taken };
                let c = self.describe(d);
                let Some(span) = c.span.clone() else { break };
                let reasons = self.dc.edge_conflict(d).unwrap_or_default();
                if !taken && self.in_assertion(&span) {
                    // An assertion's condition is meant to hold.
                    break;
                }
                let related = reasons.iter().map(|r| self.describe(*r).related()).collect();
                let reasons = reasons.iter().map(|r| self.describe(*r).condition()).collect();
                let kind = FindingKind::Constant { condition: c.text.clone(), value: !taken, reasons };
                self.out.push(Finding { range: span, method: self.m.signature(), kind, related });
                break;
            }
        }
    }
}

impl Checker<'_> {
    /// Whether the condition at `span` is (part of) the condition of an `assert` statement.
    fn in_assertion(&self, span: &Range<usize>) -> bool {
        let root = self.file.tree.root_node();
        let mut n = root.descendant_for_byte_range(span.start, span.end);
        while let Some(node) = n {
            match node.kind() {
                "assert_statement" => return true,
                "block" | "lambda_expression" | "class_body" => return false,
                _ => n = node.parent(),
            }
        }
        false
    }
}

/// A branch outcome in words.
struct Cond {
    /// The condition as written.
    text: String,
    /// What holds when the branch goes this way (the condition or its negation).
    pred: String,
    span: Option<Range<usize>>,
    /// Why it holds, for a condition a proof assumes ([`Condition::note`]).
    note: Option<String>,
}

impl Cond {
    fn implicit(what: String, taken: bool) -> Cond {
        let pred = if taken {
            what.clone()
        } else {
            format!("no {}", what.trim_start_matches("a ").trim_start_matches("an "))
        };
        Cond { text: what, pred, span: None, note: None }
    }

    fn condition(&self) -> Condition {
        Condition { text: self.text.clone(), pred: self.pred.clone(), span: self.span.clone(), note: self.note.clone() }
    }

    fn related(&self) -> Related {
        Related {
            range: self.span.clone().unwrap_or(0..0),
            message: match &self.note {
                Some(note) => format!("`{}` {note}", self.pred),
                None => format!("`{}` holds on every path here", self.pred),
            },
        }
    }
}

/// The branches with a source condition inside `m`, grouped by condition (a `finally` body is
/// lowered once per exit path), in source order.
fn condition_groups(f: &Function, m: &MethodInfo) -> Vec<Vec<BlockId>> {
    let body = m.body.clone();
    let mut groups: BTreeMap<(usize, usize), Vec<BlockId>> = BTreeMap::new();
    for b in f.block_ids() {
        if let Terminator::Branch { origin: Some(o), then_to, else_to, .. } = &f.block(b).term {
            // A loop invariant the lowering assumes is not a condition of the code.
            let assumed = matches!(f.block(*else_to).term, Terminator::Cutoff(CutoffKind::Assumed));
            if then_to != else_to && !assumed && body.start <= o.span.start && o.span.end <= body.end {
                groups.entry((o.span.start, o.span.end)).or_default().push(b);
            }
        }
    }
    groups.into_values().collect()
}

/// What the check of a method asks about its lowering: whether each statement runs (any of its
/// blocks), whether each condition is evaluated (all its branches) and goes each way (any of
/// them). When runs answered all of it with "live", the solver has nothing to do.
struct Questions {
    statements: Vec<Vec<BlockId>>,
    conditions: Vec<Vec<BlockId>>,
}

impl Questions {
    fn of(file: &SourceFile, m: &MethodInfo, f: &Function) -> Questions {
        let statements = statements(m.body_node(file))
            .iter()
            .map(|s| f.blocks_of_stmt(s.start_byte()))
            .filter(|bs| !bs.is_empty())
            .collect();
        Questions { statements, conditions: condition_groups(f, m) }
    }

    /// Whether `dc` knows every answer to be "live".
    fn all_live(&self, dc: &DeadCode<'_>) -> bool {
        self.statements.iter().all(|bs| bs.iter().any(|b| dc.is_live(*b)))
            && self.conditions.iter().all(|bs| {
                bs.iter().all(|b| dc.is_live(*b))
                    && [true, false]
                        .iter()
                        .all(|&taken| bs.iter().any(|&block| dc.is_live_edge(Decision { block, taken })))
            })
    }
}

/// The text of a condition on one line, with runs of white space squeezed.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The negation of a condition in Java syntax: a single comparison is flipped (`a < b` becomes
/// `a >= b`), `!x` becomes `x`, anything else is wrapped as `!(…)`.
fn negate(text: &str) -> String {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('!') {
        if is_simple_operand(inner) {
            return inner.trim_start_matches('(').trim_end_matches(')').to_string();
        }
    }
    const FLIPS: [(&str, &str); 6] = [("==", "!="), ("!=", "=="), ("<=", ">"), (">=", "<"), ("<", ">="), (">", "<=")];
    if !t.contains("&&") && !t.contains("||") && !t.contains('?') {
        for (op, neg) in FLIPS {
            let pat = format!(" {op} ");
            if t.matches(&pat).count() == 1 && FLIPS.iter().filter(|(o, _)| t.contains(&format!(" {o} "))).count() == 1
            {
                return t.replacen(&pat, &format!(" {neg} "), 1);
            }
        }
    }
    if is_simple_operand(t) {
        format!("!{t}")
    } else {
        format!("!({t})")
    }
}

/// An identifier, call or parenthesised expression: `!` applies to it without parentheses.
fn is_simple_operand(t: &str) -> bool {
    let t = t.trim();
    (t.starts_with('(')
        && t.ends_with(')')
        && t[1..t.len() - 1].chars().filter(|c| *c == '(').count()
            == t[1..t.len() - 1].chars().filter(|c| *c == ')').count())
        || t.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.')
}

/// The statement before `n` among its siblings (comments skipped).
fn prev_statement(n: Node<'_>) -> Option<Node<'_>> {
    let mut p = n.prev_named_sibling();
    while let Some(x) = p {
        if !x.is_extra() && !matches!(x.kind(), "line_comment" | "block_comment") {
            return Some(x);
        }
        p = x.prev_named_sibling();
    }
    None
}

/// Statements of a body in source order, not descending into lambdas or nested classes.
fn statements(body: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "lambda_expression" | "class_body" | "local_class_declaration") {
            continue;
        }
        if is_statement_kind(n.kind()) {
            out.push(n);
        }
        let mut c = n.walk();
        let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
        stack.extend(kids.into_iter().rev());
    }
    out.sort_by_key(|n| n.start_byte());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_lines(src: &str) -> LineIndex {
        LineIndex::new(src)
    }

    /// The 1-based lines where `fs` report unreachable code.
    fn unreachable_lines(src: &str, fs: &[Finding]) -> Vec<usize> {
        fs.iter().filter(|f| f.code() == UNREACHABLE_CODE).map(|f| file_lines(src).line_of(f.range.start) + 1).collect()
    }

    fn check(src: &str) -> Vec<Finding> {
        let file = SourceFile::parse(src);
        let r = check_file(&file, Duration::from_secs(10));
        for (m, v) in &r.methods {
            assert_eq!(*v, MethodVerdict::Verdict, "{m}");
        }
        r.findings
    }

    #[test]
    fn contradicting_conditions_are_named() {
        let src = "class A {\n  int f(int y) {\n    if (y > 3) {\n      if (y < 2) {\n        return 1;\n      }\n    }\n    return 0;\n  }\n}\n";
        let fs = check(src);
        let dead: Vec<&Finding> = fs.iter().filter(|f| f.code() == UNREACHABLE_CODE).collect();
        assert_eq!(dead.len(), 1, "{fs:#?}");
        assert_eq!(
            dead[0].message(&file_lines(src)),
            "unreachable code: `y < 2` can never hold here: `y > 3` (line 3)"
        );
        assert_eq!(dead[0].related.len(), 2);
        assert_eq!(&src[dead[0].related[0].range.clone()], "y > 3");
        let cond: Vec<&Finding> = fs.iter().filter(|f| f.code() == CONDITION_ALWAYS_FALSE).collect();
        assert_eq!(cond.len(), 1, "{fs:#?}");
        assert_eq!(&src[cond[0].range.clone()], "y < 2");
        assert_eq!(cond[0].message(&file_lines(src)), "condition `y < 2` is always false: `y > 3` (line 3)");
    }

    #[test]
    fn implicit_null_checks_are_named_by_their_value() {
        // `s.length()` throws on null, so `s == null` never holds after it.
        let src = "class A {\n  static int f(String s) {\n    int n = s.length();\n    if (s == null) {\n      return 1;\n    }\n    return n;\n  }\n}\n";
        let fs = check(src);
        let dead: Vec<&Finding> = fs.iter().filter(|f| f.code() == UNREACHABLE_CODE).collect();
        assert_eq!(dead.len(), 1, "{fs:#?}");
        assert_eq!(dead[0].message(&file_lines(src)), "unreachable code: `s == null` can never hold here: `s != null`");
    }

    #[test]
    fn captured_variables_shadow_fields_of_the_same_name() {
        // Inside the anonymous and local classes, `width` is the parameter the object captured
        // (`prefixed(20).encode(0)` returns "wide"), not the constant field: nothing is dead.
        // Where nothing shadows it, the field's constant still decides.
        let src = r#"class S {
  interface Codec { String encode(int value); }
  private static final int width = 5;
  static Codec prefixed(int width) {
    return new Codec() {
      @Override
      public String encode(int value) {
        if (width > 10) {
          return "wide";
        }
        return "narrow";
      }
    };
  }
  static int local(java.util.List<Integer> xs) {
    int sum = 0;
    for (int width : xs) {
      class Step {
        int at(int v) {
          if (width > 10) {
            return v;
          }
          return 0;
        }
      }
      sum += new Step().at(width);
    }
    return sum;
  }
  static Codec plain() {
    return new Codec() {
      @Override
      public String encode(int value) {
        if (width > 10) {
          return "wide";
        }
        return "narrow";
      }
    };
  }
}
"#;
        let fs = check(src);
        let dead = unreachable_lines(src, &fs);
        assert_eq!(dead, [35], "{fs:#?}");
    }

    #[test]
    fn captured_variables_are_what_an_inlined_method_of_the_class_reads_too() {
        // `isWide()` is inlined into `encode` (the object is held by `prefixed`, its methods
        // taken as static): its `width` is the captured parameter there as well.
        let src = r#"class W {
  interface Codec { String encode(int value); }
  private static final int width = 5;
  static Codec prefixed(int width) {
    return new Codec() {
      @Override
      public String encode(int value) {
        boolean wide = isWide();
        if (wide) {
          return "wide";
        }
        return "narrow";
      }
      boolean isWide() {
        return width > 10;
      }
    };
  }
}
"#;
        let fs = check(src);
        assert!(fs.iter().all(|f| f.code() != UNREACHABLE_CODE), "{fs:#?}");
    }

    #[test]
    fn inherited_fields_shadow_fields_of_enclosing_classes() {
        // `level` in `Sub`, in the anonymous `Base` and in the subclass of a class jreach does not
        // see may be (or is) the inherited field, not `S.level`: nothing is claimed there. A
        // `Runnable` and a class of the file without such a field inherit none.
        let src = r#"class S {
  private static final int level = 5;
  static class Base {
    protected int level = 20;
  }
  static class Plain {
    protected int other;
  }
  static class Sub extends Base {
    String name() {
      if (level > 10) {
        return "high";
      }
      return "low";
    }
  }
  static final Base HIGH = new Base() {
    @Override
    public String toString() {
      if (level > 10) {
        return "high";
      }
      return "low";
    }
  };
  static class Unseen extends java.util.AbstractList<Integer> {
    public Integer get(int i) {
      if (level > 10) {
        return 1;
      }
      return 0;
    }
    public int size() { return 0; }
  }
  static final Runnable R = new Runnable() {
    @Override
    public void run() {
      if (level > 10) {
        System.out.println();
      }
    }
  };
  static class Other extends Plain {
    int get() {
      if (level > 10) {
        return 1;
      }
      return 0;
    }
  }
}
"#;
        let fs = check(src);
        let dead = unreachable_lines(src, &fs);
        assert_eq!(dead, [39, 46], "{fs:#?}");
    }

    #[test]
    fn consecutive_dead_statements_are_one_finding() {
        let src = "class A {\n  void f(int x) {\n    int y = 0;\n    if (x != x + 0) {\n      y = 1;\n      y = 2;\n    }\n    return;\n  }\n  int g(int a) {\n    if (a >= 0) return 1; else return 2;\n  }\n}\n";
        let fs = check(src);
        let dead: Vec<&Finding> = fs.iter().filter(|f| f.code() == UNREACHABLE_CODE).collect();
        assert_eq!(dead.len(), 1, "{fs:#?}");
        assert_eq!(&src[dead[0].range.clone()], "y = 1;\n      y = 2;");
        assert!(fs.iter().any(|f| f.code() == CONDITION_ALWAYS_FALSE
            && f.message(&file_lines(src)) == "condition `x != x + 0` is always false"));
    }

    #[test]
    fn suppressed_methods_are_not_checked() {
        let dead = "  int f(int x) {\n    if (x > 3) { if (x < 2) { return 7; } }\n    return 0;\n  }\n";
        let src = format!("class A {{\n{dead}  @SuppressWarnings(\"jreach\")\n{dead}}}\n");
        let file = SourceFile::parse(&src);
        let report = check_file(&file, Duration::from_secs(10));
        assert_eq!(report.findings.iter().filter(|f| f.code() == UNREACHABLE_CODE).count(), 1, "{report:?}");
        assert!(report.findings.iter().all(|f| f.range.start < src.find("@Suppress").unwrap()));
        assert_eq!(report.methods[1].1, MethodVerdict::NoVerdict(SUPPRESSED.into()));
        // On a class: all its methods.
        let src = format!("@SuppressWarnings({{\"unused\", \"jreach\"}})\nclass A {{\n{dead}}}\n");
        assert!(check_file(&SourceFile::parse(&src), Duration::from_secs(10)).findings.is_empty());
    }

    #[test]
    fn small_counted_loops_are_exact_when_no_input_needs_more_iterations() {
        let body = |header: &str| {
            format!("    int x = 0;\n    {header} {{\n      x += 2;\n    }}\n    if (x > 10) {{\n      return -1;\n    }}\n    return x;\n")
        };
        let src = format!(
            "class A {{\n  static int f(int n) {{\n{}  }}\n  static int g(String s) {{\n{}  }}\n  static int h(int n) {{\n{}  }}\n}}\n",
            body("for (int k = 0; k < 5 && k < n; k++)"),
            body("for (int k = 0; k < s.length(); k++)"),
            body("for (int k = 0; k < 9; k++)"),
        );
        let fs = check(&src);
        let dead: Vec<String> = fs.iter().filter(|f| f.code() == UNREACHABLE_CODE).map(|f| f.method.clone()).collect();
        // f's loop runs at most 5 times: exact, `x` stays at most 10. g's runs as long as the
        // string and h's 9 times: both go past 10 (live).
        assert_eq!(dead, vec!["f(int)".to_string()], "{fs:#?}");
        let file = SourceFile::parse(&src);
        let small: Vec<bool> =
            MethodInfo::all(&file).iter().map(|m| crate::exact_loops::small_counted_loops(&file, m)).collect();
        assert_eq!(small, vec![true, false, false]);
    }

    #[test]
    fn else_side_and_negation() {
        let src = "class A {\n  int f(int a) {\n    if (a > 0) {\n      if (a <= 0) return 1;\n      if (a > -5) return 2;\n      return 3;\n    }\n    return 0;\n  }\n}\n";
        let fs = check(src);
        let dead: Vec<&Finding> = fs.iter().filter(|f| f.code() == UNREACHABLE_CODE).collect();
        assert_eq!(dead.len(), 2, "{fs:#?}");
        assert_eq!(
            dead[1].message(&file_lines(src)),
            "unreachable code: `a > -5` is always true here: `a > 0` (line 3)"
        );
        assert!(fs.iter().any(|f| f.code() == CONDITION_ALWAYS_TRUE && src[f.range.clone()] == *"a > -5"));
    }

    /// [`check_method_profiled`] on the first method of `src`, with a 10 s limit per query.
    fn check_first_method(src: &str) -> (MethodVerdict, Vec<Finding>, MethodProfile) {
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        check_method_profiled(&ctx, &ClassInvariants::new(), &ctx.methods()[0], Duration::from_secs(10))
    }

    #[test]
    fn runs_answer_the_live_questions_before_the_solver() {
        // Every branch turns on the method's inputs, an unknown call's result or a string
        // literal: runs reach every block, and the solver is asked nothing.
        let src = "class A {\n  static int f(String s, int n) {\n    int k = Helper.count(s);\n    if (k > 3) {\n      if (\"x\".equals(s)) return 1;\n      return 2;\n    }\n    if (n == 7 && s == null) return 3;\n    return 0;\n  }\n}\n";
        let (verdict, findings, profile) = check_first_method(src);
        assert_eq!(verdict, MethodVerdict::Verdict);
        assert!(findings.is_empty(), "{findings:#?}");
        assert_eq!(profile.reach.count() + profile.explain.count(), 0, "{profile:?}");
        assert!(profile.blocks > 8, "{profile:?}");
        // What no run reaches is still asked, and proved dead.
        let src = src.replace("n == 7 && s == null", "k > 5 && k < 2");
        let (verdict, findings, profile) = check_first_method(&src);
        assert_eq!(verdict, MethodVerdict::Verdict);
        assert_eq!(findings.iter().filter(|f| f.code() == UNREACHABLE_CODE).count(), 1, "{findings:#?}");
        assert!(profile.reach.unsat >= 1, "{profile:?}");
    }

    #[test]
    fn runs_reach_every_case_of_a_long_switch() {
        // 400 `case`s: each is a literal the runs take as a candidate, and the random runs go
        // through all of them (the breadth-first ones try the first few only). Without that,
        // each case cost a solver query.
        let cases: String = (0..400).map(|i| format!("      case {}: r = {}; break;\n", i * 3, i % 7)).collect();
        let src = format!(
            "class A {{\n  static int f(int x) {{\n    int r = -1;\n    switch (x) {{\n{cases}      default: r = -2;\n    }}\n    return r;\n  }}\n}}\n"
        );
        let (verdict, findings, profile) = check_first_method(&src);
        assert_eq!(verdict, MethodVerdict::Verdict);
        assert!(findings.is_empty(), "{findings:#?}");
        assert!(profile.blocks > 400, "{profile:?}");
        assert!(profile.reach.count() < 40, "{profile:?}");
    }

    #[test]
    fn runs_piece_together_the_strings_a_parser_wants() {
        // "1 2/3": each piece gets a run further into the method (a space, a number, a slash),
        // and strings grow from the runs that got further. Before, each block past the first
        // `parseInt` cost a solver query on strings, some of them seconds long.
        let src = "class A {\n  static int parse(String str) {\n    int pos = str.indexOf(' ');\n    if (pos > 0) {\n      int whole = Integer.parseInt(str.substring(0, pos));\n      str = str.substring(pos + 1);\n      pos = str.indexOf('/');\n      if (pos < 0) {\n        throw new NumberFormatException(\"X Y/Z\");\n      }\n      int numer = Integer.parseInt(str.substring(0, pos));\n      int denom = Integer.parseInt(str.substring(pos + 1));\n      return whole + numer / denom;\n    }\n    return Integer.parseInt(str);\n  }\n}\n";
        let (verdict, findings, profile) = check_first_method(src);
        assert_eq!(verdict, MethodVerdict::Verdict);
        assert!(findings.is_empty(), "{findings:#?}");
        assert_eq!(profile.reach.count(), 0, "{profile:?}");
    }

    #[test]
    fn runs_change_every_input_before_they_grow_strings() {
        // A `switch` of 28 version strings, then a float an unseen call parses: the runs reach
        // `v >= 2` by changing that float, which they try before the string's hundreds of grown
        // candidates. Tried after them, the runs' time ran out first, and three questions cost
        // the solver seconds of floating point (commons-lang's `JavaVersion.get`).
        let cases: String =
            (0..28).map(|i| format!("      case \"{}.{}\": return Versions.V{i};\n", i / 9, i % 9)).collect();
        let src = format!(
            "class A {{\n  static Object get(String s) {{\n    if (s == null) return null;\n    switch (s) {{\n{cases}      default:\n        float v = Parser.toFloat(s);\n        if (v - 1. < 1.) {{\n          return Versions.OLD;\n        }} else if (v > 10) {{\n          return Versions.RECENT;\n        }}\n        return null;\n    }}\n  }}\n}}\n"
        );
        let (verdict, findings, profile) = check_first_method(&src);
        assert_eq!(verdict, MethodVerdict::Verdict);
        assert!(findings.is_empty(), "{findings:#?}");
        assert_eq!(profile.reach.count(), 0, "{profile:?}");
    }

    #[test]
    fn negation_text() {
        assert_eq!(negate("a < b"), "a >= b");
        assert_eq!(negate("x == 0"), "x != 0");
        assert_eq!(negate("a < b && c"), "!(a < b && c)");
        assert_eq!(negate("flag"), "!flag");
        assert_eq!(negate("!flag"), "flag");
        assert_eq!(negate("a < b == c"), "!(a < b == c)");
    }
}
