//! A [`TestRequest`] as Java text: the test method's name, its body (comment, inputs, call,
//! assertion), the imports it needs, and a whole test class around it.
//!
//! Choices, all deterministic:
//! - Inputs are inlined when the method takes a single argument with a short literal
//!   (`Calc.abs(Integer.MIN_VALUE)`); with two or more parameters each gets a local named after
//!   the parameter (`int a = 1;`), so the call reads like the signature. A local is only declared
//!   when its type is sure to resolve inside the test class (primitives, boxes, `String`, `Object`,
//!   `CharSequence`, `Number` and arrays of them); other arguments stay inline.
//! - Assertions: `assertTrue`/`assertFalse` for booleans, `assertNull` for `null`, `assertEquals`
//!   otherwise, with the expected literal typed so that the overload resolves (`(byte) 1`,
//!   `Integer.valueOf(5)` for a boxed or `Object` result, a `0.0` delta for JUnit 4 floating
//!   point), `assertThrows` for exceptions (JUnit 4.13's `Assert.assertThrows` for JUnit 4).
//! - Comments are sanitised: no `*/`, no line breaks, and no backslash that would start a unicode
//!   escape (javac translates `\u000a` even inside comments).

use std::collections::BTreeSet;

use crate::literal::{anonymous_class, convert, literal, literal_as, Prim};
use crate::long_array::LongArray;
use crate::test_name::test_method_name;
use crate::{nested, JUnit, JavaValue, Outcome, TestRequest, NEST};

/// Width the path comment wraps at, not counting the method body's indentation.
const COMMENT_WIDTH: usize = 92;
/// Longest target text quoted in the comment.
pub(crate) const TARGET_TEXT_MAX: usize = 100;
/// Literals longer than this get a local variable even when they are the only argument.
const INLINE_MAX: usize = 40;

/// `<TopClass>Test`, the test class a request's method goes into.
pub fn test_class_name(req: &TestRequest) -> String {
    match req.classes.first() {
        Some(top) => format!("{}Test", identifier(top)),
        None => "ReachTest".to_string(),
    }
}

/// One `@Test` method named `name`, indented 4 spaces, every line ending in `\n`.
pub fn render_method(req: &TestRequest, name: &str) -> String {
    format_method(name, &method_parts(req, req.junit), req.junit, "    ")
}

/// A whole new test file: package, imports and the test class holding one method.
pub fn render_class(req: &TestRequest) -> String {
    let name = test_method_name(req);
    let parts = method_parts(req, req.junit);
    let mut out = String::new();
    if let Some(pkg) = req.package.as_deref().filter(|p| !p.is_empty()) {
        out.push_str(&format!("package {pkg};\n\n"));
    }
    for imp in &parts.static_imports {
        out.push_str(&format!("import static {imp};\n"));
    }
    if !parts.static_imports.is_empty() {
        out.push('\n');
    }
    for imp in &parts.imports {
        out.push_str(&format!("import {imp};\n"));
    }
    out.push('\n');
    let public = if req.junit == JUnit::V4 { "public " } else { "" };
    out.push_str(&format!("{public}class {} {{\n", test_class_name(req)));
    out.push_str(&format_method(&name, &parts, req.junit, "    "));
    if parts.reflection {
        out.push_str(&reflection_helpers("    "));
    }
    out.push_str("}\n");
    out
}

/// A rendered method body and what it needs imported.
#[derive(Debug, Default)]
pub(crate) struct Parts {
    /// Body lines without indentation, but for a [`NEST`] per level deeper than the body; a
    /// line may hold several, separated by `\n` (each with its own `NEST`s).
    pub(crate) lines: Vec<String>,
    /// Members to import statically: `org.junit.jupiter.api.Assertions.assertEquals`.
    pub(crate) static_imports: BTreeSet<String>,
    /// Types to import: `org.junit.jupiter.api.Test`, `java.util.NoSuchElementException`.
    pub(crate) imports: BTreeSet<String>,
    /// The method declares `throws Exception` (the code it calls declares checked exceptions).
    pub(crate) throws: bool,
    /// The method declares `throws Throwable`: it calls a method that declares it (see
    /// [`calls_throwable`]).
    pub(crate) throws_throwable: bool,
    /// Whether the body calls the reflection helpers ([`reflection_helpers`]), which the test
    /// class must then have.
    pub(crate) reflection: bool,
}

/// JDK methods that declare `throws Throwable`, as (type, method): a test calling one on an
/// object declared as that type (`InvocationHandler obj = support.createInvocationHandler();
/// obj.invoke(...)`) declares it too, or javac refuses it.
const THROWS_THROWABLE: &[(&str, &str)] = &[("InvocationHandler", "invoke")];

/// Whether `req` calls a method declaring `throws Throwable`: one of [`THROWS_THROWABLE`], the
/// method under test on a receiver declared as its type or the call on what that returns, or a
/// call on the result that declares it ([`crate::ThenCall::throws_throwable`]).
fn calls_throwable(req: &TestRequest) -> bool {
    let on = |ty: &str, method: &str| {
        let raw = ty.split('<').next().unwrap_or(ty).trim();
        let simple = raw.rsplit('.').next().unwrap_or(raw);
        THROWS_THROWABLE.contains(&(simple, method))
    };
    req.receiver_from.as_ref().is_some_and(|from| on(&from.declared_as, &req.method))
        || req.then_call.as_ref().is_some_and(|then| then.throws_throwable || on(&then.declared_as, &then.method))
}

/// The name of the helper that allocates an object without running a constructor.
pub(crate) const ALLOCATE_HELPER: &str = "allocateByReflection";

/// The name of the helper that sets a field through reflection.
pub(crate) const SET_FIELD_HELPER: &str = "setFieldByReflection";

/// The helper methods a test class needs when a test makes objects by reflection, each line
/// indented by `indent` per level, separated from what comes before by a blank line.
pub(crate) fn reflection_helpers(indent: &str) -> String {
    let lines = [
        "/** Makes a {@code type} without running a constructor: the class has none a test may call. */",
        "private static <T> T allocateByReflection(Class<T> type) {",
        "\ttry {",
        "\t\tClass<?> unsafeClass = Class.forName(\"sun.misc.Unsafe\");",
        "\t\tjava.lang.reflect.Field theUnsafe = unsafeClass.getDeclaredField(\"theUnsafe\");",
        "\t\ttheUnsafe.setAccessible(true);",
        "\t\tObject unsafe = theUnsafe.get(null);",
        "\t\treturn type.cast(unsafeClass.getMethod(\"allocateInstance\", Class.class).invoke(unsafe, type));",
        "\t} catch (ReflectiveOperationException e) {",
        "\t\tthrow new AssertionError(\"cannot allocate \" + type.getName(), e);",
        "\t}",
        "}",
        "",
        "/** Sets field {@code name} of {@code target}, declared in its class or a superclass, whatever its access. */",
        "private static void setFieldByReflection(Object target, String name, Object value) {",
        "\tfor (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {",
        "\t\ttry {",
        "\t\t\tjava.lang.reflect.Field field = c.getDeclaredField(name);",
        "\t\t\tfield.setAccessible(true);",
        "\t\t\tfield.set(target, value);",
        "\t\t\treturn;",
        "\t\t} catch (NoSuchFieldException e) {",
        "\t\t\t// Declared in a superclass.",
        "\t\t} catch (IllegalAccessException e) {",
        "\t\t\tthrow new AssertionError(\"cannot set \" + name, e);",
        "\t\t}",
        "\t}",
        "\tthrow new AssertionError(\"no field \" + name + \" in \" + target.getClass().getName());",
        "}",
    ];
    let mut out = String::from("\n");
    for line in lines {
        if line.is_empty() {
            out.push('\n');
            continue;
        }
        let text = line.trim_start_matches('\t');
        let depth = line.len() - text.len();
        out.push_str(&format!("{indent}{}{text}\n", indent.repeat(depth)));
    }
    out
}

/// The comment before an object a test makes by reflection.
fn reflection_comment(class: &str) -> Vec<String> {
    vec![
        format!("// {class} has no constructor, factory or builder a test may call: made by reflection,"),
        "// its fields set directly (a state its own code may never produce).".to_string(),
    ]
}

/// The Java text of a field's value `v` for a test to set, `None` for the default value (which an
/// allocated object already holds); objects by the name of their local in `names`.
fn field_value(v: &JavaValue, names: &std::collections::BTreeMap<i64, String>) -> Option<String> {
    match v {
        JavaValue::Object { id, .. } | JavaValue::ObjectRef(id) => names.get(id).cloned(),
        other if other.is_default() => None,
        other => Some(literal(other)),
    }
}

/// The time limit written on every test, in seconds: three times the limit of a verifying run
/// on the JVM (10 s), so a test jreach verified has room on a slower machine.
pub const TEST_TIMEOUT_SECS: u64 = 30;

/// `parts` as a `@Test` method; `indent` is one level of the file's indentation.
pub(crate) fn format_method(name: &str, parts: &Parts, junit: JUnit, indent: &str) -> String {
    // A time limit, so that a test whose code under test later hangs fails instead of stopping
    // the build (JUnit 4's runs the test on a thread of its own; JUnit 5's interrupts it).
    let (annotations, public) = match junit {
        JUnit::V5 => (format!("{indent}@Test\n{indent}@Timeout({TEST_TIMEOUT_SECS})\n"), ""),
        JUnit::V4 => (format!("{indent}@Test(timeout = {}L)\n", TEST_TIMEOUT_SECS * 1000), "public "),
    };
    let throws = match (parts.throws_throwable, parts.throws) {
        (true, _) => " throws Throwable",
        (false, true) => " throws Exception",
        (false, false) => "",
    };
    let mut out = format!("{annotations}{indent}{public}void {name}(){throws} {{\n");
    for line in parts.lines.iter().flat_map(|l| l.split('\n')) {
        let text = line.trim_start_matches(NEST);
        if text.is_empty() {
            out.push('\n');
            continue;
        }
        let deeper = indent.repeat(line.len() - text.len());
        out.push_str(&format!("{indent}{indent}{deeper}{text}\n"));
    }
    out.push_str(&format!("{indent}}}\n"));
    out
}

