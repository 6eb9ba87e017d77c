//! Loop invariants for proofs: Houdini over small templates. For each local that a loop assigns,
//! that starts at an integer literal before the loop, and that a condition after the loop reads,
//! the candidates are its parity and residue modulo 4 at the start (`(x & 3) == 2`) and the start
//! as a lower and an upper bound. The proof lowering checks them where the loop is entered and
//! where an iteration ends and assumes them at the head (`ir::lower::invariants`); the candidates
//! whose checks some input reaches are dropped and the method lowered again, until the rest hold
//! together (`smt::discharge_invariants`). Checked on the lowering's bit-vectors, so an
//! invariant is exact for Java's `int`s: overflow included (`x + 2` keeps `x` even even when it
//! wraps).
//!
//! Lichman's `ex2` (`x = 2; while (i < a) { x = i * x; i++; }`): `x` stays even, so `x == 47`
//! can never hold after the loop.

use std::time::{Duration, Instant};

use jreach_ir::lower::{lower_in, FileContext, InvariantCandidate, InvariantKind, LowerOptions};
use jreach_ir::{Blocker, Function, LowerMode};
use jreach_smt::{discharge_invariants, SolveOptions};
use jreach_syntax::{MethodInfo, Node, SourceFile};

use crate::exact_loops::literal_starts;

/// The most candidates one method is tried with.
const MAX_CANDIDATES: usize = 16;

/// The most lowerings one Houdini search makes.
const MAX_ROUNDS: usize = 4;

/// The proof lowering of `m` with the candidate invariants of its loops that hold, when some do:
/// a sound over-approximation (its `Blocker::Invariant` discharged) that knows more than the
/// havoc alone. `None` when `m` has no candidates, none survives, something else stands in the
/// way of a proof, or `budget` runs out.
pub(crate) fn proved_lowering(
    ctx: &FileContext<'_>,
    m: &MethodInfo,
    inline_depth: u32,
    budget: Duration,
) -> Option<Function> {
    let mut cands = candidates(ctx.file(), m);
    let started = Instant::now();
    for _ in 0..MAX_ROUNDS {
        if cands.is_empty() || started.elapsed() >= budget {
            return None;
        }
        let opts = LowerOptions {
            mode: LowerMode::OverApprox,
            inline_depth,
            loop_invariants: cands.clone(),
            ..Default::default()
        };
        let mut f = lower_in(ctx, m, &opts);
        if f.invariant_blocks().is_empty() || f.proof_blockers.iter().any(|b| *b != Blocker::Invariant) {
            return None;
        }
        let left = budget.saturating_sub(started.elapsed());
        let solve = SolveOptions { timeout: left.min(QUERY), prefer_small: false, cancel: None };
        match discharge_invariants(&mut f, &solve) {
            Ok(()) => return Some(f),
            Err(failed) => {
                let mut k = 0u32;
                cands.retain(|_| {
                    k += 1;
                    !failed.contains(&(k - 1))
                });
            }
        }
    }
    None
}

/// The time limit of one query of the search.
const QUERY: Duration = Duration::from_millis(150);

/// The candidate invariants of `m`'s loops (see the module doc).
pub(crate) fn candidates(file: &SourceFile, m: &MethodInfo) -> Vec<InvariantCandidate> {
    let body = m.body_node(file);
    let mut out = Vec::new();
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "lambda_expression" | "class_body") {
            continue;
        }
        if matches!(n.kind(), "for_statement" | "while_statement" | "do_statement" | "enhanced_for_statement") {
            for var in assigned(file, n) {
                let Some(start) = start_before(file, n, &var) else { continue };
                if !tested_after(file, body, n.end_byte(), &var) {
                    continue;
                }
                for kind in [
                    InvariantKind::LowBits { mask: 1, value: start & 1 },
                    InvariantKind::LowBits { mask: 3, value: start & 3 },
                    InvariantKind::AtLeast(start),
                    InvariantKind::AtMost(start),
                ] {
                    out.push(InvariantCandidate { loop_start: n.start_byte(), var: var.clone(), kind });
                }
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out.truncate(MAX_CANDIDATES);
    out
}

/// The simple names a loop assigns (`x = ...`, `x += ...`, `x++`).
fn assigned(file: &SourceFile, lp: Node<'_>) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack = vec![lp];
    while let Some(n) = stack.pop() {
        let target = match n.kind() {
            "assignment_expression" => n.child_by_field_name("left"),
            "update_expression" => n.named_child(0),
            _ => None,
        };
        if let Some(t) = target.filter(|t| t.kind() == "identifier") {
            names.push(file.text[t.byte_range()].to_string());
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    names.sort();
    names.dedup();
    names
}

/// The integer literal `var` is set to by the nearest statement before the loop `lp` (in its
/// block) that sets it: `int x = 2;` or `x = 2;`.
fn start_before(file: &SourceFile, lp: Node<'_>, var: &str) -> Option<i64> {
    let mut prev = lp.prev_named_sibling();
    while let Some(p) = prev {
        if let Some((_, v)) = literal_starts(file, p).into_iter().find(|(v, _)| v == var) {
            return Some(v);
        }
        prev = p.prev_named_sibling();
    }
    None
}

/// Whether a condition after byte `after` in `body` reads `var` (an `if`, a loop's or a `?:`'s
/// condition, a `switch` value or an assertion): where an invariant of it may decide something.
fn tested_after(file: &SourceFile, body: Node<'_>, after: usize, var: &str) -> bool {
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.end_byte() <= after {
            continue;
        }
        if n.kind() == "identifier" && n.start_byte() >= after && &file.text[n.byte_range()] == var && in_condition(n) {
            return true;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

/// Whether `n` is inside a condition of its statement.
fn in_condition(n: Node<'_>) -> bool {
    let mut child = n;
    while let Some(p) = child.parent() {
        match p.kind() {
            "assert_statement" => return true,
            "if_statement" | "while_statement" | "do_statement" | "for_statement" | "ternary_expression" => {
                return p.child_by_field_name("condition").is_some_and(|c| c.id() == child.id());
            }
            "switch_expression" | "switch_statement" => {
                return p.child_by_field_name("condition").is_some_and(|c| c.id() == child.id());
            }
            "block" | "method_declaration" | "constructor_declaration" => return false,
            _ => child = p,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cands(src: &str) -> Vec<(String, InvariantKind)> {
        let file = SourceFile::parse(src);
        let m = &MethodInfo::all(&file)[0];
        candidates(&file, m).into_iter().map(|c| (c.var, c.kind)).collect()
    }

    #[test]
    fn candidates_are_for_counted_locals_a_later_condition_reads() {
        let src = "class A {\n  static int f(int a) {\n    int x = 2;\n    int y = 0;\n    int i = 1;\n    while (i < a) {\n      x = i * x;\n      y++;\n      i++;\n    }\n    if (x == 47) {\n      return 1;\n    }\n    return y;\n  }\n}\n";
        let got = cands(src);
        // `x`: starts at 2 and is tested after; `y` is only returned; `i` is not tested after.
        assert_eq!(
            got,
            vec![
                ("x".to_string(), InvariantKind::LowBits { mask: 1, value: 0 }),
                ("x".to_string(), InvariantKind::LowBits { mask: 3, value: 2 }),
                ("x".to_string(), InvariantKind::AtLeast(2)),
                ("x".to_string(), InvariantKind::AtMost(2)),
            ]
        );
    }
}
