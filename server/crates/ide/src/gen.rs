//! `gen`: reach one statement.
//!
//! Synthesis lowers the method with loops unrolled to growing bounds (2, 8, 32, … up to the
//! limit), solves, and replays the model on the concrete interpreter; a test is offered only when
//! the replay reaches the target. Unreachability is claimed only on UNSAT of a lowering that is
//! sound for proofs: the synthesis lowering when nothing was cut off, else the over-approximation.

use std::time::{Duration, Instant};

use jreach_ir::interp::{self, End, Value};
use jreach_ir::lower::{lower_in, FileContext, LowerOptions};
use jreach_ir::{BlockId, Blocker, Function, LowerMode, NondetKind, Terminator, Ty, ValueId};
use jreach_smt::{solve_reach, GaveUp, SolveOptions, Verdict};
use jreach_syntax::{find_target, MethodInfo, SourceFile, Target, TargetError};
use jreach_synth::{ImportedSource, JUnit, JavaValue, Outcome, TestRequest};

use crate::setup_values::{
    array_value, built_value, lambda_value, list_value, map_value, receiver_body, receiver_fields, setup_calls,
    setup_inputs, static_assignments, stub_value,
};

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
    /// No answer; the text says what stood in the way.
    Unknown(String),
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

/// The default of [`GenOptions::unroll`]: enough for a loop of a thousand iterations in a small
/// method (see [`USUAL_UNROLL`]).
pub const DEFAULT_UNROLL: u32 = 1024;

/// Synthesis unrolls loops beyond this many iterations only while the lowering stays under
/// [`LONG_UNROLL_VALUES`] values and the search has used less than a quarter of its time limit.
pub const USUAL_UNROLL: u32 = 64;

/// The most IR values a lowering unrolled beyond [`USUAL_UNROLL`] may be expected to have.
const LONG_UNROLL_VALUES: usize = 100_000;

/// Finds inputs reaching the statement on 0-based `line` of `file`.
pub fn gen(file: &SourceFile, line: usize, opts: &GenOptions) -> Result<GenResult, GenError> {
    crate::contain::contain(|| gen_inner(file, line, opts)).unwrap_or_else(|why| Ok(GenResult::Unknown(why)))
}

