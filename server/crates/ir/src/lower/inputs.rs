//! The inputs a synthesis lowering adds for objects a test creates through calls rather than
//! literals (`func::Setup`): parameters of the file's classes built with a constructor (null, a
//! new object, or an earlier parameter) and then optional setter-like calls, optional calls on
//! the receiver, lambdas and anonymous classes returning one value per method, and `List.of` / `Map.of` / `new E[] {...}`
//! parameters whose elements are such inputs in turn. Every narrowing records a proof blocker.

use jreach_syntax::{text_of, MethodInfo, Node, SourceFile};

use super::{named_children, this_field_name, unparen, Classes, ListModel, LowerOptions, Lowerer};
use crate::func::*;
use crate::opaque_jdk::test_writes_value_of;
use crate::types::{ArrTy, Leaf, Ty};

/// An optional call a test may make, with the method it calls.
type PlannedCall = (SetupCall, MethodInfo);

/// A parameter created with a constructor: its inputs, the constructor (`None`: the implicit
/// one), the optional calls after, and for a builder the method that builds the object.
type PlannedBuild = (BuiltParam, Option<MethodInfo>, Vec<PlannedCall>, Option<MethodInfo>);

/// The inputs of a synthesis lowering beyond the method's own parameters: how a test creates
/// the objects it passes (constructor calls, calls after them, lambdas, lists, maps). Their
/// inputs are appended to `params`.
pub(super) struct InputPlan {
    built: Vec<PlannedBuild>,
    lambda_params: Vec<LambdaParam>,
    opaque_params: Vec<OpaqueParam>,
    stub_params: Vec<StubParam>,
    list_params: Vec<ListParam>,
    map_params: Vec<MapParam>,
    array_params: Vec<ArrayParam>,
    receiver_calls: Vec<PlannedCall>,
    calls_possible: bool,
}

