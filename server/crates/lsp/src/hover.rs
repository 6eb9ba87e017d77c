//! `textDocument/hover` on a statement: what jreach knows of whether it can run, in words.
//!
//! Dead code and constant conditions say what their warning says; elsewhere the method's verdict
//! of the last check of the document at its current version: no dead code found (with the action
//! that shows inputs running the line), not decided (why, and the setting that may help), not
//! checked (`@SuppressWarnings("jreach")`), or still being checked. A statement that a test jreach
//! wrote runs (its comment names the statement, or says it also runs the line: [`witness`]) is
//! reachable, and the hover names that test and its call. A plain function of the document and
//! what the check left, so tests call exactly what the server runs.

use std::ops::Range;

use jreach_ide::{Finding, MethodVerdict, SUPPRESSED, UNREACHABLE_CODE};
use jreach_syntax::{find_target, SourceFile};
use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind};

use crate::position::{self, Encoding};

/// What the last complete check said of one method: its range in the document at the checked
/// version, its signature, its verdict.
#[derive(Clone, Debug)]
pub struct CheckedMethod {
    pub range: Range<usize>,
    pub signature: String,
    pub verdict: MethodVerdict,
}

/// A test jreach wrote that runs a statement: where its comment is (`CalcTest.java:12`) and its
/// last statement, the call that runs the code (`assertEquals(1, Calc.classify(17));`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    pub at: String,
    pub call: Option<String>,
}

/// The jreach test among `file`'s tests under `test_root` (read with `read`) that runs 0-based
/// `line` of `file`, per the tests' comments (see [`jreach_fill::covered_by_earlier_tests`]).
pub fn witness(
    file: &SourceFile,
    line: usize,
    test_root: &std::path::Path,
    read: jreach_fill::statements::ReadTest<'_>,
) -> Option<Witness> {
    let covered = jreach_fill::covered_by_earlier_tests(file, test_root, read);
    let at = covered.get(&(line + 1))?.clone();
    // The test's last statement, below its comment: `CalcTest.java:12` names the comment's line.
    let (name, comment_line) = at.rsplit_once(':')?;
    let comment_line: usize = comment_line.parse().ok()?;
    let path = test_root.join(file.package().unwrap_or_default().replace('.', "/")).join(name);
    let text = read(&path).ok().flatten()?;
    let call = text
        .lines()
        .skip(comment_line)
        .map(str::trim)
        .take_while(|l| *l != "}")
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .last()
        .map(str::to_string);
    Some(Witness { at, call })
}

/// The hover at byte `offset` of `file`: `None` off statements. `findings` are the document's
/// findings and `methods` its methods' verdicts, both of the current version (`None` while the
/// check of that version has not finished); `diagnostics` says whether checks run at all;
/// `witness`, a jreach test that runs the statement's line, if any.
pub fn hover(
    file: &SourceFile,
    offset: usize,
    findings: &[Finding],
    methods: Option<&[CheckedMethod]>,
    diagnostics: bool,
    witness: Option<&Witness>,
    enc: Encoding,
) -> Option<Hover> {
    let line = file.lines.line_of(offset);
    let target = find_target(file, line).ok()?;
    let stmt = &target.stmt;
    let text = match witness.filter(|_| diagnostics) {
        // A test runs it: that says more than any verdict (findings cannot cover a line a test
        // runs; if one did, the warning is what the user must see).
        Some(w) if !findings.iter().any(|f| f.code() == UNREACHABLE_CODE && f.range.contains(&stmt.start)) => {
            let call = w.call.as_deref().map(|c| format!(": `{c}`")).unwrap_or_default();
            format!("**jreach: reachable.** A test jreach wrote runs it ({}){call}", w.at)
        }
        _ => hover_text(file, &target, findings, methods, diagnostics)?,
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: text }),
        range: Some(position::range(&file.text, &file.lines, stmt.start..line_end(file, stmt), enc)),
    })
}

