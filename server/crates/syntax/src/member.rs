//! The member of a class a line is written in, named as a Java developer names it:
//! `withdraw(int)`, `Account(String, int)`, `Inner.get()`, `LIMIT`, `static initializer`.
//!
//! A test jreach writes names the member of its target in its first comment (`// Reaches line 21
//! in withdraw(int): return -1;`), so that the statement is found again after edits move it, and
//! a statement quoted the same in two methods is told apart. The name is the outermost member of
//! named classes around the line: a statement of a lambda or an anonymous class belongs to the
//! method that creates it. Parameter types are written without type arguments (`List`, not
//! `List<String>`), as Javadoc links name methods.

use std::ops::Range;

use tree_sitter::Node;

use crate::{text_of, SourceFile};

/// A member declaration and its name ([`member_at`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// `withdraw(int)`; members of nested classes start with the nested classes' names
    /// (`Inner.get()`), not the top-level class's.
    pub name: String,
    /// Byte range of the declaration.
    pub range: Range<usize>,
}

/// The member that 0-based `line`'s first non-blank character is written in; `None` outside
/// any (a package or import line, a class's braces, a blank line).
pub fn member_at(file: &SourceFile, line: usize) -> Option<Member> {
    let range = file.lines.line_range(line)?;
    let first = file.text[range.clone()].find(|c: char| !c.is_whitespace()).map(|i| range.start + i)?;
    let node = file.tree.root_node().descendant_for_byte_range(first, first)?;
    let mut chain: Vec<Node<'_>> = Vec::new();
    let mut up = Some(node);
    while let Some(n) = up {
        chain.push(n);
        up = n.parent();
    }
    chain.reverse();
    let src = file.text.as_str();
    // Named classes from the outermost: the first is the file's top-level class.
    let mut classes: Vec<String> = Vec::new();
    for n in chain {
        match n.kind() {
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "annotation_type_declaration" => {
                classes.push(n.child_by_field_name("name").map(|x| text_of(x, src).to_string())?);
            }
            // A constant's own body: its methods are the constant's (`OPEN.run()`).
            "enum_constant" => classes.push(n.child_by_field_name("name").map(|x| text_of(x, src).to_string())?),
            "method_declaration" | "constructor_declaration" | "compact_constructor_declaration" => {
                let name = n.child_by_field_name("name").map(|x| text_of(x, src))?;
                let params = match n.child_by_field_name("parameters") {
                    Some(p) => format!("({})", param_types(p, src).join(", ")),
                    None => String::new(),
                };
                return Some(named(&classes, format!("{name}{params}"), n));
            }
            "static_initializer" => return Some(named(&classes, "static initializer".into(), n)),
            "block" if n.parent().is_some_and(|p| matches!(p.kind(), "class_body" | "enum_body_declarations")) => {
                return Some(named(&classes, "initializer".into(), n));
            }
            "field_declaration" | "constant_declaration" => {
                let names: Vec<&str> = crate::tree::named_children(n)
                    .into_iter()
                    .filter(|c| c.kind() == "variable_declarator")
                    .filter_map(|c| c.child_by_field_name("name"))
                    .map(|x| text_of(x, src))
                    .collect();
                return Some(named(&classes, names.join(", "), n));
            }
            _ => {}
        }
    }
    None
}

/// The member called `member` inside `classes` (outermost first, the top-level class included).
fn named(classes: &[String], member: String, n: Node<'_>) -> Member {
    let nested: Vec<&str> = classes.iter().skip(1).map(String::as_str).collect();
    let name = if nested.is_empty() { member } else { format!("{}.{member}", nested.join(".")) };
    Member { name, range: n.byte_range() }
}

