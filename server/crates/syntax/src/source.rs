//! A parsed Java file: the text, its tree-sitter tree and its line index.

use std::sync::OnceLock;

use tree_sitter::{Language, Parser, Query, Tree};

use crate::LineIndex;

/// The Java grammar.
pub fn language() -> Language {
    tree_sitter_java::LANGUAGE.into()
}

/// The method query, compiled once per process.
pub(crate) fn methods_query() -> &'static Query {
    static QUERY: OnceLock<Query> = OnceLock::new();
    QUERY.get_or_init(|| {
        Query::new(&language(), include_str!("../../../../queries/java/methods.scm"))
            .expect("queries/java/methods.scm compiles")
    })
}

/// One Java compilation unit. Parsing never fails: syntax errors are ERROR/MISSING nodes in the tree.
pub struct SourceFile {
    pub text: String,
    pub tree: Tree,
    pub lines: LineIndex,
}

impl SourceFile {
    /// Parses `text`.
    pub fn parse(text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut parser = Parser::new();
        parser.set_language(&language()).expect("tree-sitter-java matches the tree-sitter version");
        let tree =
            parser.parse(&text, None).expect("parsing without a timeout or cancellation flag always yields a tree");
        let lines = LineIndex::new(&text);
        SourceFile { text, tree, lines }
    }

    /// Whether any part of the file failed to parse.
    pub fn has_errors(&self) -> bool {
        self.tree.root_node().has_error()
    }

    /// The declared package, if any, without the whitespace the declaration may hold between its
    /// names. Broken code may declare something that is no package name (`package a/../b;`):
    /// whoever turns it into a path checks it with [`is_package_name`].
    pub fn package(&self) -> Option<String> {
        let root = self.tree.root_node();
        let mut cursor = root.walk();
        for child in root.named_children(&mut cursor) {
            if child.kind() == "package_declaration" {
                let mut c2 = child.walk();
                for part in child.named_children(&mut c2) {
                    if matches!(part.kind(), "scoped_identifier" | "identifier") {
                        let text = crate::text_of(part, &self.text);
                        return Some(text.chars().filter(|c| !c.is_whitespace()).collect());
                    }
                }
            }
        }
        None
    }
}

/// Whether `name` is a Java identifier: a letter, `_` or `$`, then letters, digits, `_` and `$`
/// (Unicode letters and digits count, as in `Character.isJavaIdentifierStart`/`Part`).
pub fn is_java_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Whether `name` is a package name: Java identifiers joined by single dots. Anything else (empty
/// parts, `/`, `..`) could name a folder outside the one it is meant to lie under.
pub fn is_package_name(name: &str) -> bool {
    name.split('.').all(is_java_identifier)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_query_compiles() {
        let _ = methods_query();
    }

    #[test]
    fn broken_java_still_parses() {
        let f = SourceFile::parse("class A { void f( { int x = ; } }");
        assert!(f.has_errors());
        assert_eq!(f.tree.root_node().kind(), "program");
    }

    #[test]
    fn package_is_read() {
        let f = SourceFile::parse("package a.b.c;\nclass A {}");
        assert_eq!(f.package().as_deref(), Some("a.b.c"));
        assert_eq!(SourceFile::parse("class A {}").package(), None);
        assert_eq!(SourceFile::parse("package a . b;\nclass A {}").package().as_deref(), Some("a.b"));
    }

    #[test]
    fn package_names_are_dotted_identifiers() {
        for good in ["a", "com.acme", "a.b_2.$c", "\u{e9}t\u{e9}.caf\u{e9}"] {
            assert!(is_package_name(good), "{good}");
        }
        for bad in ["", ".", "a.", ".a", "a..b", "a/../b", "..", "a.1b", "a b", "/etc", "a\\b"] {
            assert!(!is_package_name(bad), "{bad}");
        }
    }
}
