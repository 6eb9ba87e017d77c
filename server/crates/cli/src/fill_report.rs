//! What `jreach fill` found, for people (text on a terminal, Markdown for a pull-request
//! comment) and for machines (JSON, SARIF 2.1.0 for code-scanning dashboards).

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{json, Value};

use jreach_fill::{counts, test_name, Verdict};

use crate::fill_cmd::Outcome;

#[derive(Copy, Clone, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum FillFormat {
    Text,
    Json,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
    /// A summary and a table, fit for a pull-request comment.
    Markdown,
}

pub fn render(o: &Outcome, format: FillFormat) -> String {
    match format {
        FillFormat::Text => text(o),
        FillFormat::Json => format!("{:#}\n", json_report(o)),
        FillFormat::Sarif => format!("{:#}\n", sarif(o)),
        FillFormat::Markdown => markdown(o),
    }
}

/// A path as the user wants to read it: relative to the current folder when below it.
fn shown(path: &Path) -> String {
    let cwd = std::env::current_dir().ok().and_then(|c| std::fs::canonicalize(c).ok());
    match cwd.as_deref().and_then(|c| path.strip_prefix(c).ok()) {
        Some(rel) => rel.display().to_string(),
        None => path.display().to_string(),
    }
}

/// One line of the verdict for people.
fn verdict_text(v: &Verdict, dry_run: bool) -> String {
    match v {
        Verdict::Test { test_file, method, verified, note, .. } => {
            let verb = if dry_run { "would get" } else { "got" };
            let checked = match (verified, note) {
                (true, _) => "run on the JVM".to_string(),
                (false, Some(n)) => format!("on jreach's model; {n}"),
                (false, None) => "on jreach's model".to_string(),
            };
            format!("{verb} test {} ({checked})", test_name(test_file, method))
        }
        Verdict::Covered { by } => format!("covered by {by}"),
        Verdict::Dead(why) => format!("dead: {why}"),
        Verdict::Unknown(why) => format!("unknown: {why}"),
        Verdict::Error(why) => format!("error: {why}"),
    }
}

fn summary_line(o: &Outcome) -> String {
    let c = counts(&o.results);
    let mut s = format!(
        "{} uncovered statement{}: {} got a test{}, {} covered by {}, {} dead, {} unknown",
        c.statements,
        if c.statements == 1 { "" } else { "s" },
        c.tests,
        if o.dry_run { " (dry run: nothing written)" } else { "" },
        c.covered,
        if c.tests == 1 { "it" } else { "those tests" },
        c.dead,
        c.unknown
    );
    if c.errors > 0 {
        let _ = write!(s, ", {} error{}", c.errors, if c.errors == 1 { "" } else { "s" });
    }
    let secs = o.elapsed.as_secs_f64();
    let _ = write!(s, " in {secs:.1} s");
    if secs > 0.0 && c.statements > 0 {
        let _ = write!(s, " ({:.2} statements/s)", c.statements as f64 / secs);
    }
    if o.budget_spent {
        let _ = write!(s, "; the --budget of {} s ran out", o.budget.as_secs_f64());
    }
    s
}

fn text(o: &Outcome) -> String {
    let mut out = String::new();
    for r in &o.results {
        let _ = writeln!(out, "{}:{}: {}", shown(&r.file), r.line, verdict_text(&r.verdict, o.dry_run));
    }
    let _ = writeln!(out, "{}", summary_line(o));
    if !o.not_statements.is_empty() {
        let _ = writeln!(
            out,
            "{} line{} with code hold no statement (declarations, the implicit code of constructors): not counted",
            o.not_statements.len(),
            if o.not_statements.len() == 1 { "" } else { "s" }
        );
    }
    for w in &o.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    if !o.missing_sources.is_empty() {
        let _ = writeln!(
            out,
            "warning: {} file{} of the report not found under the source roots (give them with --sources): {}",
            o.missing_sources.len(),
            if o.missing_sources.len() == 1 { "" } else { "s" },
            o.missing_sources.join(", ")
        );
    }
    out
}

/// `|` and line breaks would end a Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn markdown(o: &Outcome) -> String {
    let c = counts(&o.results);
    let mut out = String::from("### jreach fill\n\n");
    let _ = writeln!(out, "{}.\n", summary_line(o));
    for w in &o.warnings {
        let _ = writeln!(out, "> **Warning**: {}\n", cell(w));
    }
    if c.statements > 0 {
        out.push_str("| | Line | Statement | Result |\n|---|---|---|---|\n");
        for r in &o.results {
            let (icon, result) = match &r.verdict {
                Verdict::Test { test_file, method, .. } => {
                    ("✅", format!("test `{}`", cell(&test_name(test_file, method))))
                }
                Verdict::Covered { by } => ("✅", format!("covered by `{}`", cell(by))),
                Verdict::Dead(why) => ("🪦", format!("dead: {}", cell(why))),
                Verdict::Unknown(why) => ("❔", format!("unknown: {}", cell(why))),
                Verdict::Error(why) => ("❌", format!("error: {}", cell(why))),
            };
            let stmt = r.statement.replace('`', "'");
            let _ = writeln!(out, "| {icon} | `{}:{}` | `{}` | {result} |", cell(&shown(&r.file)), r.line, cell(&stmt));
        }
    }
    out
}

fn verdict_json(v: &Verdict) -> Value {
    match v {
        Verdict::Test { test_file, method, verified, note, also_runs } => json!({
            "status": "test", "test_file": test_file, "method": method, "verified": verified, "note": note,
            "also_runs": also_runs,
        }),
        Verdict::Covered { by } => json!({"status": "covered", "by": by}),
        Verdict::Dead(why) => json!({"status": "unreachable", "message": why}),
        Verdict::Unknown(why) => json!({"status": "unknown", "message": why}),
        Verdict::Error(why) => json!({"status": "error", "message": why}),
    }
}