/// The body of the test for `req`, written for `junit`.
pub(crate) fn method_parts(req: &TestRequest, junit: JUnit) -> Parts {
    let mut parts = Parts { throws: req.declares_checked, throws_throwable: calls_throwable(req), ..Parts::default() };
    parts.imports.insert(
        match junit {
            JUnit::V5 => "org.junit.jupiter.api.Test",
            JUnit::V4 => "org.junit.Test",
        }
        .to_string(),
    );
    if junit == JUnit::V5 {
        parts.imports.insert("org.junit.jupiter.api.Timeout".to_string());
    }
    let assertions = match junit {
        JUnit::V5 => "org.junit.jupiter.api.Assertions",
        JUnit::V4 => "org.junit.Assert",
    };

    parts.lines.extend(comment_lines(req));
    let receiver_values = req.receiver_args.iter().map(|(_, v)| v);
    let then_values = req.then_call.iter().flat_map(|t| &t.args).map(|(_, v)| v);
    for v in req.args.iter().chain(receiver_values).chain(then_values) {
        collection_imports(v, &mut parts.imports);
    }

    let class = req.classes.iter().map(|c| c.trim()).collect::<Vec<_>>().join(".");
    let (setup, objects, reflection) = object_setup(req);
    parts.lines.extend(setup);
    parts.reflection |= reflection;
    let mut args = arguments(req);
    for (arg, v) in args.iter_mut().zip(&req.args) {
        if let JavaValue::Object { id, .. } = v {
            arg.literal = objects[id].clone();
            arg.local = None;
            arg.decl_ty = None;
        }
    }
    let mut used: BTreeSet<String> = args.iter().filter_map(|a| a.local.clone()).collect();
    used.extend(objects.values().cloned());
    // A local whose object a call replaced by a changed copy: the copy's local from then on.
    let mut moved: Vec<(String, String)> = Vec::new();
    for (arg, v) in args.iter().zip(&req.args) {
        if let (Some(local), Some(ty)) = (&arg.local, &arg.decl_ty) {
            parts.lines.push(format!("{ty} {local} = {};", arg.literal));
            if let JavaValue::Constructed { calls, choices, builder: None, .. } = v {
                let lines = &parts.lines;
                let taken = |n: &str| used.contains(n) || lines.iter().any(|l| names_word(l, n));
                let (calls, last) = call_lines(local, ty, calls, &taken);
                parts.lines.extend(calls);
                parts.lines.extend(choices.iter().filter_map(|c| choice_line(&last, c)));
                if &last != local {
                    used.insert(last.clone());
                    moved.push((local.clone(), last));
                }
            }
        }
    }
    for (from, to) in moved {
        for arg in args.iter_mut() {
            if arg.local.as_deref() == Some(from.as_str()) {
                arg.local = Some(to.clone());
            } else if arg.local.is_none() && arg.literal == from {
                arg.literal = to.clone();
            }
        }
    }
    // Elements that are an earlier element's object or a parameter's, once every local exists.
    for (arg, v) in args.iter().zip(&req.args) {
        let (Some(local), JavaValue::Array { elem_ty, items, .. }) = (&arg.local, v) else { continue };
        // A long array was declared by its length (see `arguments`): its elements now.
        if let Some(long) = LongArray::of(elem_ty, items) {
            parts.lines.extend(long.fill.map(|x| format!("Arrays.fill({local}, {x});")));
            parts.lines.extend(long.stores.into_iter().map(|(k, x)| format!("{local}[{k}] = {x};")));
        }
        for (k, item) in items.iter().enumerate() {
            match item {
                JavaValue::SameItem(j) => parts.lines.push(format!("{local}[{k}] = {local}[{j}];")),
                JavaValue::SameAs(p) => {
                    if let Some(other) = args.get(*p) {
                        let name = other.local.clone().unwrap_or_else(|| other.literal.clone());
                        parts.lines.push(format!("{local}[{k}] = {name};"));
                    }
                }
                _ => {}
            }
        }
    }
    let arg_list =
        args.iter().map(|a| a.local.clone().unwrap_or_else(|| a.literal.clone())).collect::<Vec<_>>().join(", ");
    let call = if req.initializes_class {
        let nested = req.classes.join("$");
        let binary = match &req.package {
            Some(package) => format!("{package}.{nested}"),
            None => nested,
        };
        format!("Class.forName({})", literal(&JavaValue::Str(binary)))
    } else if req.is_constructor {
        let class = if class.is_empty() { req.method.clone() } else { class };
        // An abstract class's constructor runs as an anonymous subclass is made.
        match &req.receiver_body {
            Some(methods) => anonymous_class(&new_object(req, &class, &arg_list), methods),
            None => new_object(req, &class, &arg_list),
        }
    } else if req.is_static || class.is_empty() {
        if let Some(held) = &req.held_by {
            // A static method returning the object takes `receiver_args`.
            let member = match &held.returned_by {
                Some(_) => {
                    let holder_args = receiver_arg_list(req);
                    format!("{class}.{}({})", held.member, holder_args.join(", "))
                }
                None => format!("{class}.{}", held.member),
            };
            match &held.cast_to {
                Some(ty) => format!("(({ty}) {member}).{}({arg_list})", req.method),
                None => format!("{member}.{}({arg_list})", req.method),
            }
        } else if class.is_empty() {
            format!("{}({arg_list})", req.method)
        } else {
            format!("{class}.{}({arg_list})", req.method)
        }
    } else {
        let receiver = fresh_name("obj", |n| used.contains(n) || objects.values().any(|o| o == n));
        if let Some(from) = &req.receiver_from {
            parts.lines.push(format!("{} {receiver} = {};", from.declared_as, from.expression()));
        } else if let Some(fields) = &req.receiver_fields {
            parts.reflection = true;
            parts.lines.extend(reflection_comment(&class));
            parts.lines.push(format!("{class} {receiver} = {ALLOCATE_HELPER}({class}.class);"));
            for (field, v) in fields {
                if let Some(value) = field_value(v, &objects) {
                    parts.lines.push(format!(
                        "{SET_FIELD_HELPER}({receiver}, {}, {value});",
                        literal(&JavaValue::Str(field.clone()))
                    ));
                }
            }
        } else {
            let ctor_args = receiver_arg_list(req);
            let new = match (&req.receiver_factory, &req.receiver_class) {
                (Some(factory), _) => format!("{factory}({})", ctor_args.join(", ")),
                (None, Some(made_as)) => format!("new {made_as}({})", ctor_args.join(", ")),
                (None, None) => new_object(req, &class, &ctor_args.join(", ")),
            };
            let new = match &req.receiver_body {
                Some(methods) => anonymous_class(&new, methods),
                None => new,
            };
            parts.lines.push(format!("{class} {receiver} = {new};"));
        }
        let declared = match &req.receiver_from {
            Some(from) => from.declared_as.clone(),
            None => class.clone(),
        };
        let lines = &parts.lines;
        let taken =
            |n: &str| used.contains(n) || objects.values().any(|o| o == n) || lines.iter().any(|l| names_word(l, n));
        let (calls, receiver) = call_lines(&receiver, &declared, &req.receiver_calls, &taken);
        parts.lines.extend(calls);
        parts.lines.extend(req.receiver_call_choices.iter().filter_map(|c| choice_line(&receiver, c)));
        format!("{receiver}.{}({arg_list})", req.method)
    };
    // A call on what that call returns is the one the test observes.
    let call = match &req.then_call {
        Some(then) => {
            let taken = |n: &str| used.contains(n) || objects.values().any(|o| o == n) || n == "obj";
            let result = fresh_name("result", taken);
            let cast = match then.cast {
                true => format!("({}) ", then.declared_as),
                false => String::new(),
            };
            parts.lines.push(format!("{} {result} = {cast}{call};", then.declared_as));
            let args: Vec<String> = then.args.iter().map(|(ty, v)| literal_as(ty, v)).collect();
            format!("{result}.{}({})", then.method, args.join(", "))
        }
        None => call,
    };

    let (stmt, assertion) = assertion(req, &call, junit);
    if let Some(assertion) = assertion {
        parts.static_imports.insert(format!("{assertions}.{assertion}"));
    }
    if let Outcome::Throws(exc) = &req.outcome {
        if let Some(pkg) = exception_package(exc.trim()) {
            parts.imports.insert(format!("{pkg}.{}", exc.trim()));
        }
    }
    match &req.outcome {
        Outcome::Undetermined(why) => {
            let why = truncate(&sanitize_comment(why), TARGET_TEXT_MAX);
            parts.lines.push(format!("// After line {} jreach cannot tell what happens ({why}):", req.target_line));
            parts.lines.push("// the test runs the line and asserts nothing.".to_string());
            parts.lines.push("try {".to_string());
            parts.lines.push(nested(&stmt));
            parts.lines.push("} catch (Exception notModelled) {".to_string());
            parts.lines.push(format!("{NEST}// Thrown after the line ran: not what this test checks."));
            parts.lines.push("}".to_string());
        }
        _ => parts.lines.push(stmt),
    }
    if !req.statics.is_empty() {
        parts.lines = with_statics(std::mem::take(&mut parts.lines), &req.statics);
    }
    // Classes of other packages, imported when the code (not a comment) names them.
    for qualified in &req.imports {
        let simple = qualified.rsplit('.').next().unwrap_or(qualified);
        if parts.lines.iter().any(|l| !l.trim_start().starts_with("//") && names_word(l, simple)) {
            parts.imports.insert(qualified.clone());
        }
    }
    parts
}

/// The `java.util` types that writing `v` names (`List.of`, `new HashMap<>(...)`), also inside
/// constructor arguments and elements.
fn collection_imports(v: &JavaValue, imports: &mut BTreeSet<String>) {
    match v {
        JavaValue::List { items, mutable, .. } => {
            imports.insert("java.util.List".to_string());
            if items.contains(&JavaValue::Null) {
                imports.insert("java.util.Arrays".to_string());
            }
            if *mutable {
                imports.insert("java.util.ArrayList".to_string());
            }
            items.iter().for_each(|i| collection_imports(i, imports));
        }
        JavaValue::Optional { item, .. } => {
            imports.insert("java.util.Optional".to_string());
            item.iter().for_each(|i| collection_imports(i, imports));
        }
        JavaValue::Map { mutable, entries, .. } => {
            imports.insert("java.util.Map".to_string());
            if *mutable {
                imports.insert("java.util.HashMap".to_string());
            }
            entries.iter().for_each(|(k, x)| {
                collection_imports(k, imports);
                collection_imports(x, imports);
            });
        }
        JavaValue::Constructed { args, calls, .. } => {
            args.iter().chain(calls.iter().flat_map(|c| &c.args)).for_each(|(_, x)| collection_imports(x, imports));
        }
        JavaValue::Array { elem_ty, items, .. } => {
            if LongArray::of(elem_ty, items).is_some_and(|a| a.fill.is_some()) {
                imports.insert("java.util.Arrays".to_string());
            }
            items.iter().for_each(|i| collection_imports(i, imports))
        }
        _ => {}
    }
}

