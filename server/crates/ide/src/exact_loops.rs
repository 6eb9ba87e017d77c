//! Exact loops for proofs (CBMC's unwinding): which methods are tried with their loops unrolled
//! instead of abstracted, and that lowering. A method qualifies when every loop counts from an
//! integer literal to a literal at most [`PROOF_UNROLL`] away ([`small_counted_loops`], a
//! syntactic filter); its proof lowering then unrolls the loops ([`exact_lowering`]), and a
//! path that would start one more iteration ends in a `CutoffKind::Unwinding` block. The callers
//! (`check`, `gen`) use the lowering only once no input reaches such a block.

use jreach_ir::lower::{lower_in, FileContext, LowerOptions};
use jreach_ir::{Function, LowerMode};
use jreach_syntax::{MethodInfo, Node, SourceFile};

/// Loops are unrolled this many times when a proof tries them as exact (a loop that runs a
/// bounded number of times, `for (int i = 0; i < 3; i++)`).
pub const PROOF_UNROLL: u32 = 8;

/// The most values a lowering with unrolled loops may have before it is given up.
pub(crate) const EXACT_MAX_VALUES: usize = 20_000;

/// The proof lowering of `m` with its loops unrolled [`PROOF_UNROLL`] times (`Blocker::Unwinding`
/// until the caller shows no input needs another iteration).
pub(crate) fn exact_lowering(ctx: &FileContext<'_>, m: &MethodInfo, inline_depth: u32) -> Function {
    let opts = LowerOptions {
        mode: LowerMode::OverApprox,
        inline_depth,
        proof_unroll: Some(PROOF_UNROLL),
        max_values: EXACT_MAX_VALUES,
        ..Default::default()
    };
    lower_in(ctx, m, &opts)
}

/// Whether every loop of `m` looks counted with a small bound: a counter that starts at an
/// integer literal (a `for`'s initializer, or the statement just before a `while` or `do`:
/// `int attempts = 0;`) and that the condition compares with a literal at most [`PROOF_UNROLL`]
/// away (`i < 3`, `attempts < 4 && !done`). Only such methods are tried with exact loops: a loop
/// over a string or an array may run any number of times, and unrolling it costs a larger
/// lowering and a query to learn so (commons-lang: three times the time of the whole check for
/// no finding when every loop was tried).
pub(crate) fn small_counted_loops(file: &SourceFile, m: &MethodInfo) -> bool {
    let mut stack = vec![m.body_node(file)];
    let mut any = false;
    while let Some(n) = stack.pop() {
        match n.kind() {
            "enhanced_for_statement" => return false,
            "for_statement" | "while_statement" | "do_statement" => {
                let starts: Vec<(String, i64)> = if n.kind() == "for_statement" {
                    let mut c = n.walk();
                    let inits: Vec<Node<'_>> = n.children_by_field_name("init", &mut c).collect();
                    inits.into_iter().flat_map(|i| literal_starts(file, i)).collect()
                } else {
                    n.prev_named_sibling().map(|p| literal_starts(file, p)).unwrap_or_default()
                };
                let bounded = n.child_by_field_name("condition").is_some_and(|c| compares_near(file, c, &starts));
                if !bounded {
                    return false;
                }
                any = true;
            }
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    any
}

/// The variables `n` (a declaration or an assignment statement) sets to an integer literal.
pub(crate) fn literal_starts(file: &SourceFile, n: Node<'_>) -> Vec<(String, i64)> {
    let int = |x: Node<'_>| -> Option<i64> {
        (x.kind() == "decimal_integer_literal").then(|| file.text[x.byte_range()].parse().ok()).flatten()
    };
    let mut out = Vec::new();
    match n.kind() {
        "local_variable_declaration" => {
            let mut c = n.walk();
            for d in n.children_by_field_name("declarator", &mut c) {
                if let (Some(name), Some(v)) = (d.child_by_field_name("name"), d.child_by_field_name("value")) {
                    if let Some(v) = int(v) {
                        out.push((file.text[name.byte_range()].to_string(), v));
                    }
                }
            }
        }
        "expression_statement" => {
            if let Some(a) = n.named_child(0) {
                return literal_starts(file, a);
            }
        }
        "assignment_expression" => {
            let op = n.child_by_field_name("operator").map(|o| &file.text[o.byte_range()]);
            if let (Some("="), Some(l), Some(r)) = (op, n.child_by_field_name("left"), n.child_by_field_name("right")) {
                if let (true, Some(v)) = (l.kind() == "identifier", int(r)) {
                    out.push((file.text[l.byte_range()].to_string(), v));
                }
            }
        }
        _ => {}
    }
    out
}

/// Whether `cond` compares one of `starts`' variables with an integer literal at most
/// [`PROOF_UNROLL`] from where the variable starts.
fn compares_near(file: &SourceFile, cond: Node<'_>, starts: &[(String, i64)]) -> bool {
    let mut stack = vec![cond];
    while let Some(n) = stack.pop() {
        if n.kind() == "binary_expression" {
            let op = n.child_by_field_name("operator").map(|o| &file.text[o.byte_range()]);
            if let (Some("<" | "<=" | ">" | ">=" | "!="), Some(l), Some(r)) =
                (op, n.child_by_field_name("left"), n.child_by_field_name("right"))
            {
                for (var, lit) in [(l, r), (r, l)] {
                    let bound: Option<i64> = (lit.kind() == "decimal_integer_literal")
                        .then(|| file.text[lit.byte_range()].parse().ok())
                        .flatten();
                    let start = (var.kind() == "identifier")
                        .then(|| starts.iter().find(|(v, _)| *v == file.text[var.byte_range()]).map(|(_, s)| *s))
                        .flatten();
                    if let (Some(b), Some(s)) = (bound, start) {
                        if (b - s).unsigned_abs() <= u64::from(PROOF_UNROLL) {
                            return true;
                        }
                    }
                }
            }
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    false
}
