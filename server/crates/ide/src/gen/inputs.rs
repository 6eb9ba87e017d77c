//! From the solver's inputs to the Java a test writes for objects it creates through calls
//! (`ir::Setup`): constructor calls and the calls after them, lambdas, anonymous classes,
//! `List.of`, `Map.of`, arrays of objects, static fields.

use jreach_ir::interp::Value;
use jreach_ir::{Function, Setup, SetupCall};
use jreach_synth::{JavaCall, JavaValue, StaticAssignment, StubMethodValue};

use super::java_values::java_value;

/// The inputs that only steer how objects are created (never arguments of the call themselves).
pub(crate) fn setup_inputs(setup: &Setup) -> Vec<usize> {
    setup
        .built_params
        .iter()
        .flat_map(|b| {
            std::iter::once(b.how).chain(b.args.iter().map(|(i, _)| *i)).chain(b.returns.iter().flatten().copied())
        })
        .chain(
            setup
                .receiver_calls
                .iter()
                .chain(setup.built_params.iter().flat_map(|b| &b.calls))
                .flat_map(|c| std::iter::once(c.flag).chain(c.args.iter().map(|(i, _)| *i))),
        )
        .chain(setup.lambda_params.iter().flat_map(|l| {
            std::iter::once(l.present).chain(l.returns).chain(l.specials.iter().flat_map(|(k, v)| [*k, *v]))
        }))
        .chain(
            setup
                .stub_params
                .iter()
                .flat_map(|l| std::iter::once(l.present).chain(l.returns.iter().flatten().copied())),
        )
        .chain(
            setup
                .list_params
                .iter()
                .flat_map(|l| [l.present, l.size].into_iter().chain(l.elems.iter().copied()).chain(l.same_as)),
        )
        .chain(setup.map_params.iter().flat_map(|m| {
            [m.present, m.size]
                .into_iter()
                .chain(m.keys.iter().copied())
                .chain(m.values.iter().copied())
                .chain(m.same_as)
        }))
        .chain(setup.array_params.iter().flat_map(|a| {
            [a.present, a.length]
                .into_iter()
                .chain(a.elems.iter().copied())
                .chain(a.rows.iter().flat_map(|r| [r.present, r.length].into_iter().chain(r.elems.iter().copied())))
        }))
        .chain(setup.opaque_params.iter().map(|o| o.present))
        .chain(setup.static_inputs.iter().map(|s| s.param))
        .chain(setup.receiver_returns.iter().flatten().copied())
        .chain(setup.receiver_fields.iter().flatten().map(|(i, _)| *i))
        .collect()
}

/// For a receiver made by reflection: its fields with the solver's values.
pub(crate) fn receiver_fields(f: &Function, args: &[Value]) -> Result<Option<Vec<(String, JavaValue)>>, String> {
    let Some(fields) = &f.setup.receiver_fields else { return Ok(None) };
    let values = fields
        .iter()
        .map(|(i, name)| {
            let v = super::java_values::field_java_value(&args[*i], f.params[*i].ty, f).ok_or_else(|| {
                format!("jreach cannot write the receiver's field `{name}` ({}) into a test", args[*i])
            })?;
            Ok((name.clone(), v))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Some(values))
}

/// The calls among `calls` that the test makes before the call under test, with their arguments.
pub(crate) fn setup_calls(calls: &[SetupCall], f: &Function, args: &[Value]) -> Result<Vec<JavaCall>, String> {
    let mut out = Vec::new();
    for call in calls {
        if !matches!(args[call.flag], Value::Bool(true)) {
            continue;
        }
        out.push(JavaCall::new(call.method.clone(), typed_values(&call.args, f, args)?));
    }
    Ok(out)
}

/// The Java value of plain input `i`, written inside another call (a constructor's argument,
/// a setter's): an object there is only `new C()` with nothing set.
fn plain_value(i: usize, f: &Function, args: &[Value]) -> Result<JavaValue, String> {
    if let Some(v) = opaque_jdk_value(i, f, args) {
        return Ok(v);
    }
    if let Some(v) = super::java_values::empty_array_of_named_elements(&args[i], &f.params[i]) {
        return Ok(v);
    }
    let cannot = || format!("jreach cannot write the input `{}` ({}) into a test", f.params[i].name, args[i]);
    let v = java_value(&args[i], f.params[i].ty, f).ok_or_else(cannot)?;
    if matches!(v, JavaValue::Object { .. }) && !super::java_values::writable_inline(&v) {
        return Err(format!("{} (an object with its fields set, as an argument of a call)", cannot()));
    }
    Ok(v)
}

/// For input `i` of a JDK type jreach does not model but a test writes a value of
/// (`Setup::opaque_params`, [`jreach_ir::opaque_jdk`]): null when the model says so, else the
/// first of its candidates (`new StringWriter()`), which the model has no further say in (a
/// search on the JVM tries the others). `None` for other inputs.
pub(crate) fn opaque_jdk_value(i: usize, f: &Function, args: &[Value]) -> Option<JavaValue> {
    let o = f.setup.opaque_params.iter().find(|o| o.param == i)?;
    if matches!(args[o.present], Value::Bool(false)) {
        return Some(JavaValue::Null);
    }
    jreach_synth::jdk_choices(&f.params[i].java_ty, "").and_then(|c| c.options.into_iter().next())
}

/// The classes a test may name when it writes the values of [`opaque_jdk_value`] of `f`'s
/// inputs.
pub(crate) fn opaque_jdk_imports(f: &Function) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for o in &f.setup.opaque_params {
        for import in jreach_synth::jdk_choices(&f.params[o.param].java_ty, "").map(|c| c.imports).unwrap_or_default() {
            if !out.contains(&import) {
                out.push(import);
            }
        }
    }
    out
}