/// Plans the created inputs of `method` (none outside synthesis).
/// `methods` are the file's methods (`MethodInfo::all`). The parameters before `own_params` are
/// the method's own; those from there to `created_end` the arguments of the receiver's
/// constructor, which a test writes inside `new C(...)`: created too, but never an earlier
/// parameter's object or collection, nor set up with calls.
#[allow(clippy::too_many_arguments)]
pub(super) fn plan_inputs(
    file: &SourceFile,
    methods: &[MethodInfo],
    method: &MethodInfo,
    opts: &LowerOptions,
    classes: &Classes,
    params: &mut Vec<ParamInfo>,
    own_params: usize,
    created_end: usize,
) -> InputPlan {
    let synthesis = matches!(opts.mode, LowerMode::Synthesis { .. });
    let mut calls_possible = false;
    let mut receiver_calls = Vec::new();
    if synthesis && !method.is_static && !method.is_constructor {
        if let Some(c) = classes.by_name.get(&method.classes.join(".")).copied() {
            let candidates = setup_call_candidates(file, methods, c, method, classes);
            calls_possible |= !opts.setup_calls && !candidates.is_empty();
            if opts.setup_calls {
                receiver_calls = setup_call_inputs(params, "", candidates, classes);
            }
        }
    }
    // Synthesis: parameters of the file's classes that a test creates with a constructor; the
    // choice and the constructor's arguments become inputs after the others.
    let mut built = Vec::new();
    let mut lambda_params = Vec::new();
    let mut opaque_params = Vec::new();
    let mut stub_params = Vec::new();
    let mut list_params = Vec::new();
    let mut map_params = Vec::new();
    let mut array_params = Vec::new();
    if synthesis {
        for i in 0..created_end {
            let Ty::Obj(c) = params[i].ty else { continue };
            let optional = classes.descs[c as usize].is_optional();
            if !classes.descs[c as usize].is_list() && !optional {
                continue;
            }
            let Some((elem_ty, elem_java)) = list_element(classes, methods, &params[i].java_ty) else { continue };
            let (names, capacity) =
                if optional { (("optional", "present"), 1) } else { (("list", "size"), LIST_CAPACITY) };
            let (present, size, elems) = sequence_inputs(params, i, names, capacity, elem_ty, &elem_java);
            // A list may be the same list as an earlier list parameter of its element type.
            let earlier: Vec<usize> = list_params
                .iter()
                .filter(|l: &&ListParam| !l.optional && !optional && l.elem_java == elem_java)
                .filter(|l| i < own_params && l.param < own_params)
                .map(|l| l.param)
                .collect();
            let same_as = same_input(params, i, &earlier);
            list_params.push(ListParam {
                param: i,
                present,
                size,
                elems,
                elem_java,
                mutated: false,
                optional,
                same_as,
                earlier,
            });
        }
        for i in 0..created_end {
            let Ty::Obj(c) = params[i].ty else { continue };
            if !classes.descs[c as usize].is_map() {
                continue;
            }
            let Some(((key_ty, key_java), (value_ty, value_java))) = map_entry(classes, methods, &params[i].java_ty)
            else {
                continue;
            };
            let name = params[i].name.clone();
            let present = params.len();
            params.push(ParamInfo { name: built_param_name(&name, "map"), ty: Ty::Bool, java_ty: "boolean".into() });
            let size = params.len();
            params.push(ParamInfo { name: built_param_name(&name, "size"), ty: Ty::Int, java_ty: "int".into() });
            let (mut keys, mut values) = (Vec::new(), Vec::new());
            for k in 0..MAP_CAPACITY {
                keys.push(params.len());
                params.push(ParamInfo {
                    name: built_param_name(&name, &format!("key{k}")),
                    ty: key_ty,
                    java_ty: key_java.clone(),
                });
                values.push(params.len());
                params.push(ParamInfo {
                    name: built_param_name(&name, &format!("value{k}")),
                    ty: value_ty,
                    java_ty: value_java.clone(),
                });
            }
            // A map may be the same map as an earlier map parameter of its types.
            let earlier: Vec<usize> = map_params
                .iter()
                .filter(|m: &&MapParam| m.key_java == key_java && m.value_java == value_java)
                .filter(|m| i < own_params && m.param < own_params)
                .map(|m| m.param)
                .collect();
            let same_as = same_input(params, i, &earlier);
            map_params.push(MapParam {
                param: i,
                present,
                size,
                keys,
                values,
                key_java,
                value_java,
                mutated: false,
                same_as,
                earlier,
            });
        }
        for i in 0..created_end {
            let Ty::Arr(ArrTy { leaf: Leaf::Obj(c), dims: 1 }) = params[i].ty else { continue };
            let Some(elem_java) = object_element(classes, methods, c) else { continue };
            let (present, length, elems) =
                sequence_inputs(params, i, ("array", "length"), OBJECT_ARRAY_CAPACITY, Ty::Obj(c), &elem_java);
            array_params.push(ArrayParam { param: i, present, length, elems, elem_java, rows: vec![] });
        }
        // Two-dimensional: rows of their own, each like a short one-dimensional array.
        for i in 0..created_end {
            let Ty::Arr(ArrTy { leaf: Leaf::Obj(c), dims: 2 }) = params[i].ty else { continue };
            let Some(elem_java) = object_element(classes, methods, c) else { continue };
            let (present, length, _) = sequence_inputs(params, i, ("array", "rows"), 0, Ty::Obj(c), &elem_java);
            let rows = (0..OBJECT_GRID_CAPACITY)
                .map(|r| {
                    let name = built_param_name(&params[i].name, &r.to_string());
                    let (present, length, elems) = named_sequence_inputs(
                        params,
                        &name,
                        ("array", "length"),
                        OBJECT_GRID_CAPACITY,
                        Ty::Obj(c),
                        &elem_java,
                    );
                    ArrayRow { present, length, elems }
                })
                .collect();
            array_params.push(ArrayParam { param: i, present, length, elems: vec![], elem_java, rows });
        }
        let elements: Vec<usize> = list_params
            .iter()
            .flat_map(|l: &ListParam| l.elems.clone())
            .chain(map_params.iter().flat_map(|m: &MapParam| m.values.clone()))
            .chain(array_params.iter().flat_map(|a: &ArrayParam| {
                a.elems.iter().chain(a.rows.iter().flat_map(|r| &r.elems)).copied().collect::<Vec<_>>()
            }))
            .collect();
        for i in (0..created_end).chain(elements) {
            let Ty::Obj(c) = params[i].ty else { continue };
            let (ctor, builder) = match test_ctor(classes, methods, c) {
                Some(ctor) => (ctor, None),
                None => match builder_route(file, classes, methods, c) {
                    Some((start, b, build, setters)) => (start, Some((b, build, setters))),
                    None => continue,
                },
            };
            let how = params.len();
            params.push(ParamInfo {
                name: built_param_name(&params[i].name, "how"),
                ty: Ty::Int,
                java_ty: "int".into(),
            });
            let mut args = Vec::new();
            for a in ctor.iter().flat_map(|c| &c.params) {
                args.push((params.len(), a.ty.clone()));
                params.push(ParamInfo {
                    name: built_param_name(&params[i].name, &format!("new.{}", a.name)),
                    ty: classes.ty_of(&a.ty),
                    java_ty: a.ty.clone(),
                });
            }
            // An abstract class: what each method of the test's anonymous subclass returns.
            let prefix = params[i].name.clone();
            let returns = stub_return_inputs(params, &prefix, &classes.descs[c as usize].stub);
            let factory =
                ctor.as_ref().filter(|m| !m.is_constructor).map(|m| format!("{}.{}", m.classes.join("."), m.name));
            let mut calls = vec![];
            if let Some((_, _, setters)) = &builder {
                // A builder is useless without its setters: they are always offered.
                let prefix = format!("{}.builder.", params[i].name);
                calls = setup_call_inputs(params, &prefix, setters.clone(), classes);
            } else if i < own_params && factory.is_none() {
                // (Calls after a factory could meet its null: none.)
                let candidates = setup_call_candidates(file, methods, c, method, classes);
                calls_possible |= !opts.setup_calls && !candidates.is_empty();
                if opts.setup_calls {
                    let prefix = format!("{}.", params[i].name);
                    calls = setup_call_inputs(params, &prefix, candidates, classes);
                }
            }
            let (builder, build) = match builder {
                Some((b, build, _)) => (Some((b, build.name.clone())), Some(build)),
                None => (None, None),
            };
            built.push((
                BuiltParam { param: i, class: c, how, args, aliases: vec![], calls: vec![], returns, factory, builder },
                ctor,
                calls,
                build,
            ));
        }
        for i in 0..created_end {
            let Ty::Obj(c) = params[i].ty else { continue };
            let Some(l) = classes.descs[c as usize].lambda.clone() else { continue };
            let present = params.len();
            params.push(ParamInfo {
                name: built_param_name(&params[i].name, "lambda"),
                ty: Ty::Bool,
                java_ty: "boolean".into(),
            });
            let returns = (l.ret != Ty::Void).then(|| {
                params.push(ParamInfo {
                    name: built_param_name(&params[i].name, "returns"),
                    ty: l.ret,
                    java_ty: l.ret_java.clone(),
                });
                params.len() - 1
            });
            let mut specials = Vec::new();
            if let (Some(t), Some(_)) = (l.first_param, returns) {
                for n in 0..LAMBDA_SPECIALS {
                    let key = params.len();
                    params.push(ParamInfo {
                        name: built_param_name(&params[i].name, &format!("special{n}.argument")),
                        ty: t,
                        java_ty: t.java_name().into(),
                    });
                    let value = params.len();
                    params.push(ParamInfo {
                        name: built_param_name(&params[i].name, &format!("special{n}.returns")),
                        ty: l.ret,
                        java_ty: l.ret_java.clone(),
                    });
                    specials.push((key, value));
                }
            }
            lambda_params.push(LambdaParam { param: i, class: c, present, returns, specials });
        }
        for i in 0..created_end {
            let Ty::Obj(c) = params[i].ty else { continue };
            let stub = classes.descs[c as usize].stub.clone();
            // Abstract classes are created with a constructor (above); interfaces have none.
            if stub.is_empty() || classes.constructible[c as usize] {
                continue;
            }
            let present = params.len();
            params.push(ParamInfo {
                name: built_param_name(&params[i].name, "object"),
                ty: Ty::Bool,
                java_ty: "boolean".into(),
            });
            let prefix = params[i].name.clone();
            let returns = stub_return_inputs(params, &prefix, &stub);
            stub_params.push(StubParam { param: i, class: c, present, returns });
        }
        // Parameters may be the same object as an earlier one, and elements of an array the same
        // object as an earlier element (list and map elements are always their own).
        for k in 0..built.len() {
            let param = built[k].0.param;
            if param >= created_end {
                if let Some(a) = array_params.iter().find(|a| a.elems.contains(&param)) {
                    // The method's own parameters of the element's class (built first), then the
                    // earlier elements: the order in which they are built.
                    let j = a.elems.iter().position(|e| *e == param).unwrap_or(0);
                    let own = (0..k)
                        .filter(|j| built[*j].0.class == built[k].0.class && built[*j].0.param < own_params)
                        .map(|j| built[j].0.param);
                    built[k].0.aliases = own.chain(a.elems[..j].iter().copied()).collect();
                }
                continue;
            }
            let aliases = (0..k)
                .filter(|j| built[*j].0.class == built[k].0.class && built[*j].0.param < own_params)
                .filter(|_| param < own_params)
                .map(|j| built[j].0.param)
                .collect();
            built[k].0.aliases = aliases;
        }
    }
    // Parameters and constructor arguments of JDK types a test writes values of: null or not.
    if synthesis {
        for i in 0..params.len() {
            if params[i].ty == Ty::Ref && test_writes_value_of(&params[i].java_ty) {
                let present = params.len();
                let name = built_param_name(&params[i].name, "present");
                params.push(ParamInfo { name, ty: Ty::Bool, java_ty: "boolean".into() });
                opaque_params.push(OpaqueParam { param: i, present });
            }
        }
    }
    InputPlan {
        built,
        lambda_params,
        opaque_params,
        stub_params,
        list_params,
        map_params,
        array_params,
        receiver_calls,
        calls_possible,
    }
}

