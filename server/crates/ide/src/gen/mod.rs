//! `gen`: reach one statement.
//!
//! Synthesis lowers the method with loops unrolled to growing bounds (2, 8, 32, … up to the
//! limit), solves, and replays the model on the concrete interpreter; a test is offered only when
//! the replay reaches the target. Unreachability is claimed only on UNSAT of a lowering that is
//! sound for proofs: the synthesis lowering when nothing was cut off, else the over-approximation.

use std::time::{Duration, Instant};

mod callers;
mod inputs;
mod java_values;
mod math_search;
mod receiver;
mod replay;

use jreach_ir::lower::{lower_in, FileContext, LowerOptions};
use jreach_ir::{BlockId, Blocker, CutoffKind, Function, Leaf, LowerMode, Terminator, Ty};
use jreach_smt::{solve_reach, solve_reach_avoiding, GaveUp, SolveOptions, Verdict};
use jreach_syntax::{find_target, MethodInfo, SourceFile, Target, TargetError};
use jreach_synth::{is_searched_collection, jdk_choices, ImportedSource, JUnit, JavaValue, Outcome, TestRequest};

pub use receiver::synthesis_options;
use receiver::{abstract_receiver, receiver_constructor, receiver_factory, unmodelled_params, unsupported_signature};
use replay::replay;

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
    if m.is_private {
        return through_callers(file, &target, opts);
    }
    gen_target(file, &target, opts)
}

/// A test for the statement on 0-based `line` with the simplest inputs jreach can write for its
/// method (for a private method, for the first method of its class calling it that works): the
/// start of a search on the JVM when [`gen`] found no test on its model. The inputs need not reach
/// the line, and the outcome is not asserted. `None` when jreach cannot write a call to the method.
pub fn search_start(file: &SourceFile, line: usize, opts: &GenOptions) -> Option<TestRequest> {
    crate::contain::contain(|| {
        let target = find_target(file, line).ok()?;
        if target.method.has_error {
            return None;
        }
        let entries = if target.method.is_private {
            let ctx = FileContext::new(file, None, None);
            callers::entry_callers(&ctx, &target.method, MAX_CALLERS)
        } else {
            vec![target.method.clone()]
        };
        entries.into_iter().find_map(|m| start_for(file, &Target { method: m, ..target.clone() }, opts))
    })
    .ok()
    .flatten()
}