/// The Java values of the plain inputs `inputs` (index, Java type), with their types.
fn typed_values(inputs: &[(usize, String)], f: &Function, args: &[Value]) -> Result<Vec<(String, JavaValue)>, String> {
    inputs.iter().map(|(i, ty)| Ok((ty.clone(), plain_value(*i, f, args)?))).collect()
}

/// How many elements a created collection holds: `None` when the test passes null (input
/// `present` false), else input `count`, at most `cap`; `what` names it in errors.
fn created_count(
    present: usize,
    count: usize,
    cap: usize,
    args: &[Value],
    what: &str,
) -> Result<Option<usize>, String> {
    if !matches!(args[present], Value::Bool(true)) {
        return Ok(None);
    }
    match args[count] {
        Value::Int(_, n) if (0..=cap as i64).contains(&n) => Ok(Some(n as usize)),
        ref other => Err(format!("{what} of {other} elements")),
    }
}

/// The list (or null) a test passes for a `List` parameter; the Optional for an `Optional` one.
pub(crate) fn list_value(l: &jreach_ir::ListParam, f: &Function, args: &[Value]) -> Result<JavaValue, String> {
    if let Some(same) = same_collection(l.same_as, &l.earlier, args, &f.params[l.param].name)? {
        return Ok(same);
    }
    let Some(size) = created_count(l.present, l.size, l.elems.len(), args, "a list")? else {
        return Ok(JavaValue::Null);
    };
    let items: Vec<JavaValue> = l.elems[..size].iter().map(|&i| element_value(i, f, args)).collect::<Result<_, _>>()?;
    if l.optional {
        return Ok(JavaValue::Optional { elem_ty: l.elem_java.clone(), item: items.into_iter().next().map(Box::new) });
    }
    Ok(JavaValue::List { elem_ty: l.elem_java.clone(), items, mutable: l.mutated })
}

/// `SameAs` the earlier collection parameter that input `same` chooses, if it chooses one.
fn same_collection(
    same: Option<usize>,
    earlier: &[usize],
    args: &[Value],
    name: &str,
) -> Result<Option<JavaValue>, String> {
    let Some(same) = same else { return Ok(None) };
    match args[same] {
        Value::Int(_, 0) => Ok(None),
        Value::Int(_, k) if k > 0 && (k as usize) <= earlier.len() => {
            Ok(Some(JavaValue::SameAs(earlier[k as usize - 1])))
        }
        ref other => Err(format!("no way to create the collection `{name}` ({other})")),
    }
}

/// The map (or null) a test passes for a `Map` parameter.
pub(crate) fn map_value(m: &jreach_ir::MapParam, f: &Function, args: &[Value]) -> Result<JavaValue, String> {
    if let Some(same) = same_collection(m.same_as, &m.earlier, args, &f.params[m.param].name)? {
        return Ok(same);
    }
    let Some(size) = created_count(m.present, m.size, m.keys.len(), args, "a map")? else {
        return Ok(JavaValue::Null);
    };
    let mut entries = Vec::new();
    for k in 0..size {
        entries.push((element_value(m.keys[k], f, args)?, element_value(m.values[k], f, args)?));
    }
    Ok(JavaValue::Map { key_ty: m.key_java.clone(), value_ty: m.value_java.clone(), entries, mutable: m.mutated })
}