/// Adds the inputs of a list or array parameter `param` to `params`: whether it is there (input
/// `names.0`), its length (`names.1`) and `n` elements of type `ty`. Returns their indices.
fn sequence_inputs(
    params: &mut Vec<ParamInfo>,
    param: usize,
    names: (&str, &str),
    n: usize,
    ty: Ty,
    java_ty: &str,
) -> (usize, usize, Vec<usize>) {
    let name = params[param].name.clone();
    named_sequence_inputs(params, &name, names, n, ty, java_ty)
}

/// The `Int` input choosing whether collection parameter `param` is one of its own or one of
/// the `earlier` ones (see [`ListParam::same_as`]); `None` when there are no earlier ones.
fn same_input(params: &mut Vec<ParamInfo>, param: usize, earlier: &[usize]) -> Option<usize> {
    (!earlier.is_empty()).then(|| {
        let name = built_param_name(&params[param].name, "same");
        params.push(ParamInfo { name, ty: Ty::Int, java_ty: "int".into() });
        params.len() - 1
    })
}

/// [`sequence_inputs`] for a sequence named `name` that is not a parameter of its own (a row).
fn named_sequence_inputs(
    params: &mut Vec<ParamInfo>,
    name: &str,
    names: (&str, &str),
    n: usize,
    ty: Ty,
    java_ty: &str,
) -> (usize, usize, Vec<usize>) {
    let present = params.len();
    params.push(ParamInfo { name: built_param_name(name, names.0), ty: Ty::Bool, java_ty: "boolean".into() });
    let length = params.len();
    params.push(ParamInfo { name: built_param_name(name, names.1), ty: Ty::Int, java_ty: "int".into() });
    let mut elems = Vec::new();
    for k in 0..n {
        elems.push(params.len());
        params.push(ParamInfo { name: built_param_name(name, &k.to_string()), ty, java_ty: java_ty.to_string() });
    }
    (present, length, elems)
}

/// Adds an input per non-`void` method of `stub` (what the test's anonymous class returns
/// from it), named after `prefix`; `None` for the `void` ones.
pub(super) fn stub_return_inputs(params: &mut Vec<ParamInfo>, prefix: &str, stub: &[StubMethod]) -> Vec<Option<usize>> {
    stub.iter()
        .map(|m| {
            (m.ret != Ty::Void).then(|| {
                params.push(ParamInfo {
                    name: built_param_name(prefix, &format!("{}.returns", m.name)),
                    ty: m.ret,
                    java_ty: m.ret_java.clone(),
                });
                params.len() - 1
            })
        })
        .collect()
}

/// The name of input `what` of parameter `param` (`from.how`, `from.new.owner`): Java names
/// cannot contain the dot.
pub(super) fn built_param_name(param: &str, what: &str) -> String {
    format!("{param}.{what}")
}

