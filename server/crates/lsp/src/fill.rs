//! "Generate tests for the N uncovered statements": the workspace's JaCoCo report, the
//! statements of a file no test runs, the code lens that offers their tests, and the one
//! workspace edit that adds them all (annotated, so that a client that can shows it for preview
//! before it changes anything). Plain functions of their inputs, as in [`crate::analysis`]; the
//! solving one ([`fill`]) must run on a blocking thread.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::SystemTime;

use jreach_fill::coverage::{self, Coverage};
use jreach_fill::statements::ReadTest;
use jreach_fill::{
    covered_by_earlier_tests, fill_file, options_for_file, statement_line, Counts, FillOptions, Filled, Jvm,
    LineResult, Verdict,
};
use jreach_ide::{Finding, UNREACHABLE_CODE};
use jreach_syntax::{LineIndex, SourceFile};
use jreach_synth::{JUnit, Placement};
use tower_lsp_server::ls_types::{
    AnnotatedTextEdit, ChangeAnnotation, CodeLens, Command, CreateFile, CreateFileOptions, DocumentChangeOperation,
    DocumentChanges, OneOf, OptionalVersionedTextDocumentIdentifier, Position, Range, ResourceOp, TextDocumentEdit,
    TextEdit, Uri, WorkspaceEdit,
};

use crate::config::Settings;
use crate::position::{self, Encoding};

/// The command behind the code lens; its argument is `{"uri": ...}`.
pub const FILL_COMMAND: &str = "jreach.fillFile";

/// The JaCoCo reports of a workspace as read, with the source roots their files are under.
#[derive(Debug)]
pub struct WorkspaceCoverage {
    /// Each report and when it was written, as read.
    reports: Vec<(PathBuf, Option<SystemTime>)>,
    coverage: Coverage,
    roots: Vec<PathBuf>,
}

fn modified(p: &Path) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

impl WorkspaceCoverage {
    /// The reports at the usual places under `root` (`target/site/jacoco/jacoco.xml`, Gradle's,
    /// here or in a module folder below), merged; `Ok(None)` when there is none, `Err` when one
    /// cannot be read.
    pub fn load(root: &Path) -> Result<Option<WorkspaceCoverage>, String> {
        let found = coverage::find_reports(root);
        if found.is_empty() {
            return Ok(None);
        }
        let mut cov = Coverage::default();
        for r in &found {
            cov.merge(coverage::read(r)?);
        }
        let roots = coverage::source_roots(&found, root);
        let reports = found
            .into_iter()
            .map(|r| {
                let m = modified(&r);
                (r, m)
            })
            .collect();
        Ok(Some(WorkspaceCoverage { reports, coverage: cov, roots }))
    }

    /// Whether the reports under `root` are still the ones read (none added, removed or
    /// rewritten).
    pub fn is_current(&self, root: &Path) -> bool {
        let found = coverage::find_reports(root);
        found.len() == self.reports.len()
            && found.iter().zip(&self.reports).all(|(f, (r, m))| f == r && modified(f) == *m)
    }

    /// The lines of `path` with code no test ran, per the reports; `None` when no report names
    /// the file.
    pub fn uncovered_lines(&self, path: &Path) -> Option<Vec<usize>> {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.roots.iter().find_map(|root| {
            let rel = path.strip_prefix(root).ok()?;
            let rel: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            let rel = rel.join("/");
            self.coverage.files.contains_key(&rel).then(|| self.coverage.uncovered(&rel))
        })
    }

    /// Whether `path` changed after the oldest report was written: the report's line numbers
    /// may then name other statements.
    pub fn older_than(&self, path: &Path) -> bool {
        let oldest = self.reports.iter().filter_map(|(_, m)| *m).min();
        matches!((oldest, modified(path)), (Some(o), Some(f)) if f > o)
    }
}

/// The statements of a file that no test runs: what the code lens counts and the command fills.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Uncovered {
    /// 1-based lines where those statements start.
    pub lines: BTreeSet<usize>,
}

