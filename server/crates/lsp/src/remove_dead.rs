//! The quick fix "Remove dead `if`": on a warning about an `if` whose body provably never runs,
//! deletes the whole statement, offered only where that keeps what the program does and keeps it
//! compiling:
//!
//! - the body is dead: an unreachable-code finding covers every statement of it (a proof);
//! - the `if` has no `else` and stands in a block (not as the body of a loop or another `if`);
//! - evaluating its condition cannot throw nor change anything: it reads only literals and
//!   variables of primitive types (parameters and locals of the method, fields of its class,
//!   `this.f`), with operators other than `/` and `%` (no calls, assignments, casts, array or
//!   field accesses of other objects, whose evaluation may throw or unbox a null).
//!
//! Removing such an `if` changes nothing a run can observe: its condition is false on every run
//! that comes to it (or it would not be dead), and evaluating it has no effect.

use std::ops::Range;

use jreach_ide::{Finding, UNREACHABLE_CODE};
use jreach_syntax::{MethodInfo, Node, SourceFile};
use tower_lsp_server::ls_types::{CodeActionOrCommand, Diagnostic, TextEdit, Uri};

use crate::position::{self, Encoding};
use crate::quick_fix;

/// The action's title.
pub const TITLE: &str = "Remove dead `if` (its body never runs)";

/// The fixes for jreach's `diagnostics` at the cursor: one per `if` that one of them is about
/// (on its condition or in its body) and that can be removed (see the module's doc). `findings`
/// are the document's, of the version the diagnostics are of.
pub(crate) fn remove_dead_fixes(
    uri: &Uri,
    file: &SourceFile,
    diagnostics: &[&Diagnostic],
    findings: &[Finding],
    enc: Encoding,
) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for &d in diagnostics {
        let at = position::offset(&file.text, &file.lines, d.range.start, enc);
        let Some(stmt) = removable_if(file, at, findings) else { continue };
        if seen.contains(&stmt.start) {
            continue;
        }
        seen.push(stmt.start);
        let r = whole_lines(&file.text, stmt);
        let edit = TextEdit { range: position::range(&file.text, &file.lines, r, enc), new_text: String::new() };
        out.push(quick_fix::action(TITLE.to_string(), uri, d, edit));
    }
    out
}

/// The byte range of the `if` statement around `at` (innermost first, up to its method) that
/// the fix may remove.
pub fn removable_if(file: &SourceFile, at: usize, findings: &[Finding]) -> Option<Range<usize>> {
    let root = file.tree.root_node();
    let mut n = root.descendant_for_byte_range(at, at)?;
    loop {
        if n.kind() == "if_statement" && can_remove(file, n, findings) {
            return Some(n.byte_range());
        }
        if matches!(n.kind(), "method_declaration" | "constructor_declaration" | "lambda_expression" | "class_body") {
            return None;
        }
        n = n.parent()?;
    }
}

fn can_remove(file: &SourceFile, stmt: Node<'_>, findings: &[Finding]) -> bool {
    if stmt.child_by_field_name("alternative").is_some() {
        return false;
    }
    if !stmt.parent().is_some_and(|p| matches!(p.kind(), "block" | "constructor_body" | "switch_block_statement_group"))
    {
        return false;
    }
    let (Some(cond), Some(body)) = (stmt.child_by_field_name("condition"), stmt.child_by_field_name("consequence"))
    else {
        return false;
    };
    let statements: Vec<Node<'_>> = if body.kind() == "block" {
        body.named_children(&mut body.walk()).filter(|c| !c.is_extra()).collect()
    } else {
        vec![body]
    };
    let dead = |s: &Node<'_>| {
        findings
            .iter()
            .any(|f| f.code() == UNREACHABLE_CODE && f.range.start <= s.start_byte() && s.end_byte() <= f.range.end)
    };
    if statements.is_empty() || !statements.iter().all(dead) {
        return false;
    }
    let Some(method) = MethodInfo::all(file)
        .into_iter()
        .filter(|m| m.range.contains(&stmt.start_byte()))
        .min_by_key(|m| m.range.len())
    else {
        return false;
    };
    pure(file, cond, &method)
}

