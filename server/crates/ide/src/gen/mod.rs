//! `gen`: reach one statement.
//!
//! Synthesis lowers the method with loops unrolled to growing bounds (2, 8, 32, … up to the
//! limit), solves, and replays the model on the concrete interpreter; a test is offered only when
//! the replay reaches the target. Unreachability is claimed only on UNSAT of a lowering that is
//! sound for proofs: the synthesis lowering when nothing was cut off, else the over-approximation.

use std::time::{Duration, Instant};

mod callers;
mod class_init;
mod concolic;
mod field_held;
mod inputs;
mod instanceof;
mod java_values;
mod math_search;
mod overloads;
mod receiver;
mod receiver_from;
mod replay;
mod result_call;
mod start;
mod stubbed_subclass;

use jreach_ir::lower::{lower_in, FileContext, LowerOptions};
use jreach_ir::{BlockId, Blocker, CutoffKind, Function, LowerMode, Terminator};
use jreach_smt::{discharge_unwinding, solve_reach, solve_reach_avoiding, GaveUp, SolveOptions, Verdict};
use jreach_syntax::{find_target, MethodInfo, SourceFile, Target, TargetError};
use jreach_synth::{ImportedSource, JUnit, Outcome, TestRequest};

pub use concolic::{concolic, ConcolicLimits, RunOnJvm};
pub use receiver::synthesis_options;
use receiver::{abstract_receiver, unmodelled_params, unsupported_signature};
use replay::replay;
pub use start::{search_start, search_starts};

/// Which resolution answers the reachability question.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// Conditional definitions encoded with sharing (linear size).
    #[default]
    Shared,
    /// The reference resolution of Lichman & Gross by substitution (exponential; loop-free only).
    Naive,
}

/// Settings of one `gen`.
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// Largest loop unrolling tried for synthesis (beyond [`USUAL_UNROLL`] only for small
    /// lowerings).
    pub unroll: u32,
    /// Time limit of each solver query.
    pub timeout: Duration,
    pub inline_depth: u32,
    pub junit: JUnit,
    pub engine: Engine,
    /// Set from another thread to stop the search (the answer is then Unknown).
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The texts of other files of the same package (see `synth::package_sources`): tests may
    /// create objects of their classes through their constructors and methods.
    pub package_sources: Vec<String>,
    /// The classes of other packages that the file imports (see `synth::imported_sources`):
    /// tests may create objects of their public classes through public constructors and
    /// methods, and import them.
    pub imported_sources: Vec<ImportedSource>,
    /// Where the answer is read, which decides how a message names what the user can change.
    pub knobs: Knobs,
}

/// How messages name a limit the user can raise: the command line's flags, or the editor's
/// settings (a flag means nothing in an editor).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Knobs {
    #[default]
    Cli,
    Editor,
}

impl Knobs {
    /// How the user changes `limit`.
    ///
    /// ```
    /// use jreach_ide::{Knobs, Limit};
    /// assert_eq!(Knobs::Cli.name(Limit::Timeout), "--timeout");
    /// assert_eq!(Knobs::Editor.name(Limit::Timeout), "the jreach.timeout setting");
    /// ```
    pub fn name(self, limit: Limit) -> String {
        match self {
            Knobs::Cli => format!("--{}", limit.key()),
            Knobs::Editor => format!("the {} setting", limit.setting()),
        }
    }
}

/// A limit of the search the user can raise, when an answer says raising it may help.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The solver's time limit per query (`--timeout`, `jreach.timeout`).
    Timeout,
    /// How often loops are unrolled (`--unroll`, `jreach.unroll`).
    Unroll,
}

impl Limit {
    /// The flag's and the setting's last word: `timeout`.
    pub fn key(self) -> &'static str {
        match self {
            Limit::Timeout => "timeout",
            Limit::Unroll => "unroll",
        }
    }

    /// The editor setting: `jreach.timeout`.
    pub fn setting(self) -> &'static str {
        match self {
            Limit::Timeout => "jreach.timeout",
            Limit::Unroll => "jreach.unroll",
        }
    }
}

