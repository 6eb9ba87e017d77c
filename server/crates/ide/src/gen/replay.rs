//! Replaying a model: the solver's inputs run on the interpreter, and only if the run reaches
//! the target do they become a test request (arguments, receiver, the outcome to assert, the
//! path in words). What ran after the target and is not modelled turns the assertion off.

use jreach_ir::interp::{self, End, Value};
use jreach_ir::lower::FileContext;
use jreach_ir::{BlockId, CutoffKind, Function, NondetKind, Terminator, Ty, ValueId};
use jreach_syntax::{MethodInfo, SourceFile, Target};
use jreach_synth::{JavaValue, Outcome, TestRequest};

use super::inputs::{
    array_value, built_value, lambda_value, list_value, map_value, opaque_jdk_imports, opaque_jdk_value, receiver_body,
    receiver_fields, setup_calls, setup_inputs, static_assignments, stub_value,
};
use super::java_values::{empty_array_of_named_elements, java_value, unwritable_long_array, writable_inline};
use super::{GenOptions, MAX_STEPS};

/// Replays the model; on success, the test request.
pub(crate) fn replay(
    file: &SourceFile,
    target: &Target,
    f: &Function,
    targets: &[BlockId],
    args: &[Value],
    opts: &GenOptions,
) -> Result<TestRequest, String> {
    request(file, target, f, targets, args, opts, true, &[])
}

/// The test request of `args` whether or not they reach the target (`must_reach` false): where a
/// search on the JVM begins. Its outcome is then not asserted. The parameters in `given` are
/// written as the value given there instead of their value in `args`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn request(
    file: &SourceFile,
    target: &Target,
    f: &Function,
    targets: &[BlockId],
    args: &[Value],
    opts: &GenOptions,
    must_reach: bool,
    given: &[(usize, JavaValue)],
) -> Result<TestRequest, String> {
    request_choosing(file, target, f, targets, args, opts, must_reach, given, &|_, _| None)
}