/// Whether evaluating `e` can neither throw nor change anything (see the module's doc).
fn pure(file: &SourceFile, e: Node<'_>, method: &MethodInfo) -> bool {
    let text = |n: Node<'_>| &file.text[n.byte_range()];
    match e.kind() {
        "parenthesized_expression" | "unary_expression" => {
            e.named_children(&mut e.walk()).filter(|c| !c.is_extra()).all(|c| pure(file, c, method))
        }
        "binary_expression" => {
            let op = e.child_by_field_name("operator").map(text).unwrap_or_default();
            !matches!(op, "/" | "%")
                && e.named_children(&mut e.walk()).filter(|c| !c.is_extra()).all(|c| pure(file, c, method))
        }
        "true"
        | "false"
        | "decimal_integer_literal"
        | "hex_integer_literal"
        | "octal_integer_literal"
        | "binary_integer_literal"
        | "decimal_floating_point_literal"
        | "hex_floating_point_literal"
        | "character_literal" => true,
        "identifier" => primitive_variable(file, method, text(e)),
        "field_access" => {
            e.child_by_field_name("object").is_some_and(|o| o.kind() == "this")
                && e.child_by_field_name("field").is_some_and(|f| primitive_field(file, method, text(f)))
        }
        _ => false,
    }
}

const PRIMITIVES: &[&str] = &["int", "long", "short", "byte", "char", "boolean", "float", "double"];

/// Whether every declaration of `name` the method sees (its parameters and locals, else its
/// class's fields) has a primitive type.
fn primitive_variable(file: &SourceFile, method: &MethodInfo, name: &str) -> bool {
    let mut types: Vec<String> = method.params.iter().filter(|p| p.name == name).map(|p| p.ty.clone()).collect();
    let body = method.node(file);
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.kind() == "local_variable_declaration" {
            let ty = n.child_by_field_name("type").map(|t| file.text[t.byte_range()].to_string()).unwrap_or_default();
            for d in n.children_by_field_name("declarator", &mut n.walk()) {
                let dims = d.child_by_field_name("dimensions").is_some();
                if d.child_by_field_name("name").is_some_and(|v| &file.text[v.byte_range()] == name) {
                    types.push(if dims { format!("{ty}[]") } else { ty.clone() });
                }
            }
        }
        stack.extend(n.named_children(&mut n.walk()));
    }
    if types.is_empty() {
        return primitive_field(file, method, name);
    }
    types.iter().all(|t| PRIMITIVES.contains(&t.trim().trim_start_matches("final ").trim()))
}

/// Whether `name` is a field of the method's class declared with a primitive type (and no
/// other field of that name).
fn primitive_field(file: &SourceFile, method: &MethodInfo, name: &str) -> bool {
    let Some(body) = method.node(file).parent() else { return false };
    let mut types = Vec::new();
    for member in body.named_children(&mut body.walk()) {
        if member.kind() != "field_declaration" {
            continue;
        }
        let ty = member.child_by_field_name("type").map(|t| &file.text[t.byte_range()]).unwrap_or_default();
        for d in member.children_by_field_name("declarator", &mut member.walk()) {
            let dims = d.child_by_field_name("dimensions").is_some();
            if d.child_by_field_name("name").is_some_and(|v| &file.text[v.byte_range()] == name) {
                types.push(if dims { format!("{ty}[]") } else { ty.to_string() });
            }
        }
    }
    types.len() == 1 && PRIMITIVES.contains(&types[0].trim())
}