/// Why there is no answer ([`GenResult::Unknown`]): the text the user reads (`Display`, and as a
/// `str`), and the limit whose raising may help, which an editor offers to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown {
    pub why: String,
    pub may_help: Option<Limit>,
}

impl Unknown {
    /// `why`, where raising `limit` may help.
    pub fn limited_by(why: String, limit: Limit) -> Unknown {
        Unknown { why, may_help: Some(limit) }
    }
}

impl From<String> for Unknown {
    fn from(why: String) -> Unknown {
        Unknown { why, may_help: None }
    }
}

impl std::ops::Deref for Unknown {
    type Target = str;
    fn deref(&self) -> &str {
        &self.why
    }
}

impl std::fmt::Display for Unknown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            unroll: DEFAULT_UNROLL,
            timeout: Duration::from_secs(10),
            inline_depth: 8,
            junit: JUnit::V5,
            engine: Engine::Shared,
            cancel: None,
            package_sources: vec![],
            imported_sources: vec![],
            knobs: Knobs::Cli,
        }
    }
}

/// What `gen` found.
#[derive(Clone, Debug)]
pub enum GenResult {
    /// A test that reaches the target (checked by replay).
    Test(Box<TestRequest>),
    /// No input can reach the target; the text says why.
    Unreachable(String),
    /// No answer; it says what stood in the way.
    Unknown(Unknown),
}

/// Input jreach cannot work with.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    #[error("{0}")]
    Target(#[from] TargetError),
    #[error("{method} has syntax errors near line {line}; fix them first (other methods still work)")]
    Syntax { method: String, line: usize },
}

const MAX_STEPS: usize = 1_000_000;

/// Recursive calls inlined by synthesis's first lowerings; the default budget
/// ([`jreach_ir::lower::RECURSIVE_INLINES`]) once those cut a recursion off.
const FIRST_RECURSIVE_INLINES: u32 = 4;

/// The default of [`GenOptions::unroll`]: enough for a loop of a thousand iterations in a small
/// method (see [`USUAL_UNROLL`]).
pub const DEFAULT_UNROLL: u32 = 1024;

/// Synthesis unrolls loops beyond this many iterations only while the lowering stays under
/// [`LONG_UNROLL_VALUES`] values and the search has used less than a quarter of its time limit.
pub const USUAL_UNROLL: u32 = 64;

/// The most IR values a lowering unrolled beyond [`USUAL_UNROLL`] may be expected to have.
const LONG_UNROLL_VALUES: usize = 100_000;

/// Whether the statement on 0-based `line` is one [`find_target`] gives no method for but a search
/// on the JVM enters all the same: in an anonymous class whose object a field holds, through the
/// methods reading that field ([`field_held`]). An editor offers a test there.
pub fn searched_through_field(file: &SourceFile, line: usize) -> bool {
    crate::contain::contain(|| field_held::field_held(file, line).is_some()).unwrap_or(false)
}

/// Finds inputs reaching the statement on 0-based `line` of `file`.
pub fn gen(file: &SourceFile, line: usize, opts: &GenOptions) -> Result<GenResult, GenError> {
    crate::contain::contain(|| gen_inner(file, line, opts)).unwrap_or_else(|why| Ok(GenResult::Unknown(why.into())))
}

fn gen_inner(file: &SourceFile, line: usize, opts: &GenOptions) -> Result<GenResult, GenError> {
    // A statement of a static initializer block runs as the JVM initializes its class.
    if let Some(classes) = class_init::static_block_at(file, line) {
        return Ok(GenResult::Test(Box::new(class_init::request(file, classes, line, opts.junit))));
    }
    let target = match find_target(file, line) {
        // In an anonymous class whose object a field holds: the model does not follow it, a
        // search on the JVM enters by the methods reading the field.
        Err(e @ TargetError::InLocalOrAnonymousClass { .. }) => match field_held::field_held(file, line) {
            Some(held) => {
                return Ok(GenResult::Unknown(
                    format!(
                        "line {} is in an anonymous class whose object the field {} holds, which jreach's model does \
                         not follow",
                        line + 1,
                        held.fields.join(", ")
                    )
                    .into(),
                ))
            }
            None => return Err(e.into()),
        },
        found => found?,
    };
    let m = &target.method;
    if m.has_error {
        let at = first_error_line(file, m).unwrap_or(line);
        return Err(GenError::Syntax { method: m.signature(), line: at + 1 });
    }
    if m.hidden_from_tests() {
        return through_callers(file, &target, opts);
    }
    gen_target(file, &target, opts)
}