fn summary_json(o: &Outcome) -> Value {
    let c = counts(&o.results);
    json!({
        "statements": c.statements, "tests": c.tests, "covered": c.covered, "unreachable": c.dead,
        "unknown": c.unknown, "errors": c.errors, "not_statements": o.not_statements.len(),
        "missing_sources": o.missing_sources, "warnings": o.warnings, "seconds": o.elapsed.as_secs_f64(),
        "budget_seconds": o.budget.as_secs_f64(), "budget_spent": o.budget_spent, "dry_run": o.dry_run,
        "report_lines": o.report_lines.map(|(all, ran)| json!({"lines": all, "covered": ran})),
    })
}

fn json_report(o: &Outcome) -> Value {
    let lines: Vec<Value> = o
        .results
        .iter()
        .map(|r| {
            let mut v = verdict_json(&r.verdict);
            v["file"] = json!(r.file);
            v["line"] = json!(r.line);
            v["statement"] = json!(r.statement);
            v
        })
        .collect();
    json!({"summary": summary_json(o), "lines": lines})
}

const RULES: [(&str, &str, &str); 3] = [
    ("jreach.fill.test", "Test written", "A new test runs this statement, which no test ran before."),
    ("jreach.fill.unreachable", "Unreachable code", "No input can make this statement run."),
    ("jreach.fill.unknown", "Uncovered, no test found", "No test runs this statement and jreach found none."),
];

fn sarif(o: &Outcome) -> Value {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|(id, name, text)| {
            json!({"id": id, "name": name.replace(' ', ""), "shortDescription": {"text": name},
                   "fullDescription": {"text": text}})
        })
        .collect();
    let results: Vec<Value> = o
        .results
        .iter()
        .map(|r| {
            let (rule, level) = match &r.verdict {
                Verdict::Test { .. } | Verdict::Covered { .. } => (0, "note"),
                Verdict::Dead(_) => (1, "warning"),
                Verdict::Unknown(_) | Verdict::Error(_) => (2, "note"),
            };
            let uri = crate::check_cmd::file_uri(&r.file.display().to_string());
            json!({
                "ruleId": RULES[rule].0,
                "ruleIndex": rule,
                "level": level,
                "message": {"text": verdict_text(&r.verdict, o.dry_run)},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": uri},
                    "region": {"startLine": r.line},
                }}],
            })
        })
        .collect();
    crate::check_cmd::sarif_log(rules, results, counts(&o.results).errors == 0, summary_json(o))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use expect_test::expect;
    use jreach_fill::LineResult;

    use super::*;

    fn outcome() -> Outcome {
        let file = PathBuf::from("/nowhere/shop/Cart.java");
        let r = |line: usize, statement: &str, verdict: Verdict| LineResult {
            file: file.clone(),
            line,
            statement: statement.into(),
            verdict,
        };
        Outcome {
            results: vec![
                r(
                    12,
                    "if (n > 3) {",
                    Verdict::Test {
                        test_file: PathBuf::from("/nowhere/test/shop/CartTest.java"),
                        method: "add_reachesLine12".into(),
                        verified: true,
                        note: None,
                        also_runs: vec![13],
                    },
                ),
                r(13, "total += n;", Verdict::Covered { by: "add_reachesLine12".into() }),
                r(20, "throw new AssertionError();", Verdict::Dead("`n < 0` is false: n = items.size()".into())),
                r(31, "return a | b;", Verdict::Unknown("a call jreach does not model".into())),
            ],
            not_statements: vec![(file.clone(), 4)],
            elapsed: Duration::from_secs(8),
            budget: Duration::from_secs(600),
            ..Outcome::default()
        }
    }

    #[test]
    fn markdown_has_the_counts_and_a_row_per_statement() {
        expect![[r#"
            ### jreach fill

            4 uncovered statements: 1 got a test, 1 covered by it, 1 dead, 1 unknown in 8.0 s (0.50 statements/s).

            | | Line | Statement | Result |
            |---|---|---|---|
            | ✅ | `/nowhere/shop/Cart.java:12` | `if (n > 3) {` | test `CartTest.add_reachesLine12` |
            | ✅ | `/nowhere/shop/Cart.java:13` | `total += n;` | covered by `add_reachesLine12` |
            | 🪦 | `/nowhere/shop/Cart.java:20` | `throw new AssertionError();` | dead: `n < 0` is false: n = items.size() |
            | ❔ | `/nowhere/shop/Cart.java:31` | `return a \| b;` | unknown: a call jreach does not model |
        "#]]
        .assert_eq(&render(&outcome(), FillFormat::Markdown));
    }

    #[test]
    fn json_and_sarif_carry_every_statement() {
        let j = json_report(&outcome());
        assert_eq!(j["summary"]["tests"], 1);
        assert_eq!(j["summary"]["unreachable"], 1);
        assert_eq!(j["lines"][0]["also_runs"], json!([13]));
        assert_eq!(j["lines"][2]["status"], "unreachable");
        let s = sarif(&outcome());
        assert_eq!(s["version"], "2.1.0");
        let results = s["runs"][0]["results"].as_array().unwrap();
        assert_eq!(results.len(), 4);
        assert_eq!(results[2]["ruleId"], "jreach.fill.unreachable");
        assert_eq!(results[2]["level"], "warning");
        assert_eq!(results[2]["locations"][0]["physicalLocation"]["region"]["startLine"], 20);
    }
}