/// The statements of `file` (saved at `path`) that the report says no test runs, less those
/// jreach's earlier tests under `test_root` cover (their comments, read with `read_test`) and
/// those shown `dead`.
pub fn uncovered(
    cov: &WorkspaceCoverage,
    path: &Path,
    file: &SourceFile,
    test_root: &Path,
    read_test: ReadTest<'_>,
    dead: &[Finding],
) -> Uncovered {
    let Some(lines) = cov.uncovered_lines(path) else { return Uncovered::default() };
    let earlier = covered_by_earlier_tests(file, test_root, read_test);
    let is_dead = |line: usize| {
        // The line's first non-blank byte, where its statement starts.
        let Some(range) = file.lines.line_range(line - 1) else { return false };
        let Some(at) = file.text[range.clone()].find(|c: char| !c.is_whitespace()) else { return false };
        let start = range.start + at;
        dead.iter().any(|f| f.code() == UNREACHABLE_CODE && f.range.contains(&start))
    };
    let lines = lines
        .into_iter()
        .filter_map(|l| statement_line(file, l))
        .filter(|l| !earlier.contains_key(l) && !is_dead(*l))
        .collect();
    Uncovered { lines }
}

fn statements(n: usize) -> String {
    format!("{n} uncovered statement{}", if n == 1 { "" } else { "s" })
}

/// "Generate tests for the 3 uncovered statements": the code lens.
pub fn title(n: usize) -> String {
    format!("Generate tests for the {}", statements(n))
}

/// "jreach: tests for the 3 uncovered statements of Cart.java": the progress while they are made.
pub fn progress_title(n: usize, file_name: &str) -> String {
    format!("jreach: tests for the {} of {file_name}", statements(n))
}

/// The code lens on the line of the file's first top-level type, offering the tests for its
/// uncovered statements; none when there are none.
pub fn lens(uri: &Uri, file: &SourceFile, uncovered: &Uncovered) -> Option<CodeLens> {
    if uncovered.lines.is_empty() {
        return None;
    }
    let root = file.tree.root_node();
    let mut c = root.walk();
    let top = root.named_children(&mut c).find(|n| {
        matches!(n.kind(), "class_declaration" | "enum_declaration" | "record_declaration" | "interface_declaration")
    })?;
    let line = file.lines.line_of(top.child_by_field_name("name").unwrap_or(top).start_byte()) as u32;
    let command = Command {
        title: title(uncovered.lines.len()),
        command: FILL_COMMAND.to_string(),
        arguments: Some(vec![serde_json::json!({ "uri": uri })]),
    };
    Some(CodeLens {
        range: Range::new(Position::new(line, 0), Position::new(line, 0)),
        command: Some(command),
        data: None,
    })
}

/// What [`fill`] needs besides the file.
pub struct FillContext<'a> {
    pub settings: &'a Settings,
    pub test_root: PathBuf,
    /// Set to stop: the statement in work ends and the rest are not tried.
    pub cancel: Arc<AtomicBool>,
    /// Reads a test file as the editor has it (an open buffer), else from disk.
    pub read_test: ReadTest<'a>,
}

/// Answers `lines` of `file` (saved at `path`), a test, a proof or a reason each, on a JVM of
/// its own (the server's stays free for single requests); `progress` hears each result.
pub fn fill(
    path: &Path,
    file: &SourceFile,
    lines: &BTreeSet<usize>,
    cx: &FillContext<'_>,
    progress: &mut dyn FnMut(&LineResult),
) -> Filled {
    let settings = cx.settings;
    let base = jreach_ide::GenOptions { cancel: Some(cx.cancel.clone()), ..settings.gen_options(JUnit::V5) };
    let opts = FillOptions {
        test_root: cx.test_root.clone(),
        gen: options_for_file(path, &file.text, settings.junit.fixed(), base),
        search: jreach_jvm::verify::DEFAULT_SEARCH_BUDGET.as_secs_f64(),
        deadline: None,
        stop_reason: "the request was cancelled".to_string(),
    };
    let mut jvm = Jvm::new(settings.classpath.clone(), !settings.run_code, opts.search);
    fill_file(path, file, lines, &opts, &mut jvm, cx.read_test, progress)
}

/// The id of the change annotation of a fill's edit.
const ANNOTATION: &str = "jreach.fill";

