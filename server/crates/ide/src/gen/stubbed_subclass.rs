//! An anonymous subclass of an abstract class that only a search on the JVM uses as the
//! receiver, when the model cannot write one (its abstract methods take or return types the
//! model does not know, the class is generic, or it inherits abstract methods from a superclass)
//! and no class of the package extends it: every abstract method the subclass must implement
//! returns a default value (`null`, `0`, `false`), as a developer stubs them.
//!
//! ```java
//! TypeAdapter obj = new TypeAdapter() {
//!     @Override
//!     public void write(JsonWriter out, Object value) {
//!     }
//!
//!     @Override
//!     public Object read(JsonReader in) {
//!         return null;
//!     }
//! };
//! ```
//!
//! The subclass is raw (`new TypeAdapter()`, not `new TypeAdapter<Object>()`), so each method is
//! written with its erasure: a type variable as its bound (`Object` for none), `List<T>` as
//! `List`. Obligations are gathered up the chain of superclasses the sources jreach reads
//! declare; a superclass or interface it cannot read (of the JDK or another library) may hold
//! more, so none is written then. The model never sees this subclass: the tests a search finds
//! with it are verified on the JVM like any other.

use std::collections::HashMap;

use jreach_ir::lower::FileContext;
use jreach_syntax::tree::{
    declaration_named, enclosing_classes, has_modifier, named_children, supertypes, type_parameters,
};
use jreach_syntax::{erase, split_type_args, text_of, MethodInfo, Node, Param};
use jreach_synth::{ImportedSource, JavaValue, StubMethodValue};

use super::receiver_from::imported_by_simple_name;

/// What a test writes to make the stubbed receiver.
#[derive(Debug)]
pub(crate) struct StubbedSubclass {
    /// The parameters of the abstract class's constructor the test calls (fewest first).
    pub(crate) ctor_params: Vec<Param>,
    /// The abstract methods the anonymous class implements, each returning a default value.
    pub(crate) body: Vec<StubMethodValue>,
    /// Classes the methods' signatures name that the test must import.
    pub(crate) imports: Vec<String>,
}

/// Interfaces without methods, which add nothing for a subclass to implement.
const MARKER_INTERFACES: &[&str] = &["Serializable", "java.io.Serializable", "Cloneable", "java.lang.Cloneable"];

/// Primitive types and `void`, which a test names without an import (as it names
/// `java.lang`'s classes, [`super::instanceof::JAVA_LANG`]).
const PRIMITIVES: &[&str] = &["void", "boolean", "byte", "short", "char", "int", "long", "float", "double"];