/// `lines` (comments first) with the static fields assigned before the rest, which runs in a
/// `try` whose `finally` puts the fields' old values back:
///
/// ```text
/// int savedLimit = Config.limit;
/// Config.limit = 5;
/// try {
///     assertEquals(1, Config.check());
/// } finally {
///     Config.limit = savedLimit;
/// }
/// ```
fn with_statics(lines: Vec<String>, statics: &[crate::StaticAssignment]) -> Vec<String> {
    let comments = lines.iter().take_while(|l| l.starts_with("//")).count();
    let (head, body) = lines.split_at(comments);
    let mut out = head.to_vec();
    let mut taken: Vec<String> = Vec::new();
    let mut saved = Vec::new();
    for st in statics {
        let mut field = st.field.chars();
        let cap: String = field.next().map(|c| c.to_uppercase().chain(field).collect()).unwrap_or_default();
        let name = fresh_name(&format!("saved{cap}"), |n| {
            taken.iter().any(|t| t == n) || lines.iter().any(|l| names_word(l, n))
        });
        taken.push(name.clone());
        out.push(format!("{} {name} = {}.{};", st.java_ty, st.class, st.field));
        saved.push(name);
    }
    for st in statics {
        if st.is_stdin() {
            let text = literal_as("String", &st.value);
            out.push(format!(
                "System.setIn(new java.io.ByteArrayInputStream({text}.getBytes(java.nio.charset.StandardCharsets.UTF_8)));"
            ));
        } else {
            out.push(format!("{}.{} = {};", st.class, st.field, literal_as(&st.java_ty, &st.value)));
        }
    }
    out.push("try {".to_string());
    out.extend(body.iter().map(|l| nested(l)));
    out.push("} finally {".to_string());
    for (st, name) in statics.iter().zip(&saved) {
        if st.is_stdin() {
            out.push(format!("{NEST}System.setIn({name});"));
        } else {
            out.push(format!("{NEST}{}.{} = {name};", st.class, st.field));
        }
    }
    out.push("}".to_string());
    out
}

/// Whether `word` occurs in `code` as a whole Java identifier.
fn names_word(code: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    code.match_indices(word).any(|(i, _)| {
        !code[..i].chars().next_back().is_some_and(is_ident)
            && !code[i + word.len()..].chars().next().is_some_and(is_ident)
    })
}

/// The statements making `calls` on the object in `local`, declared as `ty`, and the local that
/// holds the object after them: `local.m(args);` for a call that changes the object, and
/// `Ty local2 = local.m(args);` for one returning a changed copy, which the calls after it are
/// made on (a new local rather than an assignment, so that a lambda of the test may still use it).
/// `taken`: whether a name is in use in the test method.
fn call_lines(local: &str, ty: &str, calls: &[crate::JavaCall], taken: &dyn Fn(&str) -> bool) -> (Vec<String>, String) {
    let mut current = local.to_string();
    let mut made: Vec<String> = Vec::new();
    let mut lines = Vec::with_capacity(calls.len());
    for c in calls {
        let call = call_expr(&current, c);
        if c.returns_copy {
            let base = local.trim_end_matches(|ch: char| ch.is_ascii_digit());
            let base = if base.is_empty() { local } else { base };
            let next = fresh_name(base, |n| n == local || taken(n) || made.iter().any(|m| m == n));
            lines.push(format!("{ty} {next} = {call};"));
            made.push(next.clone());
            current = next;
        } else {
            lines.push(format!("{call};"));
        }
    }
    (lines, current)
}

/// `local.m(args)`.
fn call_expr(local: &str, c: &crate::JavaCall) -> String {
    let args: Vec<String> = c.args.iter().map(|(ty, v)| literal_as(ty, v)).collect();
    format!("{local}.{}({})", c.method, args.join(", "))
}

/// In a search harness, the statement making the call a [`CallChoice`]'s input picks (none for
/// 0); `None` outside a harness.
fn choice_line(local: &str, choice: &crate::CallChoice) -> Option<String> {
    let k = choice.slot?;
    // (An arm cannot declare a local: a changed copy is assigned to the object's.)
    let arms: Vec<String> = choice
        .calls
        .iter()
        .enumerate()
        .map(|(i, c)| match c.returns_copy {
            true => format!("case {} -> {local} = {};", i + 1, call_expr(local, c)),
            false => format!("case {} -> {};", i + 1, call_expr(local, c)),
        })
        .collect();
    Some(format!(
        "switch (Math.floorMod(jreach.runner.Inputs.i({k}), {})) {{ {} default -> {{ }} }}",
        choice.calls.len() + 1,
        arms.join(" ")
    ))
}

/// The final statement and the assertion method it uses.
fn assertion(req: &TestRequest, call: &str, junit: JUnit) -> (String, Option<&'static str>) {
    let value = match &req.outcome {
        Outcome::Throws(exc) => {
            let exc = exc.trim();
            return (format!("assertThrows({exc}.class, () -> {call});"), Some("assertThrows"));
        }
        // A search harness marks where the call under test begins (what ran before, making the
        // receiver and the arguments, is no progress toward the target), and reports the result.
        Outcome::Observe if !(req.is_constructor || req.return_ty.trim() == "void") => {
            return (format!("jreach.runner.Inputs.begin(); jreach.runner.Inputs.observe({call});"), None);
        }
        Outcome::Observe => return (format!("jreach.runner.Inputs.begin(); {call};"), None),
        Outcome::Returns(None) | Outcome::Undetermined(_) => None,
        Outcome::Returns(Some(_)) if req.is_constructor || req.return_ty.trim() == "void" => None,
        Outcome::Returns(Some(v)) => Some(v),
    };
    let Some(value) = value else {
        return (format!("{call};"), None);
    };
    let ret = req.return_ty.trim();
    let eq = |expected: String, delta: Option<&str>| {
        let delta = delta.map(|d| format!(", {d}")).unwrap_or_default();
        (format!("assertEquals({expected}, {call}{delta});"), Some("assertEquals"))
    };
    if *value == JavaValue::Null {
        return (format!("assertNull({call});"), Some("assertNull"));
    }
    match Prim::of(ret) {
        // A primitive result: the literal typed as the result.
        Some((p, false)) => match (p, convert(value, p)) {
            (Prim::Boolean, Some(JavaValue::Bool(b))) => truth(b, call),
            (Prim::Float, Some(v)) => eq(literal(&v), (junit == JUnit::V4).then_some("0.0f")),
            (Prim::Double, Some(v)) => eq(literal(&v), (junit == JUnit::V4).then_some("0.0")),
            (_, Some(v)) => eq(literal(&v), None),
            (_, None) => eq(literal(value), None),
        },
        // A boxed result: compare objects, so that no overload is ambiguous.
        Some((p, true)) => match convert(value, p) {
            Some(JavaValue::Bool(b)) => truth(b, call),
            Some(v) => eq(boxed(&v), None),
            None => eq(literal(value), None),
        },
        // Any other reference type (`Object`, `Number`, `T`, `String`).
        None => match Prim::of_value(value) {
            Some(_) => eq(boxed(value), None),
            None => eq(literal(value), None),
        },
    }
}

fn truth(b: bool, call: &str) -> (String, Option<&'static str>) {
    if b {
        (format!("assertTrue({call});"), Some("assertTrue"))
    } else {
        (format!("assertFalse({call});"), Some("assertFalse"))
    }
}

/// `v` as an object of its wrapper class: `Integer.valueOf(5)`, `Boolean.TRUE`.
fn boxed(v: &JavaValue) -> String {
    match (v, Prim::of_value(v)) {
        (JavaValue::Bool(b), _) => if *b { "Boolean.TRUE" } else { "Boolean.FALSE" }.to_string(),
        (_, Some(p)) => format!("{}.valueOf({})", p.boxed_name(), literal(v)),
        (_, None) => literal(v),
    }
}

/// One argument of the call.
struct Arg {
    /// The literal, typed as the parameter.
    literal: String,
    /// The local variable holding it, if the test declares one.
    local: Option<String>,
    /// The local's declared type.
    decl_ty: Option<String>,
}