/// The types of a parameter list as written, without type arguments or annotations: `int`,
/// `String[]`, `List`, `Object...`.
fn param_types(params: Node<'_>, src: &str) -> Vec<String> {
    crate::tree::named_children(params)
        .into_iter()
        .filter(|p| matches!(p.kind(), "formal_parameter" | "spread_parameter"))
        .map(|p| {
            let ty = crate::tree::named_children(p)
                .into_iter()
                .find(|c| c.kind() != "modifiers" && c.kind() != "variable_declarator" && c.kind() != "identifier")
                .map(|t| erase(text_of(t, src)))
                .unwrap_or_default();
            // `String[] a`'s dimensions on the declarator (`String a[]`).
            let dims = p.child_by_field_name("dimensions").map(|d| erase(text_of(d, src))).unwrap_or_default();
            if p.kind() == "spread_parameter" {
                format!("{ty}{dims}...")
            } else {
                format!("{ty}{dims}")
            }
        })
        .collect()
}

/// `@NonNull Map<K, List<V>> []` → `Map[]`: the type without type arguments, annotations or
/// blanks.
pub fn erase(ty: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut chars = ty.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            // An annotation: its name and its arguments.
            '@' => {
                while chars.next_if(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$')).is_some() {}
                if chars.next_if_eq(&'(').is_some() {
                    let mut open = 1;
                    while open > 0 {
                        match chars.next() {
                            Some('(') => open += 1,
                            Some(')') => open -= 1,
                            Some(_) => {}
                            None => break,
                        }
                    }
                }
            }
            _ if depth == 0 && !c.is_whitespace() => out.push(c),
            _ => {}
        }
    }
    out
}

/// `K, V` (type arguments as written) split at the first comma outside nested `<...>`, trimmed:
/// `Map<K, V>, List<T>` → (`Map<K, V>`, `List<T>`).
pub fn split_type_args(args: &str) -> Option<(&str, &str)> {
    let mut depth = 0;
    let (comma, _) = args.char_indices().find(|(_, ch)| {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ => {}
        }
        *ch == ',' && depth == 0
    })?;
    Some((args[..comma].trim(), args[comma + 1..].trim()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    const SRC: &str = r#"package p;

import java.util.*;

class Bank {
    static final int LIMIT = 10;
    static {
        int x = 1;
    }
    Bank(String owner, int... amounts) {
        this.owner = owner;
    }
    int withdraw(int amount) {
        Runnable r = () -> {
            log();
        };
        return -1;
    }
    <T> void put(Map<String, List<T>> m, final String[] keys, char c[]) {
        m.clear();
    }
    static class Inner {
        int get() {
            return new Object() {
                int f() { return 1; }
            }.f();
        }
    }
    enum State {
        OPEN {
            void run() {
                go();
            }
        };
        void run() {}
    }
    record Pair(int a, int b) {
        Pair {
            check(a);
        }
    }
}
"#;

    #[test]
    fn every_line_is_named_by_its_member() {
        let f = SourceFile::parse(SRC);
        let got: Vec<String> = (0..f.lines.line_count())
            .filter_map(|l| member_at(&f, l).map(|m| format!("{}: {}", l + 1, m.name)))
            .collect();
        expect![[r#"
            [
                "6: LIMIT",
                "7: static initializer",
                "8: static initializer",
                "9: static initializer",
                "10: Bank(String, int...)",
                "11: Bank(String, int...)",
                "12: Bank(String, int...)",
                "13: withdraw(int)",
                "14: withdraw(int)",
                "15: withdraw(int)",
                "16: withdraw(int)",
                "17: withdraw(int)",
                "18: withdraw(int)",
                "19: put(Map, String[], char[])",
                "20: put(Map, String[], char[])",
                "21: put(Map, String[], char[])",
                "23: Inner.get()",
                "24: Inner.get()",
                "25: Inner.get()",
                "26: Inner.get()",
                "27: Inner.get()",
                "31: State.OPEN.run()",
                "32: State.OPEN.run()",
                "33: State.OPEN.run()",
                "35: State.run()",
                "38: Pair.Pair",
                "39: Pair.Pair",
                "40: Pair.Pair",
            ]
        "#]]
        .assert_debug_eq(&got);
    }

    #[test]
    fn types_lose_their_arguments_and_annotations() {
        assert_eq!(erase("Map<String, List<T>>"), "Map");
        assert_eq!(erase("@NonNull String"), "String");
        assert_eq!(erase("@Size(max = 3) List<@NonNull String>"), "List");
        assert_eq!(erase("java.util.List<?>[]"), "java.util.List[]");
    }
}
