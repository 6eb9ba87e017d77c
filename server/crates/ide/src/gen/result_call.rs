//! A statement in a method of an anonymous class that the code creates and hands back: a
//! factory's `return new TypeAdapter<T>() { ... read(JsonReader in) { ... } }`, an iterator, a
//! comparator. Calling the method that creates the object does not run the statement; a test
//! runs it by calling the anonymous class's method on what that method (or a method of the
//! file leading to it) returns, declared as the type it returns: `TypeAdapter result =
//! FACTORY.create(gson, type); result.read(new JsonReader(new StringReader("a")));`. Only a
//! search on the JVM uses such a call: what the object holds is not in the model, and every test
//! it finds is verified on the JVM as usual.

use jreach_ir::lower::FileContext;
use jreach_syntax::tree::named_children;
use jreach_syntax::{text_of, Enclosure, MethodInfo, Node, SourceFile, Target};
use jreach_synth::{jdk_choices, JavaValue, ThenCall};

use super::receiver::is_static_nested;
use super::start::{search_value, searched_args};

/// The method of an anonymous class that the statement of `target` is written in (the
/// innermost), when it overrides a method (`@Override`) of the class or interface the anonymous
/// class extends: that method and the extended type as written, raw (`TypeAdapter`).
pub(crate) fn anonymous_method(file: &SourceFile, target: &Target) -> Option<(MethodInfo, String)> {
    if target.enclosure != Some(Enclosure::LocalOrAnonymousClass) {
        return None;
    }
    let src = file.text.as_str();
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
    let overrides =
        named_children(method).into_iter().any(|c| c.kind() == "modifiers" && text_of(c, src).contains("@Override"));
    let ty = text_of(creation.child_by_field_name("type")?, src);
    let base = ty.split('<').next().unwrap_or(ty).trim().to_string();
    let m = MethodInfo::from_node(method, file)?;
    (overrides && !m.is_static && !m.has_error).then_some((m, base))
}

/// The call of `anonymous` (a method of an anonymous class extending `base`, see
/// [`anonymous_method`]) on what `entry` returns, when `entry` returns that type: the test
/// declares the result as it and passes arguments a search writes (numbers, strings, readable
/// JDK values, objects of the project's classes made by a constructor taking those; `null` for
/// any other type). The type a test may need to import goes to `imports`; the call's result type
/// is returned beside it. `None` when `entry` returns another type.
pub(crate) fn then_call(
    whole: &FileContext<'_>,
    file: &SourceFile,
    anonymous: &MethodInfo,
    base: &str,
    entry: &MethodInfo,
    own_class: &str,
    imports: &mut Vec<String>,
) -> Option<(ThenCall, String)> {
    let returned = entry.return_ty.split('<').next().unwrap_or(&entry.return_ty).trim();
    let simple = |t: &str| t.rsplit('.').next().unwrap_or(t).to_string();
    if returned.is_empty() || returned == "void" || simple(returned) != simple(base) {
        return None;
    }
    let declared_as = test_name(file, returned, imports);
    let vars = type_variables(file, anonymous.node(file));
    let mut args = Vec::new();
    for p in &anonymous.params {
        let ty = p.ty.trim().trim_start_matches("final ").trim();
        let raw = ty.split('<').next().unwrap_or(ty).trim();
        // A type variable's value is erased through the raw type the test declares.
        if vars.iter().any(|v| v == raw) {
            args.push(("Object".to_string(), JavaValue::Null));
            continue;
        }
        args.push((ty.to_string(), argument(whole, file, ty, own_class, imports)));
    }
    let ret = anonymous.return_ty.trim();
    let ret = match ret.split('<').next().map(str::trim) {
        Some(r) if vars.iter().any(|v| v == r) => "Object".to_string(),
        _ => ret.to_string(),
    };
    Some((ThenCall { declared_as, method: anonymous.name.clone(), args }, ret))
}