fn arguments(req: &TestRequest) -> Vec<Arg> {
    let n = req.params.len().max(req.args.len());
    let mut args = Vec::with_capacity(n);
    for i in 0..n {
        let param = req.params.get(i);
        let ty = param.map(|(_, t)| t.trim()).unwrap_or("");
        let literal = match req.args.get(i) {
            Some(v) => literal_as(ty, v),
            None => literal(&default_value(ty)),
        };
        let decl_ty: Option<String> = match req.args.get(i) {
            // The parameter's type as written may be a nested class's simple name.
            // (`new ArrayList<>(...)` is declared with the parameter's type.)
            // A parameter of a wider JDK type (`append(CharSequence)` given a `StrBuilder`) is
            // declared as such, so that the call picks the method under test and not an overload
            // taking the object's class (an object the test calls methods on keeps its class).
            Some(JavaValue::Constructed { class, calls, choices, .. }) if !class.ends_with("<>") => {
                let plain = calls.is_empty() && choices.is_empty();
                let wider = param
                    .and_then(|(_, t)| declarable(t))
                    .filter(|t| plain && !t.ends_with(']') && Prim::of(t).is_none() && t != class);
                Some(wider.unwrap_or_else(|| class.clone()))
            }
            Some(JavaValue::Lambda { interface, .. } | JavaValue::Stub { interface, .. }) => Some(interface.clone()),
            Some(JavaValue::List { elem_ty, .. }) => Some(format!("List<{elem_ty}>")),
            Some(JavaValue::Optional { elem_ty, .. }) => Some(format!("Optional<{elem_ty}>")),
            Some(JavaValue::Map { key_ty, value_ty, .. }) => Some(format!("Map<{key_ty}, {value_ty}>")),
            // An array of a nested class: its element type as the test names it.
            Some(JavaValue::Array { elem_ty, .. }) => {
                param.and_then(|(_, t)| declarable(t)).or_else(|| Some(format!("{elem_ty}[]")))
            }
            _ => param.and_then(|(_, t)| declarable(t)),
        };
        // An overload's `null` without a typed local says which overload it is for.
        let literal = match decl_ty {
            None => cast_null(literal, req.null_casts.args.get(i)),
            Some(_) => literal,
        };
        args.push(Arg { literal, local: None, decl_ty });
    }
    let set_up = |v: &JavaValue| match v {
        JavaValue::Constructed { calls, choices, builder: None, .. } => {
            !calls.is_empty() || choices.iter().any(|c| c.slot.is_some())
        }
        JavaValue::Array { elem_ty, items, .. } => {
            items.iter().any(|i| matches!(i, JavaValue::SameItem(_) | JavaValue::SameAs(_)))
                || LongArray::of(elem_ty, items).is_some()
        }
        _ => false,
    };
    let use_locals =
        req.params.len() >= 2 || args.iter().any(|a| a.literal.len() > INLINE_MAX) || req.args.iter().any(set_up);
    if !use_locals {
        // A bare `null` fits every overload taking a reference (`sort(T[])` and `sort(List<T>)`):
        // the cast says which one.
        for arg in &mut args {
            // (A boxed type's too: `value(Boolean)` beside `value(Number)`.)
            let reference = |t: &str| !matches!(Prim::of(t), Some((_, false)));
            if let Some(ty) = arg.decl_ty.as_deref().filter(|t| arg.literal == "null" && reference(t)) {
                arg.literal = format!("({ty}) null");
            }
        }
        // So does a number or a string for a parameter of a wider type (`getAndAdd(Number)` next
        // to `getAndAdd(int)`).
        for (arg, v) in args.iter_mut().zip(&req.args) {
            let Some(ty) = arg.decl_ty.as_deref() else { continue };
            let widened = match v {
                JavaValue::Str(_) => !matches!(ty, "String" | "java.lang.String"),
                JavaValue::Constructed { class, .. } if !class.ends_with("<>") => ty != class,
                v => Prim::of_value(v).is_some() && Prim::of(ty).is_none(),
            };
            if widened {
                arg.literal = format!("({ty}) {}", arg.literal);
            }
        }
        return args;
    }
    let mut taken = BTreeSet::new();
    let mut locals: std::collections::BTreeMap<usize, String> = std::collections::BTreeMap::new();
    // Arguments that are one array object share one local. Ids are per array type: an `int[]`
    // and a `long[]` with the same id are two arrays.
    let mut arrays: std::collections::BTreeMap<(String, i64), String> = std::collections::BTreeMap::new();
    for (i, arg) in args.iter_mut().enumerate() {
        let array_id = match req.args.get(i) {
            Some(JavaValue::Array { elem_ty, id, .. }) => Some((elem_ty.clone(), *id)),
            _ => None,
        };
        if let Some(name) = array_id.as_ref().and_then(|key| arrays.get(key)) {
            arg.literal = name.clone();
            arg.decl_ty = None;
            continue;
        }
        if let Some(JavaValue::SameAs(mut k)) = req.args.get(i) {
            while let Some(JavaValue::SameAs(j)) = req.args.get(k).filter(|_| k < i) {
                k = *j;
            }
            if let Some(name) = locals.get(&k) {
                arg.literal = name.clone();
            }
            arg.decl_ty = None;
            continue;
        }
        let Some(decl_ty) = &arg.decl_ty else { continue };
        // A null for a primitive cannot be declared; the call shows it as it is.
        if arg.literal == "null" && Prim::of(decl_ty).is_some_and(|(_, boxed)| !boxed) {
            continue;
        }
        let wanted = req.params.get(i).map(|(n, _)| identifier(n)).filter(|n| !n.is_empty() && !is_keyword(n));
        let name = fresh_name(&wanted.unwrap_or_else(|| format!("arg{i}")), |n| taken.contains(n));
        taken.insert(name.clone());
        if let Some(id) = array_id {
            arrays.insert(id, name.clone());
        }
        locals.insert(i, name.clone());
        arg.local = Some(name);
        // A long array is declared by its length; its elements are stored once every local exists.
        if let Some(JavaValue::Array { elem_ty, items, .. }) = req.args.get(i) {
            if let Some(long) = LongArray::of(elem_ty, items) {
                arg.literal = long.created;
            }
        }
    }
    args
}

/// `literal`, cast to `cast` when it is a bare `null` and there is one (`(Map) null`).
fn cast_null(literal: String, cast: Option<&Option<String>>) -> String {
    match cast {
        Some(Some(ty)) if literal == "null" => format!("({ty}) null"),
        _ => literal,
    }
}

/// The arguments the receiver is made with (by its constructor or the static method that
/// returns it), as the test writes them.
fn receiver_arg_list(req: &TestRequest) -> Vec<String> {
    req.receiver_args
        .iter()
        .enumerate()
        .map(|(i, (ty, v))| cast_null(literal_as(ty, v), req.null_casts.receiver_args.get(i)))
        .collect()
}

/// Objects among the arguments and the fields of a receiver made by reflection: a local for
/// each (named after its parameter when it is one), created with `new C()` or by reflection,
/// then its non-default fields set. Returns the lines, each object's local by id, and whether
/// any is made by reflection.
fn object_setup(req: &TestRequest) -> (Vec<String>, std::collections::BTreeMap<i64, String>, bool) {
    fn collect<'a>(v: &'a JavaValue, out: &mut Vec<&'a JavaValue>) {
        if let JavaValue::Object { id, fields, .. } = v {
            if out.iter().any(|o| matches!(o, JavaValue::Object { id: other, .. } if other == id)) {
                return;
            }
            out.push(v);
            for (_, f) in fields {
                collect(f, out);
            }
        }
    }
    let mut objects = Vec::new();
    let mut names: std::collections::BTreeMap<i64, String> = std::collections::BTreeMap::new();
    let mut taken: BTreeSet<String> = req.params.iter().map(|(n, _)| identifier(n)).collect();
    for (i, a) in req.args.iter().enumerate() {
        if let JavaValue::Object { id, .. } = a {
            if !names.contains_key(id) {
                let base = req.params.get(i).map(|(n, _)| identifier(n)).unwrap_or_else(|| format!("arg{i}"));
                names.insert(*id, base);
            }
        }
        collect(a, &mut objects);
    }
    for (_, v) in req.receiver_fields.iter().flatten() {
        collect(v, &mut objects);
    }
    for o in &objects {
        if let JavaValue::Object { id, .. } = o {
            if !names.contains_key(id) {
                let name = fresh_name("obj", |n| taken.contains(n));
                taken.insert(name.clone());
                names.insert(*id, name);
            }
        }
    }
    let mut lines = Vec::new();
    let mut reflection = false;
    for o in &objects {
        if let JavaValue::Object { class, id, by_reflection, .. } = o {
            if *by_reflection {
                reflection = true;
                lines.extend(reflection_comment(class));
                lines.push(format!("{class} {} = {ALLOCATE_HELPER}({class}.class);", names[id]));
            } else {
                lines.push(format!("{class} {} = new {class}();", names[id]));
            }
        }
    }
    for o in &objects {
        if let JavaValue::Object { id, fields, by_reflection, .. } = o {
            for (field, v) in fields {
                let Some(value) = field_value(v, &names) else { continue };
                if *by_reflection {
                    let name = literal(&JavaValue::Str(field.clone()));
                    lines.push(format!("{SET_FIELD_HELPER}({}, {name}, {value});", names[id]));
                } else {
                    lines.push(format!("{}.{field} = {value};", names[id]));
                }
            }
        }
    }
    (lines, names, reflection)
}

/// The type to declare a local of parameter type `ty` with, if that type surely resolves in the
/// test class without imports. Varargs become arrays.
fn declarable(ty: &str) -> Option<String> {
    let ty = ty.trim();
    let ty = match ty.strip_suffix("...") {
        Some(base) => format!("{}[]", base.trim_end()),
        None => ty.to_string(),
    };
    let base = ty.trim_end_matches(|c: char| c == '[' || c == ']' || c.is_whitespace());
    let base_simple = base.strip_prefix("java.lang.").unwrap_or(base);
    let known = Prim::of(base_simple).is_some()
        || matches!(base_simple, "String" | "Object" | "CharSequence" | "Number" | "StringBuilder");
    known.then_some(ty)
}

/// The zero of a type, for a missing argument.
pub(crate) fn default_value(ty: &str) -> JavaValue {
    match Prim::of(ty) {
        Some((_, true)) | None => JavaValue::Null,
        Some((p, false)) => convert(&JavaValue::Int(0), p).unwrap_or(JavaValue::Bool(false)),
    }
}

/// `base`, or `base2`, `base3`... whichever is not taken.
fn fresh_name(base: &str, is_taken: impl Fn(&str) -> bool) -> String {
    if !is_taken(base) {
        return base.to_string();
    }
    (2..).map(|i| format!("{base}{i}")).find(|n| !is_taken(n)).expect("some suffix is free")
}

/// `name` with every character that cannot be part of a Java identifier replaced by `_`.
pub(crate) fn identifier(name: &str) -> String {
    let mut out: String =
        name.trim().chars().map(|c| if c.is_alphanumeric() || c == '_' || c == '$' { c } else { '_' }).collect();
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "abstract"
            | "assert"
            | "boolean"
            | "break"
            | "byte"
            | "case"
            | "catch"
            | "char"
            | "class"
            | "const"
            | "continue"
            | "default"
            | "do"
            | "double"
            | "else"
            | "enum"
            | "extends"
            | "final"
            | "finally"
            | "float"
            | "for"
            | "goto"
            | "if"
            | "implements"
            | "import"
            | "instanceof"
            | "int"
            | "interface"
            | "long"
            | "native"
            | "new"
            | "package"
            | "private"
            | "protected"
            | "public"
            | "return"
            | "short"
            | "static"
            | "strictfp"
            | "super"
            | "switch"
            | "synchronized"
            | "this"
            | "throw"
            | "throws"
            | "transient"
            | "try"
            | "void"
            | "volatile"
            | "while"
            | "true"
            | "false"
            | "null"
            | "_"
    )
}