/// The array (or null) a test passes for a parameter of type `E[]` with objects as elements.
pub(crate) fn array_value(a: &jreach_ir::ArrayParam, f: &Function, args: &[Value]) -> Result<JavaValue, String> {
    if !a.rows.is_empty() {
        return grid_value(a, f, args);
    }
    let Some(length) = created_count(a.present, a.length, a.elems.len(), args, "an array")? else {
        return Ok(JavaValue::Null);
    };
    let items = a.elems[..length]
        .iter()
        .map(|&i| match element_value(i, f, args)? {
            // An earlier element's object, or a parameter's (which stays `SameAs`).
            JavaValue::SameAs(p) => match a.elems[..length].iter().position(|e| *e == p) {
                Some(j) => Ok(JavaValue::SameItem(j)),
                None if a.elems.contains(&p) => {
                    Err(format!("element `{}` is the object of an element beyond the array", f.params[i].name))
                }
                None => Ok(JavaValue::SameAs(p)),
            },
            v => Ok(v),
        })
        .collect::<Result<_, _>>()?;
    // Each array parameter is an array of its own: ids below those of the solver's arrays.
    Ok(JavaValue::Array { elem_ty: a.elem_java.clone(), id: -1 - a.param as i64, items })
}

/// The two-dimensional array (or null) a test passes for a parameter of type `E[][]` with
/// objects as elements: rows of their own, or null.
fn grid_value(a: &jreach_ir::ArrayParam, f: &Function, args: &[Value]) -> Result<JavaValue, String> {
    let Some(rows) = created_count(a.present, a.length, a.rows.len(), args, "an array")? else {
        return Ok(JavaValue::Null);
    };
    let mut items = Vec::new();
    for (k, r) in a.rows[..rows].iter().enumerate() {
        let row = match created_count(r.present, r.length, r.elems.len(), args, "a row")? {
            None => JavaValue::Null,
            Some(length) => JavaValue::Array {
                elem_ty: a.elem_java.clone(),
                // Ids of their own, below the parameters' arrays.
                id: -1_000_000 - (a.param * a.rows.len() + k) as i64,
                items: r.elems[..length].iter().map(|&i| element_value(i, f, args)).collect::<Result<_, _>>()?,
            },
        };
        items.push(row);
    }
    Ok(JavaValue::Array { elem_ty: format!("{}[]", a.elem_java), id: -1 - a.param as i64, items })
}

/// The value of input `i`, an element of a list, map or array.
fn element_value(i: usize, f: &Function, args: &[Value]) -> Result<JavaValue, String> {
    match f.setup.built_params.iter().find(|b| b.param == i) {
        Some(b) => built_value(b, f, args),
        None => plain_value(i, f, args),
    }
}

/// The lambda (or null) a test passes for a parameter of a functional interface.
pub(crate) fn lambda_value(l: &jreach_ir::LambdaParam, f: &Function, args: &[Value]) -> Result<JavaValue, String> {
    if !matches!(args[l.present], Value::Bool(true)) {
        return Ok(JavaValue::Null);
    }
    let desc = &f.classes[l.class as usize];
    let Some(lambda) = &desc.lambda else { return Err(format!("{} is not a functional interface", desc.name)) };
    let returns = match l.returns {
        Some(i) => Some(Box::new((lambda.ret_java.clone(), plain_value(i, f, args)?))),
        None => None,
    };
    // The special arguments only when they give another answer (and only the first of equal
    // ones, which wins): otherwise fewer values say it all.
    let mut special = Vec::new();
    if let Some(r) = &returns {
        for (k, v) in &l.specials {
            let (key, other) = (plain_value(*k, f, args)?, plain_value(*v, f, args)?);
            if other != r.1
                && !special.iter().any(|((_, earlier), _): &((String, JavaValue), JavaValue)| *earlier == key)
            {
                special.push(((f.params[*k].java_ty.clone(), key), other));
            }
        }
    }
    Ok(JavaValue::Lambda { interface: desc.name.clone(), arity: lambda.arity, returns, special })
}

/// The anonymous class (or null) a test passes for a parameter of an interface with several
/// methods.
pub(crate) fn stub_value(l: &jreach_ir::StubParam, f: &Function, args: &[Value]) -> Result<JavaValue, String> {
    if !matches!(args[l.present], Value::Bool(true)) {
        return Ok(JavaValue::Null);
    }
    let desc = &f.classes[l.class as usize];
    let methods = stub_methods(&desc.stub, &l.returns, f, args)?;
    Ok(JavaValue::Stub { interface: desc.name.clone(), methods })
}