/// At most this many methods that call a private method are tried as the test's entry.
pub(crate) const MAX_CALLERS: usize = 4;

/// A statement of a private method, which a test cannot call, is reached through the methods of
/// its class that call it (directly, or through another private method): the caller is lowered
/// with the private method inlined, and the target is the same statement. Each caller is an
/// attempt for a test only: "unreachable from this caller" says nothing of the others, so no
/// proof is claimed here.
fn through_callers(file: &SourceFile, target: &Target, opts: &GenOptions) -> Result<GenResult, GenError> {
    let m = &target.method;
    let ctx = FileContext::new(file, None, None);
    let callers = callers::entry_callers(&ctx, m, MAX_CALLERS);
    let started = Instant::now();
    let mut tried = Vec::new();
    let mut may_help = None;
    for caller in callers {
        if started.elapsed() >= opts.timeout {
            break;
        }
        let via = Target { method: caller.clone(), ..target.clone() };
        match gen_target(file, &via, opts)? {
            GenResult::Test(req) => return Ok(GenResult::Test(req)),
            GenResult::Unknown(why) => {
                may_help = may_help.or(why.may_help);
                tried.push(format!("{}: {why}", caller.signature()))
            }
            GenResult::Unreachable(_) => tried.push(format!("{}: not on its paths", caller.signature())),
        }
    }
    // Called from a static initializer: it runs as the JVM initializes the class.
    if let Some(classes) = class_init::initializing_class(&ctx, m) {
        return Ok(GenResult::Test(Box::new(class_init::request(file, classes, target.line, opts.junit))));
    }
    let line = target.line + 1;
    let hidden = m.why_hidden().unwrap_or_else(|| m.signature());
    let why = if tried.is_empty() {
        format!("{hidden}: a test cannot call it directly, and no method of its class that a test can call calls it")
    } else {
        format!(
            "{hidden}: a test cannot call it directly, and no method calling it reached line {line} ({})",
            tried.join("; ")
        )
    };
    Ok(GenResult::Unknown(Unknown { why, may_help }))
}