/// For an instance method `m` of an abstract class: the stubbed anonymous subclass a search may
/// make its receiver as, when every abstract method it must implement can be written in a test
/// of `m`'s package. `imported` are the sources of other packages `whole` appends, by qualified
/// name.
pub(crate) fn stubbed_subclass(
    whole: &FileContext<'_>,
    m: &MethodInfo,
    imported: &[ImportedSource],
) -> Option<StubbedSubclass> {
    let file = whole.file();
    let src = file.text.as_str();
    let foreign_from = whole.foreign_from().unwrap_or(src.len());
    let mut decls: Vec<Node<'_>> = Vec::new();
    let mut stack = vec![file.tree.root_node()];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "class_declaration" | "interface_declaration") {
            decls.push(n);
        }
        stack.extend(named_children(n));
    }
    decls.sort_by_key(|d| d.start_byte());
    let name_of = |d: Node<'_>| d.child_by_field_name("name").map(|n| text_of(n, src).to_string());
    let own = *decls.iter().find(|d| {
        d.kind() == "class_declaration" && d.start_byte() < foreign_from && {
            let mut path = enclosing_classes(**d, src);
            path.extend(name_of(**d));
            path == m.classes
        }
    })?;
    let by_name = |name: &str, not: Node<'_>| -> Option<Node<'_>> {
        let simple = name.split('<').next().unwrap_or(name).trim();
        let simple = simple.rsplit('.').next().unwrap_or(simple);
        decls.iter().copied().find(|d| d.id() != not.id() && name_of(*d).as_deref() == Some(simple))
    };
    // The class and every type above it, each with what its type variables stand for in the
    // subclass: their erasures where the subclass is raw (the class is generic), else the type
    // arguments the chain gives them (`extends Base<String>`), erased.
    let raw_subclass = own.child_by_field_name("type_parameters").is_some();
    let mut chain: Vec<(Node<'_>, HashMap<String, String>)> = Vec::new();
    let own_vars = type_variables(own, src).into_iter().collect();
    let mut todo = vec![(own, own_vars)];
    while let Some((d, subst)) = todo.pop() {
        if chain.iter().any(|(c, _)| c.id() == d.id()) {
            continue;
        }
        if chain.len() > 16 {
            return None;
        }
        for sup in supertypes(d, src) {
            if MARKER_INTERFACES.contains(&sup.split('<').next().unwrap_or(&sup).trim()) {
                continue;
            }
            // A type jreach cannot read may declare more to implement.
            let decl = by_name(&sup, d)?;
            let vars = type_variables(decl, src);
            let args = type_args(&sup);
            let sup_subst: HashMap<String, String> = match args.len() == vars.len() && !raw_subclass {
                true => vars
                    .iter()
                    .zip(&args)
                    .map(|((v, _), a)| Some((v.clone(), erasure(a, &subst)?)))
                    .collect::<Option<_>>()?,
                false => vars.into_iter().collect(),
            };
            todo.push((decl, sup_subst));
        }
        chain.push((d, subst));
    }
    // What the chain implements, by name and number of parameters.
    let mut implemented: Vec<(String, usize)> = Vec::new();
    for (d, _) in &chain {
        for method in methods(*d) {
            let interface = d.kind() == "interface_declaration";
            let has_body = method.child_by_field_name("body").is_some();
            if has_body && (!interface || has_modifier(method, src, "default")) {
                implemented.push((name_of(method)?, arity(method)));
            }
        }
    }
    let mut body = Vec::new();
    let mut imports = Vec::new();
    let mut done: Vec<(String, usize)> = Vec::new();
    for (d, vars) in &chain {
        let interface = d.kind() == "interface_declaration";
        for method in methods(*d) {
            if method.child_by_field_name("body").is_some()
                || has_modifier(method, src, "static")
                || has_modifier(method, src, "private")
                || (!interface && !has_modifier(method, src, "abstract"))
            {
                continue;
            }
            let key = (name_of(method)?, arity(method));
            if implemented.contains(&key) || done.contains(&key) {
                continue;
            }
            // Generic methods and package-private ones of another package: no subclass in the
            // test's package can implement them.
            if method.child_by_field_name("type_parameters").is_some() {
                return None;
            }
            let package_private =
                !interface && !has_modifier(method, src, "public") && !has_modifier(method, src, "protected");
            if package_private && d.start_byte() >= foreign_from {
                return None;
            }
            let mut resolve = |ty: &str| -> Option<String> {
                let erased = erasure(ty, vars)?;
                importable(whole, &erased, foreign_from, imported, &mut imports)?;
                Some(erased)
            };
            let ret_java = resolve(text_of(method.child_by_field_name("type")?, src))?;
            let mut params = Vec::new();
            for p in method.child_by_field_name("parameters").map(named_children).unwrap_or_default() {
                if p.kind() != "formal_parameter" || p.child_by_field_name("dimensions").is_some() {
                    return None;
                }
                let ty = resolve(text_of(p.child_by_field_name("type")?, src))?;
                params.push((ty, text_of(p.child_by_field_name("name")?, src).to_string()));
            }
            let returns = default_value(&ret_java);
            body.push(StubMethodValue { name: key.0.clone(), params, ret_java, returns });
            done.push(key);
        }
    }
    let ctor_params = whole
        .methods()
        .iter()
        .filter(|c| c.is_constructor && c.classes == m.classes && !c.has_error && !c.hidden_from_tests())
        .map(|c| c.params.clone())
        .filter(|p| super::start::search_writes(whole, p))
        .min_by_key(Vec::len);
    let declares_ctor = whole.methods().iter().any(|c| c.is_constructor && c.classes == m.classes);
    let ctor_params = match (ctor_params, declares_ctor) {
        (Some(p), _) => p,
        // Only the implicit constructor.
        (None, false) => vec![],
        (None, true) => return None,
    };
    Some(StubbedSubclass { ctor_params, body, imports })
}