/// [`request`], the run taking `choose`'s values for the lowering's unknowns (what a run on the
/// JVM showed the calls jreach does not model return: a concolic round).
#[allow(clippy::too_many_arguments)]
pub(crate) fn request_choosing(
    file: &SourceFile,
    target: &Target,
    f: &Function,
    targets: &[BlockId],
    args: &[Value],
    opts: &GenOptions,
    must_reach: bool,
    given: &[(usize, JavaValue)],
    choose: interp::NondetChoice<'_>,
) -> Result<TestRequest, String> {
    let given_for = |i: usize| given.iter().find(|(k, _)| *k == i).map(|(_, v)| v.clone());
    let unknown = f
        .params
        .iter()
        .zip(args)
        .enumerate()
        .find(|(i, (_, a))| a.is_unknown() && !f.setup.creates(*i) && given_for(*i).is_none());
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
        let value = if let Some(v) = given_for(i) {
            v
        } else if let Some(m) = setup.map_params.iter().find(|m| m.param == i) {
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
            match built_value(b, f, args) {
                Ok(v) => v,
                // Asked only to enter the method (a search's start), the solver may leave the
                // way the object is made open: the object its constructor makes, then.
                Err(_) if !must_reach => {
                    let mut made = args.to_vec();
                    made[b.how] = Value::Int(Ty::Int, 1);
                    built_value(b, f, &made)?
                }
                Err(e) => return Err(e),
            }
        } else if let Some(v) = opaque_jdk_value(i, f, args) {
            v
        } else if let Some(v) = empty_array_of_named_elements(a, p) {
            v
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
            if let Some(why) = unwritable_long_array(&value, false) {
                return Err(format!("the receiver's constructor argument `{ctor_name}` would be {why}"));
            }
            receiver_args.push((p.java_ty.clone(), value));
        } else {
            if let Some(why) = unwritable_long_array(&value, true) {
                return Err(format!("the input `{}` would be {why}, which jreach does not write into tests", p.name));
            }
            java_args.push(value);
        }
    }
    let run = interp::run_choosing(f, args, choose, MAX_STEPS);
    let reached = run.reached(targets);
    if !reached && must_reach {
        let why = match &run.end {
            End::Unknown(why) => format!("on the way to line {}, {why}", target.line + 1),
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
    if let (true, End::Cutoff(CutoffKind::EndsJvm(call))) = (reached, &run.end) {
        // The test would end the JVM that runs the build's tests.
        return Err(format!(
            "with the inputs jreach found, the method calls {call} after line {}, which would end the JVM \
             running the tests",
            target.line + 1
        ));
    }
    let m = &target.method;
    let mut held_imports = Vec::new();
    let returned_by = m.held_by.as_ref().and_then(|h| h.returned_by.as_ref());
    if let Some(params) = returned_by {
        // The object comes from a static method, called with the simplest arguments a test
        // writes (the search on the JVM tries others).
        let ctx = FileContext::new(file, None, None);
        let own = m.classes.join(".");
        let args = super::start::searched_args(&ctx, params, &own, &mut held_imports).ok_or_else(|| {
            let holder = m.held_by.as_ref().map(|h| h.member.as_str()).unwrap_or_default();
            format!(
                "jreach cannot write the arguments of {own}.{holder}, which returns the object of line {}",
                target.line + 1
            )
        })?;
        receiver_args = args
            .into_iter()
            .map(|(ty, v)| match v {
                JavaValue::Choice { options, .. } => (ty, options.into_iter().next().unwrap_or(JavaValue::Null)),
                v => (ty, v),
            })
            .collect();
    }
    let outcome = match &run.end {
        // What the object keeps of the arguments it was made with is not in the model.
        _ if returned_by.is_some() && reached => {
            Outcome::Undetermined("what the object keeps of the arguments it was made with".into())
        }
        _ if !reached => Outcome::Undetermined("the inputs are a search's start".into()),
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
    let path =
        if reached { path_condition(&run.decisions[..decisions_before.min(run.decisions.len())], m) } else { vec![] };
    let stmt_text = target.first_line(file).to_string();
    let mut req = TestRequest {
        package: m.package.clone(),
        classes: m.classes.clone(),
        method: m.name.clone(),
        is_static: m.is_static,
        is_constructor: m.is_constructor,
        // As the test writes them: type variables as the lowering took them (`T[]` → `Integer[]`).
        params: m
            .params
            .iter()
            .zip(&f.params)
            .map(|(p, fp)| (p.name.clone(), fp.java_ty.clone()))
            .chain(m.params.iter().skip(f.params.len()).map(|p| (p.name.clone(), p.ty.clone())))
            .collect(),
        args: java_args,
        return_ty: m.return_ty.clone(),
        outcome,
        target_line: target.line + 1,
        target_text: stmt_text,
        target_member: jreach_syntax::member_at(file, target.line).map(|m| m.name),
        target_action: jreach_syntax::statement_action(file, target.stmt.clone()),
        path_condition: path,
        junit: opts.junit,
        receiver_args,
        receiver_calls: setup_calls(&f.setup.receiver_calls, f, args)?,
        receiver_body: receiver_body(f, args)?,
        receiver_fields: receiver_fields(f, args)?,
        receiver_class: None,
        imports: opts
            .imported_sources
            .iter()
            .map(|s| s.qualified.clone())
            .chain(opaque_jdk_imports(f))
            .chain(held_imports)
            .collect(),
        unmodelled_before_target: unseen_call_before(f, &run.blocks[..first_target]),
        declares_checked: declares_throws(file, &target.method),
        receiver_call_choices: vec![],
        receiver_factory: None,
        receiver_from: None,
        then_call: None,
        null_casts: Default::default(),
        named_classes: vec![],
        held_by: m.held_by.clone(),
        initializes_class: false,
        outer: None,
        also_runs: vec![],
        statics: static_assignments(f, args)?,
    };
    super::overloads::cast_nulls(file, m, &mut req);
    Ok(req)
}

/// The first value among `blocks` (a run's blocks) that stands for code jreach does not model:
/// an unknown of a type other than `void`, described.
pub(crate) fn unmodelled_after(f: &Function, blocks: &[BlockId]) -> Option<String> {
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

/// The first call jreach cannot see into among `blocks` (the part of a run before the target),
/// described. Any such call may throw, so the run's reaching the target is an assumption.
pub(crate) fn unseen_call_before(f: &Function, blocks: &[BlockId]) -> Option<String> {
    blocks.iter().flat_map(|b| &f.block(*b).insts).find_map(|v| match &f.value(*v).op {
        jreach_ir::Op::Nondet(kind @ (NondetKind::CallResult { .. } | NondetKind::CallThrows { .. })) => {
            Some(kind.to_string())
        }
        _ => None,
    })
}

/// The name of a `Math` function the value a run over `blocks` returns was computed with, if
/// any (through φs, only along the edges the run took).
pub(crate) fn returned_math_function(f: &Function, blocks: &[BlockId]) -> Option<&'static str> {
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
pub(crate) fn path_condition(decisions: &[(jreach_ir::CondOrigin, bool)], m: &MethodInfo) -> Vec<String> {
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

/// Whether `m` has a `throws` clause: the test method then declares `throws Exception`, or a
/// checked exception would keep it from compiling.
fn declares_throws(file: &SourceFile, m: &MethodInfo) -> bool {
    let node = m.node(file);
    let mut cursor = node.walk();
    let found = node.children(&mut cursor).any(|c| c.kind() == "throws");
    found
}
