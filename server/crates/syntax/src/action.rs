//! What a statement does, read from its tree in a word or two: `return -1;` returns `-1`,
//! `total += n;` sets `total`, `log.info(...)` calls `info`.
//!
//! A test jreach writes is named by its method and by this (`withdraw_returnsMinus1`), not by
//! the line number, which goes stale as soon as a line above it changes.

use std::ops::Range;

use tree_sitter::Node;

use crate::{text_of, tree::named_children, tree::unparen, SourceFile};

/// What a statement does ([`statement_action`]). A name or value it carries is as written
/// (`total`, `-1`, `"not found"`); what a test's name makes of it is the caller's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `return x;`: the single term returned (a name, a literal, a call's or a created class's
    /// name), `None` for `return;` and compound expressions.
    Returns(Option<Term>),
    /// `throw new IllegalStateException(...)`: the class or the variable thrown.
    Throws(Option<String>),
    /// An assignment or an increment of this variable or field.
    Sets(String),
    /// A local variable declared with a value.
    Computes(String),
    /// A call of this method (`super`/`this` for a constructor's first statement).
    Calls(String),
    /// `new Foo(...);` as a statement.
    Creates(String),
    /// An `if` on a condition naming this (its first name).
    Checks(Option<String>),
    /// A `for`, `while` or `do` loop.
    Loops,
    /// A `switch` on this.
    Switches(Option<String>),
    Breaks,
    Continues,
    Yields,
    /// A `try` statement.
    Tries,
    Asserts,
    /// `synchronized (lock)`.
    Locks,
    /// Anything else (a block, an empty statement).
    Other,
}

/// One term of an expression, as a test's name can carry it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// A variable, field, called method or created class.
    Name(String),
    /// A number as written, with its sign (`-1`, `0x1F`, `2.5`).
    Number(String),
    /// A string literal's content, escapes as written.
    Text(String),
    Char(String),
    /// `null`, `true`, `false`, `this`.
    Keyword(String),
    /// `new Foo(...)`, `new int[n]`: the type created.
    New(String),
}

/// What the statement at byte range `stmt` of `file` does.
pub fn statement_action(file: &SourceFile, stmt: Range<usize>) -> Action {
    let root = file.tree.root_node();
    let Some(mut n) = root.descendant_for_byte_range(stmt.start, stmt.end) else { return Action::Other };
    // The statement node itself, not a smaller node spanning the same bytes.
    while n.byte_range() == stmt && n.parent().is_some_and(|p| p.byte_range() == stmt) {
        n = n.parent().expect("checked");
    }
    while !crate::is_statement_kind(n.kind()) {
        match n.parent() {
            Some(p) => n = p,
            None => return Action::Other,
        }
    }
    action_of(n, &file.text)
}

fn action_of(n: Node<'_>, src: &str) -> Action {
    let first_child = || named_children(n).into_iter().find(|c| c.kind() != "comment");
    match n.kind() {
        "return_statement" => Action::Returns(first_child().and_then(|e| term(e, src))),
        "throw_statement" => Action::Throws(first_child().and_then(|e| match unparen(e).kind() {
            "object_creation_expression" => e.child_by_field_name("type").map(|t| simple_type(t, src)),
            _ => last_name(unparen(e), src),
        })),
        "expression_statement" => match first_child().map(unparen) {
            Some(e) => match e.kind() {
                "assignment_expression" => {
                    e.child_by_field_name("left").and_then(|l| last_name(l, src)).map_or(Action::Other, Action::Sets)
                }
                "update_expression" => {
                    named_children(e).into_iter().find_map(|o| last_name(o, src)).map_or(Action::Other, Action::Sets)
                }
                "method_invocation" => {
                    e.child_by_field_name("name").map_or(Action::Other, |m| Action::Calls(text_of(m, src).to_string()))
                }
                "object_creation_expression" => {
                    e.child_by_field_name("type").map_or(Action::Other, |t| Action::Creates(simple_type(t, src)))
                }
                "switch_expression" => {
                    Action::Switches(e.child_by_field_name("condition").and_then(|c| first_name(c, src)))
                }
                _ => Action::Other,
            },
            None => Action::Other,
        },
        "local_variable_declaration" => named_children(n)
            .into_iter()
            .find(|c| c.kind() == "variable_declarator")
            .and_then(|d| d.child_by_field_name("name"))
            .map_or(Action::Other, |x| Action::Computes(text_of(x, src).to_string())),
        "explicit_constructor_invocation" => {
            n.child_by_field_name("constructor").map_or(Action::Other, |c| Action::Calls(text_of(c, src).to_string()))
        }
        "if_statement" => Action::Checks(n.child_by_field_name("condition").and_then(|c| first_name(c, src))),
        "for_statement" | "enhanced_for_statement" | "while_statement" | "do_statement" => Action::Loops,
        "switch_statement" | "switch_expression" => {
            Action::Switches(n.child_by_field_name("condition").and_then(|c| first_name(c, src)))
        }
        "break_statement" => Action::Breaks,
        "continue_statement" => Action::Continues,
        "yield_statement" => Action::Yields,
        "try_statement" | "try_with_resources_statement" => Action::Tries,
        "assert_statement" => Action::Asserts,
        "synchronized_statement" => Action::Locks,
        "labeled_statement" => named_children(n)
            .into_iter()
            .find(|c| crate::is_statement_kind(c.kind()))
            .map_or(Action::Other, |s| action_of(s, src)),
        _ => Action::Other,
    }
}