/// `r` widened to whole lines when nothing but white space shares its first and last lines.
fn whole_lines(text: &str, r: Range<usize>) -> Range<usize> {
    let start = text[..r.start].rfind('\n').map_or(0, |n| n + 1);
    let end = text[r.end..].find('\n').map_or(text.len(), |n| r.end + n + 1);
    let alone = text[start..r.start].trim().is_empty() && text[r.end..end].trim().is_empty();
    if alone {
        start..end
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The source after the fix at the line of `marker` (none: `None`), with the findings of a
    /// real check.
    fn fixed(src: &str, marker: &str) -> Option<String> {
        let file = SourceFile::parse(src);
        let findings = jreach_ide::check_file(&file, Duration::from_secs(5)).findings;
        let at = src.find(marker).expect("marker");
        let r = removable_if(&file, at, &findings)?;
        let r = whole_lines(src, r);
        Some(format!("{}{}", &src[..r.start], &src[r.end..]))
    }

    /// Whether the check proves the statement at `marker` dead.
    fn proved_dead(src: &str, marker: &str) -> bool {
        let file = SourceFile::parse(src);
        let at = src.find(marker).expect("marker");
        let findings = jreach_ide::check_file(&file, Duration::from_secs(5)).findings;
        findings.iter().any(|f| f.code() == UNREACHABLE_CODE && f.range.contains(&at))
    }

    fn class(fields: &str, params: &str, body: &str) -> String {
        format!("class A {{\n{fields}    int f({params}) {{\n{body}        return 0;\n    }}\n    void g() {{}}\n}}\n")
    }

    #[test]
    fn a_dead_if_of_primitive_variables_is_removed_whole() {
        let src =
            class("", "int x", "        if (x > 5 && x < 3) {\n            g();\n            return 1;\n        }\n");
        assert_eq!(fixed(&src, "x < 3").as_deref(), Some(class("", "int x", "").as_str()));
        // From a warning in its body too; fields of the class and `this.f` read as well.
        let src = class(
            "    int lo;\n",
            "int x",
            "        int y = x;\n        if (y > 5 && y < 3 && this.lo == lo) {\n            g();\n        }\n",
        );
        assert_eq!(
            fixed(&src, "g();\n        }").as_deref(),
            Some(class("    int lo;\n", "int x", "        int y = x;\n").as_str())
        );
    }

    #[test]
    fn an_if_whose_condition_may_throw_or_act_or_whose_body_may_run_stays() {
        for (params, cond) in [
            ("Integer x", "x > 5 && x < 3"),                   // unboxing a null throws
            ("int x", "x > 5 && x < 3 && 10 / x > 0"),         // a division may throw
            ("int x", "x > 5 && x < 3 && h(x)"),               // a call may do anything
            ("int[] a, int x", "x > 5 && x < 3 && a[0] == 1"), // an access may throw
        ] {
            let src = format!(
                "class A {{\n    int f({params}) {{\n        if ({cond}) {{\n            return 1;\n        }}\n        return 0;\n    }}\n    boolean h(int v) {{ return v > 0; }}\n}}\n"
            );
            assert!(proved_dead(&src, "return 1;"), "{cond}: the body is dead, the condition is what keeps the if");
            assert_eq!(fixed(&src, "return 1;"), None, "{cond}");
        }
        // An else, a body that may run, an if that is a loop's body: not offered.
        let with_else = class(
            "",
            "int x",
            "        if (x > 5 && x < 3) {\n            g();\n        } else {\n            g();\n        }\n",
        );
        assert!(proved_dead(&with_else, "g();\n        } else"));
        assert_eq!(fixed(&with_else, "x < 3"), None);
        let live = class("", "int x", "        if (x > 5 || x < 3) {\n            g();\n        }\n");
        assert_eq!(fixed(&live, "x < 3"), None);
        let in_loop = class("", "int x", "        for (int i = 0; i < x; i++)\n            if (x > 5 && x < 3) g();\n");
        assert!(proved_dead(&in_loop, "g();"));
        assert_eq!(fixed(&in_loop, "x < 3"), None);
    }
}