/// The methods a class or interface declaration declares in its body.
fn methods(d: Node<'_>) -> Vec<Node<'_>> {
    let body = d.child_by_field_name("body").map(named_children).unwrap_or_default();
    body.into_iter().filter(|n| n.kind() == "method_declaration").collect()
}

fn arity(method: Node<'_>) -> usize {
    let params = method.child_by_field_name("parameters").map(named_children).unwrap_or_default();
    params.iter().filter(|p| matches!(p.kind(), "formal_parameter" | "spread_parameter")).count()
}

/// The type variables `d` declares, in order, each with its erasure: its first bound, raw
/// (`Object` for none).
fn type_variables(d: Node<'_>, src: &str) -> Vec<(String, String)> {
    let erased = |bound: Option<String>| bound.map_or_else(|| "Object".to_string(), |b| erase(&b));
    type_parameters(d, src).into_iter().map(|(name, bound)| (name, erased(bound))).collect()
}

/// The type arguments of `ty` as written, split at the top level: `Base<K, List<V>>` →
/// `["K", "List<V>"]`; none for a raw type.
fn type_args(ty: &str) -> Vec<String> {
    let Some(open) = ty.find('<') else { return vec![] };
    let Some(mut rest) = ty[open + 1..].trim_end().strip_suffix('>') else { return vec![] };
    let mut out = Vec::new();
    while let Some((arg, more)) = split_type_args(rest) {
        out.push(arg.to_string());
        rest = more;
    }
    out.push(rest.trim().to_string());
    out
}

/// The erasure of the type `ty` as written where `vars` are in scope: raw, a type variable as
/// its bound's erasure. `None` for what this does not read (annotations, varargs).
fn erasure(ty: &str, vars: &HashMap<String, String>) -> Option<String> {
    let ty = ty.trim().trim_start_matches("final ").trim();
    if ty.contains('@') || ty.contains("...") {
        return None;
    }
    let raw = erase(ty);
    let base = raw.trim_end_matches("[]");
    let dims = &raw[base.len()..];
    Some(match vars.get(base) {
        Some(bound) => format!("{bound}{dims}"),
        None => raw.clone(),
    })
}

/// Whether a test in the package of `whole`'s file can name the erased type `ty`, adding to
/// `imports` what it must import: a `java.lang` type or primitive, a class of the package, one
/// the file imports, or one of the imported sources.
fn importable(
    whole: &FileContext<'_>,
    ty: &str,
    foreign_from: usize,
    imported: &[ImportedSource],
    imports: &mut Vec<String>,
) -> Option<()> {
    let base = ty.trim_end_matches("[]").trim();
    let outer = base.split('.').next().unwrap_or(base);
    if PRIMITIVES.contains(&outer) || super::instanceof::JAVA_LANG.contains(&outer) || base.starts_with("java.") {
        return Some(());
    }
    // A class the file imports (its own text starts the whole, imports kept).
    let qualified = jreach_syntax::qualified_nested(whole.file(), outer);
    if qualified.starts_with(char::is_lowercase) {
        imported_by_simple_name(&qualified, imports);
        return Some(());
    }
    if let Some(s) = imported.iter().find(|s| s.qualified.rsplit('.').next() == Some(outer)) {
        if !imports.contains(&s.qualified) {
            imports.push(s.qualified.clone());
        }
        return Some(());
    }
    // A class of the package (declared before the imported sources).
    let (root, src) = (whole.file().tree.root_node(), whole.file().text.as_str());
    let declared = ["class_declaration", "interface_declaration", "enum_declaration", "record_declaration"]
        .iter()
        .filter_map(|kind| declaration_named(root, src, kind, outer))
        .any(|d| d.start_byte() < foreign_from);
    declared.then_some(())
}

/// What a stub returns for the erased type `ty`: `None` for `void`.
fn default_value(ty: &str) -> Option<JavaValue> {
    Some(match ty {
        "void" => return None,
        "boolean" => JavaValue::Bool(false),
        "long" => JavaValue::Long(0),
        "float" => JavaValue::Float(0.0),
        "double" => JavaValue::Double(0.0),
        "char" => JavaValue::Char(u16::from(b'a')),
        "int" | "short" | "byte" => JavaValue::Int(0),
        _ => JavaValue::Null,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jreach_syntax::SourceFile;

    fn stubbed(text: &str, class: &str, imported: &[ImportedSource]) -> Option<StubbedSubclass> {
        let file = SourceFile::parse(text);
        let ctx = FileContext::new(&file, None, None);
        let m = ctx.methods().iter().find(|m| m.classes.last().is_some_and(|c| c == class) && !m.is_constructor)?;
        stubbed_subclass(&ctx, &m.clone(), imported)
    }

    #[test]
    fn a_generic_abstract_class_is_stubbed_raw_with_its_methods_erased() {
        let text = "package p;\nimport java.util.List;\nimport q.Out;\n\
                    public abstract class Adapter<T, N extends Number> {\n\
                    \x20 public abstract void write(Out out, T value);\n\
                    \x20 abstract N size(List<T> items);\n\
                    \x20 protected abstract boolean empty();\n\
                    \x20 public String twice(T v) { return \"\" + v + v; }\n}\n";
        let s = stubbed(text, "Adapter", &[]).expect("a stub");
        let sigs: Vec<String> = s
            .body
            .iter()
            .map(|m| {
                let ps: Vec<String> = m.params.iter().map(|(t, n)| format!("{t} {n}")).collect();
                format!("{} {}({}) -> {:?}", m.ret_java, m.name, ps.join(", "), m.returns)
            })
            .collect();
        expect_test::expect![[r#"
            [
                "void write(Out out, Object value) -> None",
                "Number size(List items) -> Some(Null)",
                "boolean empty() -> Some(Bool(false))",
            ]
        "#]]
        .assert_debug_eq(&sigs);
        assert_eq!(s.imports, ["q.Out", "java.util.List"]);
        assert!(s.ctor_params.is_empty());
    }

    #[test]
    fn what_an_unread_supertype_may_hold_or_another_package_hides_is_no_stub() {
        // `Base` is not in the sources jreach reads: it may declare more abstract methods.
        let unread = "package p;\npublic abstract class A extends Base {\n  public abstract int f();\n  public int g() { return 1; }\n}\n";
        assert!(stubbed(unread, "A", &[]).is_none());
        // An interface of the JDK (not a marker) likewise.
        let jdk = "package p;\npublic abstract class A implements Comparable<A> {\n  public int g() { return 1; }\n}\n";
        assert!(stubbed(jdk, "A", &[]).is_none());
        let marker = "package p;\npublic abstract class A implements java.io.Serializable {\n  public int g() { return 1; }\n}\n";
        assert!(stubbed(marker, "A", &[]).is_some_and(|s| s.body.is_empty()));
        // A type the file neither declares nor imports.
        let unknown =
            "package p;\npublic abstract class A {\n  public abstract Hidden f();\n  public int g() { return 1; }\n}\n";
        assert!(stubbed(unknown, "A", &[]).is_none());
        // A generic method.
        let generic =
            "package p;\npublic abstract class A {\n  public abstract <T> T f();\n  public int g() { return 1; }\n}\n";
        assert!(stubbed(generic, "A", &[]).is_none());
    }

    #[test]
    fn obligations_come_from_the_superclasses_read_less_what_the_chain_implements() {
        // `Mid` implements `read`; `Base` (in the package sources) still wants `write`.
        let text = "package p;\npublic abstract class Mid extends Base<String> {\n\
                    \x20 public Object read(int k) { return null; }\n\
                    \x20 abstract long[] values(String s);\n\
                    \x20 public int g() { return 1; }\n}\n\
                    abstract class Base<T> {\n  public abstract Object read(int k);\n  public abstract void write(T t);\n}\n";
        let s = stubbed(text, "Mid", &[]).expect("a stub");
        let names: Vec<(&str, &str)> = s.body.iter().map(|m| (m.name.as_str(), m.ret_java.as_str())).collect();
        assert_eq!(names, [("values", "long[]"), ("write", "void")]);
        // `Mid` is not generic: `write` takes the `String` its chain gives `T`.
        assert_eq!(s.body[1].params, [("String".to_string(), "t".to_string())]);
        // A generic class is subclassed raw: every type above it erased.
        let raw = text.replace("class Mid extends", "class Mid<X> extends");
        let s = stubbed(&raw, "Mid", &[]).expect("a stub");
        assert_eq!(s.body[1].params, [("Object".to_string(), "t".to_string())]);
    }
}
