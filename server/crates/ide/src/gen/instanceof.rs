//! Values of the types a method tests an `Object` parameter against: `if (value instanceof Long)`
//! asks for a `Long`, `value instanceof Calendar` for a `Calendar`, `value instanceof long[]` for
//! a `long[]`, `value instanceof JsonSerializer<?>` for an object of a class of the project
//! implementing it or, for an interface with one abstract method, a lambda cast to it. A search
//! on the JVM that chooses the parameter's value among readable candidates
//! gets these first: the code says which kinds of objects it treats apart, and a `String` or an
//! `Integer` reaches none of those branches. JDK types are the ones a test writes (boxed values,
//! arrays of primitives, the types [`jreach_synth::jdk_choices`] writes, raw collections as
//! collections of strings); the search runs every candidate on the JVM, so a wrong guess costs a
//! run, never a claim.
//!
//! Likewise for a `Class` or a `Type`: the classes a file names by literal
//! (`rawType == Duration.class`) are the ones its code treats apart ([`named_classes`]).

use jreach_ir::lower::FileContext;
use jreach_syntax::{text_of, tree::named_children, MethodInfo, SourceFile};
use jreach_synth::{jdk_choices, JavaValue};

use super::start::search_value;

/// The candidates for parameter `param` of `m`, from the `instanceof` tests on it in `m`'s body,
/// in the order the code tests them, without `null` and without repeats, and the classes a test
/// writing them may need to import (repeats left to the caller). A class of the project (seen in
/// `whole`) is made as [`super::result_call::argument`] makes one (`seq instanceof StrBuilder`:
/// `new StrBuilder("")`).
pub(crate) fn tested_values(
    whole: &FileContext<'_>,
    file: &SourceFile,
    m: &MethodInfo,
    param: &str,
    own_class: &str,
) -> (Vec<JavaValue>, Vec<String>) {
    let root = file.tree.root_node();
    let Some(body) = root.descendant_for_byte_range(m.body.start, m.body.end) else { return (vec![], vec![]) };
    let mut out: Vec<JavaValue> = Vec::new();
    let mut imports: Vec<String> = Vec::new();
    let mut stack = vec![body];
    let mut id = 1000;
    while let Some(n) = stack.pop() {
        if n.kind() == "instanceof_expression" {
            let left = n.child_by_field_name("left").map(|l| jreach_syntax::tree::unparen(l));
            let tested = left.is_some_and(|l| l.kind() == "identifier" && text_of(l, &file.text) == param);
            if let (true, Some(ty)) = (tested, n.child_by_field_name("right")) {
                id += 1;
                // (`instanceof TypeAdapter<?>` tests the class: its raw type.)
                let ty = jreach_syntax::erase(text_of(ty, &file.text));
                let ty = ty.trim();
                let (mut values, mut needs) = values_of(ty, own_class, id);
                if values.is_empty() {
                    match super::result_call::argument(whole, file, ty, own_class, &mut needs) {
                        made @ JavaValue::Constructed { .. } => values.push(made),
                        JavaValue::Choice { options, .. } => values.extend(options),
                        _ => {}
                    }
                    values.retain(|v| *v != JavaValue::Null);
                }
                // An interface of the project with one abstract method: a lambda, cast to it
                // (the parameter is an `Object`).
                if values.is_empty() {
                    let name = super::receiver_from::declarable_in_test(file, m.node(file), ty);
                    if let Some(lambda) = super::receiver_from::lambda_of(whole, ty, &name) {
                        values.push(JavaValue::Expr(format!("({name}) {}", jreach_synth::literal(&lambda))));
                    }
                }
                for v in values {
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
                imports.extend(needs);
            }
        }
        stack.extend(named_children(n).into_iter().rev());
    }
    (out, imports)
}

/// Readable values of the JDK type `ty` as an `instanceof` names it, `null` left out, and their
/// imports.
fn values_of(ty: &str, own_class: &str, id: i64) -> (Vec<JavaValue>, Vec<String>) {
    let ty = ty.trim();
    let ty = ty.strip_prefix("java.lang.").unwrap_or(ty);
    // A value of the very class tested: a `Short`, not the `Integer` a `short` parameter takes.
    let one = match ty {
        "Short" => Some(JavaValue::Short(1)),
        "Byte" => Some(JavaValue::Byte(1)),
        "CharSequence" => Some(JavaValue::Str("a".into())),
        _ => search_value(ty),
    };
    if let Some(v) = one {
        return (vec![v], vec![]);
    }
    if let Some(elem) = ty.strip_suffix("[]").map(str::trim) {
        // The elements are written as the array's type (`(short) 1`).
        let item = match elem {
            "Object" | "CharSequence" => Some(JavaValue::Str("a".into())),
            _ => search_value(elem),
        };
        return match item {
            Some(item) => (vec![JavaValue::Array { elem_ty: elem.to_string(), id, items: vec![item] }], vec![]),
            None => (vec![], vec![]),
        };
    }
    // A raw collection (`instanceof Collection`) as one of strings, which a search grows.
    let generic = match ty {
        "Collection" | "List" | "Set" | "Iterable" | "Queue" | "Deque" => format!("{ty}<String>"),
        _ => ty.to_string(),
    };
    match jdk_choices(&generic, own_class) {
        Some(c) => (c.options.into_iter().filter(|v| *v != JavaValue::Null).take(2).collect(), c.imports),
        None => (vec![], vec![]),
    }
}

/// Classes of `java.lang`, which a test names without an import.
pub(crate) const JAVA_LANG: &[&str] = &[
    "Object",
    "String",
    "Integer",
    "Long",
    "Short",
    "Byte",
    "Character",
    "Boolean",
    "Double",
    "Float",
    "Number",
    "Void",
    "Class",
    "Enum",
    "Record",
    "Thread",
    "Runnable",
    "Iterable",
    "Comparable",
    "CharSequence",
    "StringBuilder",
    "StringBuffer",
    "Throwable",
    "Exception",
    "RuntimeException",
    "Error",
    "Cloneable",
];

/// At most this many classes named by literal are candidates (each is an option the search tries).
const NAMED_MAX: usize = 24;

/// The classes `file` names by literal (`Duration.class`, `JsonElement.class`), in source order
/// without repeats, as a test of the file's package names them: imported classes by their
/// qualified names (`java.time.Duration`), classes of the file by their chain of classes,
/// `java.lang`'s as written. Primitives, arrays, and classes a test cannot name (private or
/// local, or imported by a wildcard other than `java.util.*` for its collections) are left out;
/// the JDK interfaces of the collections named come after them.
pub(crate) fn named_classes(file: &SourceFile) -> Vec<String> {
    use jreach_syntax::tree::has_modifier;
    let src = file.text.as_str();
    let mut literals = Vec::new();
    let mut declared = Vec::new();
    let mut hidden = Vec::new();
    let mut stack = vec![(file.tree.root_node(), false)];
    while let Some((n, in_hidden)) = stack.pop() {
        let mut inside_hidden = in_hidden;
        match n.kind() {
            "class_literal" => {
                if let Some(ty) = named_children(n).into_iter().next() {
                    literals.push(text_of(ty, src).trim().to_string());
                }
            }
            "class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration" => {
                let local = n.parent().is_some_and(|p| {
                    p.kind() == "block"
                        || p.kind() == "class_body"
                            && p.parent().is_some_and(|q| q.kind() == "object_creation_expression")
                });
                inside_hidden |= local || has_modifier(n, src, "private");
                if let Some(name) = n.child_by_field_name("name") {
                    let name = text_of(name, src).to_string();
                    match inside_hidden {
                        true => hidden.push(name),
                        false => declared.push(name),
                    }
                }
            }
            "block" => inside_hidden = true,
            _ => {}
        }
        stack.extend(named_children(n).into_iter().rev().map(|c| (c, inside_hidden)));
    }
    // `import java.util.*;`: its collection classes a test names by their qualified names.
    let util_wildcard = named_children(file.tree.root_node()).into_iter().any(|d| {
        d.kind() == "import_declaration"
            && text_of(d, src).split_whitespace().collect::<String>() == "importjava.util.*;"
    });
    let mut out: Vec<String> = Vec::new();
    for ty in literals {
        if ty.contains(['[', '<']) || ty.starts_with(char::is_lowercase) || hidden.contains(&ty) {
            continue;
        }
        let in_util = format!("java.util.{ty}");
        let named = if util_wildcard
            && !declared.contains(&ty)
            && !jreach_synth::jdk_collection_supertypes(&in_util).is_empty()
        {
            in_util
        } else {
            jreach_syntax::qualified_nested(file, &ty)
        };
        let nameable = named.contains('.') || declared.contains(&ty) || JAVA_LANG.contains(&ty.as_str());
        if nameable && !out.contains(&named) {
            out.push(named);
        }
    }
    // The JDK interfaces of the collections named (`isAssignableFrom(TreeSet.class)` holds for a
    // `SortedSet`), after the classes the file names.
    let supers: Vec<&str> = out.iter().flat_map(|c| jreach_synth::jdk_collection_supertypes(c)).copied().collect();
    for s in supers {
        if !out.iter().any(|c| c == s) {
            out.push(s.to_string());
        }
    }
    out.truncate(NAMED_MAX);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use jreach_synth::literal;

    #[test]
    fn the_types_a_method_tests_its_object_against_give_its_values() {
        let src = "import java.util.*;\nclass U {\n  static int kind(Object value, Object other) {\n    if (value instanceof Long) return 1;\n    if ((value) instanceof long[] && other instanceof Boolean) return 2;\n    if (value instanceof Calendar c) return c.get(1);\n    if (value instanceof Collection) return 4;\n    if (value instanceof Long) return 5;\n    if (value instanceof com.acme.Order) return 6;\n    return 0;\n  }\n}\n";
        let file = SourceFile::parse(src);
        let ctx = jreach_ir::lower::FileContext::new(&file, None, None);
        let m = ctx.methods().iter().find(|m| m.name == "kind").unwrap().clone();
        let (values, imports) = tested_values(&FileContext::new(&file, None, None), &file, &m, "value", "U");
        let written: Vec<String> = values.iter().map(literal).collect();
        assert_eq!(
            written,
            [
                "1L",
                "new long[] {1L}",
                "new GregorianCalendar(2024, 0, 31, 12, 30, 15)",
                "new ArrayList<>(Arrays.asList(new String[] {\"a\"}))",
            ]
        );
        assert!(imports.contains(&"java.util.GregorianCalendar".to_string()), "{imports:?}");
        let other: Vec<String> = tested_values(&FileContext::new(&file, None, None), &file, &m, "other", "U")
            .0
            .iter()
            .map(literal)
            .collect();
        assert_eq!(other, ["true"]);
    }

    #[test]
    fn an_interface_of_the_project_with_one_method_is_tested_against_with_a_lambda_cast_to_it() {
        let src = "package p;\npublic class Registry {\n  public interface Encoder<T> {\n    String write(T value, int depth);\n  }\n  public interface Wide {\n    void a();\n    void b();\n  }\n  public static int kind(Object adapter) {\n    if (adapter instanceof Encoder<?>) return 1;\n    if (adapter instanceof Wide) return 2;\n    return 0;\n  }\n}\n";
        let file = SourceFile::parse(src);
        let ctx = FileContext::new(&file, None, None);
        let m = ctx.methods().iter().find(|m| m.name == "kind").unwrap().clone();
        let (values, _) = tested_values(&ctx, &file, &m, "adapter", "Registry");
        let written: Vec<String> = values.iter().map(literal).collect();
        // (Its type arguments erased; an interface with two methods has no lambda.)
        assert_eq!(written, ["(Registry.Encoder) (ignored1, ignored2) -> \"a\""]);
    }

    #[test]
    fn classes_named_by_literal_are_written_as_a_test_names_them() {
        let src = r#"package p;
import java.time.Duration;
import java.util.*;
import com.acme.Money;
public class Kinds {
    public static class Open {}
    private static class Closed {}
    static int kind(Class<?> c) {
        class Local {}
        if (c == Duration.class || c == Money.class) return 1;
        if (c == int.class || c == String[].class || c == Local.class || c == Closed.class) return 2;
        if (c == Open.class || c == String.class || c == Duration.class) return 3;
        if (c == Map.class) return 4;
        return 0;
    }
}
"#;
        let file = SourceFile::parse(src);
        expect_test::expect![[r#"["java.time.Duration", "com.acme.Money", "Kinds.Open", "String"]"#]]
            .assert_eq(&format!("{:?}", named_classes(&file)));
    }

    #[test]
    fn a_named_collection_class_brings_its_jdk_interfaces() {
        let src = r#"package p;
import java.util.*;
public class Make {
    static Object make(Class<?> raw) {
        if (raw.isAssignableFrom(LinkedHashSet.class)) return new LinkedHashSet<>();
        if (raw.isAssignableFrom(TreeSet.class)) return new TreeSet<>();
        return null;
    }
}
"#;
        let file = SourceFile::parse(src);
        expect_test::expect![[r#"["java.util.LinkedHashSet", "java.util.TreeSet", "java.util.Set", "java.util.Collection", "java.util.NavigableSet", "java.util.SortedSet"]"#]]
            .assert_eq(&format!("{:?}", named_classes(&file)));
    }
}
