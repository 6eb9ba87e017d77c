//! Which overload a test's call picks when an argument is `null`. `new StrSubstitutor(null,
//! "${", "}", '$', ":-")` fits both `StrSubstitutor(Map<String, V>, ...)` and
//! `StrSubstitutor(StrLookup<?>, ...)`, and javac rejects it as ambiguous. Where the class of the
//! call under test (or of the receiver's constructor or factory) declares another method of the
//! same name and arity, each reference parameter gets the type its `null` is cast to, raw and as
//! a test names it (`(Map) null`, `java.util.Map` imported): [`synth::NullCasts`].

use jreach_syntax::{MethodInfo, SourceFile};
use jreach_synth::{NullCasts, TestRequest};

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
    req.imports = imports;
    req.null_casts = casts;
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