/// The end of the statement's first line (a hover covers what the cursor is on, not a whole
/// block).
fn line_end(file: &SourceFile, stmt: &Range<usize>) -> usize {
    file.text[stmt.clone()].find('\n').map_or(stmt.end, |n| stmt.start + n)
}

fn hover_text(
    file: &SourceFile,
    target: &jreach_syntax::Target,
    findings: &[Finding],
    methods: Option<&[CheckedMethod]>,
    diagnostics: bool,
) -> Option<String> {
    let stmt = &target.stmt;
    let covers = |r: &Range<usize>| r.start <= stmt.start && stmt.start < r.end;
    let on_line = |r: &Range<usize>| file.lines.line_of(r.start) == target.line;
    // Dead code the statement is in, or a condition on its line.
    if let Some(f) = findings.iter().find(|f| f.code() == UNREACHABLE_CODE && covers(&f.range)) {
        return Some(format!("**jreach: can never run.** {}", f.message(&file.lines)));
    }
    let conditions: Vec<String> = findings
        .iter()
        .filter(|f| f.code() != UNREACHABLE_CODE && on_line(&f.range))
        .map(|f| f.message(&file.lines))
        .collect();
    if !conditions.is_empty() {
        return Some(format!("**jreach:** {}", conditions.join("\n\n")));
    }
    if !diagnostics {
        return None;
    }
    let line = target.line + 1;
    let generate = format!("For inputs that run it: *Generate test reaching line {line}* (Refactor…).");
    if let Some(inside) = target.enclosure {
        return Some(format!(
            "**jreach: not judged.** Line {line} is in {}, which runs when the code it is handed to calls it; \
             the check of `{}` does not follow that. {generate}",
            inside.describe(),
            target.method.signature()
        ));
    }
    let Some(methods) = methods else {
        return Some("**jreach:** still checking this file.".to_string());
    };
    let m = methods.iter().find(|m| m.range.start == target.method.range.start)?;
    Some(match &m.verdict {
        MethodVerdict::Verdict => format!(
            "**jreach: no dead code found.** The check of `{}` found a way to line {line} (calls it does not \
             see into may return anything there). {generate}",
            m.signature
        ),
        MethodVerdict::NoVerdict(why) if why == SUPPRESSED => {
            format!(
                "**jreach: not checked.** `@SuppressWarnings(\"jreach\")` turns the check of `{}` off.",
                m.signature
            )
        }
        MethodVerdict::NoVerdict(why) => {
            format!("**jreach: unknown.** The check of `{}` could not decide {}{}", m.signature, plain(why), help(why))
        }
    })
}

/// A reason the check gave, in words (it ends the sentence "could not decide ...").
fn plain(why: &str) -> String {
    let why = why.strip_prefix("solver: ").unwrap_or(why);
    if why == "syntax errors" {
        return "it: the method has syntax errors.".to_string();
    }
    format!("whether every statement can run: {why}.")
}