/// [`search_start`] entered through `target.method`: the solver's smallest inputs that enter the
/// method at all.
fn start_for(file: &SourceFile, target: &Target, opts: &GenOptions) -> Option<TestRequest> {
    let m = &target.method;
    let ctx = FileContext::new(file, None, None);
    // A receiver no constructor makes may come from a static factory of its class.
    let factory = receiver_factory(&ctx, m);
    if factory.is_none() && (unsupported_signature(&ctx, m).is_some() || (m.class_is_abstract && !m.is_static)) {
        return None;
    }
    let with_package = with_package_sources(file, m, &opts.package_sources, &opts.imported_sources);
    let (synthesis_file, foreign_from) = match &with_package {
        Some((f, foreign_from)) => (f, *foreign_from),
        None => (file, None),
    };
    let lopts = LowerOptions {
        inline_depth: opts.inline_depth,
        foreign_from,
        own_end: with_package.is_some().then_some(file.text.len()),
        ..synthesis_options(&ctx, m, 2, false)
    };
    let package_ctx = with_package.as_ref().map(|_| FileContext::new(synthesis_file, foreign_from, lopts.own_end));
    let f = lower_in(package_ctx.as_ref().unwrap_or(&ctx), m, &lopts);
    // A parameter of a JDK type jreach does not model is a choice among values a test can write
    // (`Locale.US`, `String.class`, ...), which the search makes; any other such type, no start.
    // An array of references jreach does not track starts empty (the search may grow it).
    let own_class = m.classes.join(".");
    let mut given = Vec::new();
    let mut imports = Vec::new();
    let mut empty_arrays = Vec::new();
    for (i, p) in f.params.iter().enumerate() {
        match p.ty {
            _ if p.ty == Ty::Ref || is_searched_collection(&p.java_ty) => {
                let mut c = jdk_choices(&p.java_ty, &own_class)?;
                // An object of the class itself, for `equals(Object)` and its kin.
                let is_object =
                    matches!(p.java_ty.trim().trim_start_matches("final ").trim(), "Object" | "java.lang.Object");
                let top_level = m.classes.len() == 1;
                if is_object && top_level && !m.class_is_abstract && matches!(receiver_constructor(&ctx, m), Ok(None)) {
                    let own = JavaValue::Constructed {
                        class: own_class.clone(),
                        args: vec![],
                        calls: vec![],
                        body: vec![],
                        factory: None,
                        builder: None,
                    };
                    c.options.insert(c.options.len() - 1, own);
                }
                given.push((i, JavaValue::Choice { slot: None, options: c.options }));
                imports.extend(c.imports);
            }
            Ty::Arr(a) if a.leaf == Leaf::Ref => {
                let ty = p.java_ty.trim();
                let elem = ty.strip_suffix("...").or_else(|| ty.strip_suffix("[]"))?.trim();
                let elem = elem.strip_prefix("final ").unwrap_or(elem).trim();
                // Only types a test names the same anywhere (not a nested class of the file).
                let base = elem.trim_end_matches("[]").trim();
                if !(base.starts_with("java.") || JDK_ELEMENTS.contains(&base) || PRIMITIVES.contains(&base)) {
                    return None;
                }
                // (An id no array of the model has: this array is nobody else's.)
                given.push((i, JavaValue::Array { elem_ty: elem.to_string(), id: -1 - i as i64, items: vec![] }));
                empty_arrays.push(p.name.clone());
            }
            _ => {}
        }
    }
    let targets = f.blocks_of_stmt(target.stmt.start);
    let solve = SolveOptions {
        timeout: opts.timeout.min(Duration::from_secs(2)),
        prefer_small: true,
        cancel: opts.cancel.clone(),
    };
    let Verdict::Sat(args) = solve_reach(&f, &[f.entry], &solve) else { return None };
    let mut req = replay::request(file, target, &f, &targets, &args, opts, false, &given).ok()?;
    // An empty array's element type as the test declares it (type variables instantiated).
    for name in empty_arrays {
        let Some(pos) = req.params.iter().position(|(n, _)| *n == name) else { continue };
        let ty = req.params[pos].1.trim();
        let ty = ty.strip_prefix("final ").unwrap_or(ty).trim().to_string();
        if let (Some(elem), JavaValue::Array { elem_ty, .. }) =
            (ty.strip_suffix("...").or_else(|| ty.strip_suffix("[]")), &mut req.args[pos])
        {
            *elem_ty = elem.trim().to_string();
        }
    }
    for import in imports {
        if !req.imports.contains(&import) {
            req.imports.push(import);
        }
    }
    if let Some(factory) = factory {
        let mut args = Vec::new();
        for p in &factory.params {
            let ty = ctx.test_java_of(p.ty.trim().trim_start_matches("final ").trim());
            let value = match search_value(&ty) {
                Some(v) => v,
                None => {
                    let c = jdk_choices(&ty, &own_class)?;
                    req.imports.extend(c.imports.into_iter().filter(|i| !req.imports.contains(i)).collect::<Vec<_>>());
                    JavaValue::Choice { slot: None, options: c.options }
                }
            };
            args.push((ty, value));
        }
        req.receiver_factory = Some(format!("{own_class}.{}", factory.name));
        req.receiver_args = args;
    }
    if !m.is_static && !m.is_constructor {
        req.receiver_call_choices = receiver_call_choices(&ctx, m);
    }
    Some(req)
}

/// The value a search starts from for a parameter of type `ty` as a test writes it, if it is a
/// number, character, boolean or string: one, `'a'`, `true`, `"a"` (a zero or an empty string
/// is what factories and setters reject most).
fn search_value(ty: &str) -> Option<JavaValue> {
    Some(match ty.strip_prefix("java.lang.").unwrap_or(ty) {
        "int" | "Integer" | "short" | "byte" | "Short" | "Byte" => JavaValue::Int(1),
        "long" | "Long" => JavaValue::Long(1),
        "double" | "Double" => JavaValue::Double(1.0),
        "float" | "Float" => JavaValue::Float(1.0),
        "boolean" | "Boolean" => JavaValue::Bool(true),
        "char" | "Character" => JavaValue::Char(u16::from(b'a')),
        "String" => JavaValue::Str("a".into()),
        _ => return None,
    })
}