/// The ladder of attempts for `target`, entered through `target.method`.
fn gen_target(file: &SourceFile, target: &Target, opts: &GenOptions) -> Result<GenResult, GenError> {
    let line = target.line;
    let m = &target.method;
    // Synthesis sees the classes of the same package and the imported ones too (so does the
    // choice of the receiver's constructor, whose parameters may be of those classes); proofs
    // see only the file itself.
    let ctx = FileContext::new(file, None, None);
    let source = SynthesisSource::new(file, m, opts);
    let synthesis_ctx = &source.context(file);
    if let Some(why) = unsupported_signature(synthesis_ctx, m) {
        return Ok(GenResult::Unknown(why.into()));
    }
    let started = Instant::now();
    let solve_opts = SolveOptions { timeout: opts.timeout, prefer_small: true, cancel: opts.cancel.clone() };
    let mut k = opts.unroll.min(2);
    let mut last_blockers: Vec<Blocker> = vec![];
    let mut replay_failure: Option<String> = None;
    let mut setup_calls = false;
    // Recursion is inlined a little first (its copies grow the formula exponentially), in full
    // only when that cut the paths off.
    let mut recursive_inlines = FIRST_RECURSIVE_INLINES;
    // How the receiver is made does not change between the attempts; one context for every
    // rung of the ladder.
    let base = source.options(synthesis_ctx, m, opts, k);
    loop {
        let lopts =
            LowerOptions { mode: LowerMode::Synthesis { unroll: k }, setup_calls, recursive_inlines, ..base.clone() };
        let f = lower_in(synthesis_ctx, m, &lopts);
        let calls_possible = f.setup.calls_possible;
        if let Some(why) = unmodelled_params(&f) {
            return Ok(GenResult::Unknown(why.into()));
        }
        if m.class_is_abstract && !m.is_static && !f.setup.receiver_subclassed {
            return Ok(GenResult::Unknown(abstract_receiver(m).into()));
        }
        let targets = f.blocks_of_stmt(target.stmt.start);
        if targets.is_empty() {
            return Ok(GenResult::Unknown(
                match target.enclosure {
                    // Runs when the code calls it (a JDK method it is passed to, an object it is
                    // part of), which the lowering does not follow.
                    // (Entered through a caller, `m` is not the method that creates it.)
                    Some(enclosure) if m.range.contains(&target.stmt.start) => format!(
                        "line {} is in {} that {} creates, whose code jreach does not model",
                        line + 1,
                        enclosure.describe(),
                        m.signature()
                    ),
                    Some(enclosure) => {
                        format!("line {} is in {}, whose code jreach does not model", line + 1, enclosure.describe())
                    }
                    None => format!("line {} is not part of what jreach models of {}", line + 1, m.signature()),
                }
                .into(),
            ));
        }
        let verdict = match opts.engine {
            Engine::Shared => solve_reach(&f, &targets, &solve_opts),
            Engine::Naive => naive_verdict(&f, &targets, &solve_opts),
        };
        match verdict {
            Verdict::Sat(args) => match replay(file, &target, &f, &targets, &args, opts) {
                Ok(req) if matches!(req.outcome, Outcome::Throws(_)) => {
                    let completing = completing_inputs(file, &target, &f, &targets, &solve_opts, opts);
                    return Ok(GenResult::Test(Box::new(completing.unwrap_or(req))));
                }
                // (Only an undetermined outcome can come from a run cut off at a bound: the
                // interpreter runs again only then.)
                Ok(req) if matches!(req.outcome, Outcome::Undetermined(_)) && ends_at_bound(&f, &args) => {
                    let finishing = finishing_inputs(file, &target, &f, &targets, &solve_opts, opts);
                    return Ok(GenResult::Test(Box::new(finishing.unwrap_or(req))));
                }
                Ok(req) => return Ok(GenResult::Test(Box::new(req))),
                Err(why) => {
                    // The model may have assumed what a Math function returns: search its
                    // arguments on the interpreter.
                    let searched = math_search::search_math_inputs(&f, &targets, &args)
                        .and_then(|found| replay(file, &target, &f, &targets, &found, opts).ok());
                    if let Some(req) = searched {
                        return Ok(GenResult::Test(Box::new(req)));
                    }
                    replay_failure = Some(why);
                    break;
                }
            },
            Verdict::Unsat if f.sound_for_proofs() => {
                return Ok(GenResult::Unreachable(unreachable_message(&target)));
            }
            Verdict::Unsat => last_blockers = f.proof_blockers.clone(),
            Verdict::Unknown(why) => return Ok(GenResult::Unknown(solver_gave_up(&why, opts))),
        }
        // A larger bound cannot help once the lowering outgrew its size limit.
        let outgrown = last_blockers.iter().any(Blocker::is_size_limit);
        let cut_by_unrolling = !outgrown && last_blockers.iter().any(Blocker::is_unroll_bound);
        let mut next = (k * 4).min(opts.unroll);
        if next > USUAL_UNROLL {
            // Long loops only in small lowerings, and while time is left.
            let expected = f.values.len().saturating_mul((next / k.max(1)) as usize);
            if expected > LONG_UNROLL_VALUES || started.elapsed() >= opts.timeout / 4 {
                next = USUAL_UNROLL.min(opts.unroll).max(k);
            }
        }
        if cut_by_unrolling && next > k {
            k = next;
            continue;
        }
        let cut_recursion = last_blockers.iter().any(Blocker::is_inline_depth);
        if cut_recursion && recursive_inlines < jreach_ir::lower::RECURSIVE_INLINES && !outgrown {
            recursive_inlines = jreach_ir::lower::RECURSIVE_INLINES;
            continue;
        }
        // Objects as their constructors leave them do not reach the target: let the test call
        // methods on them first.
        if !setup_calls && calls_possible {
            setup_calls = true;
            continue;
        }
        break;
    }
    // Synthesis found nothing it can show: try to prove the target dead on the over-approximation.
    let over = lower_in(
        &ctx,
        m,
        &LowerOptions { mode: LowerMode::OverApprox, inline_depth: opts.inline_depth, ..Default::default() },
    );
    let over_targets = over.blocks_of_stmt(target.stmt.start);
    if over.sound_for_proofs() {
        let remaining = opts.timeout.saturating_sub(started.elapsed()).max(Duration::from_millis(500));
        match solve_reach(
            &over,
            &over_targets,
            &SolveOptions { timeout: remaining.min(opts.timeout), prefer_small: false, cancel: opts.cancel.clone() },
        ) {
            Verdict::Unsat => return Ok(GenResult::Unreachable(unreachable_message(&target))),
            Verdict::Unknown(why) => return Ok(GenResult::Unknown(solver_gave_up(&why, opts))),
            Verdict::Sat(_)
                if exact_loops_unreachable(&ctx, target, &over, opts)
                    || invariant_unreachable(&ctx, target, &over, opts)
                    || class_invariant_unreachable(&ctx, target, opts) =>
            {
                return Ok(GenResult::Unreachable(unreachable_message(&target)))
            }
            Verdict::Sat(_) => {}
        }
    } else {
        last_blockers.extend(over.proof_blockers.iter().cloned());
    }
    if let Some(why) = replay_failure {
        return Ok(GenResult::Unknown(why.into()));
    }
    let cut_by_unrolling = last_blockers.iter().any(Blocker::is_unroll_bound);
    let texts = blocker_texts(&last_blockers);
    let why = if texts.is_empty() {
        "no test found within the bounds, and no proof that the line cannot run".to_string()
    } else {
        format!("no test found within the bounds ({}), and no proof that the line cannot run", texts.join("; "))
    };
    Ok(GenResult::Unknown(if cut_by_unrolling { with_unroll_hint(why, opts, k) } else { why.into() }))
}

