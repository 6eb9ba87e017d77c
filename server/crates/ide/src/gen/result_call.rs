//! A statement in a method of an object that the code creates and hands back, which a test can
//! neither create nor name itself: a factory's `return new TypeAdapter<T>() { ... read(JsonReader
//! in) { ... } }`, a private iterator class, a returned lambda (`return () -> ...` as an
//! `ObjectConstructor<T>`). Calling the method that creates the object does not run the
//! statement; a test runs it by calling the object's method on what that method (or a method of
//! the file leading to it) returns, declared as the type it returns: `TypeAdapter result =
//! FACTORY.create(gson, type); result.read(new JsonReader(new StringReader("a")));`. Only a
//! search on the JVM uses such a call: what the object holds is not in the model, and every test
//! it finds is verified on the JVM as usual.

use jreach_ir::lower::FileContext;
use jreach_syntax::tree::named_children;
use jreach_syntax::{text_of, Enclosure, MethodInfo, Node, SourceFile, Target};
use jreach_synth::{jdk_choices, JavaValue, ThenCall};

use super::callers;
use super::receiver::is_static_nested;
use super::receiver_from::{creations_of, imported_by_simple_name, overrides, returned_by, type_variables};
use super::start::{search_value, searched_args};

/// A method of an object the code makes and hands back, which a test can neither create nor
/// name itself: the types a test may declare that object as.
pub(crate) struct HandedOut {
    /// What the test calls on the object.
    pub(crate) call: Callee,
    /// Raw, as written: the class or interface an anonymous class extends (`TypeAdapter`); the
    /// supertypes a private or inner class declares.
    pub(crate) types: Vec<String>,
    /// For a private or inner class: its name, whose creations (`new Adapter(...)`) lead to the
    /// methods handing it out. `None` for an anonymous class, created where the target's method
    /// says.
    pub(crate) class: Option<String>,
    /// For an anonymous class whose object is a field's initializer: the field's type, raw as
    /// written (`TypeAdapter` for `IntegerFieldsTypeAdapter`), which a method reading the field
    /// returns it as; a test casts that to the class in [`HandedOut::types`].
    pub(crate) held_as: Option<String>,
}

/// The method a test calls on an object handed out ([`HandedOut`]).
pub(crate) enum Callee {
    /// A method of the file (of an anonymous, private or inner class) overriding another.
    Method(MethodInfo),
    /// The single abstract method of the functional interface a lambda implements
    /// ([`HandedOut::types`]), found by [`functional_method`].
    Lambda,
}

/// The method overriding another (`@Override`) that the statement of `target` is in, when a test
/// can only get its object from the code: a method of an anonymous class (the innermost), or an
/// instance method of a private or inner class; or the lambda it is in, when the code says which
/// functional interface that lambda is (it is returned, or assigned to a declared local).
pub(crate) fn handed_out(file: &SourceFile, target: &Target) -> Option<HandedOut> {
    let src = file.text.as_str();
    let (method, class) = match target.enclosure {
        Some(Enclosure::LocalOrAnonymousClass) => {
            let mut n = file.tree.root_node().descendant_for_byte_range(target.stmt.start, target.stmt.start)?;
            let method = loop {
                match n.kind() {
                    "method_declaration" => break n,
                    "lambda_expression" | "constructor_declaration" => return None,
                    _ => n = n.parent()?,
                }
            };
            let creation = method.parent().filter(|b| b.kind() == "class_body")?.parent()?;
            if creation.kind() != "object_creation_expression" {
                return None;
            }
            (method, creation)
        }
        Some(Enclosure::Lambda) => {
            let ty = lambda_type(file, target)?;
            return Some(HandedOut { call: Callee::Lambda, types: vec![ty], class: None, held_as: None });
        }
        None => {
            let m = &target.method;
            let inner = m.classes.len() > 1 && !is_static_nested(file, m);
            if !(m.class_is_private || inner) || m.is_constructor {
                return None;
            }
            let method = m.node(file);
            (method, method.parent().filter(|b| b.kind() == "class_body")?.parent()?)
        }
    };
    let m = MethodInfo::from_node(method, file)?;
    if !overrides(file, &m) || m.is_static || m.has_error {
        return None;
    }
    let raw = |t: Node<'_>| {
        let t = text_of(t, src);
        t.split('<').next().unwrap_or(t).trim().to_string()
    };
    if class.kind() == "object_creation_expression" {
        let types = vec![raw(class.child_by_field_name("type")?)];
        let held_as = super::field_held::field_type_holding(file, class).filter(|t| *t != types[0]);
        return Some(HandedOut { call: Callee::Method(m), types, class: None, held_as });
    }
    let mut types = Vec::new();
    for field in ["superclass", "interfaces"] {
        let Some(list) = class.child_by_field_name(field) else { continue };
        let mut stack = named_children(list);
        while let Some(t) = stack.pop() {
            match t.kind() {
                "type_list" => stack.extend(named_children(t)),
                _ => types.push(raw(t)),
            }
        }
    }
    let name = text_of(class.child_by_field_name("name")?, src).to_string();
    (!types.is_empty()).then_some(HandedOut { call: Callee::Method(m), types, class: Some(name), held_as: None })
}