/// One workspace edit that brings every test file of `tests` from its text before to its text
/// with the new tests: created when new, replaced whole otherwise (at the version the editor has
/// open, from `open_version`). With `annotate`, every change carries one annotation asking for
/// confirmation, `label` and `description`: a client that supports it shows the edit for
/// preview first.
pub fn workspace_edit(
    tests: &[Placement],
    enc: Encoding,
    open_version: &dyn Fn(&Uri) -> Option<i32>,
    annotate: Option<(String, String)>,
) -> Result<WorkspaceEdit, String> {
    let id = annotate.as_ref().map(|_| ANNOTATION.to_string());
    let edit = |range: Range, text: &str| match &id {
        Some(id) => OneOf::Right(AnnotatedTextEdit {
            text_edit: TextEdit { range, new_text: text.to_string() },
            annotation_id: id.clone(),
        }),
        None => OneOf::Left(TextEdit { range, new_text: text.to_string() }),
    };
    let mut ops = Vec::new();
    for p in tests {
        let uri =
            Uri::from_file_path(&p.path).ok_or_else(|| format!("{} cannot be named by a URI", p.path.display()))?;
        match &p.original {
            None => {
                ops.push(DocumentChangeOperation::Op(ResourceOp::Create(CreateFile {
                    uri: uri.clone(),
                    options: Some(CreateFileOptions { overwrite: Some(false), ignore_if_exists: Some(true) }),
                    annotation_id: id.clone(),
                })));
                ops.push(DocumentChangeOperation::Edit(TextDocumentEdit {
                    text_document: OptionalVersionedTextDocumentIdentifier { uri, version: None },
                    edits: vec![edit(Range::default(), &p.content)],
                }));
            }
            Some(original) => {
                let version = open_version(&uri);
                let edits = line_edits(original, &p.content, enc).into_iter().map(|(r, t)| edit(r, &t)).collect();
                ops.push(DocumentChangeOperation::Edit(TextDocumentEdit {
                    text_document: OptionalVersionedTextDocumentIdentifier { uri, version },
                    edits,
                }));
            }
        }
    }
    let change_annotations = annotate.map(|(label, description)| {
        HashMap::from([(
            ANNOTATION.to_string(),
            ChangeAnnotation { label, needs_confirmation: Some(true), description: Some(description) },
        )])
    });
    Ok(WorkspaceEdit {
        document_changes: Some(DocumentChanges::Operations(ops)),
        change_annotations,
        ..Default::default()
    })
}

/// The edits that turn `old` into `new`, line by line: only what changed (the new tests, the
/// imports they need), so that a preview shows what is added rather than a file replaced.
fn line_edits(old: &str, new: &str, enc: Encoding) -> Vec<(Range, String)> {
    let diff = similar::TextDiff::from_lines(old, new);
    let lines = LineIndex::new(old);
    // Where each line of `old` starts, as the diff splits it (its line ends included).
    let mut starts = vec![0];
    for l in diff.old_slices() {
        starts.push(starts.last().copied().unwrap_or(0) + l.len());
    }
    let pos = |line: usize| position::position(old, &lines, starts[line.min(starts.len() - 1)], enc);
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut last_end = None;
    for op in diff.ops() {
        if op.tag() == similar::DiffTag::Equal {
            last_end = None;
            continue;
        }
        let text: String = diff.new_slices()[op.new_range()].concat();
        match (last_end, edits.last_mut()) {
            // Touching the previous change (a deletion, then an insertion): one edit.
            (Some(end), Some((range, t))) if end == op.old_range().start => {
                range.end = op.old_range().end;
                t.push_str(&text);
            }
            _ => edits.push((op.old_range(), text)),
        }
        last_end = Some(op.old_range().end);
    }
    edits.into_iter().map(|(r, t)| (Range::new(pos(r.start), pos(r.end)), t)).collect()
}

/// "2 tests covering 5 statements, 1 dead, 1 unknown": what a fill found, for a message.
pub fn summary(c: Counts) -> String {
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = vec![format!(
        "{} covering {}",
        plural(c.tests, "test", "tests"),
        plural(c.tests + c.covered, "statement", "statements")
    )];
    if c.dead > 0 {
        parts.push(format!("{} (see the warnings)", plural(c.dead, "dead statement", "dead statements")));
    }
    if c.unknown > 0 {
        parts.push(plural(c.unknown, "statement jreach cannot tell about", "statements jreach cannot tell about"));
    }
    if c.errors > 0 {
        parts.push(plural(c.errors, "error", "errors"));
    }
    parts.join(", ")
}