/// Whether the target is dead with the method's loops unrolled and exact (as `check` tries
/// them: `exact_loops`, no input needing more iterations), when the abstraction
/// `over` had loops and could not tell.
fn exact_loops_unreachable(ctx: &FileContext<'_>, target: &Target, over: &Function, opts: &GenOptions) -> bool {
    if !over.abstracts_loops() || !crate::exact_loops::small_counted_loops(ctx.file(), &target.method) {
        return false;
    }
    let mut f = crate::exact_loops::exact_lowering(ctx, &target.method, opts.inline_depth);
    let solve =
        SolveOptions { timeout: opts.timeout.min(EXACT_QUERY), prefer_small: false, cancel: opts.cancel.clone() };
    if !discharge_unwinding(&mut f, &solve) || !f.sound_for_proofs() {
        return false;
    }
    let targets = f.blocks_of_stmt(target.stmt.start);
    !targets.is_empty() && matches!(solve_reach(&f, &targets, &solve), Verdict::Unsat)
}

/// Whether the target is dead on the proof lowering strengthened by the loop invariants that hold
/// (as `check` tries them), when the abstraction `over` had loops and could not tell.
fn invariant_unreachable(ctx: &FileContext<'_>, target: &Target, over: &Function, opts: &GenOptions) -> bool {
    if !over.abstracts_loops() {
        return false;
    }
    let Some(f) = crate::loop_invariants::proved_lowering(ctx, &target.method, opts.inline_depth, EXACT_QUERY) else {
        return false;
    };
    let targets = f.blocks_of_stmt(target.stmt.start);
    let solve =
        SolveOptions { timeout: opts.timeout.min(EXACT_QUERY), prefer_small: false, cancel: opts.cancel.clone() };
    f.sound_for_proofs() && !targets.is_empty() && matches!(solve_reach(&f, &targets, &solve), Verdict::Unsat)
}