/// The package of a well-known exception outside `java.lang`, which the test must import.
fn exception_package(name: &str) -> Option<&'static str> {
    Some(match name {
        "NoSuchElementException"
        | "ConcurrentModificationException"
        | "EmptyStackException"
        | "InputMismatchException"
        | "MissingResourceException"
        | "IllegalFormatException"
        | "UnknownFormatConversionException"
        | "MissingFormatArgumentException" => "java.util",
        "IOException" | "UncheckedIOException" | "FileNotFoundException" | "EOFException" => "java.io",
        "ExecutionException" | "TimeoutException" | "CancellationException" | "CompletionException" => {
            "java.util.concurrent"
        }
        "BufferOverflowException" | "BufferUnderflowException" | "ReadOnlyBufferException" => "java.nio",
        "DateTimeException" => "java.time",
        "DateTimeParseException" => "java.time.format",
        _ => return None,
    })
}

/// `new {class}({args})`, or on the enclosing object of an inner class: `new Heap(0).new
/// Node({args})` ([`TestRequest::outer`]).
fn new_object(req: &TestRequest, class: &str, args: &str) -> String {
    match (&req.outer, req.classes.last()) {
        (Some(outer), Some(inner)) => format!("{}.new {}({args})", literal(outer), inner.trim()),
        _ => format!("new {class}({args})"),
    }
}

/// `// Reaches line N: ...`, what else the test runs, and the wrapped `// Path: ...` lines.
fn comment_lines(req: &TestRequest) -> Vec<String> {
    let mut lines = Vec::new();
    let target = crate::marker::quoted_target(&req.target_text);
    lines.push(crate::marker::reaches_comment(req.target_line, req.target_member.as_deref(), &target));
    if !req.also_runs.is_empty() {
        lines.push(crate::marker::also_runs_comment(&req.also_runs));
    }
    if req.initializes_class {
        lines.push(format!(
            "// The JVM runs the line as it initializes {}, on the class's first use:",
            req.classes.join(".")
        ));
        lines.push("// here, unless a test before this one in the same JVM used the class.".to_string());
    }
    let conds: Vec<String> = req
        .path_condition
        .iter()
        .map(|c| sanitize_comment(c))
        .filter(|c| !c.is_empty())
        .map(|c| if needs_parens(&c) { format!("({c})") } else { c })
        .collect();
    let mut current: Option<String> = None;
    for cond in conds {
        current = Some(match current {
            None => format!("// Path: {cond}"),
            Some(line) if line.len() + 4 + cond.len() <= COMMENT_WIDTH => format!("{line} && {cond}"),
            Some(line) => {
                lines.push(line);
                // `//    && ` is as wide as `// Path: `: conditions line up.
                format!("//    && {cond}")
            }
        });
    }
    lines.extend(current);
    lines
}

/// Whether a condition must be parenthesised to be read as one operand of `&&`.
fn needs_parens(cond: &str) -> bool {
    let risky = cond.contains("||") || cond.contains('?') || cond.contains(" = ");
    risky && !is_wrapped_in_parens(cond)
}

