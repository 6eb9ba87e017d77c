//! Which overload a test's call picks when an argument is `null`. `new StrSubstitutor(null,
//! "${", "}", '$', ":-")` fits both `StrSubstitutor(Map<String, V>, ...)` and
//! `StrSubstitutor(StrLookup<?>, ...)`, and javac rejects it as ambiguous. Where the class of the
//! call under test (or of the receiver's constructor or factory) declares another method of the
//! same name and arity, each reference parameter gets the type its `null` is cast to, raw and as
//! a test names it (`(Map) null`, `java.util.Map` imported): [`synth::NullCasts`].

use jreach_ir::lower::FileContext;
use jreach_syntax::{MethodInfo, SourceFile};
use jreach_synth::{JavaValue, NullCasts, TestRequest};

use super::receiver_from::{imported_by_simple_name, type_variables};

/// Sets `req.null_casts` for the call to `m` and for the call that makes its receiver, from the
/// parameter types the request writes (`req.params`, `req.receiver_args`).
pub(crate) fn cast_nulls(file: &SourceFile, m: &MethodInfo, req: &mut TestRequest) {
    let all = MethodInfo::all(file);
    let overloaded = |classes: &[String], name: Option<&str>, arity: usize| {
        let same = all.iter().filter(|k| {
            k.classes == classes
                && k.params.len() == arity
                && match name {
                    Some(name) => !k.is_constructor && k.name == name,
                    None => k.is_constructor,
                }
        });
        same.count() >= 2
    };
    let node = m.node(file);
    let vars = type_variables(file, node);
    let mut imports = std::mem::take(&mut req.imports);
    let mut casts = NullCasts::default();
    let name = (!m.is_constructor).then_some(m.name.as_str());
    if !req.initializes_class && overloaded(&m.classes, name, req.params.len()) {
        casts.args = req.params.iter().map(|(_, ty)| cast_type(file, ty, &vars, &mut imports)).collect();
    }
    // The receiver: made by the constructor of `m`'s class, or by a static method of it.
    let made_by_constructor = req.receiver_factory.is_none()
        && req.receiver_class.is_none()
        && req.receiver_from.is_none()
        && req.receiver_fields.is_none()
        && req.held_by.is_none();
    let factory = match (&req.receiver_factory, &req.held_by) {
        (Some(f), _) => f.rsplit('.').next().map(str::to_string),
        (None, Some(h)) if h.returned_by.is_some() => Some(h.member.clone()),
        _ => None,
    };
    let receiver_overloaded = !req.receiver_args.is_empty()
        && ((made_by_constructor && !m.is_static && overloaded(&m.classes, None, req.receiver_args.len()))
            || factory.as_deref().is_some_and(|f| {
                all.iter()
                    .filter(|k| !k.is_constructor && k.name == f && k.params.len() == req.receiver_args.len())
                    .count()
                    >= 2
            }));
    if receiver_overloaded {
        casts.receiver_args =
            req.receiver_args.iter().map(|(ty, _)| cast_type(file, ty, &vars, &mut imports)).collect();
    }
    cast_constructors(file, &all, req, &mut imports);
    req.imports = imports;
    req.null_casts = casts;
}

/// `new C(args)` for constructor `ctor`, whose arguments are cast when its class has another
/// constructor of as many parameters (see [`cast_args`]).
pub(crate) fn constructed(
    ctx: &FileContext<'_>,
    class: String,
    ctor: &MethodInfo,
    args: Vec<(String, JavaValue)>,
    imports: &mut Vec<String>,
) -> JavaValue {
    let same: Vec<&MethodInfo> = ctx
        .methods()
        .iter()
        .filter(|c| {
            c.is_constructor && c.classes == ctor.classes && c.package == ctor.package && c.params.len() == args.len()
        })
        .collect();
    let mut v = JavaValue::new_with(class, args);
    if same.len() >= 2 {
        cast_args(ctx.file(), &same, &mut v, imports);
    }
    v
}