/// Whether the target is dead on the proof lowering that assumes the invariants of its class
/// (as `check` tries them), when the abstraction could not tell.
fn class_invariant_unreachable(ctx: &FileContext<'_>, target: &Target, opts: &GenOptions) -> bool {
    let memo = crate::class_invariants::ClassInvariants::new();
    let budget = opts.timeout.min(EXACT_QUERY);
    let Some(f) = crate::class_invariants::proved_lowering(ctx, &memo, &target.method, opts.inline_depth, budget)
    else {
        return false;
    };
    let targets = f.blocks_of_stmt(target.stmt.start);
    let solve = SolveOptions { timeout: budget, prefer_small: false, cancel: opts.cancel.clone() };
    f.sound_for_proofs() && !targets.is_empty() && matches!(solve_reach(&f, &targets, &solve), Verdict::Unsat)
}

/// The time limit of each query of a proof with exact loops.
const EXACT_QUERY: Duration = Duration::from_secs(2);

/// `why`, said of loops that were cut off, with a hint on the unroll bound: a larger `--unroll`
/// when the search reached it, else how far it went (`reached`) and why not further.
fn with_unroll_hint(why: String, opts: &GenOptions, reached: u32) -> Unknown {
    if reached >= opts.unroll {
        let why =
            format!("{why}; a larger unroll bound may help (now {}: {})", opts.unroll, opts.knobs.name(Limit::Unroll));
        Unknown::limited_by(why, Limit::Unroll)
    } else {
        format!(
            "{why}; loops were unrolled {reached} times: more only for methods that stay small, within a quarter of \
             the time limit"
        )
        .into()
    }
}

fn solver_gave_up(why: &GaveUp, opts: &GenOptions) -> Unknown {
    match why {
        GaveUp::Timeout(_) | GaveUp::Budget => Unknown::limited_by(
            format!(
                "the solver timed out after {} s (a longer time limit may help: {})",
                opts.timeout.as_secs_f64(),
                opts.knobs.name(Limit::Timeout)
            ),
            Limit::Timeout,
        ),
        GaveUp::Canceled => "canceled".to_string().into(),
        GaveUp::Memory(_) => format!("the solver gave up: {why}").into(),
        GaveUp::Other(why) => format!("the solver gave up: {why}").into(),
    }
}

fn naive_verdict(f: &Function, targets: &[BlockId], opts: &SolveOptions) -> Verdict {
    jreach_smt::solve_naive(f, targets, opts)
}

fn unreachable_message(target: &Target) -> String {
    format!(
        "line {} can never run: no input to {} satisfies the conditions that guard it",
        target.line + 1,
        target.method.signature()
    )
}

fn first_error_line(file: &SourceFile, m: &MethodInfo) -> Option<usize> {
    let node = m.node(file);
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.is_error() || n.is_missing() {
            return Some(file.lines.line_of(n.start_byte()));
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c).filter(|ch| ch.has_error()));
    }
    None
}

/// The source synthesis sees for a method: its file, followed by the classes of its package
/// and the imported ones when there are any (see [`with_package_sources`]).
pub(crate) struct SynthesisSource {
    combined: Option<SourceFile>,
    foreign_from: Option<usize>,
    own_end: Option<usize>,
}

impl SynthesisSource {
    pub(crate) fn new(file: &SourceFile, m: &MethodInfo, opts: &GenOptions) -> SynthesisSource {
        match with_package_sources(file, m, &opts.package_sources, &opts.imported_sources) {
            Some((combined, foreign_from)) => {
                SynthesisSource { combined: Some(combined), foreign_from, own_end: Some(file.text.len()) }
            }
            None => SynthesisSource { combined: None, foreign_from: None, own_end: None },
        }
    }