/// The methods of the anonymous subclass a test creates as the receiver of a method of an
/// abstract class (none for other receivers).
pub(crate) fn receiver_body(f: &Function, args: &[Value]) -> Result<Option<Vec<StubMethodValue>>, String> {
    let returns = &f.setup.receiver_returns;
    if !f.setup.receiver_subclassed {
        return Ok(None);
    }
    if returns.is_empty() {
        return Ok(Some(vec![]));
    }
    let class = f.name.rsplit_once('.').map(|(c, _)| c).unwrap_or("");
    let Some(desc) = f.classes.iter().find(|d| d.name == class) else {
        return Err(format!("no description of the receiver's class {class}"));
    };
    stub_methods(&desc.stub, returns, f, args).map(Some)
}

/// The methods of an anonymous class: `stub`'s, returning the values of inputs `returns`.
fn stub_methods(
    stub: &[jreach_ir::StubMethod],
    returns: &[Option<usize>],
    f: &Function,
    args: &[Value],
) -> Result<Vec<StubMethodValue>, String> {
    stub.iter()
        .zip(returns)
        .map(|(m, ret)| {
            Ok(StubMethodValue {
                name: m.name.clone(),
                params: m.params.clone(),
                ret_java: m.ret_java.clone(),
                returns: ret.map(|i| plain_value(i, f, args)).transpose()?,
            })
        })
        .collect()
}

/// The argument a test passes for a parameter it creates with a constructor.
pub(crate) fn built_value(b: &jreach_ir::BuiltParam, f: &Function, args: &[Value]) -> Result<JavaValue, String> {
    let how = match &args[b.how] {
        Value::Int(_, x) => *x,
        other => return Err(format!("no way to create the input `{}` ({other})", f.params[b.param].name)),
    };
    Ok(match how {
        0 => JavaValue::Null,
        1 => {
            let ctor_args = typed_values(&b.args, f, args)?;
            JavaValue::Constructed {
                class: f.classes[b.class as usize].name.clone(),
                args: ctor_args,
                calls: setup_calls(&b.calls, f, args)?,
                choices: vec![],
                body: match &f.classes[b.class as usize] {
                    d if d.subclassed => Some(stub_methods(&d.stub, &b.returns, f, args)?),
                    _ => None,
                },
                factory: b.factory.clone(),
                builder: b.builder.as_ref().map(|(k, build)| (f.classes[*k as usize].name.clone(), build.clone())),
                cast_args: false,
            }
        }
        k => match b.aliases.get((k - 2) as usize) {
            // The same object as an earlier parameter (null when that one is null).
            Some(p) => match f.setup.built_params.iter().find(|o| o.param == *p) {
                Some(o) if matches!(args[o.how], Value::Int(_, 0)) => JavaValue::Null,
                _ => JavaValue::SameAs(*p),
            },
            None => return Err(format!("no way to create the input `{}`", f.params[b.param].name)),
        },
    })
}

/// The static fields the test assigns, with the solver's values.
pub(crate) fn static_assignments(f: &Function, args: &[Value]) -> Result<Vec<StaticAssignment>, String> {
    f.setup
        .static_inputs
        .iter()
        .map(|s| {
            Ok(StaticAssignment {
                class: s.class.clone(),
                field: s.field.clone(),
                // Enum and boxed types by the name the test's package knows them by.
                java_ty: match f.params[s.param].ty {
                    ty @ jreach_ir::Ty::Obj(_) => f.java_type_name(ty),
                    _ => f.params[s.param].java_ty.clone(),
                },
                value: plain_value(s.param, f, args)?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    /// The model passes values of these types only because a test can write one: each has
    /// candidates, and the first is not null (null is what the model's own flag gives).
    #[test]
    fn every_opaque_jdk_type_has_a_value_a_test_writes() {
        for name in jreach_ir::opaque_jdk::OPAQUE_JDK_TYPES {
            let choices = jreach_synth::jdk_choices(name, "C").unwrap_or_else(|| panic!("no candidates for {name}"));
            assert_ne!(choices.options.first(), Some(&jreach_synth::JavaValue::Null), "{name}'s first candidate");
            let qualified = format!("java.lang.{name}");
            assert!(jreach_ir::opaque_jdk::test_writes_value_of(name));
            // A name of the JDK's own package, written in full, is the same type.
            if matches!(*name, "Object" | "Number" | "Throwable" | "Exception" | "RuntimeException") {
                assert!(jreach_ir::opaque_jdk::test_writes_value_of(&qualified));
            }
        }
    }
}
