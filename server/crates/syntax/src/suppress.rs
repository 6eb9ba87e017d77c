//! `@SuppressWarnings("jreach")`: where a declaration turns jreach's warnings off (on a method
//! or constructor, or on a class around it), and the edit that adds the key to a declaration.
//!
//! Java's own annotation, so nothing new to learn: javac ignores keys it does not know, and
//! the value may be one string or an array of them (`{"unchecked", "jreach"}`).

use std::ops::Range;

use tree_sitter::Node;

use crate::tree::named_children;

/// The key jreach honours in `@SuppressWarnings`.
pub const SUPPRESSION_KEY: &str = "jreach";

/// Declarations whose modifiers may carry the annotation.
fn is_declaration(kind: &str) -> bool {
    matches!(
        kind,
        "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration"
            | "class_declaration"
            | "enum_declaration"
            | "interface_declaration"
            | "record_declaration"
    )
}

/// The `@SuppressWarnings` annotation of a declaration, if it has one.
fn suppress_warnings_of<'t>(decl: Node<'t>, src: &str) -> Option<Node<'t>> {
    let modifiers = named_children(decl).into_iter().find(|c| c.kind() == "modifiers")?;
    named_children(modifiers).into_iter().find(|a| {
        a.kind() == "annotation"
            && a.child_by_field_name("name")
                .is_some_and(|n| matches!(&src[n.byte_range()], "SuppressWarnings" | "java.lang.SuppressWarnings"))
    })
}

/// Whether the annotation's value names `key` (one string literal, or one among an array).
fn names_key(annotation: Node<'_>, src: &str, key: &str) -> bool {
    let Some(args) = annotation.child_by_field_name("arguments") else { return false };
    let mut stack = vec![args];
    while let Some(n) = stack.pop() {
        if n.kind() == "string_literal" {
            if src[n.byte_range()] == format!("\"{key}\"") {
                return true;
            }
            continue;
        }
        stack.extend(named_children(n));
    }
    false
}

/// The `@SuppressWarnings` annotation naming [`SUPPRESSION_KEY`] on `node` or on a declaration
/// around it (the innermost), if any.
pub fn suppressed_by<'t>(node: Node<'t>, src: &str) -> Option<Node<'t>> {
    let mut n = Some(node);
    while let Some(x) = n {
        if is_declaration(x.kind()) {
            if let Some(a) = suppress_warnings_of(x, src).filter(|a| names_key(*a, src, SUPPRESSION_KEY)) {
                return Some(a);
            }
        }
        n = x.parent();
    }
    None
}

/// The edit that makes `decl` (a method, constructor or class declaration) suppress jreach's
/// warnings: `"jreach"` added to its `@SuppressWarnings` when it has one, else the annotation
/// on a line of its own above the declaration, indented as it is. Returns the byte range to
/// replace and its new text.
pub fn suppression_edit(decl: Node<'_>, src: &str) -> (Range<usize>, String) {
    let quoted = format!("\"{SUPPRESSION_KEY}\"");
    if let Some(a) = suppress_warnings_of(decl, src) {
        if let Some(args) = a.child_by_field_name("arguments") {
            let inner: Vec<Node<'_>> = named_children(args);
            // `@SuppressWarnings({"a", "b"})`: add to the array.
            if let [one] = inner.as_slice() {
                if one.kind() == "element_value_array_initializer" {
                    let close = one.end_byte() - 1;
                    let items = named_children(*one);
                    let text = if items.is_empty() { quoted } else { format!(", {quoted}") };
                    return (close..close, text);
                }
                // `@SuppressWarnings("a")` or `(value = "a")`: make the value an array.
                let value =
                    if one.kind() == "element_value_pair" { one.child_by_field_name("value") } else { Some(*one) };
                if let Some(v) = value {
                    return (v.byte_range(), format!("{{{}, {quoted}}}", &src[v.byte_range()]));
                }
            }
        }
    }
    let start = decl.start_byte();
    let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent: String = src[line_start..start].chars().take_while(|c| c.is_whitespace()).collect();
    let at = line_start + indent.len();
    (at..at, format!("@SuppressWarnings({quoted})\n{indent}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourceFile;

    fn method_decl<'t>(file: &'t SourceFile, name: &str) -> Node<'t> {
        let at = file.text.find(&format!("{name}(")).unwrap();
        let mut n = file.tree.root_node().descendant_for_byte_range(at, at).unwrap();
        while n.kind() != "method_declaration" {
            n = n.parent().unwrap();
        }
        n
    }

    fn apply(src: &str, name: &str) -> String {
        let file = SourceFile::parse(src);
        let (r, text) = suppression_edit(method_decl(&file, name), src);
        format!("{}{text}{}", &src[..r.start], &src[r.end..])
    }

    #[test]
    fn the_key_on_the_method_or_a_class_around_it_suppresses() {
        let src = "class A {\n  @SuppressWarnings(\"jreach\") int f() { return 1; }\n  @SuppressWarnings({\"unchecked\", \"jreach\"}) int g() { return 1; }\n  @SuppressWarnings(\"unchecked\") int h() { return 1; }\n  @java.lang.SuppressWarnings(value = {\"jreach\"}) int i() { return 1; }\n  @Deprecated int j() { return 1; }\n  @SuppressWarnings(\"jreach\") static class B { int k() { return 1; } }\n}\n";
        let file = SourceFile::parse(src);
        let suppressed = |name| suppressed_by(method_decl(&file, name), src).is_some();
        assert!(suppressed("f") && suppressed("g") && suppressed("i") && suppressed("k"));
        assert!(!suppressed("h") && !suppressed("j"));
    }

    #[test]
    fn the_edit_adds_the_key_where_it_belongs() {
        let src = "class A {\n    int f() { return 1; }\n}\n";
        assert_eq!(apply(src, "f"), "class A {\n    @SuppressWarnings(\"jreach\")\n    int f() { return 1; }\n}\n");
        let src = "class A {\n    @Override\n    public int f() { return 1; }\n}\n";
        assert_eq!(
            apply(src, "f"),
            "class A {\n    @SuppressWarnings(\"jreach\")\n    @Override\n    public int f() { return 1; }\n}\n"
        );
        let src = "class A {\n    @SuppressWarnings(\"unchecked\") int f() { return 1; }\n}\n";
        assert_eq!(
            apply(src, "f"),
            "class A {\n    @SuppressWarnings({\"unchecked\", \"jreach\"}) int f() { return 1; }\n}\n"
        );
        let src = "class A {\n    @SuppressWarnings({\"a\", \"b\"}) int f() { return 1; }\n}\n";
        assert_eq!(
            apply(src, "f"),
            "class A {\n    @SuppressWarnings({\"a\", \"b\", \"jreach\"}) int f() { return 1; }\n}\n"
        );
        let src = "class A {\n    @SuppressWarnings(value = \"a\") int f() { return 1; }\n}\n";
        assert_eq!(
            apply(src, "f"),
            "class A {\n    @SuppressWarnings(value = {\"a\", \"jreach\"}) int f() { return 1; }\n}\n"
        );
        // Each result suppresses.
        for src in [
            "class A {\n    int f() { return 1; }\n}\n",
            "class A {\n    @SuppressWarnings({}) int f() { return 1; }\n}\n",
            "class A {\n    @SuppressWarnings(\"unchecked\") int f() { return 1; }\n}\n",
        ] {
            let out = apply(src, "f");
            let file = SourceFile::parse(&out);
            assert!(!file.tree.root_node().has_error(), "{out}");
            assert!(suppressed_by(method_decl(&file, "f"), &out).is_some(), "{out}");
        }
    }
}
