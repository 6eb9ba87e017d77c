//! Where a search on the JVM starts when the model found no test ([`search_start`]): a call to
//! the method with the simplest inputs jreach can write, the solver's smallest ones that enter
//! it, and what the search may change beyond its numbers and strings: values of JDK types chosen
//! among readable candidates (`jreach_synth::jdk_choices`; for an `Object`, first the types the
//! code tests it against: [`super::instanceof`]), empty arrays it may grow, a receiver
//! from a static factory when no constructor makes one, calls on the receiver before the call
//! under test ([`jreach_synth::CallChoice`]), and standard input for code that reads it.

use std::time::Duration;

use jreach_ir::lower::FileContext;
use jreach_ir::{Leaf, Ty};
use jreach_smt::{solve_reach, SolveOptions, Verdict};
use jreach_syntax::{text_of, MethodInfo, SourceFile, Target};
use jreach_synth::{is_searched_collection, jdk_choices, JavaValue, ReceiverFrom, ReceiverHolder, TestRequest};

use super::receiver::{
    is_static_nested, outer_object, receiver_constructor, unsupported_signature, unsupported_signature_on_outer,
};
use super::stubbed_subclass::stubbed_subclass;
use super::{callers, lower_for_synthesis, replay, with_package_sources, GenOptions, SynthesisSource, MAX_CALLERS};

/// A test for the statement on 0-based `line` with the simplest inputs jreach can write for its
/// method (for a private method, for the first method of its class calling it that works): the
/// start of a search on the JVM when [`gen`] found no test on its model. The inputs need not reach
/// the line, and the outcome is not asserted. `None` when jreach cannot write a call to the method.
pub fn search_start(file: &SourceFile, line: usize, opts: &GenOptions) -> Option<TestRequest> {
    search_starts(file, line, opts).into_iter().next()
}

/// At most this many starts share a search's time (each gets its part of it).
const STARTS_MAX: usize = 6;

/// [`search_start`] through every method a test may enter by (for a private method, each of its
/// callers that works, simplest first): a search that gets nowhere through one may through the
/// next.
pub fn search_starts(file: &SourceFile, line: usize, opts: &GenOptions) -> Vec<TestRequest> {
    crate::contain::contain(|| {
        let Some((target, entries)) = callers::search_entries(file, line) else { return vec![] };
        // An object of a class a test cannot create or name, which a member of the file hands
        // out, first: the call is the method itself.
        let ctx = FileContext::new(file, None, None);
        let (sources, imports) = super::receiver_from::receiver_sources(&ctx, &target.method);
        // A statement in a method of an object a test cannot make (an anonymous class's, a
        // private or inner class's) runs when a test calls that method on the object an entry
        // returns: for a named class, the methods leading to its creation come first.
        let handed = super::result_call::handed_out(file, &target).filter(|_| sources.is_empty());
        let creators = handed.as_ref().map(|h| super::result_call::creators(&ctx, h, MAX_CALLERS)).unwrap_or_default();
        let mut starts: Vec<TestRequest> = sources
            .into_iter()
            .filter_map(|from| {
                let mut req = start_for(&ctx, &target, opts, Some(from), None)?;
                super::add_imports(&mut req.imports, imports.iter().cloned());
                Some(req)
            })
            .collect();
        let through_entries = creators
            .into_iter()
            .filter_map(|m| {
                let req = start_for(&ctx, &Target { method: m, ..target.clone() }, opts, None, handed.as_ref())?;
                req.then_call.is_some().then_some(req)
            })
            .chain(entries.into_iter().filter_map(|m| {
                let same = m.signature() == target.method.signature() && m.classes == target.method.classes;
                let via = Target { method: m, ..target.clone() };
                start_for(&ctx, &via, opts, None, handed.as_ref()).or_else(|| {
                    // A caller on an object a test cannot create, which a static field
                    // holds (`FormattingStyle.COMPACT.withIndent(s)`).
                    let (sources, imports) = match same {
                        true => return None,
                        false => super::receiver_from::receiver_sources(&ctx, &via.method),
                    };
                    let from = sources.into_iter().next()?;
                    let mut req = start_for(&ctx, &via, opts, Some(from), handed.as_ref())?;
                    super::add_imports(&mut req.imports, imports);
                    Some(req)
                })
            }));
        let room = STARTS_MAX.saturating_sub(starts.len());
        starts.extend(through_entries.take(room));
        starts
    })
    .unwrap_or_default()
}