/// The constructor a test creates objects of class `c` with: a non-private one of a class whose
/// constructors jreach inlines, whose parameters are of types jreach sees (failing that, also of
/// the JDK types a test writes values of, [`crate::opaque_jdk`]), the one with the most
/// parameters (the most freedom); without one, a static method of the class returning one (a
/// factory); `Some(None)` for the implicit constructor of a class that declares none.
fn test_ctor(classes: &Classes, methods: &[MethodInfo], c: u16) -> Option<Option<MethodInfo>> {
    let d = &classes.descs[c as usize];
    if d.buildable || d.is_immutable() || !classes.constructible[c as usize] || classes.hidden[c as usize] {
        return None;
    }
    if classes.implicit_ctor[c as usize] {
        return Some(None);
    }
    // Arguments of types jreach cannot see could not be written into the test; failing others,
    // those of the JDK's types whose values a test writes (`new JsonWriter(new StringWriter())`).
    let route = |opaque_ok: bool| {
        let of_class = |m: &&MethodInfo| {
            classes.test_may_call(c, m)
                && !m.has_error
                && m.classes.join(".") == d.name
                && m.params
                    .iter()
                    .all(|p| classes.ty_of(&p.ty) != Ty::Ref || (opaque_ok && test_writes_value_of(&p.ty)))
        };
        let most_params = |ms: Vec<&MethodInfo>| ms.into_iter().rev().max_by_key(|m| m.params.len()).cloned();
        let ctor = most_params(methods.iter().filter(of_class).filter(|m| m.is_constructor).collect());
        // No constructor a test may call: a static factory of the class (`Money.of(5)`), the one
        // with the most parameters besides arrays of objects (a varargs `Type...` starts empty and
        // stays so: `getParameterized(Map.class, new Type[0])` fails where `get(Map.class)` works).
        let object_array = |p: &jreach_syntax::Param| matches!(classes.ty_of(&p.ty), Ty::Arr(a) if matches!(a.leaf, Leaf::Ref | Leaf::Obj(_)));
        ctor.or_else(|| {
            methods
                .iter()
                .filter(of_class)
                .filter(|m| m.is_static && !m.is_constructor && classes.ty_of(&m.return_ty) == Ty::Obj(c))
                .rev()
                .max_by_key(|m| m.params.iter().filter(|p| !object_array(p)).count())
                .cloned()
        })
    };
    route(false).or_else(|| route(true)).map(Some)
}

/// Whether a test can make objects of class `c` only by reflection: a class it can name and
/// allocate ([`Classes::reflectable`]) with no public route at all: no constructor, static
/// factory or builder a test may call, whatever their parameters, and no fields a test sets
/// after `new C()`. A class with such a route it cannot use stays without objects.
/// `own` are the methods declared in `c`.
fn reflection_only_among(
    file: &SourceFile,
    classes: &Classes,
    methods: &[MethodInfo],
    own: &[&MethodInfo],
    c: u16,
) -> bool {
    let d = &classes.descs[c as usize];
    if !classes.reflectable.get(c as usize).copied().unwrap_or(false) || d.buildable || !d.stub.is_empty() {
        return false;
    }
    let ctors: Vec<&&MethodInfo> = own.iter().filter(|m| m.is_constructor).collect();
    let callable_ctor = ctors.is_empty() || ctors.iter().any(|m| classes.test_may_call(c, m));
    let factory = own.iter().any(|m| {
        m.is_static && !m.is_constructor && classes.test_may_call(c, m) && classes.ty_of(&m.return_ty) == Ty::Obj(c)
    });
    !callable_ctor && !factory && builder_route(file, classes, methods, c).is_none()
}

/// [`reflection_only_among`] the file's `methods`.
pub(super) fn reflection_only(file: &SourceFile, classes: &Classes, methods: &[MethodInfo], c: u16) -> bool {
    let name = &classes.descs[c as usize].name;
    let own: Vec<&MethodInfo> = methods.iter().filter(|m| m.classes.join(".") == *name).collect();
    reflection_only_among(file, classes, methods, &own, c)
}

/// Marks the classes whose objects a test makes only by reflection ([`reflection_only`]).
pub(super) fn mark_reflective(file: &SourceFile, methods: &[MethodInfo], classes: &mut Classes) {
    let mut by_class: std::collections::HashMap<String, Vec<&MethodInfo>> = std::collections::HashMap::new();
    for m in methods {
        by_class.entry(m.classes.join(".")).or_default().push(m);
    }
    for c in 0..classes.descs.len() {
        if !classes.reflectable.get(c).copied().unwrap_or(false) {
            continue;
        }
        let own = by_class.get(&classes.descs[c].name).map(Vec::as_slice).unwrap_or_default();
        let reflective = reflection_only_among(file, classes, methods, own, c as u16);
        classes.descs[c].reflective = reflective;
    }
}

/// How a test creates objects of class `c` through a builder, when it has no constructor or
/// factory a test may call: the builder class `b` (one of the file's) has an accessible instance
/// method without parameters returning a `c` (`build()`), and a test creates the builder with
/// its constructor, a factory of its own, or a static method of `c` returning one
/// (`Money.builder()`). Returns that start, `b`, the build method and the builder's fluent
/// setters (accessible, writable parameters, returning the builder, assigning a field; at most
/// six, in declaration order).
fn builder_route(
    file: &SourceFile,
    classes: &Classes,
    methods: &[MethodInfo],
    c: u16,
) -> Option<(Option<MethodInfo>, u16, MethodInfo, Vec<MethodInfo>)> {
    // A boxed value is written as a literal; a method returning a type variable the class table
    // instantiates (`K getKey()`, K taken as Integer) builds no particular class.
    if !classes.descs[c as usize].stub.is_empty() || classes.descs[c as usize].boxes.is_some() {
        return None;
    }
    let class_of = |m: &MethodInfo| classes.by_name.get(&m.classes.join(".")).copied();
    let build = methods.iter().find(|m| {
        !m.is_static
            && !m.is_constructor
            && m.params.is_empty()
            && !m.has_error
            && !classes.type_vars.contains_key(m.return_ty.split('<').next().unwrap_or("").trim())
            && classes.ty_of(&m.return_ty) == Ty::Obj(c)
            && class_of(m).is_some_and(|b| b != c && classes.test_may_call(b, m))
    })?;
    let b = class_of(build)?;
    let start = match test_ctor(classes, methods, b) {
        Some(start) => start,
        None => Some(
            methods
                .iter()
                .find(|m| {
                    m.is_static
                        && !m.has_error
                        && class_of(m) == Some(c)
                        && classes.test_may_call(c, m)
                        && classes.ty_of(&m.return_ty) == Ty::Obj(b)
                })?
                .clone(),
        ),
    };
    let writable = |ty: &str| matches!(Ty::of_java(ty), t if t.is_numeric() || t == Ty::Bool || t == Ty::Str);
    let fields: Vec<&str> = classes.descs[b as usize].fields.iter().map(|f| f.name.as_str()).collect();
    let setters = methods
        .iter()
        .filter(|m| {
            !m.is_static
                && !m.is_constructor
                && !m.has_error
                && class_of(m) == Some(b)
                && classes.test_may_call(b, m)
                && classes.ty_of(&m.return_ty) == Ty::Obj(b)
                && m.params.iter().all(|p| writable(&p.ty))
                && assigns_a_field(file, m, &fields)
        })
        .take(6)
        .cloned()
        .collect();
    Some((start, b, build.clone(), setters))
}