/// Casts the arguments of `v`, an object made by a constructor, to the raw types a test names,
/// `same` being its class's constructors of as many parameters (two or more: a `null` or a
/// search's switch would leave the call ambiguous, `new StrSubstitutor((StrLookup) null, "", "",
/// 'p', "")`); left as they are when one is a type variable, which a test cannot name.
fn cast_args(file: &SourceFile, same: &[&MethodInfo], v: &mut JavaValue, imports: &mut Vec<String>) {
    let JavaValue::Constructed { args, cast_args, .. } = v else { return };
    let vars: Vec<String> = same.iter().flat_map(|c| type_variables(file, c.node(file))).collect();
    let mut needs = Vec::new();
    let mut casts = Vec::new();
    for (ty, _) in args.iter() {
        let ty = ty.trim().trim_start_matches("final ").trim();
        let primitive = ty.starts_with(char::is_lowercase) && !ty.contains(['.', '[']);
        match primitive {
            true => casts.push(None),
            false => match cast_type(file, ty, &vars, &mut needs) {
                Some(raw) => casts.push(Some(raw)),
                None => return,
            },
        }
    }
    for ((ty, _), raw) in args.iter_mut().zip(casts) {
        if let Some(raw) = raw {
            *ty = raw;
        }
    }
    *cast_args = true;
    super::add_imports(imports, needs);
}

/// Every object `req` makes by a constructor of a class of `file` (an argument, what makes one, an
/// item of a list or an array), its arguments cast when the class has another constructor of as
/// many parameters ([`cast_args`]).
fn cast_constructors(file: &SourceFile, all: &[MethodInfo], req: &mut TestRequest, imports: &mut Vec<String>) {
    fn visit(v: &mut JavaValue, f: &mut dyn FnMut(&mut JavaValue)) {
        f(v);
        match v {
            JavaValue::Constructed { args, .. } => args.iter_mut().for_each(|(_, a)| visit(a, f)),
            JavaValue::Choice { options, .. } => options.iter_mut().for_each(|o| visit(o, f)),
            JavaValue::Array { items, .. } | JavaValue::List { items, .. } => {
                items.iter_mut().for_each(|i| visit(i, f))
            }
            _ => {}
        }
    }
    let mut cast = |v: &mut JavaValue| {
        let JavaValue::Constructed { class, args, factory: None, builder, cast_args: false, .. } = v else { return };
        let made = builder.as_ref().map_or(class.as_str(), |(b, _)| b.as_str());
        let same: Vec<&MethodInfo> = all
            .iter()
            .filter(|c| c.is_constructor && c.params.len() == args.len() && c.classes.join(".") == made)
            .collect();
        if same.len() >= 2 {
            cast_args(file, &same, v, imports);
        }
    };
    req.values_mut().for_each(|v| visit(v, &mut cast));
}

