//! Small walks over the tree that every layer needs: named children without comments, the
//! expression inside parentheses, a declaration's modifiers, the classes around a node.

use tree_sitter::Node;

use crate::text_of;

/// The named children of `n`, comments left out.
pub fn named_children<'t>(n: Node<'t>) -> Vec<Node<'t>> {
    let mut c = n.walk();
    n.named_children(&mut c).filter(|ch| !ch.is_extra()).collect()
}

/// The expression inside any number of parentheses.
pub fn unparen(mut n: Node<'_>) -> Node<'_> {
    while n.kind() == "parenthesized_expression" {
        match named_children(n).into_iter().next() {
            Some(inner) => n = inner,
            None => break,
        }
    }
    n
}

/// The first declaration of kind `kind` (`"record_declaration"`, `"interface_declaration"`)
/// named `name` under `root`, at any depth.
pub fn declaration_named<'t>(root: Node<'t>, src: &str, kind: &str, name: &str) -> Option<Node<'t>> {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == kind && n.child_by_field_name("name").is_some_and(|c| text_of(c, src) == name) {
            return Some(n);
        }
        stack.extend(named_children(n));
    }
    None
}

/// The types declaration `d` extends and implements, as written, in order (`Base<String>`,
/// `java.io.Serializable`).
pub fn supertypes(d: Node<'_>, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    for field in ["superclass", "interfaces", "extends_interfaces"] {
        let Some(list) = d.child_by_field_name(field) else { continue };
        let mut stack = vec![list];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "type_identifier" | "scoped_type_identifier" | "generic_type" => {
                    out.push(text_of(n, src).trim().to_string())
                }
                _ => stack.extend(named_children(n)),
            }
        }
    }
    out
}

/// The type parameters declaration `n` (a class, interface, method or constructor) declares,
/// in order: each name with its first bound as written (`Enum<E>` for `E extends Enum<E>`),
/// `None` for none.
pub fn type_parameters(n: Node<'_>, src: &str) -> Vec<(String, Option<String>)> {
    let Some(list) = n.child_by_field_name("type_parameters") else { return vec![] };
    let mut out = Vec::new();
    for p in named_children(list).into_iter().filter(|p| p.kind() == "type_parameter") {
        let kids = named_children(p);
        let Some(name) = kids.iter().find(|k| k.kind() == "type_identifier") else { continue };
        let bound = kids.iter().find(|k| k.kind() == "type_bound").and_then(|b| named_children(*b).first().copied());
        out.push((text_of(*name, src).to_string(), bound.map(|b| text_of(b, src).to_string())));
    }
    out
}

/// Whether declaration `n` carries the modifier `word` (`static`, `final`, `private`, ...).
pub fn has_modifier(n: Node<'_>, src: &str, word: &str) -> bool {
    named_children(n)
        .into_iter()
        .any(|c| c.kind() == "modifiers" && text_of(c, src).split_whitespace().any(|w| w == word))
}

/// The names of the classes (and enums, records, interfaces) around `n`, outermost first.
pub fn enclosing_classes(n: Node<'_>, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut up = n.parent();
    while let Some(p) = up {
        if matches!(p.kind(), "class_declaration" | "enum_declaration" | "record_declaration" | "interface_declaration")
        {
            if let Some(name) = p.child_by_field_name("name") {
                out.push(text_of(name, src).to_string());
            }
        }
        up = p.parent();
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourceFile;

    #[test]
    fn helpers_read_the_tree() {
        let f = SourceFile::parse("class A { static class B { private final int x = ((1)); } }");
        let root = f.tree.root_node();
        let at = f.text.find("private").unwrap();
        let mut decl = root.descendant_for_byte_range(at, at).unwrap();
        while decl.kind() != "field_declaration" {
            decl = decl.parent().unwrap();
        }
        assert!(has_modifier(decl, &f.text, "final") && !has_modifier(decl, &f.text, "static"));
        assert_eq!(enclosing_classes(decl, &f.text), ["A", "B"]);
        let one = f.text.find("((1))").unwrap();
        let paren = root.descendant_for_byte_range(one, one + 5).unwrap();
        assert_eq!(text_of(unparen(paren), &f.text), "1");
    }
}