/// Whether the body of `m` assigns (or increments) one of `fields`.
fn assigns_a_field(file: &SourceFile, m: &MethodInfo, fields: &[&str]) -> bool {
    let src = file.text.as_str();
    let mut stack = vec![m.body_node(file)];
    while let Some(n) = stack.pop() {
        let target = match n.kind() {
            "assignment_expression" => n.child_by_field_name("left"),
            "update_expression" => named_children(n).into_iter().next(),
            _ => None,
        };
        if let Some(t) = target.map(unparen) {
            let name = match t.kind() {
                "identifier" => Some(text_of(t, src)),
                _ => this_field_name(t, src),
            };
            if name.is_some_and(|n| fields.contains(&n)) {
                return true;
            }
        }
        stack.extend(named_children(n));
    }
    false
}

/// Methods a test may call on an object of class `c` it created, before calling `method`: the
/// class's accessible instance methods (other than `method`) that assign a field, with arguments
/// of primitive or String types, at most four, in declaration order.
fn setup_call_candidates(
    file: &SourceFile,
    methods: &[MethodInfo],
    c: u16,
    method: &MethodInfo,
    classes: &Classes,
) -> Vec<MethodInfo> {
    // The class's own methods, then inherited ones it does not override.
    let mut own: Vec<&MethodInfo> = Vec::new();
    for k in &classes.chain(c) {
        let name = &classes.descs[*k as usize].name;
        for m in methods.iter().filter(|m| m.classes.join(".") == *name && !m.is_constructor && !m.is_static) {
            if !own.iter().any(|o| o.name == m.name && super::inherit::same_parameters(o, m)) {
                own.push(m);
            }
        }
    }
    let fields: Vec<&str> = classes.descs[c as usize].fields.iter().map(|f| f.name.as_str()).collect();
    let assigns_field = |m: &MethodInfo| assigns_a_field(file, m, &fields);
    let writable = |ty: &str| matches!(Ty::of_java(ty), t if t.is_numeric() || t == Ty::Bool || t == Ty::Str);
    own.into_iter()
        .filter(|m| {
            !m.is_constructor
                && !m.is_static
                && classes.test_may_call(c, m)
                && !m.has_error
                && (m.name != method.name || m.classes != method.classes)
                && m.params.iter().all(|p| writable(&p.ty))
                && assigns_field(m)
        })
        .take(4)
        .cloned()
        .collect()
}

/// The element type of a `List<E>` parameter synthesis can fill, with the name Java code outside
/// the class gives it: strings, boxed values, enums, and classes a test creates with a
/// constructor.
fn list_element(classes: &Classes, methods: &[MethodInfo], java_ty: &str) -> Option<(Ty, String)> {
    let arg = java_ty.split_once('<')?.1.rsplit_once('>')?.0.trim();
    let arg = arg.strip_prefix("? extends ").unwrap_or(arg).trim();
    match classes.ty_of(arg) {
        Ty::Str => Some((Ty::Str, "String".into())),
        Ty::Obj(c) => object_element(classes, methods, c).map(|name| (Ty::Obj(c), name)),
        _ => None,
    }
}

/// The name Java code outside the class gives objects of class `c`, when synthesis can create
/// them as elements of a list, map or array: boxed values, enum constants, and objects a test
/// creates with a constructor.
fn object_element(classes: &Classes, methods: &[MethodInfo], c: u16) -> Option<String> {
    let d = &classes.descs[c as usize];
    let ok = d.boxes.is_some() || d.is_enum() || test_ctor(classes, methods, c).is_some();
    ok.then(|| d.name.clone())
}

/// The key and value types of a `Map<K, V>` parameter synthesis can fill (keys: strings, boxed
/// values, enums; values: what a list element can be), each with its Java name.
#[allow(clippy::type_complexity)]
fn map_entry(classes: &Classes, methods: &[MethodInfo], java_ty: &str) -> Option<((Ty, String), (Ty, String))> {
    let args = java_ty.split_once('<')?.1.rsplit_once('>')?.0;
    let (k, v) = super::split_type_args(args)?;
    let key = match classes.ty_of(k) {
        Ty::Str => (Ty::Str, "String".to_string()),
        Ty::Obj(c) if classes.descs[c as usize].boxes.is_some() || classes.descs[c as usize].is_enum() => {
            (Ty::Obj(c), classes.descs[c as usize].name.clone())
        }
        _ => return None,
    };
    let value = list_element(classes, methods, &format!("List<{v}>"))?;
    Some((key, value))
}

/// Adds the inputs of optional calls `candidates` (`{prefix}pre.m` whether to call `m`, then
/// its arguments) to `params`.
fn setup_call_inputs(
    params: &mut Vec<ParamInfo>,
    prefix: &str,
    candidates: Vec<MethodInfo>,
    classes: &Classes,
) -> Vec<PlannedCall> {
    let mut out = Vec::new();
    for m in candidates {
        let flag = params.len();
        params.push(ParamInfo { name: format!("{prefix}pre.{}", m.name), ty: Ty::Bool, java_ty: "boolean".into() });
        let mut args = Vec::new();
        for a in &m.params {
            args.push((params.len(), a.ty.clone()));
            params.push(ParamInfo {
                name: format!("{prefix}pre.{}.{}", m.name, a.name),
                ty: classes.ty_of(&a.ty),
                java_ty: a.ty.clone(),
            });
        }
        out.push((SetupCall { method: m.name.clone(), flag, args }, m));
    }
    out
}