/// At most this many calls on the receiver a search on the JVM makes before the call under test.
const SEQUENCE_CALLS: usize = 6;

/// At most this many of the class's methods are candidates for those calls.
const SEQUENCE_METHODS: usize = 12;

/// The calls a search may make on the receiver of `m` to bring it into a state (a stack after
/// two pushes): the instance methods of its class a test may call whose arguments are numbers,
/// characters, booleans or strings (type variables as the test takes them), fewest arguments
/// first. Each of [`SEQUENCE_CALLS`] places holds none or one of them.
fn receiver_call_choices(ctx: &FileContext<'_>, m: &MethodInfo) -> Vec<jreach_synth::CallChoice> {
    let mut calls: Vec<jreach_synth::JavaCall> = Vec::new();
    let mut methods: Vec<&MethodInfo> = ctx
        .methods()
        .iter()
        .filter(|c| c.classes == m.classes && !c.is_static && !c.is_constructor && !c.is_private && !c.has_error)
        .filter(|c| !matches!(c.name.as_str(), "equals" | "hashCode" | "toString" | "clone" | "finalize"))
        // (Not a method of an anonymous class inside it, which has no name of its own.)
        .filter(|c| {
            let decl = c.node(ctx.file()).parent().and_then(|body| body.parent());
            decl.is_some_and(|d| matches!(d.kind(), "class_declaration" | "enum_declaration" | "record_declaration"))
        })
        .collect();
    methods.sort_by_key(|c| c.params.len());
    for c in methods {
        let args: Option<Vec<(String, JavaValue)>> = c
            .params
            .iter()
            .map(|p| {
                let ty = ctx.test_java_of(p.ty.trim().trim_start_matches("final ").trim());
                let value = search_value(&ty)?;
                Some((ty, value))
            })
            .collect();
        if let Some(args) = args {
            calls.push((c.name.clone(), args));
        }
        if calls.len() == SEQUENCE_METHODS {
            break;
        }
    }
    if calls.is_empty() {
        return vec![];
    }
    (0..SEQUENCE_CALLS).map(|_| jreach_synth::CallChoice { slot: None, calls: calls.clone() }).collect()
}

/// Element types of arrays a search may start empty: types of `java.lang` a test names without
/// an import (and primitives, for arrays of arrays).
const JDK_ELEMENTS: &[&str] = &[
    "String",
    "Object",
    "Integer",
    "Long",
    "Short",
    "Byte",
    "Double",
    "Float",
    "Boolean",
    "Character",
    "CharSequence",
    "Number",
    "Class<?>",
    "Class",
];

const PRIMITIVES: &[&str] = &["boolean", "byte", "short", "char", "int", "long", "float", "double"];

/// At most this many methods that call a private method are tried as the test's entry.
const MAX_CALLERS: usize = 4;

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
    for caller in callers {
        if started.elapsed() >= opts.timeout {
            break;
        }
        let via = Target { method: caller.clone(), ..target.clone() };
        match gen_target(file, &via, opts)? {
            GenResult::Test(req) => return Ok(GenResult::Test(req)),
            GenResult::Unknown(why) => tried.push(format!("{}: {why}", caller.signature())),
            GenResult::Unreachable(_) => tried.push(format!("{}: not on its paths", caller.signature())),
        }
    }
    let line = target.line + 1;
    Ok(GenResult::Unknown(if tried.is_empty() {
        format!(
            "{} is private: a test cannot call it directly, and no method of its class that a test can call calls it",
            m.signature()
        )
    } else {
        format!(
            "{} is private: a test cannot call it directly, and no method calling it reached line {line} ({})",
            m.signature(),
            tried.join("; ")
        )
    }))
}

/// The ladder of attempts for `target`, entered through `target.method`.
fn gen_target(file: &SourceFile, target: &Target, opts: &GenOptions) -> Result<GenResult, GenError> {
    let line = target.line;
    let m = &target.method;
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