    /// The context of the whole source (`file` when nothing was appended).
    pub(crate) fn context<'a>(&'a self, file: &'a SourceFile) -> FileContext<'a> {
        FileContext::new(self.combined.as_ref().unwrap_or(file), self.foreign_from, self.own_end)
    }

    /// The options of a synthesis lowering of `m` at unroll bound `k` in `ctx` (this source's
    /// context), without optional calls on created objects.
    pub(crate) fn options(&self, ctx: &FileContext<'_>, m: &MethodInfo, opts: &GenOptions, k: u32) -> LowerOptions {
        LowerOptions {
            inline_depth: opts.inline_depth,
            foreign_from: self.foreign_from,
            own_end: self.own_end,
            ..synthesis_options(ctx, m, k, false)
        }
    }
}

/// Adds to `imports` each of `more` it does not hold yet (a test's imports, in the order found).
pub(crate) fn add_imports(imports: &mut Vec<String>, more: impl IntoIterator<Item = String>) {
    for i in more {
        if !imports.contains(&i) {
            imports.push(i);
        }
    }
}

/// The synthesis lowering of `m` at unroll bound `k` in `ctx`, the context of `source`.
pub(crate) fn lower_for_synthesis(
    source: &SynthesisSource,
    ctx: &FileContext<'_>,
    m: &MethodInfo,
    opts: &GenOptions,
    k: u32,
) -> Function {
    lower_in(ctx, m, &source.options(ctx, m, opts, k))
}

/// `file` followed by the classes of `sources` and then those of `imported` (their `package` and
/// `import` lines blanked), when there are any and `m` parses the same in the result: its byte
/// offsets are unchanged, so targets and path conditions still refer to `file`, and the added
/// code lies past its end. Also the offset where the imported classes begin, if any.
pub(crate) fn with_package_sources(
    file: &SourceFile,
    m: &MethodInfo,
    sources: &[String],
    imported: &[ImportedSource],
) -> Option<(SourceFile, Option<usize>)> {
    if (sources.is_empty() && imported.is_empty()) || file.tree.root_node().has_error() {
        return None;
    }
    let mut text = file.text.clone();
    let append = |text: &mut String, s: &str| {
        text.push('\n');
        for line in s.lines() {
            let t = line.trim_start();
            if !(t.starts_with("package ") || t.starts_with("import ")) {
                text.push_str(line);
            }
            text.push('\n');
        }
    };
    for s in sources {
        append(&mut text, s);
    }
    let foreign_from = (!imported.is_empty()).then_some(text.len());
    for s in imported {
        append(&mut text, &s.text);
    }
    let combined = SourceFile::parse(&text);
    let same = MethodInfo::all(&combined).iter().any(|c| c.range == m.range && c.name == m.name && !c.has_error);
    same.then_some((combined, foreign_from))
}

/// Whether a path cut off here was cut by a bound (a loop needing more iterations, calls nesting
/// deeper, the size limit) rather than by something jreach does not model.
fn is_bound(kind: &CutoffKind) -> bool {
    matches!(kind, CutoffKind::UnrollBound | CutoffKind::InlineDepth | CutoffKind::SizeLimit)
}

/// Whether the replay of `args` on `f` ends where a bound cut the lowering off: what happens
/// after the target is then unknown, and the run may not end at all on the JVM.
fn ends_at_bound(f: &Function, args: &[jreach_ir::interp::Value]) -> bool {
    matches!(jreach_ir::interp::run(f, args, MAX_STEPS).end, jreach_ir::interp::End::Cutoff(ref k) if is_bound(k))
}

/// For a test whose run leaves the lowering at a bound after its target: inputs under which
/// the run reaches the target and then ends within the lowering (returns or throws), when there
/// are any. Such a test has an outcome to assert, and does not run into a loop that never ends
/// (`high = mid + 1` in a binary search that loops on some inputs).
fn finishing_inputs(
    file: &SourceFile,
    target: &Target,
    f: &Function,
    targets: &[BlockId],
    solve_opts: &SolveOptions,
    opts: &GenOptions,
) -> Option<TestRequest> {
    let bounds: Vec<BlockId> =
        f.block_ids().filter(|b| matches!(&f.block(*b).term, Terminator::Cutoff(k) if is_bound(k))).collect();
    preferred_inputs(file, target, f, targets, &bounds, solve_opts, opts)
}