/// A value a search starts from for a parameter of type `ty`: a number, string or readable JDK
/// value it moves, an object of a class of the project made by its public constructor with the
/// fewest parameters of those kinds (`new JsonReader(new StringReader("a"))`), else `null`.
fn argument(
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
        imports.extend(c.imports.into_iter().filter(|i| !imports.contains(i)).collect::<Vec<_>>());
        return JavaValue::Choice { slot: None, options: c.options };
    }
    let raw = ty.split('<').next().unwrap_or(ty).trim();
    // A top-level class, or a static one nested in the file's classes.
    let nested = jreach_syntax::qualified_nested(file, raw);
    let chain: Vec<&str> = nested.split('.').collect();
    let ctor = whole
        .methods()
        .iter()
        .filter(|c| c.is_constructor && c.is_public && !c.has_error && !c.class_is_abstract && !c.class_is_private)
        .filter(|c| match chain.len() == 1 || nested.starts_with(char::is_lowercase) {
            true => c.classes.len() == 1 && c.classes[0] == chain[chain.len() - 1],
            false => {
                c.classes.iter().map(String::as_str).eq(chain.iter().copied()) && is_static_nested(whole.file(), c)
            }
        })
        .filter_map(|c| {
            let mut needs = Vec::new();
            searched_args(whole, &c.params, own_class, &mut needs).map(|args| (args, needs))
        })
        .min_by_key(|(args, _)| args.len());
    let Some((args, needs)) = ctor else { return JavaValue::Null };
    imports.extend(needs.into_iter().filter(|i| !imports.contains(i)).collect::<Vec<_>>());
    let class = test_name(file, raw, imports);
    JavaValue::Constructed { class, args, calls: vec![], choices: vec![], body: None, factory: None, builder: None }
}

/// `raw` (a class as `file` writes it) as a test names it: a class the file imports by its
/// simple name, imported (into `imports`); a class nested in the file by its chain of classes.
fn test_name(file: &SourceFile, raw: &str, imports: &mut Vec<String>) -> String {
    let q = jreach_syntax::qualified_nested(file, raw);
    match q.rsplit_once('.').filter(|(p, _)| p.starts_with(char::is_lowercase)) {
        Some((package, simple)) => {
            let import = format!("{package}.{simple}");
            if !imports.contains(&import) {
                imports.push(import);
            }
            simple.to_string()
        }
        None => q,
    }
}

/// The type variables declared by `node` and the declarations around it (methods and classes).
fn type_variables(file: &SourceFile, node: Node<'_>) -> Vec<String> {
    let mut vars = Vec::new();
    let mut n = Some(node);
    while let Some(c) = n {
        if let Some(params) = c.child_by_field_name("type_parameters") {
            for p in named_children(params) {
                let name = named_children(p).into_iter().find(|k| k.kind() == "type_identifier");
                vars.extend(name.map(|k| text_of(k, &file.text).to_string()));
            }
        }
        n = c.parent();
    }
    vars
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
    fn a_method_of_an_anonymous_class_is_called_on_what_its_creator_returns() {
        let file = SourceFile::parse(SRC.to_string());
        let ctx = FileContext::new(&file, None, None);
        let target = at(&file, "return \"x\" + n;");
        let (anonymous, base) = anonymous_method(&file, &target).expect("an anonymous class's method");
        assert_eq!((anonymous.name.as_str(), base.as_str()), ("name", "Adapter"));
        let mut imports = Vec::new();
        let (then, ret) =
            then_call(&ctx, &file, &anonymous, &base, &target.method, "Adapters", &mut imports).expect("a call");
        assert_eq!(then.declared_as, "Adapters.Adapter");
        assert_eq!(ret, "String");
        let args: Vec<(String, String)> = then.args.iter().map(|(t, v)| (t.clone(), literal(v))).collect();
        assert_eq!(args, [("Object".to_string(), "null".to_string()), ("int".to_string(), "1".to_string())]);

        // A parameter of a class of the file is made by its constructor, whose JDK argument the
        // search chooses; a type variable's result is an `Object` through the raw type.
        let target = at(&file, "return null;\n                }");
        let (anonymous, base) = anonymous_method(&file, &target).expect("read");
        let (then, ret) =
            then_call(&ctx, &file, &anonymous, &base, &target.method, "Adapters", &mut imports).expect("a call");
        assert_eq!(ret, "Object");
        assert!(
            matches!(&then.args[0].1, JavaValue::Constructed { class, args, .. } if class == "Adapters.Source" && args.len() == 1),
            "{:?}",
            then.args
        );

        // The creating method returns nothing: no call.
        let target = at(&file, "System.out.println();");
        let (anonymous, base) = anonymous_method(&file, &target).expect("run");
        assert!(then_call(&ctx, &file, &anonymous, &base, &target.method, "Adapters", &mut imports).is_none());
    }
}
