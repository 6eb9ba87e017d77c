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

use super::callers;
use super::receiver::is_static_nested;
use super::receiver_from::creations_of;
use super::start::{search_value, searched_args};

/// A method of an object the code makes and hands back, which a test can neither create nor
/// name itself: the types a test may declare that object as.
pub(crate) struct HandedOut {
    /// The method the statement is in.
    pub(crate) method: MethodInfo,
    /// Raw, as written: the class or interface an anonymous class extends (`TypeAdapter`); the
    /// supertypes a private or inner class declares.
    pub(crate) types: Vec<String>,
    /// For a private or inner class: its name, whose creations (`new Adapter(...)`) lead to the
    /// methods handing it out. `None` for an anonymous class, created where the target's method
    /// says.
    pub(crate) class: Option<String>,
}

/// The method overriding another (`@Override`) that the statement of `target` is in, when a test
/// can only get its object from the code: a method of an anonymous class (the innermost), or an
/// instance method of a private or inner class.
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
        Some(Enclosure::Lambda) => return None,
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
    let overrides =
        named_children(method).into_iter().any(|c| c.kind() == "modifiers" && text_of(c, src).contains("@Override"));
    let m = MethodInfo::from_node(method, file)?;
    if !overrides || m.is_static || m.has_error {
        return None;
    }
    let raw = |t: Node<'_>| {
        let t = text_of(t, src);
        t.split('<').next().unwrap_or(t).trim().to_string()
    };
    if class.kind() == "object_creation_expression" {
        let types = vec![raw(class.child_by_field_name("type")?)];
        return Some(HandedOut { method: m, types, class: None });
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
    (!types.is_empty()).then_some(HandedOut { method: m, types, class: Some(name) })
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

/// The call of `handed.method` (see [`handed_out`]) on what `entry` returns, when `entry`
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
    let anonymous = &handed.method;
    let returned = entry.return_ty.split('<').next().unwrap_or(&entry.return_ty).trim();
    let simple = |t: &str| t.rsplit('.').next().unwrap_or(t).to_string();
    if returned.is_empty() || returned == "void" || !handed.types.iter().any(|t| simple(t) == simple(returned)) {
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
        let file = SourceFile::parse(SRC);
        let ctx = FileContext::new(&file, None, None);
        let target = at(&file, "return \"x\" + n;");
        let handed = handed_out(&file, &target).expect("an anonymous class's method");
        assert_eq!((handed.method.name.as_str(), handed.types.clone()), ("name", vec!["Adapter".to_string()]));
        let mut imports = Vec::new();
        let (then, ret) = then_call(&ctx, &file, &handed, &target.method, "Adapters", &mut imports).expect("a call");
        assert_eq!(then.declared_as, "Adapters.Adapter");
        assert_eq!(ret, "String");
        let args: Vec<(String, String)> = then.args.iter().map(|(t, v)| (t.clone(), literal(v))).collect();
        assert_eq!(args, [("Object".to_string(), "null".to_string()), ("int".to_string(), "1".to_string())]);

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
}