/// For a test whose run throws: inputs under which no exception is thrown *on the target's own
/// statement* (a null array indexed there), when there are any. A line that throws is started but
/// not completed, and coverage tools (JaCoCo) do not count it as run.
fn completing_inputs(
    file: &SourceFile,
    target: &Target,
    f: &Function,
    targets: &[BlockId],
    solve_opts: &SolveOptions,
    opts: &GenOptions,
) -> Option<TestRequest> {
    let stmt = &target.stmt;
    let throws_here: Vec<BlockId> = f
        .block_ids()
        .filter(|b| match &f.block(*b).term {
            Terminator::Throw { span: Some(span), .. } => stmt.start <= span.start && span.end <= stmt.end,
            _ => false,
        })
        .collect();
    if throws_here.is_empty() {
        return None;
    }
    preferred_inputs(file, target, f, targets, &throws_here, solve_opts, opts)
}

/// A test whose run reaches the target and runs none of `avoid`, when the solver finds one in a
/// quarter of the query's time: a preference, not an answer.
fn preferred_inputs(
    file: &SourceFile,
    target: &Target,
    f: &Function,
    targets: &[BlockId],
    avoid: &[BlockId],
    solve_opts: &SolveOptions,
    opts: &GenOptions,
) -> Option<TestRequest> {
    let opts_here = SolveOptions { timeout: solve_opts.timeout / 4, ..solve_opts.clone() };
    let Verdict::Sat(args) = solve_reach_avoiding(f, targets, avoid, &opts_here) else { return None };
    replay(file, target, f, targets, &args, opts).ok()
}

/// Most reasons a "no test found" message lists.
const MAX_REASONS: usize = 6;

/// What stood in the way of a test, for a message: what jreach does not model and the bounds
/// that ran out first (they cut paths), then what the search narrowed (it may or may not have
/// mattered); each once, at most [`MAX_REASONS`], and how many more there were.
fn blocker_texts(blockers: &[Blocker]) -> Vec<String> {
    let rank = |b: &Blocker| match b {
        Blocker::Unsupported(_) | Blocker::Bound(_) => 0,
        _ => 1,
    };
    let mut texts: Vec<(u8, String)> = blockers.iter().map(|b| (rank(b), b.to_string())).collect();
    texts.sort();
    texts.dedup_by(|a, b| a.1 == b.1);
    let more = texts.len().saturating_sub(MAX_REASONS);
    let mut out: Vec<String> = texts.into_iter().take(MAX_REASONS).map(|(_, t)| t).collect();
    if more > 0 {
        out.push(format!("and {more} more"));
    }
    out
}

#[cfg(test)]
mod tests {
    use jreach_ir::{Blocker, CutoffKind};

    use super::{blocker_texts, MAX_REASONS};

    #[test]
    fn what_cut_paths_comes_first_and_the_list_is_capped() {
        let mut blockers: Vec<Blocker> =
            (0..8).map(|i| Blocker::Narrowing(format!("f{i} may change arrays and objects"))).collect();
        blockers.push(Blocker::Unsupported("a `this(...)` call jreach cannot resolve".into()));
        blockers.push(Blocker::Bound(CutoffKind::UnrollBound));
        blockers.push(Blocker::Narrowing("f0 may change arrays and objects".into()));
        let texts = blocker_texts(&blockers);
        assert_eq!(texts.len(), MAX_REASONS + 1, "{texts:?}");
        assert_eq!(texts[0], Blocker::Unsupported("a `this(...)` call jreach cannot resolve".into()).to_string());
        assert_eq!(texts[1], Blocker::Bound(CutoffKind::UnrollBound).to_string());
        assert_eq!(texts[2], "f0 may change arrays and objects");
        assert_eq!(texts[MAX_REASONS], "and 4 more");
        assert_eq!(blocker_texts(&blockers[..2]).len(), 2);
    }
}