/// What may help, for the reasons that a setting or an edit can change.
fn help(why: &str) -> &'static str {
    if why.contains("ran out") {
        " A longer time limit may help: the `jreach.diagnostics.timeout` setting (`checkTimeout` in Neovim)."
    } else if why == "syntax errors" {
        " Fix them and the check runs again."
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};
    use jreach_syntax::MethodInfo;

    const SRC: &str = "class A {\n    static int f(int x) {\n        if (x > 5 && x < 3) {\n            return 1;\n        }\n        Runnable r = () -> {\n            System.out.println(x);\n        };\n        return x;\n    }\n    @SuppressWarnings(\"jreach\")\n    static int g(int x) {\n        return x;\n    }\n}\n";

    fn methods(file: &SourceFile, verdicts: &[MethodVerdict]) -> Vec<CheckedMethod> {
        MethodInfo::all(file)
            .into_iter()
            .zip(verdicts)
            .map(|(m, v)| CheckedMethod { range: m.range.clone(), signature: m.signature(), verdict: v.clone() })
            .collect()
    }

    fn at(line: usize, findings: &[Finding], methods: Option<&[CheckedMethod]>, expect: Expect) {
        let file = SourceFile::parse(SRC);
        let offset = file.lines.line_range(line).expect("a line").start + 8;
        let text = match hover(&file, offset, findings, methods, true, None, Encoding::Utf16).map(|h| h.contents) {
            Some(HoverContents::Markup(m)) => m.value,
            other => format!("{other:?}"),
        };
        expect.assert_eq(&text);
    }

    #[test]
    fn dead_code_and_conditions_say_what_their_warnings_say() {
        let file = SourceFile::parse(SRC);
        let report = jreach_ide::check_file(&file, std::time::Duration::from_secs(5));
        assert!(!report.findings.is_empty(), "{report:?}");
        at(
            3,
            &report.findings,
            None,
            expect!["**jreach: can never run.** unreachable code: `x < 3` can never hold here: `x > 5` (line 3)"],
        );
        at(2, &report.findings, None, expect!["**jreach:** condition `x < 3` is always false: `x > 5` (line 3)"]);
    }

    #[test]
    fn elsewhere_the_methods_verdict_in_words() {
        let file = SourceFile::parse(SRC);
        let decided = methods(&file, &[MethodVerdict::Verdict, MethodVerdict::NoVerdict(SUPPRESSED.into())]);
        at(8, &[], Some(&decided), expect!["**jreach: no dead code found.** The check of `f(int)` found a way to line 9 (calls it does not see into may return anything there). For inputs that run it: *Generate test reaching line 9* (Refactor…)."]);
        at(
            12,
            &[],
            Some(&decided),
            expect![[r#"**jreach: not checked.** `@SuppressWarnings("jreach")` turns the check of `g(int)` off."#]],
        );
        at(6, &[], Some(&decided), expect!["**jreach: not judged.** Line 7 is in a lambda, which runs when the code it is handed to calls it; the check of `f(int)` does not follow that. For inputs that run it: *Generate test reaching line 7* (Refactor…)."]);
        let timed_out = methods(&file, &[MethodVerdict::NoVerdict("solver: a solver query ran out of its 2 s".into())]);
        at(
            8,
            &[],
            Some(&timed_out),
            expect![[
                r#"**jreach: unknown.** The check of `f(int)` could not decide whether every statement can run: a solver query ran out of its 2 s. A longer time limit may help: the `jreach.diagnostics.timeout` setting (`checkTimeout` in Neovim)."#
            ]],
        );
        at(8, &[], None, expect![[r#"**jreach:** still checking this file."#]]);
        // Off statements (a class's line, a blank one): nothing.
        at(0, &[], Some(&decided), expect![[r#"None"#]]);
    }

    #[test]
    fn a_statement_a_jreach_test_runs_is_reachable_and_the_test_is_named() {
        let file = SourceFile::parse(format!("package p;\n{SRC}").as_str());
        let test = "package p;\nclass ATest {\n    @Test\n    void f_reachesLine10() {\n        // Reaches line 10: return x;\n        // Path: !(x > 5)\n        assertEquals(1, A.f(1));\n    }\n}\n";
        let root = std::path::Path::new("/t");
        let read = |p: &std::path::Path| Ok((p == root.join("p/ATest.java")).then(|| test.to_string()));
        let w = witness(&file, 9, root, &read).expect("a witness for line 10");
        assert_eq!(w, Witness { at: "ATest.java:5".into(), call: Some("assertEquals(1, A.f(1));".into()) });
        assert_eq!(witness(&file, 4, root, &read), None, "line 5 is not named by the test");
        let offset = file.lines.line_range(9).unwrap().start + 8;
        let text = match hover(&file, offset, &[], None, true, Some(&w), Encoding::Utf16).map(|h| h.contents) {
            Some(HoverContents::Markup(m)) => m.value,
            other => format!("{other:?}"),
        };
        expect!["**jreach: reachable.** A test jreach wrote runs it (ATest.java:5): `assertEquals(1, A.f(1));`"]
            .assert_eq(&text);
    }
}