/// `ty` raw, as a test names it, for a cast of `null`: `Map<String, V>` → `Map` (and
/// `java.util.Map` imported), `String...` → `String[]`; `None` for a primitive or a type
/// variable, which a `null` cannot be or a test cannot name.
fn cast_type(file: &SourceFile, ty: &str, vars: &[String], imports: &mut Vec<String>) -> Option<String> {
    let ty = ty.trim().trim_start_matches("final ").trim();
    let (ty, varargs) = match ty.strip_suffix("...") {
        Some(base) => (base.trim_end(), "[]"),
        None => (ty, ""),
    };
    let raw = jreach_syntax::erase(ty);
    let base = raw.trim_end_matches(['[', ']']);
    let dims = format!("{}{varargs}", &raw[base.len()..]);
    if base.is_empty() || vars.iter().any(|v| v == base) || base.contains('?') {
        return None;
    }
    if base.starts_with(char::is_lowercase) && !base.contains('.') {
        // A primitive: only its array can be null.
        return (!dims.is_empty()).then(|| format!("{base}{dims}"));
    }
    let qualified = jreach_syntax::qualified_nested(file, base);
    Some(format!("{}{dims}", imported_by_simple_name(&qualified, imports)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jreach_synth::JUnit;

    const SOURCE: &str = r#"package p;
import java.util.Map;
import java.util.Properties;
public class Sub<T> {
    public Sub(Map<String, T> map, String prefix) {}
    public Sub(Lookup<?> lookup, String prefix) {}
    public Sub(String prefix) {}
    public static String replace(Object source, Map<String, T> map) { return null; }
    public static String replace(Object source, Properties props) { return null; }
    public static <V> String single(V value, String... rest) { return null; }
    public void set(Lookup<?> lookup) {
        int x = 1;
    }
}
interface Lookup<V> {}
"#;

    fn method(file: &SourceFile, name: &str, arity: usize) -> MethodInfo {
        MethodInfo::all(file).into_iter().find(|m| m.name == name && m.params.len() == arity).expect("method")
    }

    fn request(m: &MethodInfo) -> TestRequest {
        let file = SourceFile::parse(SOURCE);
        let mut req = jreach_synth::TestRequest {
            params: m.params.iter().map(|p| (p.name.clone(), p.ty.clone())).collect(),
            ..super::super::class_init::request(&file, m.classes.clone(), 1, JUnit::V5)
        };
        req.method = m.name.clone();
        req.initializes_class = false;
        req.is_static = m.is_static;
        req
    }

    #[test]
    fn nulls_for_an_overloaded_call_are_cast_to_the_raw_parameter_type() {
        let file = SourceFile::parse(SOURCE);
        let m = method(&file, "replace", 2);
        let mut req = request(&m);
        cast_nulls(&file, &m, &mut req);
        assert_eq!(req.null_casts.args, vec![Some("Object".to_string()), Some("Map".to_string())]);
        assert!(req.imports.contains(&"java.util.Map".to_string()), "{:?}", req.imports);
        // No other method of that name and arity: nothing to cast.
        let m = method(&file, "single", 2);
        let mut req = request(&m);
        cast_nulls(&file, &m, &mut req);
        assert!(req.null_casts.args.is_empty(), "{:?}", req.null_casts);
    }

    #[test]
    fn the_receivers_constructor_arguments_are_cast_when_it_is_overloaded() {
        let file = SourceFile::parse(SOURCE);
        let m = method(&file, "set", 1);
        let mut req = request(&m);
        req.receiver_args = vec![
            ("Map<String, T>".into(), jreach_synth::JavaValue::Null),
            ("String".into(), jreach_synth::JavaValue::Null),
        ];
        cast_nulls(&file, &m, &mut req);
        assert_eq!(req.null_casts.receiver_args, vec![Some("Map".to_string()), Some("String".to_string())]);
        // `set` itself has no overload.
        assert!(req.null_casts.args.is_empty());
    }

    #[test]
    fn an_object_an_argument_is_made_from_has_its_constructors_arguments_cast_when_it_is_overloaded() {
        // The argument is `new Sub(null, "a")`'s; javac could not choose between `Sub(Map, String)`
        // and `Sub(Lookup, String)`. `new Sub("a")` has no overload of its arity.
        use jreach_synth::JavaValue::{Null, Str};
        let file = SourceFile::parse(SOURCE);
        let m = method(&file, "set", 1);
        let mut req = request(&m);
        let sub = |args: Vec<(&str, JavaValue)>| JavaValue::Constructed {
            class: "Sub".into(),
            args: args.into_iter().map(|(t, v)| (t.to_string(), v)).collect(),
            calls: vec![],
            choices: vec![],
            body: None,
            factory: None,
            builder: Some(("Sub".into(), "lookup".into())),
            cast_args: false,
        };
        req.args = vec![JavaValue::Choice {
            slot: None,
            options: vec![
                sub(vec![("Map<String, T>", Null), ("String", Str("a".into()))]),
                sub(vec![("String", Null)]),
            ],
        }];
        cast_nulls(&file, &m, &mut req);
        let JavaValue::Choice { options, .. } = &req.args[0] else { panic!("{:?}", req.args) };
        let written: Vec<String> = options.iter().map(jreach_synth::literal).collect();
        assert_eq!(written, ["new Sub((Map) null, \"a\").lookup()", "new Sub(null).lookup()"]);
    }

    #[test]
    fn cast_types_are_raw_and_leave_type_variables_and_primitives_alone() {
        let file = SourceFile::parse(SOURCE);
        let vars = vec!["T".to_string(), "V".to_string()];
        let mut imports = vec![];
        let cast = |ty: &str, imports: &mut Vec<String>| cast_type(&file, ty, &vars, imports);
        assert_eq!(cast("Map<String, List<T>>[]", &mut imports).as_deref(), Some("Map[]"));
        assert_eq!(cast("String...", &mut imports).as_deref(), Some("String[]"));
        assert_eq!(cast("final Lookup<?>", &mut imports).as_deref(), Some("Lookup"));
        assert_eq!(cast("int[]", &mut imports).as_deref(), Some("int[]"));
        assert_eq!(cast("int", &mut imports), None);
        assert_eq!(cast("T", &mut imports), None);
        assert_eq!(imports, vec!["java.util.Map".to_string()]);
    }
}