/// For a private or inner class: up to `max` methods a test can call that lead to a creation of
/// it (`new Adapter(...)`): the methods creating it, or for a private one, its callers
/// ([`callers::entry_callers`]). Empty for an anonymous class.
pub(crate) fn creators(ctx: &FileContext<'_>, handed: &HandedOut, max: usize) -> Vec<MethodInfo> {
    let Some(class) = &handed.class else { return vec![] };
    let file = ctx.file();
    let mut out: Vec<MethodInfo> = Vec::new();
    for creation in creations_of(file, class) {
        let Some(m) = ctx
            .methods()
            .iter()
            .filter(|m| m.range.start <= creation.start_byte() && creation.end_byte() <= m.range.end)
            .min_by_key(|m| m.range.len())
        else {
            continue;
        };
        // (Code of an anonymous class creating it runs when that object is used: not followed.)
        if m.in_unnamed_class(file) {
            continue;
        }
        let found = match m.hidden_from_tests() {
            true => callers::entry_callers(ctx, m, max),
            false => vec![m.clone()],
        };
        for f in found {
            if !f.is_constructor && !f.has_error && !out.iter().any(|o| o.range == f.range) {
                out.push(f);
            }
        }
    }
    out.truncate(max);
    out
}

/// The call of `handed.call` (see [`handed_out`]) on what `entry` returns, when `entry`
/// returns one of the types the object may be declared as: the test declares the result as it
/// and passes arguments a search writes (numbers, strings, readable JDK values, objects of the
/// project's classes made by a constructor taking those; `null` for any other type). The type a
/// test may need to import goes to `imports`; the call's result type is returned beside it.
/// `None` when `entry` returns another type.
pub(crate) fn then_call(
    whole: &FileContext<'_>,
    file: &SourceFile,
    handed: &HandedOut,
    entry: &MethodInfo,
    own_class: &str,
    imports: &mut Vec<String>,
) -> Option<(ThenCall, String)> {
    let returned = entry.return_ty.split('<').next().unwrap_or(&entry.return_ty).trim();
    let simple = |t: &str| t.rsplit('.').next().unwrap_or(t).to_string();
    if returned.is_empty() || returned == "void" {
        return None;
    }
    // Returned as the type of the field holding it: cast to the class it is created as.
    let cast_to = match handed.types.iter().any(|t| simple(t) == simple(returned)) {
        true => None,
        false => match (&handed.held_as, handed.types.first()) {
            (Some(held), Some(created)) if simple(held) == simple(returned) => Some(created.clone()),
            _ => return None,
        },
    };
    let callee = match &handed.call {
        Callee::Method(m) => Functional {
            name: m.name.clone(),
            params: m.params.iter().map(|p| p.ty.clone()).collect(),
            return_ty: m.return_ty.clone(),
            vars: type_variables(file, m.node(file)),
            throws_throwable: throws_erased_throwable(file, m.node(file)),
        },
        Callee::Lambda => functional_method(whole, &simple(returned))?,
    };
    let declared_as = test_name(file, cast_to.as_deref().unwrap_or(returned), imports);
    let mut args = Vec::new();
    for ty in &callee.params {
        let ty = ty.trim().trim_start_matches("final ").trim();
        let raw = ty.split('<').next().unwrap_or(ty).trim();
        // A type variable's value is erased through the raw type the test declares: any
        // object, null first.
        if raw == "Object" || callee.vars.iter().any(|v| v == raw) {
            let mut options = vec![JavaValue::Null];
            let c = jdk_choices("Object", own_class).map(|c| c.options).unwrap_or_default();
            options.extend(c.into_iter().filter(|o| *o != JavaValue::Null));
            args.push(("Object".to_string(), JavaValue::Choice { slot: None, options }));
            continue;
        }
        args.push((ty.to_string(), argument(whole, file, ty, own_class, imports)));
    }
    let ret = callee.return_ty.trim();
    let ret = match ret.split('<').next().map(str::trim) {
        Some(r) if callee.vars.iter().any(|v| v == r) => "Object".to_string(),
        _ => ret.to_string(),
    };
    let then = ThenCall {
        declared_as,
        cast: cast_to.is_some(),
        method: callee.name,
        args,
        throws_throwable: callee.throws_throwable,
    };
    Some((then, ret))
}

/// A method a test calls on an object handed out, as the test sees it.
pub(crate) struct Functional {
    pub(crate) name: String,
    /// The parameters' types as written.
    pub(crate) params: Vec<String>,
    pub(crate) return_ty: String,
    /// The type variables around its declaration, which the raw type erases.
    pub(crate) vars: Vec<String>,
    /// Whether it declares `throws E` for a type variable `E` bounded by `Throwable`, which the
    /// raw type erases to `Throwable` (commons-lang's `FailableBiConsumer.accept`).
    pub(crate) throws_throwable: bool,
}