/// The expression as one term, `None` when it is more than one (`a + b`, `c ? x : y`).
fn term(e: Node<'_>, src: &str) -> Option<Term> {
    let e = unparen(e);
    let text = || text_of(e, src).to_string();
    Some(match e.kind() {
        "identifier" => Term::Name(text()),
        "field_access" => Term::Name(text_of(e.child_by_field_name("field")?, src).to_string()),
        "decimal_integer_literal"
        | "hex_integer_literal"
        | "octal_integer_literal"
        | "binary_integer_literal"
        | "decimal_floating_point_literal"
        | "hex_floating_point_literal" => Term::Number(text()),
        "unary_expression" => {
            let operand = unparen(e.child_by_field_name("operand")?);
            let op = e.child_by_field_name("operator").map(|o| text_of(o, src))?;
            match (op, term(operand, src)?) {
                ("-", Term::Number(n)) => Term::Number(format!("-{n}")),
                ("+", t) => t,
                _ => return None,
            }
        }
        "string_literal" => {
            let inner = text();
            Term::Text(inner.trim_start_matches('"').trim_end_matches('"').to_string())
        }
        "character_literal" => Term::Char(text().trim_matches('\'').to_string()),
        "null_literal" | "true" | "false" | "this" => Term::Keyword(text()),
        "method_invocation" => Term::Name(text_of(e.child_by_field_name("name")?, src).to_string()),
        "object_creation_expression" | "array_creation_expression" => {
            Term::New(simple_type(e.child_by_field_name("type")?, src))
        }
        "cast_expression" => return term(e.child_by_field_name("value")?, src),
        _ => return None,
    })
}

/// The variable or field an assignment's left side names: `this.a.b[i]` → `b`.
fn last_name(e: Node<'_>, src: &str) -> Option<String> {
    let e = unparen(e);
    match e.kind() {
        "identifier" => Some(text_of(e, src).to_string()),
        "field_access" => e.child_by_field_name("field").map(|f| text_of(f, src).to_string()),
        "array_access" => last_name(e.child_by_field_name("array")?, src),
        _ => None,
    }
}

/// The first variable or field a condition names (`x > 0 && y` → `x`), skipping the method names
/// of calls but not their receivers.
fn first_name(e: Node<'_>, src: &str) -> Option<String> {
    let mut stack = vec![e];
    while let Some(n) = stack.pop() {
        if n.kind() == "identifier" {
            let is_method_name = n.parent().is_some_and(|p| {
                p.kind() == "method_invocation" && p.child_by_field_name("name").is_some_and(|m| m.id() == n.id())
            });
            if !is_method_name {
                return Some(text_of(n, src).to_string());
            }
        }
        stack.extend(named_children(n).into_iter().rev());
    }
    None
}

/// `java.util.ArrayList<String>` → `ArrayList`; `int[]` stays `int`.
fn simple_type(t: Node<'_>, src: &str) -> String {
    let text = text_of(t, src);
    let base = text.split('<').next().unwrap_or(text).trim();
    base.rsplit('.').next().unwrap_or(base).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find_target;
    use expect_test::expect;

    #[test]
    fn statements_say_what_they_do() {
        let src = r#"class A {
    A() { super(1); }
    void m(int x) {
        return -1;
        throw new IllegalArgumentException("x");
        total += n;
        count++;
        System.out.println("hi");
        int mid = (lo + hi) / 2;
        if (this.limit > 0 && x < 3) { }
        for (int i = 0; i < n; i++) {}
        outer: while (true) {}
        return "not found";
        return new int[0];
        return (long) -y;
        this.a.b[i] = 3;
        new java.util.ArrayList<String>();
        throw e;
        assert x > 0;
        switch (x) { default: }
        return a + b;
        return helper(x);
        return;
        break;
    }
}
"#;
        let f = SourceFile::parse(src);
        let got: Vec<String> = (0..f.lines.line_count())
            .filter_map(|l| find_target(&f, l).ok())
            .map(|t| format!("{}: {:?}", t.line + 1, statement_action(&f, t.stmt)))
            .collect();
        expect![[r#"
            [
                "2: Calls(\"super\")",
                "4: Returns(Some(Number(\"-1\")))",
                "5: Throws(Some(\"IllegalArgumentException\"))",
                "6: Sets(\"total\")",
                "7: Sets(\"count\")",
                "8: Calls(\"println\")",
                "9: Computes(\"mid\")",
                "10: Checks(Some(\"limit\"))",
                "11: Computes(\"i\")",
                "12: Loops",
                "13: Returns(Some(Text(\"not found\")))",
                "14: Returns(Some(New(\"int\")))",
                "15: Returns(None)",
                "16: Sets(\"b\")",
                "17: Creates(\"ArrayList\")",
                "18: Throws(Some(\"e\"))",
                "19: Asserts",
                "20: Switches(Some(\"x\"))",
                "21: Returns(None)",
                "22: Returns(Some(Name(\"helper\")))",
                "23: Returns(None)",
                "24: Breaks",
            ]
        "#]]
        .assert_debug_eq(&got);
    }
}