/// The verdict of one statement as JSON, for the command's answer.
pub fn result_json(r: &LineResult) -> serde_json::Value {
    use serde_json::json;
    match &r.verdict {
        Verdict::Test { test_file, method, verified, note, also_runs } => json!({"line": r.line, "status": "test",
            "path": test_file, "method": method, "verified": verified, "note": note, "alsoRuns": also_runs}),
        Verdict::Covered { by } => json!({"line": r.line, "status": "covered", "by": by}),
        Verdict::Dead(why) => json!({"line": r.line, "status": "unreachable", "message": why}),
        Verdict::Unknown(why) => json!({"line": r.line, "status": "unknown", "message": why}),
        Verdict::Error(why) => json!({"line": r.line, "status": "error", "message": why}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "package p;\n\npublic class A {\n    public static int f(int x) {\n        if (x > 5 && x < 3) {\n            dead();\n        }\n        if (x == 7) {\n            return 1;\n        }\n        return 0;\n    }\n    static void dead() {}\n}\n";

    /// A workspace with `p/A.java` and a report saying lines 6, 9 and 13 never ran.
    fn workspace() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src/main/java/p/A.java");
        std::fs::create_dir_all(src.parent().unwrap()).unwrap();
        std::fs::write(&src, SRC).unwrap();
        let report = dir.path().join("target/site/jacoco/jacoco.xml");
        std::fs::create_dir_all(report.parent().unwrap()).unwrap();
        let line = |nr: usize, ran: bool| {
            format!(
                r#"<line nr="{nr}" mi="{}" ci="{}" mb="0" cb="0"/>"#,
                if ran { 0 } else { 2 },
                if ran { 2 } else { 0 }
            )
        };
        let lines: String = [(5, true), (6, false), (8, true), (9, false), (11, true), (13, false)]
            .iter()
            .map(|&(n, r)| line(n, r))
            .collect();
        std::fs::write(&report, format!(r#"<report name="w"><package name="p"><sourcefile name="A.java">{lines}</sourcefile></package></report>"#))
            .unwrap();
        (dir, src)
    }

    #[test]
    fn the_reports_uncovered_statements_less_dead_ones_and_earlier_tests() {
        let (dir, src) = workspace();
        let cov = WorkspaceCoverage::load(dir.path()).unwrap().expect("a report");
        assert_eq!(cov.uncovered_lines(&src), Some(vec![6, 9, 13]));
        assert!(cov.is_current(dir.path()));
        let file = SourceFile::parse(SRC);
        let root = dir.path().join("src/test/java");
        let none = |_: &Path| Ok(None);
        // Line 13 is a one-line method's declaration: code, but no statement to target.
        assert_eq!(uncovered(&cov, &src, &file, &root, &none, &[]).lines, BTreeSet::from([6, 9]));
        let dead = Finding {
            range: SRC.find("dead();").unwrap()..SRC.find("dead();").unwrap() + 7,
            method: "f(int)".into(),
            kind: jreach_ide::FindingKind::Unreachable(None),
            related: vec![],
        };
        assert_eq!(uncovered(&cov, &src, &file, &root, &none, &[dead]).lines, BTreeSet::from([9]));
        let earlier = |_: &Path| Ok(Some("class ATest {\n  // Reaches line 9: return 1;\n}\n".to_string()));
        assert_eq!(uncovered(&cov, &src, &file, &root, &earlier, &[]).lines, BTreeSet::from([6]));
        // The lens sits on the class's line and counts them.
        let uri = Uri::from_file_path(&src).unwrap();
        let l = lens(&uri, &file, &Uncovered { lines: BTreeSet::from([6, 9]) }).expect("a lens");
        assert_eq!(l.range.start.line, 2);
        assert_eq!(l.command.unwrap().title, "Generate tests for the 2 uncovered statements");
        assert!(lens(&uri, &file, &Uncovered::default()).is_none());
        // A rewritten report is noticed.
        let report = dir.path().join("target/site/jacoco/jacoco.xml");
        let later = SystemTime::now() + std::time::Duration::from_secs(5);
        std::fs::File::options().write(true).open(&report).unwrap().set_modified(later).unwrap();
        assert!(!cov.is_current(dir.path()));
        assert!(!cov.older_than(&src));
        let cov = WorkspaceCoverage::load(dir.path()).unwrap().unwrap();
        std::fs::File::options()
            .write(true)
            .open(&src)
            .unwrap()
            .set_modified(later + std::time::Duration::from_secs(5))
            .unwrap();
        assert!(cov.older_than(&src));
    }

    #[test]
    fn one_annotated_edit_creates_new_test_files_and_replaces_existing_ones() {
        let new = Placement {
            path: PathBuf::from("/w/src/test/java/p/ATest.java"),
            content: "class ATest {}\n".into(),
            created: true,
            method_name: "f_reachesLine9".into(),
            original: None,
            junit: JUnit::V5,
            duplicate_of: None,
            replaced: None,
        };
        let old = Placement {
            path: PathBuf::from("/w/src/test/java/p/BTest.java"),
            content: "class BTest {\n  void t() {}\n}\n".into(),
            created: false,
            method_name: "g_reachesLine3".into(),
            original: Some("class BTest {\n}\n".into()),
            junit: JUnit::V5,
            duplicate_of: None,
            replaced: None,
        };
        let version = |u: &Uri| u.as_str().ends_with("BTest.java").then_some(4);
        let annotate = Some(("jreach: 2 tests".to_string(), "for A.java".to_string()));
        let edit = workspace_edit(&[new.clone(), old.clone()], Encoding::Utf16, &version, annotate).unwrap();
        let json = serde_json::to_value(&edit).unwrap();
        let ops = json["documentChanges"].as_array().unwrap();
        assert_eq!(ops.len(), 3);
        assert_eq!(ops[0]["kind"], "create");
        assert_eq!(ops[0]["annotationId"], ANNOTATION);
        assert_eq!(ops[1]["edits"][0]["newText"], "class ATest {}\n");
        assert_eq!(ops[2]["textDocument"]["version"], 4);
        // Only the added line, not the whole file: what a preview shows.
        assert_eq!(ops[2]["edits"].as_array().unwrap().len(), 1);
        assert_eq!(
            ops[2]["edits"][0]["range"],
            serde_json::json!({"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}})
        );
        assert_eq!(ops[2]["edits"][0]["newText"], "  void t() {}\n");
        assert_eq!(ops[2]["edits"][0]["annotationId"], ANNOTATION);
        assert_eq!(json["changeAnnotations"][ANNOTATION]["needsConfirmation"], true);
        // Without annotation support: plain edits.
        let plain = serde_json::to_value(workspace_edit(&[old], Encoding::Utf16, &version, None).unwrap()).unwrap();
        assert!(plain["documentChanges"][0]["edits"][0].get("annotationId").is_none());
        assert!(plain.get("changeAnnotations").is_none());
    }

    /// Applies `edits` (LSP ranges over `text`, UTF-8 columns) to `text`.
    fn apply(text: &str, edits: &[(Range, String)]) -> String {
        let lines = LineIndex::new(text);
        let mut out = text.to_string();
        for (r, t) in edits.iter().rev() {
            let bytes = position::byte_range(text, &lines, *r, Encoding::Utf8);
            out.replace_range(bytes, t);
        }
        out
    }

    #[test]
    fn line_edits_turn_the_old_text_into_the_new() {
        let cases = [
            ("class T {\n}\n", "import a.B;\nclass T {\n  void t() {}\n}\n"),
            ("a\nb\nc", "a\nx\nc\nd"),
            ("", "new\n"),
            ("a\r\nb\r\n", "a\r\nz\r\nb\r\n"),
            ("x\ny\n", ""),
            ("é ✓\nb\n", "é ✓\nc\nb\n"),
        ];
        for (old, new) in cases {
            let edits = line_edits(old, new, Encoding::Utf8);
            assert_eq!(apply(old, &edits), new, "{old:?} -> {new:?}: {edits:?}");
        }
        // The import and the method: two edits, each only its lines.
        assert_eq!(line_edits(cases[0].0, cases[0].1, Encoding::Utf8).len(), 2);
    }

    #[test]
    fn summaries_count_what_was_found() {
        let c = Counts { statements: 7, tests: 2, covered: 3, dead: 1, unknown: 1, errors: 0 };
        assert_eq!(
            summary(c),
            "2 tests covering 5 statements, 1 dead statement (see the warnings), 1 statement jreach cannot tell about"
        );
        assert_eq!(summary(Counts { tests: 1, ..Counts::default() }), "1 test covering 1 statement");
    }
}