/// Whether method declaration `method` declares `throws E` for a type variable `E` declared
/// around it (by it or a class or interface it is in) with `Throwable` as its bound.
fn throws_erased_throwable(file: &SourceFile, method: Node<'_>) -> bool {
    let src = file.text.as_str();
    let Some(throws) = named_children(method).into_iter().find(|c| c.kind() == "throws") else { return false };
    let thrown: Vec<&str> = named_children(throws).into_iter().map(|t| text_of(t, src).trim()).collect();
    let mut n = Some(method);
    while let Some(decl) = n {
        if let Some(params) = decl.child_by_field_name("type_parameters") {
            for p in named_children(params) {
                let text = text_of(p, src);
                let name = text.split_whitespace().next().unwrap_or("");
                let bound = text.split_once("extends").map(|(_, b)| b.trim()).unwrap_or("");
                if thrown.contains(&name) && matches!(bound, "Throwable" | "java.lang.Throwable") {
                    return true;
                }
            }
        }
        n = decl.parent();
    }
    false
}

/// The JDK's functional interfaces: (simple name, method, parameter types, return type), the
/// generic ones as the raw type erases them.
const JDK_FUNCTIONAL: &[(&str, &str, &[&str], &str)] = &[
    ("Runnable", "run", &[], "void"),
    ("Callable", "call", &[], "Object"),
    ("Supplier", "get", &[], "Object"),
    ("Consumer", "accept", &["Object"], "void"),
    ("BiConsumer", "accept", &["Object", "Object"], "void"),
    ("Function", "apply", &["Object"], "Object"),
    ("UnaryOperator", "apply", &["Object"], "Object"),
    ("BiFunction", "apply", &["Object", "Object"], "Object"),
    ("BinaryOperator", "apply", &["Object", "Object"], "Object"),
    ("Predicate", "test", &["Object"], "boolean"),
    ("BiPredicate", "test", &["Object", "Object"], "boolean"),
    ("Comparator", "compare", &["Object", "Object"], "int"),
    ("IntPredicate", "test", &["int"], "boolean"),
    ("IntFunction", "apply", &["int"], "Object"),
    ("IntUnaryOperator", "applyAsInt", &["int"], "int"),
    ("IntBinaryOperator", "applyAsInt", &["int", "int"], "int"),
    ("ToIntFunction", "applyAsInt", &["Object"], "int"),
    ("IntSupplier", "getAsInt", &[], "int"),
    ("LongSupplier", "getAsLong", &[], "long"),
    ("DoubleSupplier", "getAsDouble", &[], "double"),
    ("BooleanSupplier", "getAsBoolean", &[], "boolean"),
    ("LongPredicate", "test", &["long"], "boolean"),
    ("DoublePredicate", "test", &["double"], "boolean"),
];

/// The single abstract method of the functional interface `simple`: one of the JDK's, or an
/// interface of the source synthesis sees that declares exactly one method without a body, not a
/// generic one (which no lambda implements).
pub(crate) fn functional_method(whole: &FileContext<'_>, simple: &str) -> Option<Functional> {
    if let Some((_, name, params, ret)) = JDK_FUNCTIONAL.iter().find(|(i, ..)| *i == simple) {
        return Some(Functional {
            name: name.to_string(),
            params: params.iter().map(|p| p.to_string()).collect(),
            return_ty: ret.to_string(),
            vars: vec![],
            throws_throwable: false,
        });
    }
    let file = whole.file();
    let src = file.text.as_str();
    let n = jreach_syntax::tree::declaration_named(file.tree.root_node(), src, "interface_declaration", simple)?;
    let body = n.child_by_field_name("body")?;
    let abstract_methods: Vec<Node<'_>> = named_children(body)
        .into_iter()
        .filter(|d| d.kind() == "method_declaration" && d.child_by_field_name("body").is_none())
        .filter(|d| !jreach_syntax::tree::has_modifier(*d, src, "static"))
        .collect();
    let [method] = abstract_methods[..] else { return None };
    // A generic method (`<T> TypeAdapter<T> create(...)`) no lambda implements.
    if method.child_by_field_name("type_parameters").is_some() {
        return None;
    }
    let params = method.child_by_field_name("parameters")?;
    let params: Option<Vec<String>> = named_children(params)
        .into_iter()
        .filter(|p| matches!(p.kind(), "formal_parameter" | "spread_parameter"))
        .map(|p| Some(text_of(p.child_by_field_name("type")?, src).to_string()))
        .collect();
    Some(Functional {
        name: text_of(method.child_by_field_name("name")?, src).to_string(),
        params: params?,
        return_ty: text_of(method.child_by_field_name("type")?, src).to_string(),
        vars: type_variables(file, method),
        throws_throwable: throws_erased_throwable(file, method),
    })
}

/// The functional interface the lambda that the statement of `target` is in (the innermost)
/// implements, raw as written, when the code says it: the lambda is returned (the type its
/// method returns) or assigned to a local declared with a type.
fn lambda_type(file: &SourceFile, target: &Target) -> Option<String> {
    let src = file.text.as_str();
    let mut n = file.tree.root_node().descendant_for_byte_range(target.stmt.start, target.stmt.start)?;
    let lambda = loop {
        match n.kind() {
            "lambda_expression" => break n,
            "method_declaration" | "constructor_declaration" | "class_body" => return None,
            _ => n = n.parent()?,
        }
    };
    let mut value = lambda.parent()?;
    while value.kind() == "parenthesized_expression" {
        value = value.parent()?;
    }
    let ty = match returned_by(lambda) {
        Some(method) => method.child_by_field_name("type")?,
        None if value.kind() == "variable_declarator" => {
            value.parent().filter(|d| d.kind() == "local_variable_declaration")?.child_by_field_name("type")?
        }
        None => return None,
    };
    let ty = text_of(ty, src);
    let raw = ty.split('<').next().unwrap_or(ty).trim();
    (raw != "var" && !raw.is_empty()).then(|| raw.to_string())
}