fn gen_inner(file: &SourceFile, line: usize, opts: &GenOptions) -> Result<GenResult, GenError> {
    let target = find_target(file, line)?;
    let m = &target.method;
    if m.has_error {
        let at = first_error_line(file, m).unwrap_or(line);
        return Err(GenError::Syntax { method: m.signature(), line: at + 1 });
    }
    let ctx = FileContext::new(file, None, None);
    if let Some(why) = unsupported_signature(&ctx, m) {
        return Ok(GenResult::Unknown(why));
    }
    // Synthesis sees the classes of the same package and the imported ones too; proofs see
    // only the file itself.
    let with_package = with_package_sources(file, m, &opts.package_sources, &opts.imported_sources);
    let (synthesis_file, foreign_from) = match &with_package {
        Some((f, foreign_from)) => (f, *foreign_from),
        None => (file, None),
    };
    let started = Instant::now();
    let solve_opts = SolveOptions { timeout: opts.timeout, prefer_small: true, cancel: opts.cancel.clone() };
    let mut k = opts.unroll.min(2);
    let mut last_blockers: Vec<Blocker> = vec![];
    let mut replay_failure: Option<String> = None;
    let mut setup_calls = false;
    // How the receiver is made does not change between the attempts.
    let base = LowerOptions {
        inline_depth: opts.inline_depth,
        foreign_from,
        own_end: with_package.is_some().then_some(file.text.len()),
        ..synthesis_options(&ctx, m, k, false)
    };
    // One context for every rung of the ladder.
    let package_ctx = with_package.as_ref().map(|_| FileContext::new(synthesis_file, foreign_from, base.own_end));
    let synthesis_ctx = package_ctx.as_ref().unwrap_or(&ctx);
    loop {
        let lopts = LowerOptions { mode: LowerMode::Synthesis { unroll: k }, setup_calls, ..base.clone() };
        let f = lower_in(synthesis_ctx, m, &lopts);
        let calls_possible = f.setup.calls_possible;
        if let Some(why) = unmodelled_params(&f) {
            return Ok(GenResult::Unknown(why));
        }
        if m.class_is_abstract && !m.is_static && f.setup.receiver_returns.is_empty() {
            return Ok(GenResult::Unknown(abstract_receiver(m)));
        }
        let targets = f.blocks_of_stmt(target.stmt.start);
        if targets.is_empty() {
            return Ok(GenResult::Unknown(format!(
                "line {} is not part of what jreach models of {}",
                line + 1,
                m.signature()
            )));
        }
        let verdict = match opts.engine {
            Engine::Shared => solve_reach(&f, &targets, &solve_opts),
            Engine::Naive => naive_verdict(&f, &targets, &solve_opts),
        };
        match verdict {
            Verdict::Sat(args) => match replay(file, &target, &f, &targets, &args, opts) {
                Ok(req) => return Ok(GenResult::Test(Box::new(req))),
                Err(why) => {
                    // The model may have assumed what a Math function returns: search its
                    // arguments on the interpreter.
                    let searched = crate::math_search::search_math_inputs(&f, &targets, &args)
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
            Verdict::Sat(_) => {}
        }
    } else {
        last_blockers.extend(over.proof_blockers.iter().cloned());
    }
    if let Some(why) = replay_failure {
        return Ok(GenResult::Unknown(why));
    }
    let cut_by_unrolling = last_blockers.iter().any(Blocker::is_unroll_bound);
    let mut texts: Vec<String> = last_blockers.iter().map(|b| b.to_string()).collect();
    texts.sort();
    texts.dedup();
    let why = if texts.is_empty() {
        "no test found within the bounds, and no proof that the line cannot run".to_string()
    } else {
        format!("no test found within the bounds ({}), and no proof that the line cannot run", texts.join("; "))
    };
    Ok(GenResult::Unknown(if cut_by_unrolling { with_unroll_hint(why, opts, k) } else { why }))
}

/// `why`, said of loops that were cut off, with a hint on the unroll bound: a larger `--unroll`
/// when the search reached it, else how far it went (`reached`) and why not further.
fn with_unroll_hint(why: String, opts: &GenOptions, reached: u32) -> String {
    if reached >= opts.unroll {
        format!("{why}; try a larger --unroll (now {})", opts.unroll)
    } else {
        format!(
            "{why}; loops were unrolled {reached} times: more only for methods that stay small, within a quarter of \
             the time limit"
        )
    }
}

fn solver_gave_up(why: &GaveUp, opts: &GenOptions) -> String {
    match why {
        GaveUp::Timeout(_) | GaveUp::Budget => {
            format!("the solver timed out after {:?} (raise --timeout)", opts.timeout)
        }
        GaveUp::Canceled => "canceled".to_string(),
        GaveUp::Other(why) => format!("the solver gave up: {why}"),
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

/// `file` followed by the classes of `sources` and then those of `imported` (their `package` and
/// `import` lines blanked), when there are any and `m` parses the same in the result: its byte
/// offsets are unchanged, so targets and path conditions still refer to `file`, and the added
/// code lies past its end. Also the offset where the imported classes begin, if any.
fn with_package_sources(
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

/// The lowering `gen` makes of `m` for synthesis at unroll bound `unroll` (the receiver created
/// as the test will create it), with or without optional calls on created objects.
pub fn synthesis_options(ctx: &FileContext<'_>, m: &MethodInfo, unroll: u32, setup_calls: bool) -> LowerOptions {
    LowerOptions {
        mode: LowerMode::Synthesis { unroll },
        receiver_ctor: test_receiver_ctor(ctx, m).map(|c| c.range),
        setup_calls,
        receiver_by_reflection: ctx.receiver_by_reflection(m),
        ..Default::default()
    }
}

fn test_receiver_ctor(ctx: &FileContext<'_>, m: &MethodInfo) -> Option<MethodInfo> {
    if m.is_static || m.is_constructor {
        None
    } else {
        receiver_constructor(ctx, m).ok().flatten()
    }
}

/// Parameters whose values jreach cannot model or build in a test.
fn unmodelled_params(f: &Function) -> Option<String> {
    for p in &f.params {
        match p.ty {
            Ty::Ref => {
                return Some(format!(
                    "parameter `{}` needs a value of type {}, which jreach cannot see: its source is not in this \
                     file, its package or the imported classes of its source root, and of the JDK's types \
                     jreach models String, the boxed types, List, Map and Optional",
                    p.name, p.java_ty
                ))
            }
            _ => {}
        }
    }
    None
}

/// Why an instance of `m`'s abstract class cannot be made.
fn abstract_receiver(m: &MethodInfo) -> String {
    format!(
        "{} is abstract, and jreach cannot write an anonymous subclass of it to call {} on: its \
         abstract methods take or return types a test cannot write, or it is an interface with one method",
        m.class_name(),
        m.name
    )
}

/// Methods whose inputs jreach cannot construct yet.
fn unsupported_signature(ctx: &FileContext<'_>, m: &MethodInfo) -> Option<String> {
    let file = ctx.file();
    if m.is_constructor || !m.is_static {
        // Instance methods of abstract classes run on an anonymous subclass, when the lowering
        // can make one (see `abstract_receiver`).
        if m.class_is_abstract && m.is_constructor {
            return Some(abstract_receiver(m));
        }
        if !m.is_constructor && receiver_constructor(ctx, m).is_err() && !ctx.receiver_by_reflection(m) {
            return Some(format!(
                "{} has no accessible constructor whose arguments jreach can write to create the instance",
                m.class_name()
            ));
        }
        if m.classes.len() > 1 && !is_static_nested(file, m) {
            return Some(format!("{} is an inner class: jreach cannot create an instance yet", m.class_name()));
        }
    }
    if m.is_private {
        return Some(format!("{} is private: a test cannot call it directly", m.signature()));
    }
    None
}

/// The constructor a test creates the receiver of instance method `m` with: `Ok(None)` for the
/// no-argument one (declared or implicit), else the accessible constructor with the fewest
/// parameters, all of types jreach can write as literals, else all of types jreach models (the
/// test creates those arguments like parameters: `new Service(new Config(3), x -> 1)`).
fn receiver_constructor(ctx: &FileContext<'_>, m: &MethodInfo) -> Result<Option<MethodInfo>, ()> {
    let ctors: Vec<MethodInfo> =
        ctx.methods().iter().filter(|c| c.is_constructor && c.classes == m.classes && !c.has_error).cloned().collect();
    if ctors.is_empty() || ctors.iter().any(|c| c.params.is_empty() && !c.is_private) {
        return Ok(None);
    }
    let writable = |ty: &str| {
        matches!(
            Ty::of_java(ty),
            Ty::Bool | Ty::Byte | Ty::Short | Ty::Char | Ty::Int | Ty::Long | Ty::Float | Ty::Double | Ty::Str
        ) || matches!(Ty::of_java(ty), Ty::Arr(a) if a.leaf != jreach_ir::Leaf::Ref)
    };
    let fewest = |ok: &dyn Fn(&str) -> bool| {
        ctors
            .iter()
            .filter(|c| !c.is_private && c.params.iter().all(|p| ok(&p.ty)))
            .min_by_key(|c| c.params.len())
            .cloned()
    };
    fewest(&writable)
        .or_else(|| {
            let types: Vec<&str> = ctors.iter().flat_map(|c| &c.params).map(|p| p.ty.as_str()).collect();
            let seen = ctx.sees_types(&types);
            fewest(&|ty: &str| writable(ty) || types.iter().zip(&seen).any(|(t, s)| *s && *t == ty))
        })
        .map(Some)
        .ok_or(())
}

fn is_static_nested(file: &SourceFile, m: &MethodInfo) -> bool {
    let mut n = m.node(file).parent();
    while let Some(p) = n {
        if matches!(p.kind(), "class_declaration" | "enum_declaration" | "record_declaration" | "interface_declaration")
        {
            let mut c = p.walk();
            let is_static = p.children(&mut c).any(|ch| {
                ch.kind() == "modifiers"
                    && jreach_syntax::text_of(ch, &file.text).split_whitespace().any(|w| w == "static")
            });
            return is_static || p.kind() != "class_declaration";
        }
        n = p.parent();
    }
    false
}

/// Replays the model; on success, the test request.
fn replay(
    file: &SourceFile,
    target: &Target,
    f: &Function,
    targets: &[BlockId],
    args: &[Value],
    opts: &GenOptions,
) -> Result<TestRequest, String> {
    let unknown = f.params.iter().zip(args).enumerate().find(|(i, (_, a))| a.is_unknown() && !f.setup.creates(*i));
    if let Some((_, (p, Value::Unknown(why)))) = unknown {
        return Err(format!("the input `{}` would be {why}, which jreach does not write into tests", p.name));
    }
    let mut java_args = Vec::with_capacity(args.len());
    let mut receiver_args = Vec::new();
    let setup = &f.setup;
    let setup_inputs = setup_inputs(setup);
    for (i, (p, a)) in f.params.iter().zip(args).enumerate() {
        if setup_inputs.contains(&i) {
            continue;
        }
        let value = if let Some(m) = setup.map_params.iter().find(|m| m.param == i) {
            map_value(m, f, args)?
        } else if let Some(l) = setup.list_params.iter().find(|l| l.param == i) {
            list_value(l, f, args)?
        } else if let Some(a) = setup.array_params.iter().find(|a| a.param == i) {
            array_value(a, f, args)?
        } else if let Some(l) = setup.lambda_params.iter().find(|l| l.param == i) {
            lambda_value(l, f, args)?
        } else if let Some(l) = setup.stub_params.iter().find(|l| l.param == i) {
            stub_value(l, f, args)?
        } else if let Some(b) = setup.built_params.iter().find(|b| b.param == i) {
            built_value(b, f, args)?
        } else {
            java_value(a, p.ty, f)
                .ok_or_else(|| format!("jreach cannot write the input `{}` ({a}) into a test", p.name))?
        };
        if let Some((_, ctor_name)) = setup.receiver_ctor_args.iter().find(|(k, _)| *k == i) {
            // Written inside `new C(...)`: one expression, without locals.
            if !writable_inline(&value) {
                return Err(format!(
                    "the receiver's constructor argument `{ctor_name}` would need statements of its own"
                ));
            }
            receiver_args.push((p.java_ty.clone(), value));
        } else {
            java_args.push(value);
        }
    }
    let run = interp::run(f, args, MAX_STEPS);
    if !run.reached(targets) {
        let why = match &run.end {
            End::Unknown(why) => format!("the path to line {} depends on {why}", target.line + 1),
            other => {
                let inputs: Vec<String> = f.params.iter().zip(args).map(|(p, a)| format!("{} = {a}", p.name)).collect();
                format!(
                    "the solver's inputs ({}) do not reach line {} when replayed (the run ends in {other:?}); \
                     jreach's model of this code is incomplete here",
                    inputs.join(", "),
                    target.line + 1
                )
            }
        };
        return Err(why);
    }
    let m = &target.method;
    let outcome = match &run.end {
        End::Return(Some(v)) => Outcome::Returns(
            java_value(v, f.return_ty, f).filter(|j| !matches!(j, JavaValue::Object { .. } | JavaValue::ObjectRef(_))),
        ),
        End::Return(None) => Outcome::Returns(None),
        End::Throw(class) => Outcome::Throws(class.clone()),
        End::Unknown(why) => Outcome::Undetermined(why.clone()),
        End::Cutoff(kind) => Outcome::Undetermined(kind.to_string()),
    };
    let first_target = run.blocks.iter().position(|b| targets.contains(b)).unwrap_or(run.blocks.len());
    // Code jreach does not model ran after the target: what the call returns or throws is a
    // guess, so the test does not assert it.
    let outcome = match unmodelled_after(f, &run.blocks[first_target..]) {
        Some(what) if !matches!(outcome, Outcome::Undetermined(_)) => Outcome::Undetermined(what),
        _ => outcome,
    };
    // A floating result that went through a Math function may differ in the last place on the
    // JVM: not asserted.
    let outcome = match (&outcome, returned_math_function(f, &run.blocks)) {
        (Outcome::Returns(Some(JavaValue::Double(_) | JavaValue::Float(_))), Some(name)) => {
            Outcome::Undetermined(format!("Math.{name}'s result, which the JVM may round differently"))
        }
        _ => outcome,
    };
    let decisions_before = run.blocks[..first_target]
        .iter()
        .filter(|b| matches!(f.block(**b).term, Terminator::Branch { origin: Some(_), .. }))
        .count();
    let path = path_condition(&run.decisions[..decisions_before.min(run.decisions.len())], m);
    let stmt_text = file.text[target.stmt.clone()].lines().next().unwrap_or("").trim().to_string();
    Ok(TestRequest {
        package: m.package.clone(),
        classes: m.classes.clone(),
        method: m.name.clone(),
        is_static: m.is_static,
        is_constructor: m.is_constructor,
        params: m.params.iter().map(|p| (p.name.clone(), p.ty.clone())).collect(),
        args: java_args,
        return_ty: m.return_ty.clone(),
        outcome,
        target_line: target.line + 1,
        target_text: stmt_text,
        path_condition: path,
        junit: opts.junit,
        receiver_args,
        receiver_calls: setup_calls(&f.setup.receiver_calls, f, args)?,
        receiver_body: receiver_body(f, args)?,
        receiver_fields: receiver_fields(f, args)?,
        imports: opts.imported_sources.iter().map(|s| s.qualified.clone()).collect(),
        statics: static_assignments(f, args)?,
    })
}

/// Whether `v` can be written as one expression (an argument of the receiver's constructor): no
/// locals it refers to, no statements that set it up.
pub(crate) fn writable_inline(v: &JavaValue) -> bool {
    match v {
        JavaValue::SameAs(_) | JavaValue::SameItem(_) | JavaValue::ObjectRef(_) => false,
        JavaValue::Object { fields, by_reflection, .. } => !by_reflection && fields.iter().all(|(_, x)| x.is_default()),
        JavaValue::Constructed { args, calls, builder, .. } => {
            (builder.is_some() || calls.is_empty())
                && args.iter().chain(calls.iter().flat_map(|(_, a)| a)).all(|(_, x)| writable_inline(x))
        }
        JavaValue::Array { items, .. } | JavaValue::List { items, .. } => items.iter().all(writable_inline),
        JavaValue::Optional { item, .. } => item.as_deref().is_none_or(writable_inline),
        JavaValue::Map { entries, .. } => entries.iter().all(|(k, x)| writable_inline(k) && writable_inline(x)),
        _ => true,
    }
}

/// The first value among `blocks` (a run's blocks) that stands for code jreach does not model:
/// an unknown of a type other than `void`, described.
fn unmodelled_after(f: &Function, blocks: &[BlockId]) -> Option<String> {
    // The values the rest of the run decides or returns with.
    let mut relevant = std::collections::HashSet::new();
    let mut work: Vec<ValueId> = blocks
        .iter()
        .filter_map(|b| match &f.block(*b).term {
            Terminator::Branch { cond, .. } => Some(*cond),
            Terminator::Return(Some(v)) => Some(*v),
            _ => None,
        })
        .collect();
    while let Some(v) = work.pop() {
        if relevant.insert(v) {
            match &f.value(v).op {
                jreach_ir::Op::Phi(ins) => work.extend(ins.iter().map(|(_, x)| *x)),
                op => work.extend(op.operands()),
            }
        }
    }
    blocks.iter().flat_map(|b| &f.block(*b).insts).find_map(|v| {
        let vd = f.value(*v);
        match &vd.op {
            // A call jreach cannot see ran and returned something: what it did is a guess.
            jreach_ir::Op::Nondet(kind @ (NondetKind::CallResult { .. } | NondetKind::CallThrows { .. }))
                if vd.ty != Ty::Void =>
            {
                Some(kind.to_string())
            }
            // An unknown value matters only where the run decides or returns with it.
            jreach_ir::Op::Nondet(kind) if vd.ty != Ty::Void && relevant.contains(v) => Some(kind.to_string()),
            _ => None,
        }
    })
}

/// The name of a `Math` function the value a run over `blocks` returns was computed with, if
/// any (through φs, only along the edges the run took).
fn returned_math_function(f: &Function, blocks: &[BlockId]) -> Option<&'static str> {
    let last = *blocks.last()?;
    let Terminator::Return(Some(v)) = f.block(last).term else { return None };
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![v];
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        let vd = f.value(v);
        match &vd.op {
            jreach_ir::Op::Math(op, _) => return Some(op.name()),
            jreach_ir::Op::Phi(ins) => {
                // The predecessor the run came from into the φ's block (all of them if unclear).
                let at = blocks.iter().position(|b| *b == vd.block);
                let pred = at.and_then(|at| at.checked_sub(1)).map(|p| blocks[p]);
                let taken: Vec<ValueId> = ins.iter().filter(|(p, _)| Some(*p) == pred).map(|(_, x)| *x).collect();
                if taken.is_empty() {
                    work.extend(ins.iter().map(|(_, x)| *x));
                } else {
                    work.extend(taken);
                }
            }
            op => work.extend(op.operands()),
        }
    }
    None
}

/// The conditions decided on the way, in Java syntax, repeated ones folded.
fn path_condition(decisions: &[(jreach_ir::CondOrigin, bool)], m: &MethodInfo) -> Vec<String> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for (origin, taken) in decisions {
        if origin.span.start < m.range.start || origin.span.end > m.range.end {
            continue;
        }
        let text = origin.text.split_whitespace().collect::<Vec<_>>().join(" ");
        let text = if *taken { text } else { format!("!({text})") };
        match out.last_mut() {
            Some((last, n)) if *last == text => *n += 1,
            _ => out.push((text, 1)),
        }
    }
    let mut conds: Vec<String> =
        out.into_iter().map(|(t, n)| if n > 1 { format!("{t} (\u{d7}{n})") } else { t }).collect();
    if conds.len() > 12 {
        let extra = conds.len() - 12;
        conds.truncate(12);
        conds.push(format!("... {extra} more"));
    }
    conds
}

/// [`java_value`] for a field a test sets, where a default value is left out as the field's
/// own: a boxed field holding `0` or `false` is written `Integer.valueOf(0)`, which is no default
/// (the box's field starts out null).
pub(crate) fn field_java_value(v: &Value, ty: Ty, f: &Function) -> Option<JavaValue> {
    let j = java_value(v, ty, f)?;
    let boxed = match ty {
        Ty::Obj(c) => f.classes[c as usize].boxes.is_some(),
        _ => false,
    };
    if !boxed || !j.is_default() || j == JavaValue::Null {
        return Some(j);
    }
    let Ty::Obj(c) = ty else { return Some(j) };
    let (class, prim) = (&f.classes[c as usize].name, f.classes[c as usize].boxes?);
    Some(JavaValue::Constructed {
        class: class.clone(),
        args: vec![(prim.java_name().to_string(), j)],
        calls: vec![],
        body: vec![],
        factory: Some(format!("{class}.valueOf")),
        builder: None,
    })
}

/// The Java value of an interpreter value (None when unknown).
pub fn java_value(v: &Value, ty: Ty, f: &Function) -> Option<JavaValue> {
    Some(match v {
        Value::Object { id, fields } => {
            let Ty::Obj(c) = ty else { return None };
            let desc = &f.classes[c as usize];
            if let Some(prim) = desc.boxes {
                // Autoboxing writes a box as its value.
                return java_value(fields.first()?, prim, f);
            }
            if !desc.buildable && !desc.reflective {
                return None;
            }
            let fields = desc
                .fields
                .iter()
                .zip(fields)
                .map(|(fd, fv)| Some((fd.name.clone(), field_java_value(fv, fd.ty, f)?)))
                .collect::<Option<Vec<_>>>()?;
            JavaValue::Object { class: desc.name.clone(), id: *id, fields, by_reflection: desc.reflective }
        }
        Value::ObjRef(id) => match ty {
            Ty::Obj(c) if f.classes[c as usize].is_enum() => {
                let desc = &f.classes[c as usize];
                match usize::try_from(*id - 1).ok().and_then(|k| desc.constants.get(k)) {
                    Some(name) => JavaValue::EnumConstant { class: desc.name.clone(), name: name.clone() },
                    None if *id == 0 => JavaValue::Null,
                    None => return None,
                }
            }
            _ => JavaValue::ObjectRef(*id),
        },
        Value::Fields(_) => return None,
        Value::Array { id, items } => {
            // Arrays of references jreach does not track: their Java type is not known here.
            let Ty::Arr(a) = ty else { return None };
            if a.leaf == jreach_ir::Leaf::Ref {
                return None;
            }
            let elem = a.elem();
            let elem_ty = f.java_type_name(elem);
            let items = items.iter().map(|i| java_value(i, elem, f)).collect::<Option<Vec<_>>>()?;
            JavaValue::Array { elem_ty, id: *id, items }
        }
        Value::ArrRef(_) | Value::Mem(_) => return None,
        Value::Bool(b) => JavaValue::Bool(*b),
        Value::Int(Ty::Byte, x) => JavaValue::Byte(*x as i8),
        Value::Int(Ty::Short, x) => JavaValue::Short(*x as i16),
        Value::Int(Ty::Char, x) => JavaValue::Char(*x as u16),
        Value::Int(Ty::Long, x) => JavaValue::Long(*x),
        Value::Int(_, x) => JavaValue::Int(*x as i32),
        Value::Float(x) => JavaValue::Float(*x),
        Value::Double(x) => JavaValue::Double(*x),
        Value::Str(s) => JavaValue::Str(s.clone()),
        Value::Null => JavaValue::Null,
        Value::Unknown(_) => return None,
    })
}