/// How `build_param` creates an object: the constructor or factory (`None`: the implicit
/// constructor), for a builder its class and build method, and for an anonymous subclass what
/// its methods return.
struct Creation<'m> {
    ctor: Option<&'m MethodInfo>,
    builder: Option<(u16, &'m MethodInfo)>,
    returns: Vec<Option<ValueId>>,
}

impl<'t> Lowerer<'t> {
    /// The proof blockers of the narrowings `plan` makes: every created input is only one of the
    /// shapes Java allows.
    pub(super) fn input_blockers(&mut self, plan: &InputPlan, params: &[ParamInfo]) {
        for (i, p) in params.iter().enumerate() {
            if plan.list_params.iter().any(|l| l.param == i && l.optional) {
                // `Optional.of(v)`, `Optional.empty()` and null are every Optional there is.
                continue;
            }
            if plan.list_params.iter().any(|l| l.param == i) {
                self.b.add_proof_blocker(Blocker::Narrowing(format!(
                    "a test passes a List only with at most {LIST_CAPACITY} elements, and it grows to at most \
                     {LIST_GROWN_CAPACITY}"
                )));
                continue;
            }
            if let Some(a) = plan.array_params.iter().find(|a| a.param == i && !a.rows.is_empty()) {
                self.b.add_proof_blocker(Blocker::Narrowing(format!(
                    "a test passes a {}[][] only with at most {OBJECT_GRID_CAPACITY} rows of at most \
                     {OBJECT_GRID_CAPACITY} elements, each row null or an array of its own, each element null or \
                     an object of its own",
                    a.elem_java
                )));
                continue;
            }
            if let Some(a) = plan.array_params.iter().find(|a| a.param == i) {
                self.b.add_proof_blocker(Blocker::Narrowing(format!(
                    "a test passes a {}[] only with at most {OBJECT_ARRAY_CAPACITY} elements, each null, a new \
                     object, an earlier element's object or a parameter's",
                    a.elem_java
                )));
                continue;
            }
            if plan.map_params.iter().any(|m| m.param == i) {
                self.b.add_proof_blocker(Blocker::Narrowing(format!(
                    "a test passes a Map only with at most {MAP_CAPACITY} entries, and it grows to at most \
                     {MAP_GROWN_CAPACITY}"
                )));
                continue;
            }
            if let Some(l) = plan.lambda_params.iter().find(|l| l.param == i) {
                self.b.add_proof_blocker(Blocker::Narrowing(format!(
                    "a test passes a {} only as a lambda that returns one value, or one for each of up to {LAMBDA_SPECIALS} first arguments and another for the rest",
                    self.classes.descs[l.class as usize].name
                )));
                continue;
            }
            if let Some(l) = plan.stub_params.iter().find(|l| l.param == i) {
                self.b.add_proof_blocker(Blocker::Narrowing(format!(
                    "a test passes a {} only as an anonymous class whose methods each always return the same value",
                    self.classes.descs[l.class as usize].name
                )));
                continue;
            }
            if let Some((b, ctor, _, _)) = plan.built.iter().find(|(b, _, _, _)| b.param == i) {
                let d = &self.classes.descs[b.class as usize];
                let how = match (ctor, &b.builder) {
                    (_, Some((builder, build))) => {
                        format!("the builder {} and {build}()", self.classes.descs[*builder as usize].name)
                    }
                    (Some(m), None) if !m.is_constructor => format!("its factory {}(...)", m.name),
                    (Some(m), None) => format!("its constructor {}(...)", m.name),
                    (None, None) => format!("its constructor {}()", d.name),
                };
                self.b.add_proof_blocker(Blocker::Narrowing(format!("a test creates a {} only with {how}", d.name)));
                if !d.stub.is_empty() {
                    self.b.add_proof_blocker(Blocker::Narrowing(format!(
                        "a test subclasses {} only with methods that each always return the same value",
                        d.name
                    )));
                }
                continue;
            }
            if let Ty::Obj(c) = p.ty {
                let d = &self.classes.descs[c as usize];
                if d.reflective {
                    self.b.add_proof_blocker(Blocker::Narrowing(format!(
                        "a test makes a {} by reflection, setting only its fields of types jreach sees",
                        d.name
                    )));
                } else if !d.buildable && !d.is_immutable() {
                    // The encoding keeps such inputs null (see smt's encoder).
                    self.b.add_proof_blocker(Blocker::Narrowing(format!(
                    "a test can pass a {} only as null (jreach cannot build one through its constructors or setters yet)",
                    d.name
                )));
                }
            }
        }
    }