/// A value a search starts from for a parameter of type `ty`: a number, string or readable JDK
/// value it moves, an object of a class of the project made by its constructor a test may call
/// (public, or not private in the test's package) with the fewest parameters of those kinds
/// (`new JsonReader(new StringReader("a"))`) or a record of the file made by its canonical
/// constructor; for a class no constructor makes (abstract, an interface), a choice among
/// objects so made of the classes of the project extending it ([`subclass_objects`]: `new
/// JsonArray()`, `new JsonPrimitive(false)`, ... for a `JsonElement`) and `null`; else `null`.
pub(crate) fn argument(
    whole: &FileContext<'_>,
    file: &SourceFile,
    ty: &str,
    own_class: &str,
    imports: &mut Vec<String>,
) -> JavaValue {
    match made_by_constructor(whole, file, ty, own_class, imports) {
        JavaValue::Null => {
            let mut options = subclass_objects(whole, file, ty, own_class, imports);
            if options.is_empty() {
                return JavaValue::Null;
            }
            options.push(JavaValue::Null);
            JavaValue::Choice { slot: None, options }
        }
        made => made,
    }
}

/// At most this many classes extending a parameter's type are among its choices.
const SUBCLASSES_MAX: usize = 6;

/// For a class or interface `ty` of the project: objects of the classes of the file, its package
/// and its imports that extend or implement it (also through others), which are neither abstract
/// nor private (nested: static), each made by its constructor as [`argument`] makes one; the
/// classes by name, at most [`SUBCLASSES_MAX`].
fn subclass_objects(
    whole: &FileContext<'_>,
    file: &SourceFile,
    ty: &str,
    own_class: &str,
    imports: &mut Vec<String>,
) -> Vec<JavaValue> {
    use jreach_syntax::tree::has_modifier;
    let raw = raw_type(ty);
    let base = raw.rsplit('.').next().unwrap_or(&raw);
    if base.is_empty() || jdk_choices(ty, own_class).is_some() {
        return vec![];
    }
    let src = whole.file().text.as_str();
    // Every class and interface with the simple names of what it extends and implements.
    let mut decls = Vec::new();
    let mut stack = vec![whole.file().tree.root_node()];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "class_declaration" | "interface_declaration" | "enum_declaration") {
            let name = n.child_by_field_name("name").map(|x| text_of(x, src).to_string()).unwrap_or_default();
            let supers: Vec<String> = named_children(n)
                .into_iter()
                .filter(|c| matches!(c.kind(), "superclass" | "super_interfaces" | "extends_interfaces"))
                .flat_map(|c| {
                    let text = text_of(c, src);
                    let text = text.trim_start_matches("extends").trim_start_matches("implements");
                    split_types(text)
                })
                .collect();
            decls.push((n, name, supers));
        }
        stack.extend(named_children(n));
    }
    let mut below = vec![base.to_string()];
    let mut grew = true;
    while grew {
        grew = false;
        for (_, name, supers) in &decls {
            if !below.contains(name) && supers.iter().any(|s| below.contains(s)) {
                below.push(name.clone());
                grew = true;
            }
        }
    }
    let mut concrete: Vec<(Node<'_>, &String)> = decls
        .iter()
        .filter(|(n, name, _)| *name != base && below.contains(name) && n.kind() == "class_declaration")
        .filter(|(n, ..)| {
            let nested = !jreach_syntax::tree::enclosing_classes(*n, src).is_empty();
            !has_modifier(*n, src, "abstract")
                && !has_modifier(*n, src, "private")
                && (!nested || has_modifier(*n, src, "static"))
        })
        .map(|(n, name, _)| (*n, name))
        .collect();
    // An enum implementing it: its first constant (`FieldNamingPolicy.IDENTITY` for a
    // `FieldNamingStrategy`), after the classes.
    let enums: Vec<(Node<'_>, &String)> = decls
        .iter()
        .filter(|(n, name, _)| *name != base && below.contains(name) && n.kind() == "enum_declaration")
        .filter(|(n, ..)| !has_modifier(*n, src, "private"))
        .map(|(n, name, _)| (*n, name))
        .collect();
    // (Not of a generic class: see `is_generic`.)
    concrete.retain(|(_, name)| !is_generic(whole, name));
    concrete.sort_by(|a, b| a.1.cmp(b.1));
    concrete.dedup_by(|a, b| a.1 == b.1);
    let mut out = Vec::new();
    for (n, _) in concrete {
        let mut path = jreach_syntax::tree::enclosing_classes(n, src);
        path.extend(n.child_by_field_name("name").map(|x| text_of(x, src).to_string()));
        let mut needs = Vec::new();
        let made = made_by_constructor(whole, file, &path.join("."), own_class, &mut needs);
        if matches!(made, JavaValue::Constructed { .. }) {
            super::add_imports(imports, needs);
            out.push(made);
        }
        if out.len() == SUBCLASSES_MAX {
            break;
        }
    }
    for (n, _) in enums {
        if out.len() == SUBCLASSES_MAX {
            break;
        }
        let body = n.child_by_field_name("body");
        let first = body.and_then(|b| named_children(b).into_iter().find(|c| c.kind() == "enum_constant"));
        let Some(constant) = first.and_then(|c| c.child_by_field_name("name")) else { continue };
        let mut path = jreach_syntax::tree::enclosing_classes(n, src);
        path.extend(n.child_by_field_name("name").map(|x| text_of(x, src).to_string()));
        let class = test_name(file, &path.join("."), imports);
        out.push(JavaValue::Expr(format!("{class}.{}", text_of(constant, src))));
    }
    out
}

/// The simple names of a list of types as a declaration writes them (`JsonElement`,
/// `Comparable<Foo>, java.io.Serializable` → `Comparable`, `Serializable`).
fn split_types(text: &str) -> Vec<String> {
    jreach_syntax::erase(text)
        .split(',')
        .map(|t| t.rsplit('.').next().unwrap_or("").to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

/// Whether the class or interface of type `ty` (as `whole`'s source writes it) declares type parameters
/// (`TypeToken<T>`): objects of it made in different ways (`TypeToken.get(String.class)`,
/// `TypeToken.getParameterized(...)`) have types javac cannot reconcile as one switch's result
/// passed to a generic method, so a search does not choose among them.
pub(crate) fn is_generic(whole: &FileContext<'_>, ty: &str) -> bool {
    let raw = raw_type(ty);
    let simple = raw.rsplit('.').next().unwrap_or(&raw);
    let (root, src) = (whole.file().tree.root_node(), whole.file().text.as_str());
    ["class_declaration", "interface_declaration", "record_declaration"]
        .iter()
        .find_map(|kind| jreach_syntax::tree::declaration_named(root, src, kind, simple))
        .is_some_and(|d| d.child_by_field_name("type_parameters").is_some())
}

/// `ty` as a parameter declares it, without `final` and type arguments (`Map<K, V>` → `Map`).
fn raw_type(ty: &str) -> String {
    jreach_syntax::erase(ty.trim().trim_start_matches("final "))
}

/// [`argument`] for a class a constructor makes (or a record, a number, a string, a JDK value).
fn made_by_constructor(
    whole: &FileContext<'_>,
    file: &SourceFile,
    ty: &str,
    own_class: &str,
    imports: &mut Vec<String>,
) -> JavaValue {
    if let Some(v) = search_value(ty) {
        return v;
    }
    if let Some(c) = jdk_choices(ty, own_class) {
        super::add_imports(imports, c.imports);
        return JavaValue::Choice { slot: None, options: c.options };
    }
    let raw = ty.split('<').next().unwrap_or(ty).trim();
    // A top-level class, or a static one nested in the file's classes.
    let nested = jreach_syntax::qualified_nested(file, raw);
    let chain: Vec<&str> = nested.split('.').collect();
    let ctor = whole
        .methods()
        .iter()
        .filter(|c| c.is_constructor && !c.has_error && !c.class_is_abstract && !c.class_is_private)
        // Public, or package-private in the test's package.
        .filter(|c| c.is_public || (!c.is_private && whole.foreign_from().is_none_or(|at| c.range.start < at)))
        .filter(|c| match chain.len() == 1 || nested.starts_with(char::is_lowercase) {
            true => c.classes.len() == 1 && c.classes[0] == chain[chain.len() - 1],
            false => {
                c.classes.iter().map(String::as_str).eq(chain.iter().copied()) && is_static_nested(whole.file(), c)
            }
        })
        .filter_map(|c| {
            let mut needs = Vec::new();
            searched_args(whole, &c.params, own_class, &mut needs).map(|args| (args, needs, Some(c)))
        })
        .min_by_key(|(args, _, _)| args.len());
    let ctor = ctor.or_else(|| {
        let mut needs = Vec::new();
        let params = record_components(whole.file(), chain[chain.len() - 1])?;
        searched_args(whole, &params, own_class, &mut needs).map(|args| (args, needs, None))
    });
    let Some((args, needs, ctor)) = ctor else {
        // A class that declares no constructor: its implicit one; one whose constructors a test
        // may not call: a static factory of its own (`Fraction.getFraction(0.5)`).
        if let Some(name) = whole.made_without_arguments(raw) {
            return JavaValue::new_object(test_name(file, &name, imports));
        }
        let mut made = factory_objects(whole, file, ty, own_class, imports);
        return match made.len() {
            0 => JavaValue::Null,
            1 => made.remove(0),
            _ => JavaValue::Choice { slot: None, options: made },
        };
    };
    super::add_imports(imports, needs);
    let class = test_name(file, raw, imports);
    match ctor {
        Some(ctor) => super::overloads::constructed(whole, class, ctor, args, imports),
        None => JavaValue::new_with(class, args),
    }
}

/// At most this many static factories make an argument a search chooses among.
const FACTORIES_MAX: usize = 4;

/// For a class `ty` of the project: objects made by the static methods of its own that a test
/// may call, that return one and whose arguments a search writes (`CharRange.is(c)`,
/// `CharRange.isNot(c)`, ...: each may make one in another state), the fewest strings and JDK
/// values first, then the fewest parameters; at most [`FACTORIES_MAX`].
pub(crate) fn factory_objects(
    whole: &FileContext<'_>,
    file: &SourceFile,
    ty: &str,
    own_class: &str,
    imports: &mut Vec<String>,
) -> Vec<JavaValue> {
    let raw = raw_type(ty);
    let nested = jreach_syntax::qualified_nested(file, &raw);
    let chain: Vec<&str> = nested.split('.').collect();
    let mut found = static_factories(whole, &chain, nested.starts_with(char::is_lowercase), own_class);
    found.truncate(match is_generic(whole, &raw) {
        true => 1,
        false => FACTORIES_MAX,
    });
    let class = test_name(file, &raw, imports);
    found
        .into_iter()
        .map(|(factory, args, needs)| {
            super::add_imports(imports, needs);
            JavaValue::made_by(class.clone(), format!("{class}.{factory}"), args)
        })
        .collect()
}

/// For the class `chain` (nested in the file's classes unless `top_level`): the static methods
/// of its own, which a test may call, that return one and whose arguments a search writes, as
/// (name, arguments, their imports), ranked as [`factory_objects`] says.
fn static_factories(
    whole: &FileContext<'_>,
    chain: &[&str],
    top_level: bool,
    own_class: &str,
) -> Vec<(String, Vec<(String, JavaValue)>, Vec<String>)> {
    let Some(simple) = chain.last().copied() else { return vec![] };
    let mut found: Vec<_> = whole
        .methods()
        .iter()
        .filter(|f| f.is_static && !f.is_constructor && !f.has_error && !f.class_is_private)
        .filter(|f| f.is_public || (!f.is_private && whole.foreign_from().is_none_or(|at| f.range.start < at)))
        .filter(|f| match chain.len() == 1 || top_level {
            true => f.classes.len() == 1 && f.classes[0] == simple,
            false => {
                f.classes.iter().map(String::as_str).eq(chain.iter().copied()) && is_static_nested(whole.file(), f)
            }
        })
        .filter(|f| f.return_ty.split('<').next().map(str::trim) == Some(simple))
        .filter_map(|f| {
            let mut needs = Vec::new();
            let args = searched_args(whole, &f.params, own_class, &mut needs)?;
            let hard = args
                .iter()
                .filter(|(_, v)| {
                    !matches!(
                        v,
                        JavaValue::Int(_)
                            | JavaValue::Long(_)
                            | JavaValue::Double(_)
                            | JavaValue::Bool(_)
                            | JavaValue::Char(_)
                    )
                })
                .count();
            Some(((hard, args.len()), (f.name.clone(), args, needs)))
        })
        .collect();
    found.sort_by_key(|(key, _)| *key);
    found.into_iter().map(|(_, f)| f).collect()
}

/// The components of the record named `simple` that `file` declares and a test may create
/// (not private, nested ones being static): its canonical constructor's parameters.
fn record_components(file: &SourceFile, simple: &str) -> Option<Vec<jreach_syntax::Param>> {
    let src = file.text.as_str();
    let record = jreach_syntax::tree::declaration_named(file.tree.root_node(), src, "record_declaration", simple)?;
    (!jreach_syntax::tree::has_modifier(record, src, "private")).then(|| jreach_syntax::params_of(record, src))
}

/// `raw` (a class as `file` writes it) as a test names it: a class the file imports by its
/// simple name, imported (into `imports`); a class nested in the file by its chain of classes.
fn test_name(file: &SourceFile, raw: &str, imports: &mut Vec<String>) -> String {
    imported_by_simple_name(&jreach_syntax::qualified_nested(file, raw), imports)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jreach_synth::literal;

    const SRC: &str = r#"package p;
import java.io.Reader;
public class Adapters {
    public interface Adapter<T> {
        T read(Source in);
        String name(T value, int n);
    }
    public static class Source {
        public Source(Reader r) {}
    }
    public <T> Adapter<T> create(Class<T> type) {
        if (type == String.class) {
            return new Adapter<T>() {
                @Override
                public T read(Source in) {
                    return null;
                }
                @Override
                public String name(T value, int n) {
                    return "x" + n;
                }
            };
        }
        return null;
    }
    public void use() {
        Runnable r = new Runnable() {
            @Override
            public void run() {
                System.out.println();
            }
        };
    }
}
"#;

    fn at(file: &SourceFile, needle: &str) -> Target {
        let line = file.text[..file.text.find(needle).expect("the statement")].matches('\n').count();
        jreach_syntax::find_target(file, line).expect("a target")
    }

    #[test]
    fn an_argument_of_an_abstract_type_is_null_or_an_object_of_a_class_extending_it() {
        let src =
            "package p;\npublic class Counter {\n  public static int count(Shape s) {\n    return s.sides();\n  }\n}\n";
        let others = [
            "package p;\npublic abstract class Shape {\n  public abstract int sides();\n}\n",
            "package p;\nclass Square extends Shape {\n  public int sides() { return 4; }\n}\n",
            "package p;\npublic class Tri extends Shape {\n  final int n;\n  public Tri(int n) { this.n = n; }\n  public int sides() { return 3; }\n}\n",
            "package p;\npublic abstract class Poly extends Shape {\n}\n",
            "package p;\npublic class Hex extends Poly {\n  public int sides() { return 6; }\n}\n",
            "package p;\npublic class Odd extends Shape {\n  private Odd() {}\n  public int sides() { return 5; }\n}\n",
            "package p;\npublic interface Named {\n  String name();\n}\n",
            "package p;\npublic enum Policy implements Named {\n  SAME, UPPER;\n  public String name2() { return \"\"; }\n}\n",
        ];
        let file = SourceFile::parse(src);
        let m =
            FileContext::new(&file, None, None).methods().iter().find(|m| m.name == "count").expect("count").clone();
        let opts = super::super::GenOptions {
            package_sources: others.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        };
        let source = super::super::SynthesisSource::new(&file, &m, &opts);
        let whole = source.context(&file);
        let mut imports = Vec::new();
        let v = argument(&whole, &file, "Shape", "Counter", &mut imports);
        let JavaValue::Choice { options, .. } = &v else { panic!("{v:?}") };
        let written: Vec<String> = options.iter().map(literal).collect();
        // (Through `Poly` too, which is abstract itself; not `Odd`, which a test cannot make.)
        assert_eq!(written, ["new Hex()", "new Square()", "new Tri(1)", "null"]);
        // A class a constructor makes is made so, with no choice.
        let v = argument(&whole, &file, "Tri", "Counter", &mut imports);
        assert_eq!(literal(&v), "new Tri(1)");
        // An interface an enum implements: the enum's first constant.
        let v = argument(&whole, &file, "Named", "Counter", &mut imports);
        let JavaValue::Choice { options, .. } = &v else { panic!("{v:?}") };
        assert_eq!(options.iter().map(literal).collect::<Vec<_>>(), ["Policy.SAME", "null"]);
    }

    #[test]
    fn a_generic_class_is_made_by_one_factory_not_a_choice_among_them() {
        // A switch over `Holder.of(...)` and `Holder.empty()` passed to `<T> int size(Holder<T>)`
        // does not compile: javac cannot infer one `T` for both.
        let src = "package p;\npublic class Holder<T> {\n  final T item;\n  private Holder(T item) { this.item = item; }\n  public static <T> Holder<T> empty() { return new Holder<>(null); }\n  public static <T> Holder<T> of(T item) { return new Holder<>(item); }\n  public static <T> int size(Holder<T> h) { return h.item == null ? 0 : 1; }\n}\n";
        let file = SourceFile::parse(src);
        let m = FileContext::new(&file, None, None).methods().iter().find(|m| m.name == "size").expect("size").clone();
        let opts = super::super::GenOptions::default();
        let source = super::super::SynthesisSource::new(&file, &m, &opts);
        let whole = source.context(&file);
        assert!(is_generic(&whole, "Holder"));
        let v = argument(&whole, &file, "Holder<T>", "Holder", &mut Vec::new());
        assert_eq!(literal(&v), "Holder.empty()");
    }

    #[test]
    fn an_argument_of_a_class_whose_constructors_are_private_comes_from_its_factory() {
        let src = "package p;\npublic class Ratio {\n  final int n;\n  private Ratio(int n) { this.n = n; }\n  public static Ratio parse(String s) { return new Ratio(s.length()); }\n  public static Ratio of(int n) { return new Ratio(n); }\n  public static int twice(Ratio r) { return r.n * 2; }\n}\n";
        let file = SourceFile::parse(src);
        let m =
            FileContext::new(&file, None, None).methods().iter().find(|m| m.name == "twice").expect("twice").clone();
        let opts = super::super::GenOptions::default();
        let source = super::super::SynthesisSource::new(&file, &m, &opts);
        let whole = source.context(&file);
        let v = argument(&whole, &file, "Ratio", "Ratio", &mut Vec::new());
        // (Numbers before strings, which are harder to search.)
        let JavaValue::Choice { options, .. } = &v else { panic!("{v:?}") };
        let written: Vec<String> = options.iter().map(literal).collect();
        assert_eq!(written, ["Ratio.of(1)", "Ratio.parse(\"a\")"]);
    }

    #[test]
    fn a_functional_method_throwing_a_type_variable_bounded_by_throwable_throws_throwable_raw() {
        let src = "package p;\npublic class F {\n  public interface Each<T, E extends Throwable> {\n    void accept(T t) throws E;\n  }\n  public interface Plain<T, E extends Exception> {\n    void accept(T t) throws E;\n  }\n}\n";
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        assert!(functional_method(&ctx, "Each").expect("one abstract method").throws_throwable);
        // (Erased to `Exception`, which a test declares anyway.)
        assert!(!functional_method(&ctx, "Plain").expect("one abstract method").throws_throwable);
        assert!(!functional_method(&ctx, "Runnable").expect("the JDK's").throws_throwable);
    }

    #[test]
    fn a_method_of_an_anonymous_class_is_called_on_what_its_creator_returns() {
        let file = SourceFile::parse(SRC);
        let ctx = FileContext::new(&file, None, None);
        let target = at(&file, "return \"x\" + n;");
        let handed = handed_out(&file, &target).expect("an anonymous class's method");
        assert!(matches!(&handed.call, Callee::Method(m) if m.name == "name"));
        assert_eq!(handed.types, ["Adapter"]);
        let mut imports = Vec::new();
        let (then, ret) = then_call(&ctx, &file, &handed, &target.method, "Adapters", &mut imports).expect("a call");
        assert_eq!(then.declared_as, "Adapters.Adapter");
        assert_eq!(ret, "String");
        // (A type variable's value: any object, null first.)
        assert!(
            matches!(&then.args[0], (t, JavaValue::Choice { options, .. }) if t == "Object" && options[0] == JavaValue::Null && options.len() > 2)
        );
        assert_eq!((then.args[1].0.as_str(), literal(&then.args[1].1).as_str()), ("int", "1"));

        // A parameter of a class of the file is made by its constructor, whose JDK argument the
        // search chooses; a type variable's result is an `Object` through the raw type.
        let target = at(&file, "return null;\n                }");
        let handed = handed_out(&file, &target).expect("read");
        let (then, ret) = then_call(&ctx, &file, &handed, &target.method, "Adapters", &mut imports).expect("a call");
        assert_eq!(ret, "Object");
        assert!(
            matches!(&then.args[0].1, JavaValue::Constructed { class, args, .. } if class == "Adapters.Source" && args.len() == 1),
            "{:?}",
            then.args
        );

        // The creating method returns nothing: no call.
        let target = at(&file, "System.out.println();");
        let handed = handed_out(&file, &target).expect("run");
        assert!(then_call(&ctx, &file, &handed, &target.method, "Adapters", &mut imports).is_none());
    }

    #[test]
    fn a_private_class_s_method_is_called_on_what_the_methods_creating_it_return() {
        let src = r#"package p;
import java.util.Iterator;
public class Bag {
    public Iterator<Integer> items(int n) {
        Iterator<Integer> it = new Items(n);
        return it;
    }
    private Iterator<Integer> hidden() {
        return new Items(0);
    }
    public Object any() {
        return hidden();
    }
    private class Items implements Iterator<Integer> {
        int left;
        Items(int n) { left = n; }
        @Override
        public boolean hasNext() {
            return left > 0;
        }
        @Override
        public Integer next() {
            return left--;
        }
    }
}
"#;
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let target = at(&file, "return left > 0;");
        let handed = handed_out(&file, &target).expect("a private class's method");
        assert_eq!((handed.types.clone(), handed.class.as_deref()), (vec!["Iterator".to_string()], Some("Items")));
        let creators: Vec<String> = creators(&ctx, &handed, 4).iter().map(|m| m.name.clone()).collect();
        assert_eq!(creators, ["items", "any"]);
        let mut imports = Vec::new();
        let entry = |name: &str| ctx.methods().iter().find(|m| m.name == name).expect("a method").clone();
        let (then, ret) = then_call(&ctx, &file, &handed, &entry("items"), "Bag", &mut imports).expect("a call");
        assert_eq!((then.declared_as.as_str(), then.method.as_str(), ret.as_str()), ("Iterator", "hasNext", "boolean"));
        assert!(imports.contains(&"java.util.Iterator".to_string()), "{imports:?}");
        // `any()` returns an `Object`, on which a test cannot call `hasNext()`.
        assert!(then_call(&ctx, &file, &handed, &entry("any"), "Bag", &mut imports).is_none());
    }

    #[test]
    fn a_returned_lambda_is_called_through_its_interface_s_method() {
        let src = r#"package p;
import java.util.Comparator;
public class Makers {
    public interface Maker<T> {
        T make(String name);
    }
    public <T> Maker<T> maker(int n) {
        return name -> {
            System.out.println(name);
            return null;
        };
    }
    public Comparator<String> byLength() {
        Comparator<String> c = (a, b) -> {
            return a.length() - b.length();
        };
        return c;
    }
    public void run() {
        new Thread(() -> {
            System.out.println();
        });
    }
}
"#;
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let mut imports = Vec::new();
        let target = at(&file, "System.out.println(name);");
        let handed = handed_out(&file, &target).expect("a returned lambda");
        assert!(matches!(handed.call, Callee::Lambda) && handed.types == ["Maker"]);
        let (then, ret) = then_call(&ctx, &file, &handed, &target.method, "Makers", &mut imports).expect("a call");
        assert_eq!((then.declared_as.as_str(), then.method.as_str(), ret.as_str()), ("Makers.Maker", "make", "Object"));
        assert_eq!(literal(&then.args[0].1), "\"a\"");

        let target = at(&file, "return a.length() - b.length();");
        let handed = handed_out(&file, &target).expect("a lambda in a declared local");
        let (then, ret) = then_call(&ctx, &file, &handed, &target.method, "Makers", &mut imports).expect("a call");
        assert_eq!((then.declared_as.as_str(), then.method.as_str(), ret.as_str()), ("Comparator", "compare", "int"));
        assert_eq!(then.args.len(), 2);

        // A lambda passed to a constructor: the code does not say here what calls it.
        let target = at(&file, "System.out.println();");
        assert!(handed_out(&file, &target).is_none());
    }
}