/// [`search_start`] entered through `target.method`: the solver's smallest inputs that enter the
/// method at all; called on the object `from` gives, when there is one (see
/// [`super::receiver_from`]); followed by a call of `handed`'s method (of an object a test
/// cannot make, which the code hands out) on what the method returns, when it returns a type
/// that object may be declared as (see [`super::result_call`]).
fn start_for(
    ctx: &FileContext<'_>,
    target: &Target,
    opts: &GenOptions,
    from: Option<ReceiverFrom>,
    handed: Option<&super::result_call::HandedOut>,
) -> Option<TestRequest> {
    let file = ctx.file();
    let m = &target.method;
    // The lowering and the choice of the receiver's constructor see the whole source synthesis
    // sees; what the test writes (a factory and its arguments, the calls on the receiver) is
    // read off the file alone, whose type variables are instantiated as the test writes them
    // (in the whole source, another class's `T` may take the name's instance).
    let source = SynthesisSource::new(file, m, opts);
    let whole = source.context(file);
    // A default method of an interface with one abstract method runs on a lambda.
    let from = from.or_else(|| super::receiver_from::lambda_receiver(&whole, m));
    // A receiver no constructor makes may come from a static factory of its class.
    let factory = receiver_factory(ctx, m).filter(|_| from.is_none());
    // An inner class's object is made on an object of its enclosing class.
    let mut outer_imports = Vec::new();
    let outer = match (&factory, &from) {
        (None, None) if !m.is_static => outer_object(&whole, m, &mut outer_imports),
        _ => None,
    };
    let unsupported = match outer {
        Some(_) => unsupported_signature_on_outer(&whole, m),
        None => unsupported_signature(&whole, m),
    };
    // An abstract class's constructor runs as a stubbed anonymous subclass is made.
    let stubbed_for_constructor = match m.is_constructor && m.class_is_abstract {
        true => Some(stubbed_subclass(&whole, m, &opts.imported_sources)?),
        false => None,
    };
    if factory.is_none() && from.is_none() && unsupported.is_some() && stubbed_for_constructor.is_none() {
        return None;
    }
    let f = lower_for_synthesis(&source, &whole, m, opts, 2);
    // An abstract class's receiver is an anonymous subclass, when a test can write one; else an
    // object of a class of the package that extends it.
    let made = m.class_is_abstract && !m.is_static && !m.is_constructor && from.is_none();
    // (Or, for the search alone, an anonymous subclass whose methods return defaults.)
    let subclass = match made && !f.setup.receiver_subclassed {
        true => Some(match concrete_subclass(&whole, m) {
            Some(class) => Subclass::OfPackage(class),
            None => Subclass::Stubbed(stubbed_subclass(&whole, m, &opts.imported_sources)?),
        }),
        false => None,
    };
    // A parameter of a JDK type jreach does not model is a choice among values a test can write
    // (`Locale.US`, `String.class`, ...), which the search makes; any other such type, no start.
    // An array of references jreach does not track starts empty (the search may grow it).
    // (A class a test cannot name is no candidate: its top-level class stands in.)
    let own_class = match m.class_is_private {
        true => m.top_class().to_string(),
        false => m.classes.join("."),
    };
    let mut given = Vec::new();
    let mut imports = Vec::new();
    let mut empty_arrays = Vec::new();
    let named_classes = super::instanceof::named_classes(file);
    for (i, p) in f.params.iter().enumerate() {
        let annotation = (p.ty == Ty::Ref).then(|| whole.annotation_elements(&p.java_ty)).flatten();
        match p.ty {
            // An annotation the code reads: an anonymous class implementing its interface.
            _ if annotation.is_some() => {
                let elements = annotation.as_deref().unwrap_or_default();
                given.push((i, annotation_value(&p.java_ty, elements, &own_class, &mut imports)?));
            }
            _ if p.ty == Ty::Ref || is_searched_collection(&p.java_ty) => {
                let choices =
                    class_of_type_variable(file, m, &p.java_ty).or_else(|| jdk_choices(&p.java_ty, &own_class));
                let Some(mut c) = choices else {
                    // A class of the project the model does not see into (a record): made by its
                    // constructor with arguments the search moves.
                    // (Or one of the classes extending it: a choice that holds null already.)
                    let made = super::result_call::argument(&whole, file, &p.java_ty, &own_class, &mut imports);
                    match made {
                        JavaValue::Constructed { .. } => {
                            given.push((i, JavaValue::Choice { slot: None, options: vec![made, JavaValue::Null] }))
                        }
                        JavaValue::Choice { .. } => given.push((i, made)),
                        _ => return None,
                    }
                    continue;
                };
                c.add_classes(&p.java_ty, &named_classes);
                // A collection of objects of the project: also one or two made by their constructor.
                let filled = filled_collections(&whole, file, &p.java_ty, &c.options, &own_class, i, &mut imports);
                if !filled.is_empty() {
                    let at = c.options.len().saturating_sub(1);
                    c.options.splice(at..at, filled);
                }
                // An object of the class itself, for `equals(Object)` and its kin.
                let is_object =
                    matches!(p.java_ty.trim().trim_start_matches("final ").trim(), "Object" | "java.lang.Object");
                // The kinds of objects the code tests it against, first.
                if is_object {
                    let (mut tested, needs) = super::instanceof::tested_values(&whole, file, m, &p.name, &own_class);
                    c.options.retain(|v| !tested.contains(v));
                    tested.append(&mut c.options);
                    c.options = tested;
                    imports.extend(needs);
                }
                let top_level = m.classes.len() == 1;
                let own_object = match receiver_constructor(ctx, m) {
                    _ if !is_object || !top_level || m.class_is_abstract => None,
                    Ok(None) => Some(JavaValue::new_object(own_class.clone())),
                    // Made by its constructor with arguments the search moves (`equals` of a value
                    // class compares what those set).
                    Ok(Some(ctor)) => searched_args(ctx, &ctor.params, &own_class, &mut imports)
                        .map(|args| JavaValue::new_with(own_class.clone(), args)),
                    Err(()) => None,
                };
                if let Some(own) = own_object {
                    c.options.insert(c.options.len() - 1, own);
                }
                given.push((i, JavaValue::Choice { slot: None, options: c.options }));
                imports.extend(c.imports);
            }
            Ty::Arr(a) if a.leaf == Leaf::Ref => {
                let elem = super::java_values::array_elem(&p.java_ty)?;
                // Only types a test names the same anywhere (not a nested class of the file).
                let base = elem.trim_end_matches("[]").trim();
                let named = base.starts_with("java.")
                    || JDK_ELEMENTS.contains(&base)
                    || PRIMITIVES.contains(&base)
                    || jreach_ir::opaque_jdk::test_writes_value_of(base);
                if !named {
                    return None;
                }
                // (An id no array of the model has: this array is nobody else's.)
                given.push((i, JavaValue::Array { elem_ty: elem.to_string(), id: -1 - i as i64, items: vec![] }));
                empty_arrays.push(p.name.clone());
                // `new Type[0]` names the element's class: imported as its values would be.
                let own_import = |i: &String| i.rsplit('.').next() == Some(base);
                let element_imports = jdk_choices(base, &own_class).map(|c| c.imports).unwrap_or_default();
                imports.extend(element_imports.into_iter().filter(own_import));
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
    // The method's first statement, past the creation of its inputs (whose choices the solver
    // leaves open when asked only for the entry: a created object's `how` out of range); failing
    // that (the model sees no way there, or cannot write its inputs), the entry.
    let body = m.body_node(file);
    let first = body.named_children(&mut body.walk()).find(|n| !n.is_extra()).map(|n| n.start_byte());
    let firsts = first.map(|at| f.blocks_of_stmt(at)).filter(|b| !b.is_empty());
    let mut req =
        firsts.into_iter().chain([vec![f.entry]]).find_map(|blocks| match solve_reach(&f, &blocks, &solve) {
            Verdict::Sat(args) => replay::request(file, target, &f, &targets, &args, opts, false, &given).ok(),
            _ => None,
        })?;
    // An empty array's element type as the test declares it (type variables instantiated).
    for name in empty_arrays {
        let Some(pos) = req.params.iter().position(|(n, _)| *n == name) else { continue };
        let elem = super::java_values::array_elem(&req.params[pos].1).map(str::to_string);
        if let (Some(elem), JavaValue::Array { elem_ty, .. }) = (elem, &mut req.args[pos]) {
            *elem_ty = elem;
        }
    }
    match subclass {
        Some(Subclass::OfPackage((class, ctor_params))) => {
            req.receiver_args = searched_args(&whole, &ctor_params, &own_class, &mut req.imports)?;
            req.receiver_body = None;
            req.receiver_class = Some(class);
        }
        Some(Subclass::Stubbed(stubbed)) if !m.is_constructor => {
            req.receiver_args = searched_args(&whole, &stubbed.ctor_params, &own_class, &mut req.imports)?;
            req.receiver_body = Some(stubbed.body);
            req.receiver_class = None;
            req.receiver_fields = None;
            super::add_imports(&mut req.imports, stubbed.imports);
        }
        Some(Subclass::Stubbed(_)) | None => {}
    }
    if let Some(stubbed) = stubbed_for_constructor {
        req.receiver_body = Some(stubbed.body);
        super::add_imports(&mut req.imports, stubbed.imports);
    }
    if let Some(factory) = factory {
        req.receiver_args = searched_args(ctx, &factory.params, &own_class, &mut req.imports)?;
        req.receiver_factory = Some(format!("{own_class}.{}", factory.name));
    }
    // The object the method is held by comes from a static method: its arguments are searched too.
    if let Some(params) = m.held_by.as_ref().and_then(|h| h.returned_by.as_ref()) {
        req.receiver_args = searched_args(ctx, params, &own_class, &mut req.imports)?;
    }
    // An object the solver passed as null (the smallest input that enters the method) may be one
    // the search makes instead: `create(null, type)` may need a `new Gson()`.
    for (pos, (_, ty)) in req.params.iter().enumerate() {
        // An object the model made by a static factory: also by the class's other factories.
        if let Some(JavaValue::Constructed { factory: Some(_), .. }) = req.args.get(pos) {
            // (Not a generic class's: see `result_call::is_generic`.)
            if super::result_call::is_generic(&whole, ty) {
                continue;
            }
            let others = super::result_call::factory_objects(&whole, file, ty, &own_class, &mut imports);
            let model = req.args[pos].clone();
            if others.iter().any(|o| *o != model) {
                let mut options = vec![model.clone()];
                options.extend(others.into_iter().filter(|o| *o != model));
                req.args[pos] = JavaValue::Choice { slot: None, options };
            }
            continue;
        }
        // An object the model made with null for an object of the project (`new Node(1, null)`):
        // that null may be one the search makes (a list of two nodes).
        if let Some(made @ JavaValue::Constructed { factory: None, .. }) = req.args.get_mut(pos) {
            open_null_arguments(&whole, file, made, &own_class, &mut imports, NULL_ARGUMENTS_DEPTH);
            continue;
        }
        let Some(JavaValue::Null) = req.args.get(pos) else { continue };
        if let Some(class) = whole.made_without_arguments(ty) {
            req.args[pos] =
                JavaValue::Choice { slot: None, options: vec![JavaValue::Null, JavaValue::new_object(class)] };
        } else if let Some(lambda) = super::receiver_from::lambda_of(
            &whole,
            ty,
            &super::receiver_from::declarable_in_test(file, m.node(file), ty),
        ) {
            // A functional interface's: a lambda (`andThen(after)` needs one).
            req.args[pos] = JavaValue::Choice { slot: None, options: vec![JavaValue::Null, lambda] };
        } else if let Some(objects) = made_choice(&whole, file, ty, &own_class, &mut imports) {
            // Else an object the search makes (by a constructor with arguments, a factory, or of
            // a class extending an abstract one).
            req.args[pos] = objects;
        }
    }
    // A `CharSequence` the model took as a string: also a builder, and the kinds of objects the
    // code tests it against (`seq instanceof StrBuilder`).
    for (pos, (name, ty)) in req.params.iter().enumerate() {
        let simple = ty.trim().trim_start_matches("final ").trim();
        if !matches!(simple, "CharSequence" | "java.lang.CharSequence") {
            continue;
        }
        let Some(text @ (JavaValue::Str(_) | JavaValue::Null)) = req.args.get(pos).cloned() else { continue };
        let text = match text {
            JavaValue::Null => JavaValue::Str(String::new()),
            s => s,
        };
        let builder = JavaValue::new_with("StringBuilder".into(), vec![("String".into(), text.clone())]);
        let (tested, needs) = super::instanceof::tested_values(&whole, file, m, name, &own_class);
        // Code that tells kinds of sequences apart has a way for the others too: a `CharBuffer`
        // is none of a string, a builder, or a class of the project.
        let other = (!tested.is_empty()).then(|| {
            let wrap = "java.nio.CharBuffer.wrap".to_string();
            JavaValue::made_by("java.nio.CharBuffer".into(), wrap, vec![("String".into(), text.clone())])
        });
        let mut options = vec![req.args[pos].clone(), text, builder];
        options.extend(tested);
        options.extend(other);
        options.push(JavaValue::Null);
        let mut unique: Vec<JavaValue> = Vec::new();
        for o in options {
            if !unique.contains(&o) {
                unique.push(o);
            }
        }
        imports.extend(needs);
        req.args[pos] = JavaValue::Choice { slot: None, options: unique };
    }
    if let Some(from) = from {
        // What the model made the receiver with is not what the test gets it from.
        req.receiver_args.clear();
        req.receiver_calls.clear();
        req.receiver_body = None;
        req.receiver_fields = None;
        req.receiver_class = None;
        req.receiver_from = Some(from);
    } else if !m.is_static && !m.is_constructor {
        req.receiver_call_choices = receiver_call_choices(ctx, m);
    }
    parameter_call_choices(file, m, opts, &mut req);
    req.named_classes = named_classes;
    if let Some(handed) = handed {
        let then = super::result_call::then_call(&whole, file, handed, m, &own_class, &mut req.imports);
        if let Some((then, ret)) = then {
            req.then_call = Some(then);
            req.return_ty = ret;
            req.declares_checked = true;
        }
    }
    // Code that reads standard input reads what the test sets, which the search writes.
    if !req.statics.iter().any(|s| s.is_stdin()) {
        req.statics.extend(jreach_synth::StaticAssignment::stdin_start(&file.text));
    }
    // A collection of objects of the project the receiver's constructor takes may hold some
    // (`new RRScheduling(list of ProcessDetails, 0)`), not only what the model wrote.
    if req.receiver_from.is_none() && req.receiver_factory.is_none() && req.receiver_class.is_none() {
        for (i, (ty, v)) in req.receiver_args.iter_mut().enumerate() {
            with_filled(&whole, file, ty, v, &own_class, RECEIVER_ARG_IDS + i, &mut imports);
            // An object of the project the model passed as null: also one the search makes.
            if *v == JavaValue::Null {
                if let Some(objects) = made_choice(&whole, file, ty, &own_class, &mut imports) {
                    *v = objects;
                }
            }
            // (And in the objects the model made for it: a list's first node.)
            open_null_arguments(&whole, file, v, &own_class, &mut imports, NULL_ARGUMENTS_DEPTH);
        }
    }
    super::add_imports(&mut req.imports, imports);
    super::add_imports(&mut req.imports, outer_imports);
    req.outer = outer;
    // The receiver's arguments may have changed since the model's request.
    super::overloads::cast_nulls(file, m, &mut req);
    constructor_choice(ctx, &whole, m, &mut req, &own_class);
    factory_choice(ctx, m, &mut req, &own_class);
    Some(req)
}

/// For a parameter `Class<E>` (or `Class<? extends E>`) whose `E` is a type variable of `m` or
/// of its classes: the classes a test may pass, by `E`'s bound. An enum's (`<E extends
/// Enum<E>>`): the enums of the file a test can name, then three of the JDK's; another class's
/// or interface's: that one; none: those a `Class<?>` may be. `None` for any other type.
fn class_of_type_variable(file: &SourceFile, m: &MethodInfo, java_ty: &str) -> Option<jreach_synth::JdkChoices> {
    use jreach_syntax::tree::{enclosing_classes, has_modifier, named_children, type_parameters};
    let ty = java_ty.trim().trim_start_matches("final ").trim();
    let arg = ty.strip_prefix("Class<")?.strip_suffix('>')?.trim();
    let var = arg.strip_prefix("? extends ").unwrap_or(arg).trim();
    let src = file.text.as_str();
    // The declaration of `var` nearest `m`: its first bound, raw.
    let mut n = Some(m.node(file));
    let bound = loop {
        let c = n?;
        if let Some((_, bound)) = type_parameters(c, src).into_iter().find(|(name, _)| name == var) {
            break bound.map(|b| jreach_syntax::erase(&b));
        }
        n = c.parent();
    };
    let mut options = Vec::new();
    match bound.as_deref() {
        Some("Enum" | "java.lang.Enum") => {
            let mut stack = vec![file.tree.root_node()];
            while let Some(d) = stack.pop() {
                stack.extend(named_children(d).into_iter().rev());
                if d.kind() != "enum_declaration" || has_modifier(d, src, "private") {
                    continue;
                }
                let mut path = enclosing_classes(d, src);
                path.extend(d.child_by_field_name("name").map(|k| text_of(k, src).to_string()));
                options.push(JavaValue::Expr(format!("{}.class", path.join("."))));
            }
            for jdk in ["java.util.concurrent.TimeUnit", "java.time.DayOfWeek", "Thread.State"] {
                options.push(JavaValue::Expr(format!("{jdk}.class")));
            }
        }
        Some("Comparable" | "java.lang.Comparable") => {
            options.extend(["String.class", "Integer.class"].map(|c| JavaValue::Expr(c.into())))
        }
        Some("Number" | "java.lang.Number") => {
            options.extend(["Integer.class", "Long.class", "Double.class"].map(|c| JavaValue::Expr(c.into())))
        }
        Some("Object" | "java.lang.Object") | None => return jdk_choices("Class<?>", m.top_class()),
        Some(class) => options.push(JavaValue::Expr(format!("{class}.class"))),
    }
    options.push(JavaValue::Null);
    Some(jreach_synth::JdkChoices { options, imports: vec![] })
}

/// What a search makes the receiver of a method of an abstract class as, where the model
/// cannot write an anonymous subclass.
enum Subclass {
    /// A class of the file or its package extending it, with its constructor's parameters
    /// ([`concrete_subclass`]).
    OfPackage((String, Vec<jreach_syntax::Param>)),
    /// An anonymous subclass whose methods return defaults ([`stubbed_subclass`]).
    Stubbed(super::stubbed_subclass::StubbedSubclass),
}

/// For an instance method `m` of an abstract class no anonymous subclass in a test can stand in
/// for: a class of the file or its package that extends `m`'s class directly, is neither abstract
/// nor private (nested: static), declares no method of `m`'s name (so that the call runs `m`),
/// and has a constructor a test may call whose arguments a search writes (fewest first): its name
/// as a test writes it and that constructor's parameters (none for the implicit one).
fn concrete_subclass(whole: &FileContext<'_>, m: &MethodInfo) -> Option<(String, Vec<jreach_syntax::Param>)> {
    use jreach_syntax::tree::{enclosing_classes, has_modifier, named_children};
    let file = whole.file();
    let src = file.text.as_str();
    let base = m.classes.last()?;
    let mut classes = Vec::new();
    let mut stack = vec![file.tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.kind() == "class_declaration" {
            classes.push(n);
        }
        stack.extend(named_children(n));
    }
    let mut found: Vec<(String, Vec<jreach_syntax::Param>)> = Vec::new();
    for d in classes {
        let extends = d
            .child_by_field_name("superclass")
            .and_then(|s| named_children(s).into_iter().next())
            .map(|t| jreach_syntax::text_of(t, src));
        let Some(extends) = extends else { continue };
        let extends = extends.split('<').next().unwrap_or(extends).trim();
        if extends.rsplit('.').next() != Some(base.as_str()) {
            continue;
        }
        let mut path = enclosing_classes(d, src);
        let Some(name) = d.child_by_field_name("name").map(|n| jreach_syntax::text_of(n, src).to_string()) else {
            continue;
        };
        let nested = !path.is_empty();
        path.push(name);
        if has_modifier(d, src, "abstract")
            || has_modifier(d, src, "private")
            || (nested && !has_modifier(d, src, "static"))
        {
            continue;
        }
        let members = d.child_by_field_name("body").map(named_children).unwrap_or_default();
        let overrides = members.iter().any(|b| {
            b.kind() == "method_declaration"
                && b.child_by_field_name("name").is_some_and(|n| jreach_syntax::text_of(n, src) == m.name)
        });
        if overrides {
            continue;
        }
        let ctors: Vec<Vec<jreach_syntax::Param>> = match members.iter().any(|b| b.kind() == "constructor_declaration")
        {
            true => whole
                .methods()
                .iter()
                .filter(|c| c.is_constructor && c.classes == path && !c.hidden_from_tests() && !c.has_error)
                .map(|c| c.params.clone())
                .collect(),
            // Only the implicit constructor.
            false => vec![vec![]],
        };
        if let Some(params) = ctors.into_iter().filter(|p| search_writes(whole, p)).min_by_key(Vec::len) {
            found.push((path.join("."), params));
        }
    }
    found.into_iter().min_by_key(|(name, params)| (params.len(), name.clone()))
}

/// For an instance method `m` whose receiver a test can make with no constructor (nor by
/// reflection): the static method of its class that returns one, taking numbers, characters,
/// booleans, strings or JDK values a search chooses (`Fraction.getFraction(int, int)`,
/// `Range.of(T, T)`), the fewest strings and JDK values first, then the fewest parameters.
fn receiver_factory(ctx: &FileContext<'_>, m: &MethodInfo) -> Option<MethodInfo> {
    receiver_factories(ctx, m).into_iter().next()
}

/// Every static method [`receiver_factory`] may choose, its choice first, then in the order it
/// ranks them.
fn receiver_factories(ctx: &FileContext<'_>, m: &MethodInfo) -> Vec<MethodInfo> {
    if m.is_static || m.is_constructor || m.hidden_from_tests() || m.class_is_abstract {
        return vec![];
    }
    if receiver_constructor(ctx, m).is_ok() || ctx.receiver_by_reflection(m) {
        return vec![];
    }
    if m.classes.len() > 1 && !is_static_nested(ctx.file(), m) {
        return vec![];
    }
    let Some(class) = m.classes.last() else { return vec![] };
    let test_ty = |ty: &str| ctx.test_java_of(ty.trim().trim_start_matches("final ").trim());
    // Numbers before text: a parser's string is the hardest input for the search to find.
    let hard = |ty: &str| !matches!(search_value(&test_ty(ty)), Some(v) if !matches!(v, JavaValue::Str(_)));
    let mut found: Vec<MethodInfo> = ctx
        .methods()
        .iter()
        .filter(|f| f.classes == m.classes && f.is_static && !f.hidden_from_tests() && !f.has_error)
        .filter(|f| f.return_ty.split('<').next().map(str::trim) == Some(class.as_str()))
        .filter(|f| search_writes(ctx, &f.params))
        .cloned()
        .collect();
    // (Stable: among equals, the file's order.)
    found.sort_by_key(|f| (f.params.iter().filter(|p| hard(&p.ty)).count(), f.params.len()));
    found
}

/// At most this many static factories make a receiver a search chooses among.
const FACTORIES_MAX: usize = 6;

/// For instance method `m` whose receiver `req` gets from a static factory: a choice among the
/// factories of its class (`CharRange.is(c)`, `CharRange.isNot(c)`, ...: each may make an object
/// in another state), the one `req` has first, each with arguments the search moves, set as where
/// `req` gets its receiver from. Nothing changes when there is no other factory.
fn factory_choice(ctx: &FileContext<'_>, m: &MethodInfo, req: &mut TestRequest, own: &str) {
    let Some(first) = req.receiver_factory.clone() else { return };
    if req.receiver_from.is_some() || !req.receiver_calls.is_empty() {
        return;
    }
    let made = |name: &str, args| JavaValue::made_by(own.to_string(), name.to_string(), args);
    let mut options = vec![made(&first, std::mem::take(&mut req.receiver_args))];
    let mut imports = Vec::new();
    for f in receiver_factories(ctx, m) {
        let name = format!("{own}.{}", f.name);
        let Some(args) = searched_args(ctx, &f.params, own, &mut imports) else { continue };
        // (The same factory by another overload is another option; the same one is not.)
        let types: Vec<String> = args.iter().map(|(t, _)| t.clone()).collect();
        let same = options.iter().any(|o| match o {
            JavaValue::Constructed { factory: Some(n), args: a, .. } => {
                *n == name && a.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>() == types
            }
            _ => false,
        });
        if !same && options.len() < FACTORIES_MAX {
            options.push(made(&name, args));
        }
    }
    if options.len() < 2 {
        // Nothing to choose: as it was.
        if let Some(JavaValue::Constructed { args, .. }) = options.pop() {
            req.receiver_args = args;
        }
        return;
    }
    req.receiver_factory = None;
    req.receiver_from = Some(ReceiverFrom {
        declared_as: own.to_string(),
        on: ReceiverHolder::Value(JavaValue::Choice { slot: None, options }),
        member: String::new(),
        args: None,
    });
    super::add_imports(&mut req.imports, imports);
}

/// Whether [`searched_args`] has values for every one of `params`.
pub(crate) fn search_writes(ctx: &FileContext<'_>, params: &[jreach_syntax::Param]) -> bool {
    params.iter().all(|p| {
        let ty = ctx.test_java_of(p.ty.trim().trim_start_matches("final ").trim());
        search_value(&ty).is_some() || jdk_choices(&ty, "").is_some()
    })
}

/// For instance method `m` whose receiver `req` makes with a constructor and its arguments alone:
/// a choice among the constructors of its class a test may call whose arguments a search
/// writes, the model's first, each with arguments the search moves (`JsonPrimitive obj = new
/// JsonPrimitive((Number) 1)` reaches what `new JsonPrimitive("")` does not), set as where
/// `req` gets its receiver from. Nothing changes when there is no other such constructor.
fn constructor_choice(
    ctx: &FileContext<'_>,
    whole: &FileContext<'_>,
    m: &MethodInfo,
    req: &mut TestRequest,
    own: &str,
) {
    let simple_receiver = req.receiver_from.is_none()
        && req.receiver_factory.is_none()
        && req.receiver_fields.is_none()
        && req.receiver_body.is_none()
        && req.receiver_class.is_none()
        && req.held_by.is_none()
        && req.receiver_calls.is_empty();
    if m.is_static || m.is_constructor || m.class_is_abstract || !simple_receiver {
        return;
    }
    let own_end = ctx.own_end().unwrap_or(ctx.file().text.len());
    let ctors: Vec<&MethodInfo> = ctx
        .methods()
        .iter()
        .filter(|c| c.is_constructor && c.classes == m.classes && !c.has_error && c.range.end <= own_end)
        .filter(|c| !c.hidden_from_tests())
        .collect();
    let model_types: Vec<&str> = req.receiver_args.iter().map(|(t, _)| t.as_str()).collect();
    let same_arity = |n: usize| ctors.iter().filter(|c| c.params.len() == n).count() > 1;
    let made = |args: Vec<(String, JavaValue)>, castable: bool| {
        let cast = castable && same_arity(args.len());
        let mut v = JavaValue::new_with(own.to_string(), args);
        if let JavaValue::Constructed { cast_args, .. } = &mut v {
            *cast_args = cast;
        }
        v
    };
    // The model's arguments are typed as the source writes them (`Map<String, V>`): cast to the
    // raw types `overloads` found a test can name, and not at all when one has none.
    let primitive = |t: &str| Ty::of_java(t).is_numeric() || Ty::of_java(t) == Ty::Bool;
    let casts = &req.null_casts.receiver_args;
    let model_castable = req
        .receiver_args
        .iter()
        .enumerate()
        .all(|(i, (t, _))| primitive(t) || casts.get(i).is_some_and(Option::is_some));
    let model_args = req
        .receiver_args
        .iter()
        .enumerate()
        .map(|(i, (t, v))| (casts.get(i).cloned().flatten().unwrap_or_else(|| t.clone()), v.clone()))
        .collect();
    let mut options = vec![made(model_args, model_castable)];
    let mut imports = Vec::new();
    for (k, c) in ctors.iter().enumerate() {
        let Some(mut args) = searched_args(ctx, &c.params, own, &mut imports) else { continue };
        let types: Vec<&str> = args.iter().map(|(t, _)| t.as_str()).collect();
        if types != model_types {
            for (i, (ty, v)) in args.iter_mut().enumerate() {
                let id = RECEIVER_ARG_IDS + (k + 1) * ARGS_MAX + i;
                with_filled(whole, ctx.file(), ty, v, own, id, &mut imports);
            }
            options.push(made(args, true));
        }
    }
    if options.len() < 2 {
        return;
    }
    req.receiver_from = Some(ReceiverFrom {
        declared_as: own.to_string(),
        on: ReceiverHolder::Value(JavaValue::Choice { slot: None, options }),
        member: String::new(),
        args: None,
    });
    req.receiver_args.clear();
    req.null_casts.receiver_args.clear();
    super::add_imports(&mut req.imports, imports);
}

/// How deep in the objects the model made [`open_null_arguments`] looks.
const NULL_ARGUMENTS_DEPTH: usize = 2;

/// In `made` (an object the model made by a constructor), each null argument of a class of the
/// project a choice of null, first, and objects of it as a search makes them ([`made_choice`]),
/// in the objects among its arguments too, `depth` levels down.
fn open_null_arguments(
    whole: &FileContext<'_>,
    file: &SourceFile,
    made: &mut JavaValue,
    own_class: &str,
    imports: &mut Vec<String>,
    depth: usize,
) {
    let JavaValue::Constructed { args, factory: None, .. } = made else { return };
    if depth == 0 {
        return;
    }
    for (ty, a) in args.iter_mut() {
        match a {
            JavaValue::Null => {
                if let Some(objects) = made_choice(whole, file, ty, own_class, imports) {
                    *a = objects;
                }
            }
            JavaValue::Constructed { .. } => open_null_arguments(whole, file, a, own_class, imports, depth - 1),
            _ => {}
        }
    }
}

/// For a parameter of type `ty` that the model passed as null: when `ty` is a class of the
/// project, null or an object of it as a search makes one ([`super::result_call::argument`]:
/// by its constructor or a static factory with arguments the search moves, or, for a class no
/// constructor makes, one of the classes extending it).
fn made_choice(
    whole: &FileContext<'_>,
    file: &SourceFile,
    ty: &str,
    own_class: &str,
    imports: &mut Vec<String>,
) -> Option<JavaValue> {
    if search_value(ty).is_some() || jdk_choices(ty, own_class).is_some() {
        return None;
    }
    // (A generic class's objects in a switch may not fit a generic method's parameter: the
    // model's null stays.)
    if super::result_call::is_generic(whole, ty) {
        return None;
    }
    let mut needs = Vec::new();
    let mut options = match super::result_call::argument(whole, file, ty, own_class, &mut needs) {
        JavaValue::Choice { options, .. } => options,
        made @ JavaValue::Constructed { .. } => vec![made],
        _ => return None,
    };
    // Null first, as the model chose.
    options.retain(|o| *o != JavaValue::Null);
    options.insert(0, JavaValue::Null);
    super::add_imports(imports, needs);
    Some(JavaValue::Choice { slot: None, options })
}

/// Where the ids of the arrays [`with_filled`] writes for the receiver's constructor arguments
/// begin (a parameter's are [`filled_collections`]' `param`, below), and how many arguments a
/// constructor's ids leave room for.
const RECEIVER_ARG_IDS: usize = 1000;
const ARGS_MAX: usize = 100;

/// `value` (of a constructor argument of type `ty`) as a choice of itself, the other values
/// a test writes for `ty` and `ty`'s collection holding one or two objects of the project
/// ([`filled_collections`]), when `ty` is such a collection; else left as it is.
fn with_filled(
    whole: &FileContext<'_>,
    file: &SourceFile,
    ty: &str,
    value: &mut JavaValue,
    own_class: &str,
    ids: usize,
    imports: &mut Vec<String>,
) {
    let Some(c) = jdk_choices(ty, own_class) else { return };
    let filled = filled_collections(whole, file, ty, &c.options, own_class, ids, imports);
    if filled.is_empty() {
        return;
    }
    let current = match std::mem::replace(value, JavaValue::Null) {
        JavaValue::Choice { options, .. } => options,
        v => vec![v],
    };
    let mut options = current;
    options.extend(c.options.into_iter().filter(|o| !options.contains(o)).collect::<Vec<_>>());
    options.extend(filled);
    super::add_imports(imports, c.imports);
    *value = JavaValue::Choice { slot: None, options };
}

/// For a parameter of collection type `ty` whose elements are objects of a class of the project
/// (`ArrayList<Skyline>`), which `options` (its JDK choices) hold only as an empty collection:
/// that collection with one and with two such objects, each made by its constructor with
/// arguments the search moves (`new ArrayList<>(Arrays.asList(new SkylineProblem.Skyline[]
/// {new SkylineProblem.Skyline(1, 1)}))`). `param` keeps the arrays apart from others.
fn filled_collections(
    whole: &FileContext<'_>,
    file: &SourceFile,
    ty: &str,
    options: &[JavaValue],
    own_class: &str,
    param: usize,
    imports: &mut Vec<String>,
) -> Vec<JavaValue> {
    let Some(empty) = options.iter().find_map(|o| match o {
        JavaValue::Constructed { class, args, factory: None, .. } if class.ends_with("<>") && args.is_empty() => {
            Some(class.clone())
        }
        _ => None,
    }) else {
        return vec![];
    };
    let Some(elem) = ty.split_once('<').and_then(|(_, rest)| rest.strip_suffix('>')).map(str::trim) else {
        return vec![];
    };
    if elem.contains(',') || elem.contains('<') || elem.contains('?') {
        return vec![];
    }
    let mut needs = Vec::new();
    let made = super::result_call::argument(whole, file, elem, own_class, &mut needs);
    let JavaValue::Constructed { class: elem_name, .. } = &made else { return vec![] };
    let elem_name = elem_name.clone();
    super::add_imports(imports, needs.into_iter().chain(["java.util.Arrays".to_string()]));
    (1..=2)
        .map(|n| {
            let array = JavaValue::Array {
                elem_ty: elem_name.clone(),
                id: -1000 - (param * 2 + n) as i64,
                items: vec![made.clone(); n],
            };
            let list =
                JavaValue::made_by("Arrays".into(), "Arrays.asList".into(), vec![(format!("{elem_name}[]"), array)]);
            JavaValue::new_with(empty.clone(), vec![(format!("java.util.Collection<{elem_name}>"), list)])
        })
        .collect()
}

/// The arguments a search starts from for `params` (of a factory or of the static method an
/// object is held by), as (type as a test writes it, value): numbers, characters, booleans and
/// strings, or a choice among readable JDK values (whose imports go to `imports`); `None` when a
/// parameter has another type.
pub(crate) fn searched_args(
    ctx: &FileContext<'_>,
    params: &[jreach_syntax::Param],
    own_class: &str,
    imports: &mut Vec<String>,
) -> Option<Vec<(String, JavaValue)>> {
    let mut args = Vec::new();
    for p in params {
        let ty = ctx.test_java_of(p.ty.trim().trim_start_matches("final ").trim());
        let value = match search_value(&ty) {
            Some(v) => v,
            None => {
                let c = jdk_choices(&ty, own_class)?;
                super::add_imports(imports, c.imports);
                JavaValue::Choice { slot: None, options: c.options }
            }
        };
        args.push((ty, value));
    }
    Some(args)
}

/// An object of the annotation interface `ty` (whose elements are `elements`) that a search
/// on the JVM changes: an anonymous class whose methods return a number, string or boolean the
/// search moves, one of the readable classes for a `Class` (`jreach_synth::jdk_choices`), else
/// the element's default. `None` when an element has none of those.
fn annotation_value(
    ty: &str,
    elements: &[jreach_ir::lower::AnnotationElement],
    own_class: &str,
    imports: &mut Vec<String>,
) -> Option<JavaValue> {
    let name = ty.trim().trim_start_matches("final ").trim().to_string();
    let mut methods = vec![jreach_synth::StubMethodValue {
        name: "annotationType".into(),
        params: vec![],
        ret_java: "Class<? extends java.lang.annotation.Annotation>".into(),
        returns: Some(JavaValue::Expr(format!("{name}.class"))),
    }];
    for e in elements {
        let ty = e.ty.trim();
        let value = match (search_value(ty), jdk_choices(ty, own_class), &e.default) {
            (Some(v), _, _) => v,
            (None, Some(c), _) if ty.starts_with("Class") && c.options.iter().any(|o| *o != JavaValue::Null) => {
                imports.extend(c.imports);
                let options: Vec<JavaValue> = c.options.into_iter().filter(|o| *o != JavaValue::Null).collect();
                JavaValue::Choice { slot: None, options }
            }
            // (An array's default may be written without `new`: `default {}`.)
            (None, _, Some(d)) => match (ty.strip_suffix("[]"), d.trim().starts_with('{')) {
                (Some(elem), true) => JavaValue::Expr(format!("new {}[] {}", elem.trim(), d.trim())),
                (Some(elem), false) => JavaValue::Expr(format!("new {}[] {{{}}}", elem.trim(), d.trim())),
                (None, _) => JavaValue::Expr(d.trim().to_string()),
            },
            _ => return None,
        };
        methods.push(jreach_synth::StubMethodValue {
            name: e.name.clone(),
            params: vec![],
            ret_java: ty.to_string(),
            returns: Some(value),
        });
    }
    Some(JavaValue::Stub { interface: name, methods })
}

/// The value a search starts from for a parameter of type `ty` as a test writes it, if it is a
/// number, character, boolean or string: one, `'a'`, `true`, `"a"` (a zero or an empty string
/// is what factories and setters reject most).
pub(crate) fn search_value(ty: &str) -> Option<JavaValue> {
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

/// At most this many calls on each parameter the test creates (fewer than on the receiver: each
/// place is more inputs for the search to move).
const PARAMETER_SEQUENCE_CALLS: usize = 3;

/// At most this many of the class's methods are candidates for those calls.
const SEQUENCE_METHODS: usize = 16;

/// The calls a search may make on the receiver of `m` to bring it into a state (a stack after
/// two pushes); see [`call_choices`].
fn receiver_call_choices(ctx: &FileContext<'_>, m: &MethodInfo) -> Vec<jreach_synth::CallChoice> {
    call_choices(ctx, &m.classes, None, SEQUENCE_CALLS)
}

/// For each parameter the start creates as an object of a class of the file, its package or
/// its imports (held in a local): the calls a search may make on it before the call under test
/// (options after an `addOption`), see [`call_choices`].
fn parameter_call_choices(file: &SourceFile, m: &MethodInfo, opts: &GenOptions, req: &mut TestRequest) {
    let with_package = with_package_sources(file, m, &opts.package_sources, &opts.imported_sources);
    let (source, foreign_from) = match &with_package {
        Some((f, foreign_from)) => (f, *foreign_from),
        None => (file, None),
    };
    let ctx = FileContext::new(source, foreign_from, with_package.as_ref().map(|_| file.text.len()));
    for a in &mut req.args {
        if let JavaValue::Constructed { class, choices, builder: None, .. } = a {
            let chain: Vec<String> = class.split('.').map(str::to_string).collect();
            *choices = call_choices(&ctx, &chain, foreign_from, PARAMETER_SEQUENCE_CALLS);
        }
    }
}

/// The calls a search may make on an object of the class named by `classes` (outermost first)
/// to bring it into a state: the instance methods of that class a test may call (only public
/// ones of a class declared from `foreign_from` on, another package's) whose arguments are
/// numbers, characters, booleans or strings (type variables as the test takes them), those
/// returning nothing or the object first, then fewest arguments first. Each of `places` places
/// holds none or one of them.
fn call_choices(
    ctx: &FileContext<'_>,
    classes: &[String],
    foreign_from: Option<usize>,
    places: usize,
) -> Vec<jreach_synth::CallChoice> {
    let mut calls: Vec<jreach_synth::JavaCall> = Vec::new();
    let foreign = |c: &MethodInfo| foreign_from.is_some_and(|at| c.range.start >= at);
    let mut methods: Vec<&MethodInfo> = ctx
        .methods()
        .iter()
        .filter(|c| c.classes == classes && !c.is_static && !c.is_constructor && !c.hidden_from_tests() && !c.has_error)
        .filter(|c| !foreign(c) || c.is_public)
        .filter(|c| !matches!(c.name.as_str(), "equals" | "hashCode" | "toString" | "clone" | "finalize"))
        // (Not a method of an anonymous class inside it, which has no name of its own.)
        .filter(|c| {
            let decl = c.node(ctx.file()).parent().and_then(|body| body.parent());
            decl.is_some_and(|d| matches!(d.kind(), "class_declaration" | "enum_declaration" | "record_declaration"))
        })
        .collect();
    // Calls that change the object first: those returning nothing or the object itself
    // (`addOption(...)` returning the options), then the rest, which may change it too;
    // fewest arguments first.
    let own = classes.last().map(String::as_str).unwrap_or_default();
    let changes = |c: &MethodInfo| {
        let ret = c.return_ty.trim();
        ret == "void" || ret == own || ret.split('<').next() == Some(own)
    };
    // A method whose body assigns nothing and calls nothing (a getter) cannot bring the object
    // into another state: last, after every other (`isLenient()` behind `nextName()`).
    methods.sort_by_key(|c| (!may_change_state(ctx.file(), c), !changes(c), c.params.len()));
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
            let returns_copy = changes(c) && c.return_ty.trim() != "void" && !returns_only_this(ctx.file(), c);
            calls.push(jreach_synth::JavaCall { method: c.name.clone(), args, returns_copy });
        }
        if calls.len() == SEQUENCE_METHODS {
            break;
        }
    }
    if calls.is_empty() {
        return vec![];
    }
    (0..places).map(|_| jreach_synth::CallChoice { slot: None, calls: calls.clone() }).collect()
}

/// Whether the body of `c` may change an object's state: it assigns, steps a variable, calls a
/// method or creates an object (whose constructor may write anything). A method without a body
/// (abstract, native) may.
fn may_change_state(file: &SourceFile, c: &MethodInfo) -> bool {
    let Some(body) = c.node(file).child_by_field_name("body") else { return true };
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if matches!(
            n.kind(),
            "assignment_expression" | "update_expression" | "method_invocation" | "object_creation_expression"
        ) {
            return true;
        }
        stack.extend(n.named_children(&mut n.walk()));
    }
    false
}

/// Whether every `return` in the body of `c` returns `this` (a fluent setter, whose result is the
/// object it changed rather than a changed copy). False without a body or a `return`.
fn returns_only_this(file: &SourceFile, c: &MethodInfo) -> bool {
    let Some(body) = c.node(file).child_by_field_name("body") else { return false };
    let mut stack = vec![body];
    let mut returns = 0;
    while let Some(n) = stack.pop() {
        match n.kind() {
            // (A return inside a lambda or a class of the body is not the method's.)
            "lambda_expression" | "class_body" => continue,
            "return_statement" => {
                let value = n.named_child(0).map(|v| file.text[v.byte_range()].trim().to_string());
                if value.as_deref() != Some("this") {
                    return false;
                }
                returns += 1;
            }
            _ => stack.extend(n.named_children(&mut n.walk())),
        }
    }
    returns > 0
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

#[cfg(test)]
mod tests {
    use jreach_ir::interp::Value;

    use super::*;

    #[test]
    fn a_start_makes_the_objects_the_solver_left_without_a_way_to_be_made() {
        // Asked only to enter the method, the solver may leave an object's way of being made
        // (null, its constructor, the same as another parameter) out of range: the start makes
        // it with its constructor. A test that must reach its line is not written from such
        // inputs.
        let src = "package p;\npublic class T {\n  public static class Box {\n    final int v;\n    public Box(int v) { this.v = v; }\n  }\n  public static int f(Box b) {\n    if (b.v == 7) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
        let file = SourceFile::parse(src);
        let (target, entries) = callers::target_entries(&file, 8).expect("a target");
        let m = entries.into_iter().next().expect("f");
        let opts = GenOptions::default();
        let source = SynthesisSource::new(&file, &m, &opts);
        let whole = source.context(&file);
        let f = lower_for_synthesis(&source, &whole, &m, &opts, 2);
        let b = f.setup.built_params.first().expect("`b` is made by a constructor").clone();
        let Verdict::Sat(mut args) = solve_reach(&f, &[f.entry], &SolveOptions::default()) else {
            panic!("the entry is reachable")
        };
        args[b.how] = Value::Int(Ty::Int, 3);
        let target = Target { method: m, ..target };
        let targets = f.blocks_of_stmt(target.stmt.start);
        let start = replay::request(&file, &target, &f, &targets, &args, &opts, false, &[]).expect("a start");
        assert!(
            matches!(&start.args[0], JavaValue::Constructed { class, .. } if class.ends_with("Box")),
            "{:?}",
            start.args
        );
        let test = replay::request(&file, &target, &f, &targets, &args, &opts, true, &[]);
        assert!(test.is_err(), "{test:?}");
    }

    #[test]
    fn a_char_sequence_is_a_string_a_builder_or_what_the_code_tests_it_against() {
        let src = "package p;\npublic class Text implements CharSequence {\n  public Text(String s) {}\n  public int length() { return 0; }\n  public char charAt(int i) { return 'a'; }\n  public CharSequence subSequence(int a, int b) { return this; }\n  public static int kind(CharSequence seq) {\n    if (seq instanceof Text) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
        let file = SourceFile::parse(src);
        let start = search_start(&file, 8, &GenOptions::default()).expect("a start");
        assert_eq!(start.params[0].1, "CharSequence");
        let JavaValue::Choice { options, .. } = &start.args[0] else { panic!("{:?}", start.args) };
        let written: Vec<String> = options.iter().map(jreach_synth::literal).collect();
        assert!(written.contains(&"new StringBuilder(\"\")".to_string()), "{written:?}");
        assert!(written.contains(&"new Text(\"a\")".to_string()), "{written:?}");
        // One of another kind than those the code tests it against.
        assert!(written.contains(&"java.nio.CharBuffer.wrap(\"\")".to_string()), "{written:?}");
        assert_eq!(written.last().map(String::as_str), Some("null"), "{written:?}");
    }

    #[test]
    fn a_null_the_model_passed_to_a_constructor_may_be_an_object_the_search_makes() {
        // A list of one node is what the model made; its `next` may be a second node.
        let src = "package p;\nclass Node {\n  int v;\n  Node next;\n  Node() {}\n  Node(int v, Node next) { this.v = v; this.next = next; }\n}\npublic class L {\n  private final Node head;\n  public L(Node head) { this.head = head; }\n  public static int second(Node n) {\n    int k = Integer.parseInt(String.valueOf(n.v));\n    if (n.next != null && n.next.v >= k) {\n      return 1;\n    }\n    return 0;\n  }\n  public int first() {\n    int k = Integer.parseInt(String.valueOf(head.v));\n    if (head.next != null && head.next.v >= k) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
        let file = SourceFile::parse(src);
        let written = |v: &JavaValue| jreach_synth::literal(v);
        // The options of the made node's `next`.
        let next_options = |v: &JavaValue| {
            let JavaValue::Constructed { args, .. } = v else { panic!("{v:?}") };
            let JavaValue::Choice { options, .. } = &args[1].1 else { panic!("{args:?}") };
            options.iter().map(written).collect::<Vec<_>>()
        };
        let start = search_start(&file, 13, &GenOptions::default()).expect("a start");
        assert_eq!(next_options(&start.args[0]), ["null", "new Node()"]);
        // The receiver's constructor argument too.
        let start = search_start(&file, 20, &GenOptions::default()).expect("a start");
        let (_, arg) = start.receiver_args.first().expect("the constructor's argument");
        assert_eq!(next_options(arg), ["null", "new Node()"]);
    }

    #[test]
    fn a_package_private_method_is_also_entered_through_its_callers() {
        // `unlink` takes a node that must be in the tree: `remove` after the receiver's `put`s
        // is a way in too, after `unlink` itself. A private method's callers are its only ways.
        let src = "package p;\npublic class Tree {\n  static class Node {\n    int key;\n    Node left;\n    Node(int key) { this.key = key; }\n  }\n  Node root;\n  public void put(int k) {\n    Node n = new Node(k);\n    n.left = root;\n    root = n;\n  }\n  public boolean remove(int k) {\n    if (root == null || root.key != k) {\n      return false;\n    }\n    unlink(root);\n    return true;\n  }\n  void unlink(Node n) {\n    if (n.left != null) {\n      root = n.left;\n    }\n  }\n}\n";
        let file = SourceFile::parse(src);
        let methods: Vec<String> =
            search_starts(&file, 22, &GenOptions::default()).into_iter().map(|s| s.method).collect();
        assert_eq!(methods, ["unlink", "remove"]);
        let private = src.replace("  void unlink", "  private void unlink");
        let file = SourceFile::parse(&private);
        let methods: Vec<String> =
            search_starts(&file, 22, &GenOptions::default()).into_iter().map(|s| s.method).collect();
        assert_eq!(methods, ["remove"]);
        // One that takes only what a test writes keeps the search to itself.
        let plain = src
            .replace("void unlink(Node n) {\n    if (n.left != null) {", "void unlink(int k) {\n    if (k > 3) {")
            .replace("root = n.left;", "root = null;")
            .replace("unlink(root);", "unlink(k);");
        let file = SourceFile::parse(&plain);
        let methods: Vec<String> =
            search_starts(&file, 22, &GenOptions::default()).into_iter().map(|s| s.method).collect();
        assert_eq!(methods, ["unlink"]);
    }

    #[test]
    fn an_annotation_the_code_reads_is_an_anonymous_class_whose_answers_a_search_moves() {
        let src = "package p;\npublic class T {\n  public @interface Limit {\n    int max();\n    Class<?> kind();\n    String[] tags() default {};\n  }\n  public static int f(Limit limit) {\n    if (limit.max() > 3) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
        let file = SourceFile::parse(src);
        let start = search_start(&file, 9, &GenOptions::default()).expect("a start");
        let JavaValue::Stub { interface, methods } = &start.args[0] else { panic!("{:?}", start.args) };
        assert_eq!(interface, "Limit");
        let names: Vec<&str> = methods.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["annotationType", "max", "kind", "tags"]);
        let returns: Vec<String> = methods.iter().map(|m| jreach_synth::literal(m.returns.as_ref().unwrap())).collect();
        assert_eq!(returns[0], "Limit.class");
        assert_eq!(returns[1], "1");
        assert!(matches!(methods[2].returns, Some(JavaValue::Choice { .. })), "{:?}", methods[2]);
        assert_eq!(returns[3], "new String[] {}");
    }

    #[test]
    fn a_collection_of_objects_of_the_package_may_hold_one_or_two() {
        let main = "package p;\nimport java.util.ArrayList;\npublic class Sky {\n  public static int first(ArrayList<Shapes.Point> points) {\n    if (points.get(0).x > 3) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
        let other = "package p;\nclass Shapes {\n  static class Point {\n    int x;\n    Point(int x) { this.x = x; }\n  }\n}\n";
        let file = SourceFile::parse(main);
        let opts = GenOptions { package_sources: vec![other.to_string()], ..GenOptions::default() };
        let start = search_start(&file, 5, &opts).expect("a start");
        let JavaValue::Choice { options, .. } = &start.args[0] else { panic!("{:?}", start.args) };
        let written: Vec<String> = options.iter().map(jreach_synth::literal).collect();
        assert_eq!(
            written,
            [
                "new ArrayList<>()",
                "new ArrayList<>(Arrays.asList(new Shapes.Point[] {new Shapes.Point(1)}))",
                "new ArrayList<>(Arrays.asList(new Shapes.Point[] {new Shapes.Point(1), new Shapes.Point(1)}))",
                "null"
            ]
        );
        assert!(start.imports.contains(&"java.util.Arrays".to_string()), "{:?}", start.imports);
    }

    #[test]
    fn a_collection_the_receivers_constructor_takes_may_hold_objects_of_the_project() {
        // One constructor (no choice among them): its argument is the model's value or the
        // collection with one or two objects, which the search picks among.
        let main = "package p;\nimport java.util.List;\npublic class Queue {\n  private final List<Job> jobs;\n  Queue(List<Job> jobs) { this.jobs = jobs; }\n  public int run() {\n    if (jobs.size() > 0) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
        let other =
            "package p;\npublic class Job {\n  final int time;\n  public Job(int time) { this.time = time; }\n}\n";
        let file = SourceFile::parse(main);
        let opts = GenOptions { package_sources: vec![other.to_string()], ..GenOptions::default() };
        let start = search_start(&file, 7, &opts).expect("a start");
        let (_, arg) = start.receiver_args.first().expect("the constructor's argument");
        let JavaValue::Choice { options, .. } = arg else { panic!("{:?}", start.receiver_args) };
        let written: Vec<String> = options.iter().map(jreach_synth::literal).collect();
        assert!(written.contains(&"new ArrayList<>(Arrays.asList(new Job[] {new Job(1)}))".to_string()), "{written:?}");
        assert!(written.contains(&"null".to_string()), "{written:?}");
        assert!(start.imports.contains(&"java.util.Arrays".to_string()), "{:?}", start.imports);
    }

    #[test]
    fn a_receiver_made_by_a_static_factory_is_one_of_the_factories_of_its_class() {
        let src = "package p;\npublic class Range {\n  final int lo;\n  final boolean negated;\n  private Range(int lo, boolean negated) { this.lo = lo; this.negated = negated; }\n  public static Range is(int lo) { return new Range(lo, false); }\n  public static Range isNot(int lo) { return new Range(lo, true); }\n  public int size() {\n    if (negated) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
        let file = SourceFile::parse(src);
        let start = search_start(&file, 9, &GenOptions::default()).expect("a start");
        let from = start.receiver_from.as_ref().expect("a choice of factories");
        let ReceiverHolder::Value(JavaValue::Choice { options, .. }) = &from.on else { panic!("{from:?}") };
        let written: Vec<String> = options.iter().map(jreach_synth::literal).collect();
        assert_eq!(written, ["Range.is(1)", "Range.isNot(1)"]);
        assert!(start.receiver_factory.is_none() && start.receiver_args.is_empty(), "{start:?}");
    }

    #[test]
    fn the_receiver_is_one_of_its_constructors_the_models_first() {
        let src = "package p;\npublic class Prim {\n  private final Object value;\n  public Prim(String s) { value = s; }\n  public Prim(Number n) { value = n; }\n  public Prim(int[] xs) { value = xs; }\n  public int kind() {\n    if (value instanceof Double) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
        let file = SourceFile::parse(src);
        let start = search_start(&file, 8, &GenOptions::default()).expect("a start");
        let from = start.receiver_from.as_ref().expect("a choice of constructors");
        let ReceiverHolder::Value(JavaValue::Choice { options, .. }) = &from.on else { panic!("{from:?}") };
        let written: Vec<String> = options.iter().map(jreach_synth::literal).collect();
        // (Two constructors of one parameter: each argument is cast, so that javac picks it; a
        // string picks `Prim(String)` as it is.)
        assert_eq!(written[0], "new Prim(\"\")", "{written:?}");
        assert!(written[1].starts_with("new Prim((Number) "), "{written:?}");
        // (Not `Prim(int[])`, whose argument searched_args does not write.)
        assert_eq!(written.len(), 2, "{written:?}");
        assert!(start.receiver_args.is_empty());
    }

    #[test]
    fn a_record_parameter_is_made_by_its_canonical_constructor() {
        let src = "package p;\npublic class Solver {\n  public record Eq(int a, String b) {}\n  public static int solve(Eq eq) {\n    if (eq.a() > 3) {\n      return 1;\n    }\n    return 0;\n  }\n}\n";
        let file = SourceFile::parse(src);
        let start = search_start(&file, 5, &GenOptions::default()).expect("a start");
        let JavaValue::Choice { options, .. } = &start.args[0] else { panic!("{:?}", start.args) };
        let written: Vec<String> = options.iter().map(jreach_synth::literal).collect();
        assert_eq!(written, ["new Solver.Eq(1, \"a\")", "null"]);
    }

    #[test]
    fn equals_may_get_an_object_of_its_class_made_by_its_constructor() {
        let src = "package p;\npublic class Money {\n  private final long cents;\n  public Money(long cents) { this.cents = cents; }\n  @Override\n  public boolean equals(Object o) {\n    if (this == o) {\n      return true;\n    }\n    if (!(o instanceof Money)) {\n      return false;\n    }\n    return cents == ((Money) o).cents;\n  }\n}\n";
        let file = SourceFile::parse(src);
        let start = search_start(&file, 12, &GenOptions::default()).expect("a start");
        let JavaValue::Choice { options, .. } = &start.args[0] else { panic!("{:?}", start.args) };
        let written: Vec<String> = options.iter().map(jreach_synth::literal).collect();
        assert!(written.contains(&"new Money(1L)".to_string()), "{written:?}");
        assert_eq!(written.last().map(String::as_str), Some("null"));
    }

    #[test]
    fn an_empty_array_of_a_jdk_type_imports_its_class() {
        let src = "package p;\nimport java.lang.reflect.Type;\npublic class Types {\n  public static int count(Type[] bounds) {\n    if (bounds.length > 1) {\n      return 2;\n    }\n    return 0;\n  }\n}\n";
        let file = SourceFile::parse(src);
        let start = search_start(&file, 5, &GenOptions::default()).expect("a start");
        assert!(start.imports.contains(&"java.lang.reflect.Type".to_string()), "{:?}", start.imports);
        let text = jreach_synth::render_class(&start);
        assert!(text.contains("new Type[0]") || text.contains("new Type[] {}"), "{text}");
    }

    #[test]
    fn a_class_of_a_type_variable_is_one_its_bound_allows() {
        let src = "package p;\npublic class Bits {\n  public enum Color { RED }\n  private enum Hidden { A }\n  public static <E extends Enum<E>> long bits(Class<E> c) { return 0L; }\n  public static <N extends Number> int n(Class<? extends N> c) { return 0; }\n  public static <T> int any(Class<T> c) { return 0; }\n  public static int plain(Class<String> c) { return 0; }\n}\n";
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let choices = |name: &str| {
            let m = ctx.methods().iter().find(|m| m.name == name).expect("the method");
            class_of_type_variable(&file, m, &m.params[0].ty)
                .map(|c| c.options.iter().map(jreach_synth::literal).collect::<Vec<_>>())
        };
        let enums = choices("bits").expect("enums");
        assert_eq!(enums[0], "Bits.Color.class", "the file's enum first, none private: {enums:?}");
        assert!(
            enums.contains(&"java.util.concurrent.TimeUnit.class".to_string())
                && !enums.iter().any(|e| e.contains("Hidden"))
        );
        assert_eq!(choices("n").expect("numbers"), ["Integer.class", "Long.class", "Double.class", "null"]);
        assert_eq!(choices("any").expect("any class")[0], "String.class");
        assert!(choices("plain").is_none(), "not a type variable: the JDK's choices");
    }

    #[test]
    fn an_abstract_receiver_is_made_as_a_class_of_the_package_that_extends_it() {
        // No anonymous subclass: the abstract method returns a type a test cannot write. Of the
        // subclasses, `Circle` overrides `describe` (its call would not run the target) and
        // `Blank` is abstract; `Square` inherits it and takes an int.
        let shape = "package p;\npublic abstract class Shape {\n  abstract Hidden hidden();\n  public String describe(int n) {\n    if (n > 3) {\n      throw new UnsupportedOperationException(\"many\");\n    }\n    return \"few\";\n  }\n}\n";
        let others = [
            "package p;\nclass Hidden {\n  private Hidden() {}\n}\n",
            "package p;\npublic class Circle extends Shape {\n  Hidden hidden() { return null; }\n  public String describe(int n) { return \"round\"; }\n}\n",
            "package p;\npublic abstract class Blank extends Shape {\n}\n",
            "package p;\npublic class Square extends Shape {\n  final int side;\n  public Square(int side) { this.side = side; }\n  Hidden hidden() { return null; }\n}\n",
        ];
        let file = SourceFile::parse(shape);
        let alone = search_start(&file, 5, &GenOptions::default());
        assert!(alone.is_none(), "{alone:?}");
        let opts =
            GenOptions { package_sources: others.iter().map(|s| s.to_string()).collect(), ..GenOptions::default() };
        let start = search_start(&file, 5, &opts).expect("a start");
        assert_eq!(start.receiver_class.as_deref(), Some("Square"), "{start:?}");
        let text = jreach_synth::render_class(&start);
        assert!(text.contains("Shape obj = new Square(1);"), "{text}");
        assert!(text.contains("obj.describe("), "{text}");
    }
}
