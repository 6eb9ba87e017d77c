//! Java source as data: a tree-sitter parse that never fails, a byte-offset line index, the methods of
//! a file (found with the queries in `queries/java/`), the lookup of the statement on a line and of
//! the member it is written in and what it does, and
//! where `@SuppressWarnings("jreach")` turns warnings off.
//!
//! Everything here speaks in byte offsets and 0-based lines; conversion to editor positions happens at
//! the edges (the CLI and the language server).

mod action;
mod edit;
mod line_index;
mod member;
pub mod methods;
mod source;
pub mod suppress;
pub mod tree;
mod unicode_escapes;

pub use action::{statement_action, Action, Term};
pub use line_index::LineIndex;
pub use member::{erase, member_at, split_type_args, Member};
pub use methods::{
    code_line, find_target, is_statement_kind, params_of, qualified_nested, statement_at, Enclosure, HeldBy,
    MethodInfo, Param, Target, TargetError,
};
pub use source::{is_java_identifier, is_package_name, SourceFile};
pub use tree_sitter::{Node, Tree};
pub use unicode_escapes::unicode_escape_hazard;

/// Text of `node` in `src`.
pub fn text_of<'a>(node: Node<'_>, src: &'a str) -> &'a str {
    &src[node.byte_range()]
}