    /// Creates the planned inputs at the method's entry and binds the parameters to them; returns
    /// the optional calls on the receiver, made once it is constructed, and each parameter's
    /// value (the created one where there is one, else the input).
    pub(super) fn create_inputs(
        &mut self,
        plan: InputPlan,
        params: &[ParamInfo],
        inputs: &[ValueId],
        at: Node<'t>,
    ) -> (Vec<PlannedCall>, Vec<ValueId>) {
        let InputPlan {
            built,
            lambda_params,
            opaque_params,
            stub_params,
            list_params,
            map_params,
            array_params,
            receiver_calls,
            calls_possible,
        } = plan;
        let mut values = inputs.to_vec();
        let mut built_objects: Vec<ValueId> = Vec::new();
        for (bp, ctor, calls, build) in &built {
            let name = &params[bp.param].name;
            let args = bp.args.iter().map(|(i, _)| inputs[*i]).collect();
            let earlier: Vec<ValueId> = built
                .iter()
                .zip(&built_objects)
                .filter(|((b, _, _, _), _)| bp.aliases.contains(&b.param))
                .map(|(_, v)| *v)
                .collect();
            if self.cur.is_none() {
                break;
            }
            let calls: Vec<(ValueId, Vec<ValueId>, &MethodInfo)> = calls
                .iter()
                .map(|(c, m)| (inputs[c.flag], c.args.iter().map(|(i, _)| inputs[*i]).collect(), m))
                .collect();
            let returns: Vec<Option<ValueId>> = bp.returns.iter().map(|r| r.map(|r| inputs[r])).collect();
            let builder = bp.builder.as_ref().zip(build.as_ref()).map(|((b, _), m)| (*b, m));
            let creation = Creation { ctor: ctor.as_ref(), builder, returns };
            let v = self.build_param(bp.class, creation, inputs[bp.how], args, &calls, &earlier, at);
            built_objects.push(v);
            values[bp.param] = v;
            if self.cur.is_some() {
                self.bind_input(name, v);
            }
        }
        self.b.setup_mut().built_params = built
            .into_iter()
            .map(|(mut b, _, calls, _)| {
                b.calls = calls.into_iter().map(|(c, _)| c).collect();
                b
            })
            .collect();
        self.b.setup_mut().calls_possible = calls_possible;
        for l in &lambda_params {
            if self.cur.is_none() {
                break;
            }
            let returns = vec![l.returns.map(|r| inputs[r])];
            let (obj, v) = self.answering_object(l.class, l.param, inputs[l.present], returns, params);
            values[l.param] = v;
            for (key, value) in &l.specials {
                self.lambda_special.push((obj, inputs[*key], inputs[*value]));
            }
        }
        self.b.setup_mut().lambda_params = lambda_params;
        for o in &opaque_params {
            self.opaque_presence.push((inputs[o.param], inputs[o.present]));
        }
        self.b.setup_mut().opaque_params = opaque_params;
        for l in &stub_params {
            if self.cur.is_none() {
                break;
            }
            let returns = l.returns.iter().map(|r| r.map(|r| inputs[r])).collect();
            let (_, v) = self.answering_object(l.class, l.param, inputs[l.present], returns, params);
            values[l.param] = v;
        }
        self.b.setup_mut().stub_params = stub_params;
        for (index, l) in list_params.iter().enumerate() {
            if self.cur.is_none() {
                break;
            }
            let ty = params[l.param].ty;
            if l.optional {
                let v = self.optional_input(ty, inputs[l.present], inputs[l.size], values[l.elems[0]]);
                values[l.param] = v;
                self.bind_input(&params[l.param].name, v);
                continue;
            }
            let id = self.next_alloc;
            self.next_alloc -= 1;
            let obj = self.emit(Op::Obj(ObjOp::Ref(id), vec![]), ty, None);
            let null = self.emit(Op::Obj(ObjOp::Ref(0), vec![]), ty, None);
            let v = self.select(inputs[l.present], obj, null);
            self.assume_between(inputs[l.size], 0, LIST_CAPACITY as i64);
            let elem_ty = params[l.elems[0]].ty;
            let size = self.b.new_var(&format!("{}.size", params[l.param].name), Ty::Int);
            self.assign(size, inputs[l.size]);
            let mut elems = Vec::new();
            for k in 0..LIST_GROWN_CAPACITY {
                let var = self.b.new_var(&format!("{}[{k}]", params[l.param].name), elem_ty);
                let v = match l.elems.get(k) {
                    Some(i) => values[*i],
                    None => self.zero_of(elem_ty),
                };
                self.assign(var, v);
                elems.push(var);
            }
            self.lists.push(ListModel { obj, size, elems, elem_ty, param: index });
            let v = self.same_as_earlier(v, l.same_as, &l.earlier, inputs, params);
            values[l.param] = v;
            self.bind_input(&params[l.param].name, v);
        }
        self.b.setup_mut().list_params = list_params;
        for m in &map_params {
            if self.cur.is_none() {
                break;
            }
            let ty = params[m.param].ty;
            let keys: Vec<ValueId> = m.keys.iter().map(|i| values[*i]).collect();
            let vals: Vec<ValueId> = m.values.iter().map(|i| values[*i]).collect();
            let v = self.map_input(ty, inputs[m.present], inputs[m.size], keys, vals);
            let v = self.same_as_earlier(v, m.same_as, &m.earlier, inputs, params);
            values[m.param] = v;
            self.bind_input(&params[m.param].name, v);
        }
        self.b.setup_mut().map_params = map_params;
        for a in &array_params {
            if self.cur.is_none() {
                break;
            }
            let v = if a.rows.is_empty() {
                let elems: Vec<ValueId> = a.elems.iter().map(|i| values[*i]).collect();
                self.array_input(params[a.param].ty, inputs[a.present], inputs[a.length], &elems, at)
            } else {
                let Ty::Arr(t) = params[a.param].ty else { unreachable!("planned for array parameters only") };
                let mut rows = Vec::new();
                for r in &a.rows {
                    let elems: Vec<ValueId> = r.elems.iter().map(|i| values[*i]).collect();
                    rows.push(self.array_input(t.elem(), inputs[r.present], inputs[r.length], &elems, at));
                }
                self.array_input(params[a.param].ty, inputs[a.present], inputs[a.length], &rows, at)
            };
            values[a.param] = v;
            self.bind_input(&params[a.param].name, v);
        }
        self.b.setup_mut().array_params = array_params;
        (receiver_calls, values)
    }

    /// Binds the method's parameter `name` to its created value `v`; the receiver
    /// constructor's arguments are no locals.
    fn bind_input(&mut self, name: &str, v: ValueId) {
        if let Some(l) = self.scopes[0].get(name).copied() {
            self.assign(l.var, v);
        }
    }

    /// A lambda or anonymous class of interface `class` for parameter `param`: null unless
    /// `present`, else an object whose methods answer `returns` (see `Lowerer::lambdas`).
    /// Returns the object and the parameter's value (the object or null).
    fn answering_object(
        &mut self,
        class: u16,
        param: usize,
        present: ValueId,
        returns: Vec<Option<ValueId>>,
        params: &[ParamInfo],
    ) -> (ValueId, ValueId) {
        let id = self.next_alloc;
        self.next_alloc -= 1;
        let ty = Ty::Obj(class);
        let obj = self.emit(Op::Obj(ObjOp::Ref(id), vec![]), ty, None);
        let null = self.emit(Op::Obj(ObjOp::Ref(0), vec![]), ty, None);
        let v = self.select(present, obj, null);
        self.lambdas.push((class, obj, returns));
        self.bind_input(&params[param].name, v);
        (obj, v)
    }