fn is_wrapped_in_parens(s: &str) -> bool {
    if !(s.starts_with('(') && s.ends_with(')')) {
        return false;
    }
    // The opening parenthesis must close at the very end.
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && i + 1 != s.len() {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// Text that is safe inside a `//` comment: one line, no `*/`, and no backslash run that javac would
/// read as the start of a unicode escape (a `u` after an odd number of backslashes gets one more).
pub(crate) fn sanitize_comment(text: &str) -> String {
    let one_line: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let one_line = one_line.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::with_capacity(one_line.len());
    let mut backslashes = 0usize;
    for c in one_line.chars() {
        if c == 'u' && backslashes % 2 == 1 {
            out.push('\\');
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
        out.push(c);
    }
    while out.contains("*/") {
        out = out.replace("*/", "* /");
    }
    out
}

pub(crate) fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max - 3).collect();
    // Do not end on a lone backslash, which could pair with what follows.
    while out.ends_with('\\') {
        out.pop();
    }
    out.push_str("...");
    out
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::*;
    use jreach_syntax::Action;
    use JavaValue::*;

    fn base() -> TestRequest {
        TestRequest {
            package: Some("demo".into()),
            classes: vec!["Calc".into()],
            method: "abs".into(),
            is_static: true,
            is_constructor: false,
            params: vec![("x".into(), "int".into())],
            args: vec![Int(i32::MIN)],
            return_ty: "int".into(),
            outcome: Outcome::Returns(Some(Int(i32::MIN))),
            target_line: 12,
            target_text: "return -x;".into(),
            target_member: None,
            target_action: Action::Returns(None),
            path_condition: vec!["x < 0".into()],
            junit: JUnit::V5,
            receiver_args: vec![],
            receiver_calls: vec![],
            imports: vec![],
            unmodelled_before_target: None,
            declares_checked: false,
            receiver_call_choices: vec![],
            receiver_factory: None,
            receiver_from: None,
            then_call: None,
            null_casts: Default::default(),
            named_classes: vec![],
            held_by: None,
            initializes_class: false,
            outer: None,
            also_runs: vec![],
            statics: vec![],
            receiver_body: None,
            receiver_fields: None,
            receiver_class: None,
        }
    }

    fn check_class(req: &TestRequest, expect: Expect) {
        expect.assert_eq(&render_class(req));
    }

    /// Snapshots a method; expect-test strips the common indentation, so it is checked here.
    fn check_method(req: &TestRequest, expect: Expect) {
        let text = render_method(req, &test_method_name(req));
        assert!(text.lines().all(|l| l.starts_with("    ")), "indented 4 spaces:\n{text}");
        assert!(text.ends_with("}\n"));
        let dedented: String = text.lines().map(|l| format!("{}\n", &l[4..])).collect();
        expect.assert_eq(&dedented);
    }

    #[test]
    fn a_held_object_s_method_is_called_on_its_member_cast_when_the_field_is_wider() {
        let held = |cast_to: Option<&str>| TestRequest {
            receiver_from: None,
            then_call: None,
            null_casts: Default::default(),
            named_classes: vec![],
            held_by: Some(jreach_syntax::HeldBy {
                member: "LOW".into(),
                cast_to: cast_to.map(String::from),
                returned_by: None,
            }),
            initializes_class: false,
            also_runs: vec![],
            ..base()
        };
        let call = |req: &TestRequest| {
            let text = render_method(req, &test_method_name(req));
            text.lines().find(|l| l.contains("LOW")).map(|l| l.trim().to_string()).unwrap_or_default()
        };
        assert_eq!(call(&held(None)), "assertEquals(Integer.MIN_VALUE, Calc.LOW.abs(Integer.MIN_VALUE));");
        assert_eq!(
            call(&held(Some("Base<Integer>"))),
            "assertEquals(Integer.MIN_VALUE, ((Base<Integer>) Calc.LOW).abs(Integer.MIN_VALUE));"
        );
        // Returned by a static method: called with `receiver_args`.
        let returned = TestRequest {
            receiver_from: None,
            then_call: None,
            null_casts: Default::default(),
            named_classes: vec![],
            held_by: Some(jreach_syntax::HeldBy {
                member: "low".into(),
                cast_to: None,
                returned_by: Some(vec![jreach_syntax::Param { name: "prefix".into(), ty: "String".into() }]),
            }),
            receiver_args: vec![("String".into(), JavaValue::Str("a".into()))],
            initializes_class: false,
            also_runs: vec![],
            ..base()
        };
        let text = render_method(&returned, &test_method_name(&returned));
        assert!(text.contains("Calc.low(\"a\").abs(Integer.MIN_VALUE)"), "{text}");
    }

    #[test]
    fn static_method_class() {
        check_class(
            &TestRequest { target_member: Some("abs(int)".into()), ..base() },
            expect![[r#"
                package demo;

                import static org.junit.jupiter.api.Assertions.assertEquals;

                import org.junit.jupiter.api.Test;
                import org.junit.jupiter.api.Timeout;

                class CalcTest {
                    @Test
                    @Timeout(30)
                    void abs_returns() {
                        // Reaches line 12 in abs(int): return -x;
                        // Path: x < 0
                        assertEquals(Integer.MIN_VALUE, Calc.abs(Integer.MIN_VALUE));
                    }
                }
            "#]],
        );
    }

    #[test]
    fn an_argument_s_changed_copy_is_what_the_call_takes() {
        let wither = |limit: i32| crate::JavaCall {
            method: "withLimit".into(),
            args: vec![("int".into(), Int(limit))],
            returns_copy: true,
        };
        let opts = Constructed {
            class: "Opts".into(),
            args: vec![],
            calls: vec![wither(3), crate::JavaCall::new("seal", vec![]), wither(4)],
            choices: vec![],
            body: None,
            factory: None,
            builder: None,
            cast_args: false,
        };
        let req = TestRequest {
            params: vec![("opts".into(), "Opts".into())],
            args: vec![opts],
            outcome: Outcome::Throws("IllegalStateException".into()),
            ..base()
        };
        check_method(
            &req,
            expect![[r#"
                @Test
                @Timeout(30)
                void abs_returns() {
                    // Reaches line 12: return -x;
                    // Path: x < 0
                    Opts opts = new Opts();
                    Opts opts2 = opts.withLimit(3);
                    opts2.seal();
                    Opts opts3 = opts2.withLimit(4);
                    assertThrows(IllegalStateException.class, () -> Calc.abs(opts3));
                }
            "#]],
        );
    }

    #[test]
    fn a_long_array_is_created_by_length_filled_and_stored_into() {
        let mut counts = vec![Int(3); 3000];
        counts[2049] = Int(-1);
        let mut rows = vec![Null; 70];
        rows[1] = Array { elem_ty: "int".into(), id: 3, items: vec![Int(4)] };
        let req = TestRequest {
            method: "scan".into(),
            params: vec![("counts".into(), "int[]".into()), ("rows".into(), "int[][]".into())],
            args: vec![
                Array { elem_ty: "int".into(), id: 1, items: counts },
                Array { elem_ty: "int[]".into(), id: 2, items: rows },
            ],
            outcome: Outcome::Returns(Some(Int(1))),
            path_condition: vec![],
            ..base()
        };
        let text = render_method(&req, &test_method_name(&req));
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let at = |l: &str| lines.iter().position(|x| *x == l).unwrap_or_else(|| panic!("`{l}` in:\n{text}"));
        // Declared by length, then filled and stored into before the call.
        assert!(at("int[] counts = new int[3000];") < at("Arrays.fill(counts, 3);"), "{text}");
        assert!(at("Arrays.fill(counts, 3);") < at("counts[2049] = -1;"), "{text}");
        assert!(at("counts[2049] = -1;") < at("assertEquals(1, Calc.scan(counts, rows));"), "{text}");
        assert_eq!(lines.iter().filter(|l| l.starts_with("counts[")).count(), 1, "{text}");
        // Rows that are arrays keep the initializer, which lists every row.
        let rows_line = lines.iter().find(|l| l.starts_with("int[][] rows = ")).expect("rows declared");
        assert!(rows_line.starts_with("int[][] rows = new int[][] {null, new int[] {4}, null"), "{rows_line}");
        assert!(render_class(&req).contains("import java.util.Arrays;"));
    }

    #[test]
    fn the_lines_a_test_also_runs_are_named_and_read_back() {
        let req = TestRequest { also_runs: vec![9, 10, 11, 14], target_member: Some("abs(int)".into()), ..base() };
        let text = render_method(&req, "abs_returns");
        assert!(
            text.contains("// Reaches line 12 in abs(int): return -x;\n        // Also runs lines 9-11, 14.\n"),
            "{text}"
        );
        let found = crate::markers_in(&text);
        assert_eq!(found.len(), 1, "{text}");
        assert_eq!((found[0].target_line, found[0].also_runs.clone()), (12, vec![9, 10, 11, 14]));
        assert_eq!(found[0].member.as_deref(), Some("abs(int)"));
        assert_eq!(found[0].quoted, crate::quoted_target(&req.target_text));
    }

    #[test]
    fn a_null_argument_says_its_type() {
        // `sort(null)` would be ambiguous next to an overload taking a `List`.
        let req = TestRequest {
            method: "sort".into(),
            params: vec![("array".into(), "Integer[]".into())],
            args: vec![Null],
            return_ty: "Integer[]".into(),
            outcome: Outcome::Throws("NullPointerException".into()),
            target_line: 9,
            target_text: "bubble(array, array.length);".into(),
            target_action: Action::Calls("bubble".into()),
            path_condition: vec![],
            ..base()
        };
        let text = render_method(&req, &test_method_name(&req));
        assert!(text.contains("Calc.sort((Integer[]) null)"), "{text}");
        // `value(null)` would be ambiguous between `value(Boolean)` and `value(Number)`.
        let boxed = TestRequest { params: vec![("value".into(), "Boolean".into())], ..req.clone() };
        let text = render_method(&boxed, "t");
        assert!(text.contains("Calc.sort((Boolean) null)"), "{text}");
    }

    #[test]
    fn a_number_for_a_wider_parameter_says_its_type() {
        // `getAndAdd(0)` would call the overload taking an `int`.
        let req = TestRequest {
            method: "getAndAdd".into(),
            params: vec![("operand".into(), "Number".into())],
            args: vec![Int(0)],
            return_ty: "int".into(),
            outcome: Outcome::Returns(Some(Int(0))),
            target_line: 9,
            target_text: "value += operand.intValue();".into(),
            target_action: Action::Sets("value".into()),
            path_condition: vec![],
            ..base()
        };
        let text = render_method(&req, &test_method_name(&req));
        assert!(text.contains("Calc.getAndAdd((Number) 0)"), "{text}");
        let object = TestRequest {
            params: vec![("operand".into(), "Object".into())],
            args: vec![Str("a".into())],
            ..req.clone()
        };
        let text = render_method(&object, "t");
        assert!(text.contains("Calc.getAndAdd((Object) \"a\")"), "{text}");
        let exact = TestRequest { params: vec![("operand".into(), "Integer".into())], ..req };
        assert!(render_method(&exact, "t").contains("Calc.getAndAdd(0)"));
    }

    #[test]
    fn a_receiver_from_a_factory_is_made_by_calling_it() {
        let req = TestRequest {
            is_static: false,
            method: "isWhole".into(),
            return_ty: "boolean".into(),
            outcome: Outcome::Returns(Some(Bool(true))),
            receiver_args: vec![("int".into(), Int(4)), ("int".into(), Int(2))],
            receiver_factory: Some("Calc.of".into()),
            receiver_from: None,
            then_call: None,
            null_casts: Default::default(),
            named_classes: vec![],
            held_by: None,
            initializes_class: false,
            also_runs: vec![],
            params: vec![],
            args: vec![],
            ..base()
        };
        let text = render_method(&req, "t");
        assert!(text.contains("Calc obj = Calc.of(4, 2);") && text.contains("assertTrue(obj.isWhole());"), "{text}");
    }

    #[test]
    fn a_call_on_the_result_is_the_one_asserted() {
        let req = TestRequest {
            method: "adapter".into(),
            params: vec![("n".into(), "int".into())],
            args: vec![Int(3)],
            return_ty: "String".into(),
            outcome: Outcome::Returns(Some(JavaValue::Str("x3".into()))),
            then_call: Some(crate::ThenCall {
                declared_as: "Adapters.Adapter".into(),
                cast: false,
                throws_throwable: false,
                method: "name".into(),
                args: vec![("Object".into(), JavaValue::Null), ("int".into(), Int(2))],
            }),
            ..base()
        };
        let text = render_method(&req, "t");
        assert!(text.contains("Adapters.Adapter result = Calc.adapter(3);"), "{text}");
        assert!(text.contains("assertEquals(\"x3\", result.name(null, 2));"), "{text}");
    }

    #[test]
    fn a_null_for_an_overload_is_cast_to_its_parameter_type() {
        let req = TestRequest {
            method: "replace".into(),
            params: vec![("source".into(), "Object".into()), ("map".into(), "Map<String, V>".into())],
            args: vec![JavaValue::Str("a".into()), JavaValue::Null],
            return_ty: "String".into(),
            outcome: Outcome::Undetermined("x".into()),
            is_static: false,
            receiver_args: vec![("Lookup<?>".into(), JavaValue::Null), ("int".into(), Int(2))],
            null_casts: crate::NullCasts {
                args: vec![Some("Object".into()), Some("Map".into())],
                receiver_args: vec![Some("Lookup".into()), None],
            },
            ..base()
        };
        let text = render_method(&req, "t");
        assert!(text.contains("Calc obj = new Calc((Lookup) null, 2);"), "{text}");
        // (`source` has a typed local; `map` has none and is cast.)
        assert!(text.contains("obj.replace(source, (Map) null)"), "{text}");
        // Without casts, the nulls stay bare.
        let text = render_method(&TestRequest { null_casts: Default::default(), ..req }, "t");
        assert!(text.contains("new Calc(null, 2)") && text.contains("(source, null)"), "{text}");
    }

    #[test]
    fn a_test_of_a_method_with_checked_exceptions_declares_them() {
        let req = TestRequest { declares_checked: true, ..base() };
        assert!(render_method(&req, "t").contains("void t() throws Exception {"));
        assert!(render_method(&TestRequest { declares_checked: false, ..req.clone() }, "t").contains("void t() {"));
        // A receiver declared as `InvocationHandler`, whose `invoke` declares `throws Throwable`.
        let req = TestRequest {
            method: "invoke".into(),
            is_static: false,
            receiver_from: Some(crate::ReceiverFrom {
                declared_as: "java.lang.reflect.InvocationHandler".into(),
                on: crate::ReceiverHolder::Class("Support".into()),
                member: "handler".into(),
                args: Some(vec![]),
            }),
            ..req
        };
        let text = render_method(&req, "t");
        assert!(text.contains("void t() throws Throwable {"), "{text}");
        assert!(text.contains("InvocationHandler obj = Support.handler();"), "{text}");
    }

    #[test]
    fn static_method_with_several_parameters_names_them() {
        let req = TestRequest {
            method: "guarded".into(),
            params: vec![("x".into(), "int".into()), ("y".into(), "long".into())],
            args: vec![Int(1), Int(2)],
            outcome: Outcome::Returns(Some(Int(7))),
            target_line: 38,
            target_text: "return 7;".into(),
            target_action: Action::Returns(Some(jreach_syntax::Term::Number("7".into()))),
            path_condition: vec!["y > x".into(), "!(x > blackBox(y))".into()],
            ..base()
        };
        check_method(
            &req,
            expect![[r#"
                @Test
                @Timeout(30)
                void guarded_returns7() {
                    // Reaches line 38: return 7;
                    // Path: y > x && !(x > blackBox(y))
                    int x = 1;
                    long y = 2L;
                    assertEquals(7, Calc.guarded(x, y));
                }
            "#]],
        );
    }

    #[test]
    fn instance_method_of_nested_class() {
        let req = TestRequest {
            package: None,
            classes: vec!["Concolic".into(), "SimpleList".into()],
            method: "find".into(),
            is_static: false,
            params: vec![("obj".into(), "String".into()), ("c".into(), "char".into()), ("next".into(), "Node".into())],
            args: vec![Str("a\"b".into()), Char(b'\n' as u16), Null],
            return_ty: "boolean".into(),
            outcome: Outcome::Returns(Some(Bool(true))),
            target_line: 40,
            target_text: "found = true;".into(),
            target_action: Action::Sets("found".into()),
            path_condition: vec![],
            ..base()
        };
        check_class(
            &req,
            expect![[r#"
                import static org.junit.jupiter.api.Assertions.assertTrue;

                import org.junit.jupiter.api.Test;
                import org.junit.jupiter.api.Timeout;

                class ConcolicTest {
                    @Test
                    @Timeout(30)
                    void find_setsFound() {
                        // Reaches line 40: found = true;
                        String obj = "a\"b";
                        char c = '\n';
                        Concolic.SimpleList obj2 = new Concolic.SimpleList();
                        assertTrue(obj2.find(obj, c, null));
                    }
                }
            "#]],
        );
    }

    #[test]
    fn throws_and_constructors() {
        let req = TestRequest {
            classes: vec!["Account".into()],
            method: "Account".into(),
            is_static: false,
            is_constructor: true,
            params: vec![("balance".into(), "int".into())],
            args: vec![Int(-1)],
            return_ty: "void".into(),
            outcome: Outcome::Throws("IllegalArgumentException".into()),
            target_line: 9,
            target_text: "throw new IllegalArgumentException(\"negative\");".into(),
            target_action: Action::Throws(Some("IllegalArgumentException".into())),
            path_condition: vec!["balance < 0".into()],
            ..base()
        };
        check_class(
            &req,
            expect![[r#"
                package demo;

                import static org.junit.jupiter.api.Assertions.assertThrows;

                import org.junit.jupiter.api.Test;
                import org.junit.jupiter.api.Timeout;

                class AccountTest {
                    @Test
                    @Timeout(30)
                    void newAccount_throwsIllegalArgumentException() {
                        // Reaches line 9: throw new IllegalArgumentException("negative");
                        // Path: balance < 0
                        assertThrows(IllegalArgumentException.class, () -> new Account(-1));
                    }
                }
            "#]],
        );
        let next = TestRequest {
            method: "next".into(),
            is_constructor: false,
            params: vec![],
            args: vec![],
            return_ty: "int".into(),
            outcome: Outcome::Throws("NoSuchElementException".into()),
            ..req
        };
        check_class(
            &next,
            expect![[r#"
                package demo;

                import static org.junit.jupiter.api.Assertions.assertThrows;

                import java.util.NoSuchElementException;
                import org.junit.jupiter.api.Test;
                import org.junit.jupiter.api.Timeout;

                class AccountTest {
                    @Test
                    @Timeout(30)
                    void next_throwsIllegalArgumentException() {
                        // Reaches line 9: throw new IllegalArgumentException("negative");
                        // Path: balance < 0
                        Account obj = new Account();
                        assertThrows(NoSuchElementException.class, () -> obj.next());
                    }
                }
            "#]],
        );
    }

    #[test]
    fn constructed_aliased_lambda_list_and_map_arguments() {
        let account = |owner: &str, cents: i32| Constructed {
            class: "Bank.Account".into(),
            args: vec![("String".into(), Str(owner.into())), ("long".into(), Int(cents))],
            calls: vec![],
            choices: vec![],
            body: None,
            factory: None,
            builder: None,
            cast_args: false,
        };
        let req = TestRequest {
            classes: vec!["Bank".into()],
            method: "move".into(),
            params: vec![
                ("from".into(), "Account".into()),
                ("to".into(), "Account".into()),
                ("rule".into(), "Rule".into()),
                ("log".into(), "List<String>".into()),
                ("more".into(), "List<Account>".into()),
                ("caps".into(), "Map<String, Long>".into()),
            ],
            args: vec![
                account("a", 5),
                SameAs(0),
                Lambda {
                    interface: "Bank.Rule".into(),
                    arity: 2,
                    returns: Some(Box::new(("boolean".into(), Bool(true)))),
                    special: vec![],
                },
                List { elem_ty: "String".into(), items: vec![Str("x".into()), Null], mutable: true },
                List { elem_ty: "Bank.Account".into(), items: vec![account("b", 1)], mutable: false },
                Map {
                    key_ty: "String".into(),
                    value_ty: "Long".into(),
                    entries: vec![(Str("k".into()), Long(7)), (Str("j".into()), Int(8))],
                    mutable: true,
                },
            ],
            return_ty: "void".into(),
            outcome: Outcome::Returns(None),
            target_line: 9,
            target_text: "hit();".into(),
            target_action: Action::Calls("hit".into()),
            path_condition: vec![],
            ..base()
        };
        check_class(
            &req,
            expect![[r#"
                package demo;

                import java.util.ArrayList;
                import java.util.Arrays;
                import java.util.HashMap;
                import java.util.List;
                import java.util.Map;
                import org.junit.jupiter.api.Test;
                import org.junit.jupiter.api.Timeout;

                class BankTest {
                    @Test
                    @Timeout(30)
                    void move_callsHit() {
                        // Reaches line 9: hit();
                        Bank.Account from = new Bank.Account("a", 5L);
                        Bank.Rule rule = (ignored1, ignored2) -> true;
                        List<String> log = new ArrayList<>(Arrays.asList("x", null));
                        List<Bank.Account> more = List.of(new Bank.Account("b", 1L));
                        Map<String, Long> caps = new HashMap<>(Map.of("k", 7L, "j", 8L));
                        Bank.move(from, from, rule, log, more, caps);
                    }
                }
            "#]],
        );
    }

    #[test]
    fn static_fields_are_restored_and_unknown_endings_not_asserted() {
        let req = TestRequest {
            outcome: Outcome::Undetermined("result of Helper.run".into()),
            statics: vec![
                crate::StaticAssignment {
                    class: "Calc".into(),
                    field: "limit".into(),
                    java_ty: "int".into(),
                    value: Int(99),
                },
                crate::StaticAssignment {
                    class: "Calc".into(),
                    field: "x".into(),
                    java_ty: "long".into(),
                    value: Int(3),
                },
            ],
            ..base()
        };
        check_method(
            &req,
            expect![[r#"
                @Test
                @Timeout(30)
                void abs_returns() {
                    // Reaches line 12: return -x;
                    // Path: x < 0
                    // After line 12 jreach cannot tell what happens (result of Helper.run):
                    // the test runs the line and asserts nothing.
                    int savedLimit = Calc.limit;
                    long savedX = Calc.x;
                    Calc.limit = 99;
                    Calc.x = 3L;
                    try {
                        try {
                            Calc.abs(Integer.MIN_VALUE);
                        } catch (Exception notModelled) {
                            // Thrown after the line ran: not what this test checks.
                        }
                    } finally {
                        Calc.limit = savedLimit;
                        Calc.x = savedX;
                    }
                }
            "#]],
        );
    }

    #[test]
    fn standard_input_is_set_for_the_call_and_put_back() {
        let req = TestRequest {
            outcome: Outcome::Undetermined("result of sc.nextInt".into()),
            statics: vec![crate::StaticAssignment::stdin(JavaValue::Str("3 4\n".into()))],
            ..base()
        };
        check_method(
            &req,
            expect![[r#"
                @Test
                @Timeout(30)
                void abs_returns() {
                    // Reaches line 12: return -x;
                    // Path: x < 0
                    // After line 12 jreach cannot tell what happens (result of sc.nextInt):
                    // the test runs the line and asserts nothing.
                    java.io.InputStream savedIn = System.in;
                    System.setIn(new java.io.ByteArrayInputStream("3 4\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                    try {
                        try {
                            Calc.abs(Integer.MIN_VALUE);
                        } catch (Exception notModelled) {
                            // Thrown after the line ran: not what this test checks.
                        }
                    } finally {
                        System.setIn(savedIn);
                    }
                }
            "#]],
        );
    }

    /// `new Account("x")`, frozen and renamed, then `withdraw(1)`, which throws.
    fn account_withdraw() -> TestRequest {
        TestRequest {
            classes: vec!["Account".into()],
            method: "withdraw".into(),
            is_static: false,
            params: vec![("amount".into(), "int".into())],
            args: vec![Int(1)],
            outcome: Outcome::Throws("IllegalStateException".into()),
            receiver_args: vec![("String".into(), Str("x".into()))],
            receiver_calls: vec![
                crate::JavaCall::new("freeze", vec![]),
                crate::JavaCall::new("rename", vec![("String".into(), Str("y".into())), ("char".into(), Int(65))]),
            ],
            ..base()
        }
    }

    #[test]
    fn receiver_calls_follow_the_constructor() {
        let req = account_withdraw();
        check_method(
            &req,
            expect![[r#"
                @Test
                @Timeout(30)
                void withdraw_returns() {
                    // Reaches line 12: return -x;
                    // Path: x < 0
                    Account obj = new Account("x");
                    obj.freeze();
                    obj.rename("y", 'A');
                    assertThrows(IllegalStateException.class, () -> obj.withdraw(1));
                }
            "#]],
        );
    }

    #[test]
    fn an_inner_class_is_made_on_an_object_of_its_enclosing_class() {
        let heap = JavaValue::new_with("Heap".into(), vec![("int".into(), Int(3))]);
        let free = TestRequest {
            classes: vec!["Heap".into(), "Node".into()],
            method: "free".into(),
            is_static: false,
            params: vec![("more".into(), "int".into())],
            args: vec![Int(1)],
            outcome: Outcome::Returns(Some(Int(0))),
            receiver_args: vec![("int".into(), Int(2))],
            outer: Some(heap),
            ..base()
        };
        let made = TestRequest {
            method: "Node".into(),
            is_constructor: true,
            params: vec![("key".into(), "int".into())],
            args: vec![Int(4)],
            outcome: Outcome::Returns(None),
            receiver_args: vec![],
            ..free.clone()
        };
        check_method(
            &free,
            expect![[r#"
                @Test
                @Timeout(30)
                void free_returns() {
                    // Reaches line 12: return -x;
                    // Path: x < 0
                    Heap.Node obj = new Heap(3).new Node(2);
                    assertEquals(0, obj.free(1));
                }
            "#]],
        );
        check_method(
            &made,
            expect![[r#"
                @Test
                @Timeout(30)
                void newNode_returns() {
                    // Reaches line 12: return -x;
                    // Path: x < 0
                    new Heap(3).new Node(4);
                }
            "#]],
        );
    }

    #[test]
    fn a_test_may_end_at_a_call_that_set_the_receiver_up() {
        let req = TestRequest { receiver_args: vec![], ..account_withdraw() };
        let ends_at_rename = req.ending_at_receiver_call(1).expect("a second call");
        check_method(
            &ends_at_rename,
            expect![[r#"
                @Test
                @Timeout(30)
                void rename_returns() throws Exception {
                    // Reaches line 12: return -x;
                    String arg1 = "y";
                    char arg2 = 'A';
                    Account obj = new Account();
                    obj.freeze();
                    assertThrows(IllegalStateException.class, () -> obj.rename(arg1, arg2));
                }
            "#]],
        );
        assert!(req.ending_at_receiver_call(2).is_none());
        assert!(TestRequest { is_static: true, ..req }.ending_at_receiver_call(0).is_none());
    }

    #[test]
    fn an_object_for_a_wider_parameter_type_is_passed_as_that_type() {
        // `append(CharSequence)` beside `append(StrBuilder)`: the object is passed as a
        // `CharSequence`, whether inline or as a local.
        let builder = || JavaValue::new_with("StrBuilder".into(), vec![]);
        let req = TestRequest {
            classes: vec!["StrBuilder".into()],
            method: "append".into(),
            is_static: false,
            params: vec![("seq".into(), "CharSequence".into())],
            args: vec![builder()],
            return_ty: "void".into(),
            outcome: Outcome::Returns(None),
            path_condition: vec![],
            ..base()
        };
        let text = render_method(&req, "t");
        assert!(text.contains("obj.append((CharSequence) new StrBuilder());"), "{text}");
        let two = TestRequest {
            params: vec![("seq".into(), "CharSequence".into()), ("start".into(), "int".into())],
            args: vec![builder(), Int(0)],
            ..req
        };
        let text = render_method(&two, "t");
        assert!(text.contains("CharSequence seq = new StrBuilder();"), "{text}");
    }

    #[test]
    fn objects_made_by_reflection() {
        let scanner = |id, pos| JavaValue::Object {
            class: "Tokens.Scanner".into(),
            id,
            fields: vec![("text".into(), Str("ab".into())), ("pos".into(), Int(pos)), ("strict".into(), Bool(false))],
            by_reflection: true,
        };
        let req = TestRequest {
            classes: vec!["Tokens".into()],
            method: "merge".into(),
            is_static: true,
            params: vec![("a".into(), "Scanner".into()), ("b".into(), "Scanner".into())],
            args: vec![scanner(1, 3), scanner(1, 3)],
            return_ty: "int".into(),
            outcome: Outcome::Returns(Some(Int(2))),
            ..base()
        };
        check_method(
            &req,
            expect![[r#"
                @Test
                @Timeout(30)
                void merge_returns() {
                    // Reaches line 12: return -x;
                    // Path: x < 0
                    // Tokens.Scanner has no constructor, factory or builder a test may call: made by reflection,
                    // its fields set directly (a state its own code may never produce).
                    Tokens.Scanner a = allocateByReflection(Tokens.Scanner.class);
                    setFieldByReflection(a, "text", "ab");
                    setFieldByReflection(a, "pos", 3);
                    assertEquals(2, Tokens.merge(a, a));
                }
            "#]],
        );
        assert!(render_class(&req).contains("private static void setFieldByReflection("));
    }

    #[test]
    fn junit4_class() {
        let req = TestRequest {
            method: "half".into(),
            params: vec![("d".into(), "double".into()), ("f".into(), "float".into())],
            args: vec![Double(f64::NAN), Float(0.5)],
            return_ty: "double".into(),
            outcome: Outcome::Returns(Some(Double(-0.0))),
            path_condition: vec!["d != d".into(), "f > 0.25f || f < -1".into()],
            junit: JUnit::V4,
            receiver_args: vec![],
            receiver_calls: vec![],
            imports: vec![],
            unmodelled_before_target: None,
            declares_checked: false,
            receiver_call_choices: vec![],
            receiver_factory: None,
            receiver_from: None,
            then_call: None,
            null_casts: Default::default(),
            named_classes: vec![],
            held_by: None,
            initializes_class: false,
            outer: None,
            also_runs: vec![],
            statics: vec![],
            receiver_body: None,
            receiver_fields: None,
            receiver_class: None,
            ..base()
        };
        check_class(
            &req,
            expect![[r#"
                package demo;

                import static org.junit.Assert.assertEquals;

                import org.junit.Test;

                public class CalcTest {
                    @Test(timeout = 30000L)
                    public void half_returns() {
                        // Reaches line 12: return -x;
                        // Path: d != d && (f > 0.25f || f < -1)
                        double d = Double.NaN;
                        float f = 0.5f;
                        assertEquals(-0.0, Calc.half(d, f), 0.0);
                    }
                }
            "#]],
        );
        let throws = TestRequest { outcome: Outcome::Throws("ArithmeticException".into()), ..req };
        check_method(
            &throws,
            expect![[r#"
                @Test(timeout = 30000L)
                public void half_returns() {
                    // Reaches line 12: return -x;
                    // Path: d != d && (f > 0.25f || f < -1)
                    double d = Double.NaN;
                    float f = 0.5f;
                    assertThrows(ArithmeticException.class, () -> Calc.half(d, f));
                }
            "#]],
        );
    }

    #[test]
    fn void_and_unknown_results_just_call() {
        let req = TestRequest { return_ty: "void".into(), outcome: Outcome::Returns(None), ..base() };
        check_method(
            &req,
            expect![[r#"
                @Test
                @Timeout(30)
                void abs_returns() {
                    // Reaches line 12: return -x;
                    // Path: x < 0
                    Calc.abs(Integer.MIN_VALUE);
                }
            "#]],
        );
        let parts = method_parts(&req, JUnit::V5);
        assert!(parts.static_imports.is_empty());
    }

    fn assertion_of(ret: &str, v: JavaValue, junit: JUnit) -> String {
        let req = TestRequest { return_ty: ret.into(), outcome: Outcome::Returns(Some(v)), junit, ..base() };
        method_parts(&req, junit).lines.last().unwrap().clone()
    }

    #[test]
    fn assertions_resolve_their_overloads() {
        use JUnit::*;
        let call = "Calc.abs(Integer.MIN_VALUE)";
        let a = |ret: &str, v: JavaValue, j: JUnit| assertion_of(ret, v, j).replace(call, "f()");
        assert_eq!(a("byte", Byte(3), V5), "assertEquals((byte) 3, f());");
        assert_eq!(a("short", Int(300), V4), "assertEquals((short) 300, f());");
        assert_eq!(a("char", Char(0xffff), V5), r"assertEquals('\uffff', f());");
        assert_eq!(a("long", Long(5), V4), "assertEquals(5L, f());");
        assert_eq!(a("float", Float(f32::NAN), V4), "assertEquals(Float.NaN, f(), 0.0f);");
        assert_eq!(a("float", Float(1.5), V5), "assertEquals(1.5f, f());");
        assert_eq!(a("double", Double(2.0), V5), "assertEquals(2.0, f());");
        assert_eq!(a("boolean", Bool(false), V4), "assertFalse(f());");
        assert_eq!(a("Boolean", Bool(true), V5), "assertTrue(f());");
        assert_eq!(a("Integer", Int(5), V4), "assertEquals(Integer.valueOf(5), f());");
        assert_eq!(a("Object", Char(b'x' as u16), V5), "assertEquals(Character.valueOf('x'), f());");
        assert_eq!(a("Object", Bool(true), V5), "assertEquals(Boolean.TRUE, f());");
        assert_eq!(a("Double", Double(0.5), V4), "assertEquals(Double.valueOf(0.5), f());");
        assert_eq!(a("String", Str("BA".into()), V5), r#"assertEquals("BA", f());"#);
        assert_eq!(a("String", Null, V4), "assertNull(f());");
        assert_eq!(a("void", Int(1), V5), "f();");
    }

    #[test]
    fn method_names_are_identifiers() {
        assert_eq!(test_method_name(&base()), "abs_returns");
        let ctor = TestRequest {
            classes: vec!["Outer".into(), "Inner".into()],
            method: "Inner".into(),
            is_constructor: true,
            ..base()
        };
        assert_eq!(test_method_name(&ctor), "newInner_returns");
        assert_eq!(identifier("a-b c"), "a_b_c");
        assert_eq!(identifier("9lives"), "_9lives");
        assert_eq!(test_class_name(&ctor), "OuterTest");
    }

    #[test]
    fn long_paths_wrap_and_align() {
        let conds: Vec<String> = (0..12).map(|i| format!("someLongVariableName{i} != {i}")).collect();
        let req = TestRequest { path_condition: conds, ..base() };
        let lines = comment_lines(&req);
        expect![[r#"
            // Reaches line 12: return -x;
            // Path: someLongVariableName0 != 0 && someLongVariableName1 != 1
            //    && someLongVariableName2 != 2 && someLongVariableName3 != 3
            //    && someLongVariableName4 != 4 && someLongVariableName5 != 5
            //    && someLongVariableName6 != 6 && someLongVariableName7 != 7
            //    && someLongVariableName8 != 8 && someLongVariableName9 != 9
            //    && someLongVariableName10 != 10 && someLongVariableName11 != 11"#]]
        .assert_eq(&lines.join("\n"));
        assert!(lines.iter().all(|l| l.len() <= COMMENT_WIDTH));
    }

    #[test]
    fn comments_cannot_break_out() {
        assert_eq!(sanitize_comment("a */ b"), "a * / b");
        assert_eq!(sanitize_comment("a **/ b"), "a ** / b");
        assert_eq!(sanitize_comment("a\nb\r\nc"), "a b c");
        // `\u000a` would end the comment; `\\u000a` is not an escape.
        assert_eq!(sanitize_comment(r"c == '\u000a'"), r"c == '\\u000a'");
        assert_eq!(sanitize_comment(r"s == '\\u000a'"), r"s == '\\u000a'");
        assert_eq!(sanitize_comment(r"s == '\\\u000a'"), r"s == '\\\\u000a'");
        assert_eq!(sanitize_comment(r"c == '\n'"), r"c == '\n'");
        assert_eq!(truncate(&"x".repeat(200), 10), "xxxxxxx...");
        assert_eq!(truncate(r"abcdef\\\\\\\\\\", 10), "abcdef...");
    }

    #[test]
    fn conditions_with_lower_precedence_get_parentheses() {
        assert!(needs_parens("a || b"));
        assert!(!needs_parens("(a || b)"));
        assert!(needs_parens("(a) || (b)"));
        assert!(needs_parens("x ? a : b"));
        assert!(!needs_parens("a && b"));
    }

    #[test]
    fn locals_avoid_keywords_and_clashes() {
        let req = TestRequest {
            params: vec![
                ("".into(), "int".into()),
                ("arg0".into(), "int".into()),
                ("x".into(), "int...".into()),
                ("y".into(), "java.util.List<String>".into()),
                ("z".into(), "int".into()),
            ],
            args: vec![Int(1), Int(2), Null, Null, Null],
            ..base()
        };
        let parts = method_parts(&req, JUnit::V5);
        expect![[r#"
            // Reaches line 12: return -x;
            // Path: x < 0
            int arg0 = 1;
            int arg02 = 2;
            int[] x = null;
            assertEquals(Integer.MIN_VALUE, Calc.abs(arg0, arg02, x, null, null));"#]]
        .assert_eq(&parts.lines.join("\n"));
    }
}
