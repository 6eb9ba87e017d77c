//! `check`: the statements of a file that provably never run.
//!
//! Each method is lowered once in the over-approximating mode (loops havocked, unknown calls return
//! anything and may throw). A method with anything unmodelled gets no verdict. For the rest, every
//! statement is one satisfiability question on the same encoding; an UNSAT answer is a proof.
//! Statements inside a dead statement are not reported again.

use std::time::Duration;

use jreach_ir::lower::{lower_method, LowerOptions};
use jreach_ir::LowerMode;
use jreach_smt::{solve_reach, SolveOptions, Verdict};
use jreach_syntax::{methods::is_statement_kind, MethodInfo, Node, SourceFile};

/// A statement proved unreachable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Byte range of the dead statement.
    pub range: std::ops::Range<usize>,
    pub method: String,
    pub message: String,
}

/// What became of one method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MethodVerdict {
    /// Every statement was decided (reachable on the over-approximation, or proved dead).
    Verdict,
    /// No verdict: the reason.
    NoVerdict(String),
}

/// The result of checking one file.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    pub findings: Vec<Finding>,
    pub methods: Vec<(String, MethodVerdict)>,
}

/// Finds provably dead statements in `file`.
pub fn check_file(file: &SourceFile, timeout: Duration) -> CheckReport {
    let mut report = CheckReport::default();
    for m in MethodInfo::all(file) {
        let (verdict, findings) = check_method(file, &m, timeout);
        report.findings.extend(findings);
        report.methods.push((m.signature(), verdict));
    }
    report
}

/// Checks one method: its verdict and the dead statements found in it.
pub fn check_method(file: &SourceFile, m: &MethodInfo, timeout: Duration) -> (MethodVerdict, Vec<Finding>) {
    let mut out = Vec::new();
    let verdict = check_method_into(file, m, timeout, &mut out);
    (verdict, out)
}

fn check_method_into(file: &SourceFile, m: &MethodInfo, timeout: Duration, out: &mut Vec<Finding>) -> MethodVerdict {
    if m.has_error {
        return MethodVerdict::NoVerdict("syntax errors".into());
    }
    let f = lower_method(file, m, &LowerOptions { mode: LowerMode::OverApprox, ..Default::default() });
    if !f.sound_for_proofs() {
        return MethodVerdict::NoVerdict(f.proof_blockers.join("; "));
    }
    let opts = SolveOptions { timeout, prefer_small: false };
    let mut dead_until = 0usize;
    for stmt in statements(m.body_node(file)) {
        if stmt.start_byte() < dead_until {
            continue;
        }
        let targets = f.blocks_of_stmt(stmt.start_byte());
        if targets.is_empty() {
            continue;
        }
        match solve_reach(&f, &targets, &opts) {
            Verdict::Unsat => {
                dead_until = stmt.end_byte();
                let line = file.lines.line_of(stmt.start_byte()) + 1;
                out.push(Finding {
                    range: stmt.byte_range(),
                    method: m.signature(),
                    message: format!("unreachable code: no input to {} reaches line {line}", m.signature()),
                });
            }
            Verdict::Sat(_) => {}
            Verdict::Unknown(why) => return MethodVerdict::NoVerdict(format!("solver: {why}")),
        }
    }
    MethodVerdict::Verdict
}

/// Statements of a body in source order, not descending into lambdas or nested classes.
fn statements(body: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "lambda_expression" | "class_body" | "local_class_declaration") {
            continue;
        }
        if is_statement_kind(n.kind()) {
            out.push(n);
        }
        let mut c = n.walk();
        let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
        stack.extend(kids.into_iter().rev());
    }
    out.sort_by_key(|n| n.start_byte());
    out
}