    /// The array a test passes for a parameter of type `ty`: null unless `present`, else a new
    /// array of `length` (at most the number of `elems`) holding the first `elems`.
    fn array_input(&mut self, ty: Ty, present: ValueId, length: ValueId, elems: &[ValueId], at: Node<'t>) -> ValueId {
        let Ty::Arr(t) = ty else { unreachable!("planned for array parameters only") };
        self.assume_between(length, 0, elems.len() as i64);
        let r = self.new_array(t, length, at);
        for (k, e) in elems.iter().enumerate() {
            let kk = self.int(Ty::Int, k as i64);
            let inside = self.bin(BinOp::Lt, kk, length);
            let store = self.b.create_block();
            let join = self.b.create_block();
            self.branch(inside, store, join, None);
            self.b.seal(store);
            self.cur = Some(store);
            self.store(t, r, kk, *e);
            self.jump(join);
            self.b.seal(join);
            self.cur = Some(join);
        }
        let null = self.emit(Op::Arr(ArrOp::Ref(0), vec![]), ty, None);
        self.select(present, r, null)
    }

    /// A collection parameter `v`, or the same collection as earlier parameter `earlier[k]` when
    /// input `same` is `k + 1` (see [`ListParam::same_as`]).
    fn same_as_earlier(
        &mut self,
        mut v: ValueId,
        same: Option<usize>,
        earlier: &[usize],
        inputs: &[ValueId],
        params: &[ParamInfo],
    ) -> ValueId {
        let Some(same) = same else { return v };
        for (k, p) in earlier.iter().enumerate() {
            let kk = self.int(Ty::Int, k as i64 + 1);
            let is_k = self.bin(BinOp::Eq, inputs[same], kk);
            let var = self.scopes[0][&params[*p].name].var;
            let e = self.read(var);
            v = self.select(is_k, e, v);
        }
        self.assume_between(inputs[same], 0, earlier.len() as i64);
        v
    }

    /// `if (flag) o.m(args);` on object `on` (`None`: the receiver), the result dropped.
    pub(super) fn optional_call(
        &mut self,
        on: Option<(ValueId, u16)>,
        m: &MethodInfo,
        flag: ValueId,
        args: Vec<ValueId>,
        at: Node<'t>,
    ) {
        let call = self.b.create_block();
        let join = self.b.create_block();
        self.branch(flag, call, join, None);
        self.b.seal(call);
        self.cur = Some(call);
        self.next_this = on;
        self.inline(m, args, at);
        if self.cur.is_some() {
            self.jump(join);
        }
        self.b.seal(join);
        self.cur = Some(join);
    }

    /// A parameter of class `c` a test creates as `creation` says: null when `how` is 0,
    /// `new C(args)` followed by the optional `calls` when 1 (for a builder: the builder, its
    /// calls, then `build()`), the object of `earlier[k]` when `2 + k`; other values end the
    /// path.
    #[allow(clippy::too_many_arguments)]
    fn build_param(
        &mut self,
        c: u16,
        creation: Creation<'_>,
        how: ValueId,
        args: Vec<ValueId>,
        calls: &[(ValueId, Vec<ValueId>, &MethodInfo)],
        earlier: &[ValueId],
        at: Node<'t>,
    ) -> ValueId {
        let Creation { ctor, builder, returns } = creation;
        // The object the constructor and calls run on: the builder's, when there is one.
        let made = builder.map(|(b, _)| b).unwrap_or(c);
        let var = self.b.new_var("$built", Ty::Obj(c));
        let one = self.int(Ty::Int, 1);
        let is_new = self.bin(BinOp::Eq, how, one);
        let new_b = self.b.create_block();
        let other_b = self.b.create_block();
        let join = self.b.create_block();
        self.branch(is_new, new_b, other_b, None);
        self.b.seal(new_b);
        self.b.seal(other_b);
        self.cur = Some(new_b);
        let mut r = match ctor {
            Some(factory) if !factory.is_constructor => self.inline(factory, args, at),
            _ => {
                // An anonymous subclass's methods answer from `returns`, in the constructor too.
                let r = self.new_object(made, at);
                if !self.classes.descs[made as usize].stub.is_empty() {
                    self.lambdas.push((made, r, returns));
                }
                match ctor {
                    Some(ctor) => {
                        self.next_this = Some((r, made));
                        self.inline(ctor, args, at);
                    }
                    None => self.run_implicit_ctor(Some((r, made)), made, at),
                }
                r
            }
        };
        for (flag, args, m) in calls {
            if self.cur.is_none() {
                break;
            }
            self.optional_call(Some((r, made)), m, *flag, args.clone(), at);
        }
        if let (Some((_, build)), Some(_)) = (builder, self.cur) {
            // A builder from a factory may be null; `build()` then throws, as in Java.
            self.check_object_not_null(r, at);
            self.next_this = Some((r, made));
            r = self.inline(build, vec![], at);
        }
        if self.cur.is_some() {
            self.assign(var, r);
            self.jump(join);
        }
        self.cur = Some(other_b);
        let mut v = self.emit(Op::Obj(ObjOp::Ref(0), vec![]), Ty::Obj(c), None);
        for (k, q) in earlier.iter().enumerate() {
            let kk = self.int(Ty::Int, 2 + k as i64);
            let is_k = self.bin(BinOp::Eq, how, kk);
            v = self.select(is_k, *q, v);
        }
        let zero = self.int(Ty::Int, 0);
        let top = self.int(Ty::Int, 1 + earlier.len() as i64);
        let low = self.bin(BinOp::Lt, how, zero);
        let high = self.bin(BinOp::Gt, how, top);
        let out = self.bin(BinOp::Or, low, high);
        self.cut_if(out, "not a way to create the input");
        self.assign(var, v);
        self.jump(join);
        self.b.seal(join);
        self.cur = Some(join);
        self.read(var)
    }
}
