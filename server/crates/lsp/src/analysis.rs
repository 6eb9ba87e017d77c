//! What the server computes, as plain functions of a document snapshot: diagnostics from
//! findings, the code actions of a line, and the workspace edit that adds a generated test.
//! No async and no client here, so the benchmark and the tests call exactly what the server
//! runs; the solving ones ([`generate`], [`MethodCache::check_file`]) must run on a blocking
//! thread, where the solver's thread-local state lives.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use jreach_ide::{
    concolic, gen, search_starts, searched_through_field, ConcolicLimits, Finding, GenError, GenOptions, GenResult,
    Limit, MethodCache, RunOnJvm, UNREACHABLE_CODE,
};
use jreach_jvm::{offer, Offer, SharedVerifier};
use jreach_syntax::{find_target, LineIndex, SourceFile, TargetError};
use jreach_synth::{self as synth, JUnit};
use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{
    AnnotatedTextEdit, ChangeAnnotation, CodeAction, CodeActionDisabled, CodeActionKind, CodeActionOrCommand, Command,
    CreateFile, CreateFileOptions, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag,
    DocumentChangeOperation, DocumentChanges, Location, NumberOrString, OneOf, OptionalVersionedTextDocumentIdentifier,
    Position, Range, ResourceOp, TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};

use crate::config::Settings;
use crate::hover::CheckedMethod;
use crate::position::{self, Encoding};

/// The command behind "Generate test reaching line N"; its argument is [`ActionData`].
pub const GENERATE_COMMAND: &str = "jreach.generateTest";
/// The command a resolved action that creates a test file carries, run by the client after it
/// applied the edit, with `{"path": ..., "method": ...}`: the server makes the file's folders, so that saving it
/// works in clients that create the file only as a buffer (Neovim). Only a path the server
/// itself offered is taken. The Neovim plugin runs it on its side (and saves the test).
pub const TEST_CREATED_COMMAND: &str = "jreach.testCreated";
/// The diagnostic code of a provably dead statement.
pub const DIAGNOSTIC_CODE: &str = UNREACHABLE_CODE;
pub const SOURCE: &str = "jreach";

/// What a generate-test action is about: carried as the code action's `data` and as the
/// command's argument. `line` is 0-based, as in LSP positions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionData {
    pub uri: Uri,
    pub line: u32,
    /// The document version the action was listed for, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<i32>,
    /// The client shows the test before writing it (a diff, a scratch buffer) and applies the
    /// edit itself once the user accepts: the command answers with the edit instead of applying
    /// it, and the new test replaces an earlier one for the same statement.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub preview: bool,
}

/// The warnings for `findings` in `file` (the document `uri`): dead code is tagged
/// `Unnecessary` (faded by editors); the conditions that contradict each other come as related
/// information. Dead code that a warning on a condition already explains (the body of an `if`
/// or a loop whose condition has a finding) is a hint: faded, with its message on hover, but
/// not a second entry in the problems list for one dead block.
pub fn diagnostics(uri: &Uri, file: &SourceFile, findings: &[Finding], enc: Encoding) -> Vec<Diagnostic> {
    let range = |r: &std::ops::Range<usize>| position::range(&file.text, &file.lines, r.clone(), enc);
    let conditions: Vec<&std::ops::Range<usize>> =
        findings.iter().filter(|f| f.code() != UNREACHABLE_CODE).map(|f| &f.range).collect();
    findings
        .iter()
        .map(|f| Diagnostic {
            range: range(&f.range),
            severity: Some(if f.code() == UNREACHABLE_CODE && explained_by_a_condition(file, &f.range, &conditions) {
                DiagnosticSeverity::HINT
            } else {
                DiagnosticSeverity::WARNING
            }),
            code: Some(NumberOrString::String(f.code().to_string())),
            source: Some(SOURCE.to_string()),
            message: f.message(&file.lines),
            tags: (f.code() == UNREACHABLE_CODE).then(|| vec![DiagnosticTag::UNNECESSARY]),
            related_information: (!f.related.is_empty()).then(|| {
                f.related
                    .iter()
                    .map(|r| DiagnosticRelatedInformation {
                        location: Location { uri: uri.clone(), range: range(&r.range) },
                        message: r.message.clone(),
                    })
                    .collect()
            }),
            ..Default::default()
        })
        .collect()
}

/// Whether the dead code at `dead` is (in) the body of an `if` or a loop whose condition holds
/// one of the `conditions` findings.
fn explained_by_a_condition(
    file: &SourceFile,
    dead: &std::ops::Range<usize>,
    conditions: &[&std::ops::Range<usize>],
) -> bool {
    let root = file.tree.root_node();
    let Some(mut n) = root.descendant_for_byte_range(dead.start, dead.start) else { return false };
    // The statements' block, then what it is the body of.
    while n.kind() != "block" {
        match n.parent() {
            Some(p) => n = p,
            None => return false,
        }
    }
    let Some(owner) = n.parent() else { return false };
    if !matches!(owner.kind(), "if_statement" | "while_statement" | "for_statement" | "do_statement") {
        return false;
    }
    let Some(cond) = owner.child_by_field_name("condition") else { return false };
    conditions.iter().any(|c| cond.start_byte() <= c.start && c.end <= cond.end_byte())
}

/// Whether a code action request's `only` (when it has one) asks for actions of `kind`: the
/// kind itself or a kind it refines (`refactor` asks for `refactor.extract` too).
pub fn wanted(kind: &CodeActionKind, only: Option<&[CodeActionKind]>) -> bool {
    only.map_or(true, |only| {
        only.iter().any(|k| kind.as_str() == k.as_str() || kind.as_str().starts_with(&format!("{}.", k.as_str())))
    })
}

/// How the client wants actions: resolved lazily (`data` + `codeAction/resolve`) or through the
/// command; as literals or as bare commands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionStyle {
    pub resolve: bool,
    pub literals: bool,
    pub disabled: bool,
}

pub fn title(line: u32) -> String {
    format!("Generate test reaching line {}", line + 1)
}

/// The generate-test action of the statement on the first line of `range`: instant (no solving).
/// A line jreach cannot target gets no action, or a disabled one saying why when it is a
/// statement the user may expect to target (inside a lambda, a method with syntax errors, a line
/// already proved dead).
/// Whether `file` is a test: under a `src/test/` folder, or a class that imports JUnit and has
/// `@Test` methods.
pub fn is_test_source(uri: &Uri, file: &SourceFile) -> bool {
    let under_test_root = uri.as_str().contains("/src/test/");
    let junit = file.text.contains("import org.junit") && file.text.contains("@Test");
    under_test_root || junit
}

pub fn list_actions(
    uri: &Uri,
    version: Option<i32>,
    file: &SourceFile,
    range: Range,
    dead: &[Finding],
    only: Option<&[CodeActionKind]>,
    style: ActionStyle,
) -> Vec<CodeActionOrCommand> {
    let kind = CodeActionKind::REFACTOR;
    if !wanted(&kind, only) {
        return vec![];
    }
    if is_test_source(uri, file) {
        // A test of a test is not what anyone wants (it wrote `OrderTestTest`).
        return vec![];
    }
    let line = range.start.line;
    let disabled_reason = match find_target(file, line as usize) {
        Ok(t) if t.method.has_error => {
            Some(format!("{} has syntax errors; fix them first (other methods still work)", t.method.signature()))
        }
        Ok(t) => dead
            .iter()
            .find(|f| f.code() == UNREACHABLE_CODE && f.range.contains(&t.stmt.start))
            .map(|f| f.message(&file.lines)),
        // (An anonymous class a field holds is searched through the methods reading the field.)
        Err(TargetError::InLocalOrAnonymousClass { .. }) if searched_through_field(file, line as usize) => None,
        Err(e @ (TargetError::InLambda { .. } | TargetError::InLocalOrAnonymousClass { .. })) => Some(e.to_string()),
        Err(_) => return vec![],
    };
    let data = ActionData { uri: uri.clone(), line, version, preview: false };
    let command = Command {
        title: title(line),
        command: GENERATE_COMMAND.to_string(),
        arguments: Some(vec![serde_json::to_value(&data).expect("plain data serialises")]),
    };
    if !style.literals {
        return match disabled_reason {
            Some(_) => vec![],
            None => vec![CodeActionOrCommand::Command(command)],
        };
    }
    if disabled_reason.is_some() && !style.disabled {
        return vec![];
    }
    let mut action = CodeAction { title: title(line), kind: Some(kind), ..Default::default() };
    match disabled_reason {
        Some(reason) => action.disabled = Some(CodeActionDisabled { reason }),
        None if style.resolve => action.data = Some(serde_json::to_value(&data).expect("plain data serialises")),
        None => action.command = Some(command),
    }
    vec![CodeActionOrCommand::CodeAction(action)]
}

/// What the client can do with a workspace edit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EditCaps {
    /// `documentChanges` (versioned edits, resource operations).
    pub document_changes: bool,
    /// `CreateFile` among the resource operations.
    pub create_file: bool,
}

/// Where a test goes.
#[derive(Clone, Debug, Default)]
pub struct Project {
    /// The workspace root (for a relative `testRoot`).
    pub root: Option<PathBuf>,
}

/// The result of asking for a test.
#[derive(Clone, Debug)]
pub enum Generated {
    /// The edit that adds the test (a new file or a method appended to the existing test class).
    /// `not_run`: `None` when the test ran on the JVM and ran its line, else why it was not run.
    /// `content` is the test file's new text; `replaced`, the earlier test for the same statement
    /// the new one replaces (only where the user sees the edit before it is applied).
    Edit {
        edit: WorkspaceEdit,
        path: PathBuf,
        method: String,
        created: bool,
        not_run: Option<String>,
        content: String,
        replaced: Option<String>,
    },
    /// The client cannot create files: the server wrote the new test file itself.
    Written { path: PathBuf, method: String, not_run: Option<String> },
    /// The test class has this test already (the same statements): nothing to add.
    Existing { path: PathBuf, method: String },
    /// No test: why (`status` is `unreachable`, `unknown`, `unsaved` or `error`), and the
    /// limit whose raising may help (its setting is offered).
    Declined { status: &'static str, message: String, may_help: Option<Limit> },
}

impl Generated {
    fn declined(status: &'static str, message: impl Into<String>) -> Generated {
        Generated::Declined { status, message: message.into(), may_help: None }
    }

    fn unknown(message: String, why: &jreach_ide::Unknown) -> Generated {
        Generated::Declined { status: "unknown", message, may_help: why.may_help }
    }
}

/// The text of an open document: its version and text, if open.
pub type OpenText<'a> = &'a dyn Fn(&Uri) -> Option<(i32, String)>;

/// What [`generate`] needs besides the target.
pub struct GenContext<'a> {
    pub settings: &'a Settings,
    pub project: &'a Project,
    /// The open documents (a test file open in the editor is edited as it is there).
    pub open_text: OpenText<'a>,
    pub caps: EditCaps,
    pub enc: Encoding,
    /// Set when the request is cancelled: stops the solver.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The server's JVM runner, which checks a test before it is offered; `None`: not run.
    pub verifier: Option<&'a SharedVerifier>,
    /// The user sees the edit before it is applied (a preview, or an edit that asks for
    /// confirmation): the new test may replace an earlier one for the same statement.
    pub replace_earlier: bool,
    /// The client can be asked to confirm a change (change annotations): a replacement asks.
    pub annotate: bool,
}

/// Generates the test reaching 0-based `line` of `file` (the document `uri`) and the edit that
/// adds it to the project's test sources. Solves: run it on a blocking thread.
pub fn generate(uri: &Uri, file: &SourceFile, line: u32, cx: &GenContext<'_>) -> Generated {
    let GenContext { settings, project, open_text, caps, enc, .. } = *cx;
    if is_test_source(uri, file) {
        return Generated::declined("unknown", "this file is a test: jreach writes tests for the code under test");
    }
    let source_path = uri.to_file_path().map(|p| p.into_owned());
    if let Some(p) = &source_path {
        // The test runs against the file as saved: made for other code, it would fail there.
        if jreach_synth::read_source(p).is_ok_and(|saved| saved != file.text) {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            return Generated::declined("unsaved", format!("save {name} first: tests are made for the file as saved"));
        }
    }
    let n = line + 1;
    let fixed = settings.junit.fixed();
    let base = GenOptions { cancel: cx.cancel.clone(), ..settings.gen_options(fixed.unwrap_or(JUnit::V5)) };
    // With the project around the saved file: its JUnit, its package's and imported sources.
    let opts = match &source_path {
        Some(p) => jreach_fill::options_for_file(p, &file.text, fixed, base),
        None => base,
    };
    let req = match gen(file, line as usize, &opts) {
        Err(GenError::Target(e)) if e.not_yet() => {
            return Generated::declined("unknown", format!("no test for line {n}: {e}"))
        }
        Err(e @ GenError::Target(_)) => return Generated::declined("error", e.to_string()),
        Err(e) => return Generated::declined("error", format!("no test for line {n}: {e}")),
        Ok(GenResult::Unreachable(why)) => return Generated::declined("unreachable", format!("unreachable: {why}")),
        Ok(GenResult::Unknown(why)) => {
            // jreach's model found nothing: concolic rounds (the model's inputs, with what the
            // calls it does not model return on the JVM), then a search on the JVM from the
            // simplest inputs, when code may run here.
            let (Some(p), Some(v), true) = (&source_path, cx.verifier, settings.run_code) else {
                return Generated::unknown(format!("no test for line {n}: {why}"), &why);
            };
            let limits = ConcolicLimits { time: jreach_jvm::verify::DEFAULT_SEARCH_BUDGET, ..Default::default() };
            let rounds = |run: RunOnJvm<'_>| concolic(file, line as usize, &opts, limits, run);
            if let Some(req) = v.concolic(&settings.classpath, p, &file.text, rounds) {
                Box::new(req)
            } else {
                let starts = search_starts(file, line as usize, &opts);
                if starts.is_empty() {
                    return Generated::unknown(format!("no test for line {n}: {why}"), &why);
                }
                match v.search(&settings.classpath, p, &file.text, &starts, cx.cancel.clone()) {
                    Ok(Some(req)) => Box::new(req),
                    Ok(None) => {
                        return Generated::unknown(
                            format!(
                                "no test for line {n}: {why}; a search on the JVM found no inputs that run it either"
                            ),
                            &why,
                        )
                    }
                    Err(searched) => {
                        return Generated::unknown(format!("no test for line {n}: {why} ({searched})"), &why)
                    }
                }
            }
        }
        Ok(GenResult::Test(req)) => req,
    };
    // Offered only after a run on the JVM shows it runs its line, or, when it cannot run, if
    // jreach models its whole path. (A test the search found was run already; running it again
    // costs a few milliseconds with the warm runner.)
    let offered = match (&source_path, cx.verifier) {
        (_, _) if !settings.run_code => offer(Err("not run (jreach.runCode is off)".into()), Path::new(""), "", *req),
        (None, _) => offer(Err("not run: the file is not saved on disk".into()), Path::new(""), "", *req),
        (Some(p), Some(v)) => v.offer(&settings.classpath, p, &file.text, *req),
        (Some(_), None) => offer(Err("not run".into()), Path::new(""), "", *req),
    };
    let (req, not_run) = match offered {
        Offer::Verified(req) => (req, None),
        Offer::Unverified(req, why) => (req, Some(why)),
        Offer::Declined(why) => {
            // The model's inputs missed on the JVM (and a search from them found nothing): the
            // searches from the other ways in may still find some.
            let found = match (&source_path, cx.verifier, settings.run_code) {
                (Some(p), Some(v), true) => {
                    let starts = search_starts(file, line as usize, &opts);
                    match starts.is_empty() {
                        true => None,
                        false => {
                            v.search(&settings.classpath, p, &file.text, &starts, cx.cancel.clone()).ok().flatten()
                        }
                    }
                }
                _ => None,
            };
            match found {
                Some(req) => (Box::new(req), None),
                None => return Generated::declined("unknown", format!("no test for line {n}: {why}")),
            }
        }
    };
    let Some(root) = test_root(settings, project, source_path.as_deref(), req.package.as_deref()) else {
        return Generated::declined("error", "the file is not saved on disk and no jreach.testRoot is set");
    };
    let path = match synth::test_path(&root, &req) {
        Ok(path) => path,
        Err(e) => return Generated::declined("error", e.to_string()),
    };
    let Some(test_uri) = Uri::from_file_path(&path) else {
        return Generated::declined("error", format!("{} cannot be named by a file URI", path.display()));
    };
    let (open_version, existing) = match open_text(&test_uri) {
        Some((v, text)) => (Some(v), Some(text)),
        None => match jreach_synth::read_source(&path) {
            Ok(text) => (None, Some(text)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => (None, None),
            Err(e) => return Generated::declined("error", format!("cannot read the test file: {e}")),
        },
    };
    // An earlier jreach test whose comment names this statement is replaced, when the user will
    // see the replacement before it happens.
    let same_target = |m: &jreach_synth::Marker| {
        cx.replace_earlier && jreach_fill::target_of_marker(file, m) == Some(req.target_line)
    };
    let placed = match synth::place_replacing(path.clone(), existing, &req, &same_target) {
        Ok(p) => p,
        Err(e) => return Generated::declined("error", format!("cannot add the test: {e}")),
    };
    let method = placed.method_name.clone();
    if placed.duplicate_of.is_some() {
        return Generated::Existing { path, method };
    }
    match &placed.original {
        None if !(caps.document_changes && caps.create_file) => match synth::write(&placed) {
            Ok(()) => Generated::Written { path, method, not_run },
            Err(e) => Generated::declined("error", format!("cannot write {}: {e}", path.display())),
        },
        None => {
            // Nothing is created here (resolving an action must not change the disk): the
            // client creates the file; the test's folders are made once the edit is applied
            // (`TEST_CREATED_COMMAND`, or before `workspace/applyEdit` for the command).
            let create = DocumentChangeOperation::Op(ResourceOp::Create(CreateFile {
                uri: test_uri.clone(),
                options: Some(CreateFileOptions { overwrite: Some(false), ignore_if_exists: Some(true) }),
                annotation_id: None,
            }));
            let insert = TextEdit { range: Range::default(), new_text: placed.content.clone() };
            let edit = DocumentChangeOperation::Edit(TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier { uri: test_uri, version: None },
                edits: vec![OneOf::Left(insert)],
            });
            let edit = WorkspaceEdit {
                document_changes: Some(DocumentChanges::Operations(vec![create, edit])),
                ..Default::default()
            };
            Generated::Edit { edit, path, method, created: true, not_run, content: placed.content, replaced: None }
        }
        Some(original) => {
            let lines = LineIndex::new(original);
            let end = position::position(original, &lines, original.len(), enc);
            let replace = TextEdit { range: Range::new(Position::new(0, 0), end), new_text: placed.content.clone() };
            // Replacing an earlier test asks the user to confirm, where the client can be asked.
            let confirm = placed.replaced.as_ref().filter(|_| cx.annotate && caps.document_changes).map(|old| {
                let label = format!("jreach: replace the test {old}");
                let description = format!("{method} replaces {old}, an earlier test for the same statement");
                HashMap::from([(
                    REPLACE_ANNOTATION.to_string(),
                    ChangeAnnotation { label, needs_confirmation: Some(true), description: Some(description) },
                )])
            });
            let edit = if caps.document_changes {
                let edit = match &confirm {
                    Some(_) => {
                        OneOf::Right(AnnotatedTextEdit { text_edit: replace, annotation_id: REPLACE_ANNOTATION.into() })
                    }
                    None => OneOf::Left(replace),
                };
                WorkspaceEdit {
                    document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                        text_document: OptionalVersionedTextDocumentIdentifier { uri: test_uri, version: open_version },
                        edits: vec![edit],
                    }])),
                    change_annotations: confirm,
                    ..Default::default()
                }
            } else {
                WorkspaceEdit { changes: Some(HashMap::from([(test_uri, vec![replace])])), ..Default::default() }
            };
            Generated::Edit {
                edit,
                path,
                method,
                created: false,
                not_run,
                content: placed.content,
                replaced: placed.replaced,
            }
        }
    }
}

/// The change annotation of an edit that replaces an earlier test.
const REPLACE_ANNOTATION: &str = "jreach-replace";

/// The test source root: `jreach.testRoot` (relative to the workspace root), else the project's.
pub(crate) fn test_root(
    settings: &Settings,
    project: &Project,
    source: Option<&Path>,
    package: Option<&str>,
) -> Option<PathBuf> {
    if let Some(root) = settings.test_root.as_deref() {
        let root = PathBuf::from(root);
        if root.is_absolute() {
            return Some(root);
        }
        let base = project.root.clone().or_else(|| source.and_then(Path::parent).map(Path::to_path_buf))?;
        return Some(base.join(root));
    }
    Some(synth::test_root_for(source?, package))
}

/// Diagnostics as they become known while a file is checked: the findings and diagnostics of
/// the methods decided so far, and how many of how many methods those are.
pub struct PartialDiagnostics {
    pub findings: Vec<Finding>,
    pub diags: Vec<Diagnostic>,
    pub decided: usize,
    pub methods: usize,
}

/// The diagnostics of `file` through the per-method cache: only methods whose text changed are
/// checked again, and `partial` hears what is known while that goes on (the cached methods
/// first, then every [`jreach_ide::PARTIAL_EVERY`]). `None` when `cancelled` said so. Solves: run
/// it on a blocking thread.
pub fn check(
    cache: &MethodCache,
    uri: &Uri,
    file: &SourceFile,
    settings: &Settings,
    enc: Encoding,
    cancelled: &dyn Fn() -> bool,
    partial: &dyn Fn(PartialDiagnostics),
) -> Option<Checked> {
    let tell = |p: &jreach_ide::PartialReport| {
        let diags = diagnostics(uri, file, &p.findings, enc);
        partial(PartialDiagnostics { findings: p.findings.clone(), diags, decided: p.decided, methods: p.methods });
    };
    let report = cache.check_file_streaming(uri.as_str(), file, settings.check_timeout(), cancelled, &tell)?;
    let diags = diagnostics(uri, file, &report.findings, enc);
    // The report's methods come in the order of `MethodInfo::all`.
    let methods = jreach_syntax::MethodInfo::all(file)
        .into_iter()
        .zip(report.methods)
        .map(|(m, (signature, verdict))| CheckedMethod { range: m.range.clone(), signature, verdict })
        .collect();
    Some(Checked { findings: report.findings, diags, methods })
}

/// What [`check`] found in a document.
#[derive(Clone, Debug)]
pub struct Checked {
    pub findings: Vec<Finding>,
    pub diags: Vec<Diagnostic>,
    /// Every method's verdict (for hovers).
    pub methods: Vec<CheckedMethod>,
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "package p;\n\npublic class A {\n    public static int f(int x) {\n        if (x > 5 && x < 3) {\n            dead();\n        }\n        Runnable r = () -> {\n            x++;\n        };\n        return x;\n    }\n    static void dead() {}\n    static final Runnable R = () -> {\n        System.out.println();\n    };\n    private static final Runnable Q = new Runnable() {\n        @Override\n        public void run() {\n            System.out.println();\n        }\n    };\n    private static final Runnable U = new Runnable() {\n        @Override\n        public void run() {\n            System.out.println();\n        }\n    };\n    public static void go() {\n        Q.run();\n    }\n}\n";

    fn uri() -> Uri {
        Uri::from_file_path("/tmp/p/src/main/java/p/A.java").unwrap()
    }

    fn line_range(line: u32) -> Range {
        Range::new(Position::new(line, 0), Position::new(line, 0))
    }

    fn titles(actions: &[CodeActionOrCommand]) -> Vec<String> {
        actions
            .iter()
            .map(|a| match a {
                CodeActionOrCommand::CodeAction(a) => {
                    format!(
                        "{}{}",
                        a.title,
                        a.disabled.as_ref().map(|d| format!(" [{}]", d.reason)).unwrap_or_default()
                    )
                }
                CodeActionOrCommand::Command(c) => format!("command {}", c.title),
            })
            .collect()
    }

    #[test]
    fn actions_of_lines() {
        let file = SourceFile::parse(SRC);
        let style = ActionStyle { resolve: true, literals: true, disabled: true };
        let list = |line, dead: &[Finding]| list_actions(&uri(), Some(3), &file, line_range(line), dead, None, style);
        assert_eq!(titles(&list(4, &[])), ["Generate test reaching line 5"]);
        assert!(list(0, &[]).is_empty(), "a package declaration");
        assert!(list(2, &[]).is_empty(), "a class header");
        // A lambda's statement is reached through the method creating it; one outside any
        // method is not a target yet.
        assert_eq!(titles(&list(8, &[])), ["Generate test reaching line 9"]);
        assert_eq!(
            titles(&list(14, &[]))[0],
            "Generate test reaching line 15 [line 15 is inside a lambda, which jreach cannot target yet]"
        );
        // An anonymous class a private field holds is reached through the methods reading the
        // field; with none, it is not a target yet.
        assert_eq!(titles(&list(19, &[])), ["Generate test reaching line 20"]);
        assert_eq!(
            titles(&list(25, &[]))[0],
            "Generate test reaching line 26 [line 26 is in a local or anonymous class, which jreach cannot target yet]"
        );
        let dead = Finding {
            range: SRC.find("dead();").unwrap()..SRC.find("dead();").unwrap() + 7,
            method: "f(int)".into(),
            kind: jreach_ide::FindingKind::Unreachable(None),
            related: vec![],
        };
        assert_eq!(
            titles(&list(5, &[dead])),
            ["Generate test reaching line 6 [unreachable code: no input to f(int) reaches line 6]"]
        );
        let CodeActionOrCommand::CodeAction(a) = &list(4, &[])[0] else { panic!() };
        assert_eq!(
            serde_json::from_value::<ActionData>(a.data.clone().unwrap()).unwrap(),
            ActionData { uri: uri(), line: 4, version: Some(3), preview: false }
        );
        let only = [CodeActionKind::QUICKFIX];
        assert!(list_actions(&uri(), None, &file, line_range(4), &[], Some(&only), style).is_empty());
        let only = [CodeActionKind::REFACTOR];
        assert_eq!(list_actions(&uri(), None, &file, line_range(4), &[], Some(&only), style).len(), 1);
        let bare = ActionStyle::default();
        assert_eq!(
            titles(&list_actions(&uri(), None, &file, line_range(4), &[], None, bare)),
            ["command Generate test reaching line 5"]
        );
    }

    #[test]
    fn no_actions_in_test_sources() {
        let file = SourceFile::parse(SRC);
        let style = ActionStyle { resolve: true, literals: true, disabled: true };
        let in_tests = Uri::from_file_path("/tmp/p/src/test/java/p/A.java").unwrap();
        assert!(list_actions(&in_tests, None, &file, line_range(4), &[], None, style).is_empty());
        let junit = SourceFile::parse(
            format!("import org.junit.jupiter.api.Test;\n{SRC}")
                .replace("    public static int f(", "    @Test\n    void t() {}\n    public static int f("),
        );
        assert!(list_actions(&uri(), None, &junit, line_range(7), &[], None, style).is_empty());
        assert_eq!(list_actions(&uri(), None, &file, line_range(4), &[], None, style).len(), 1);
    }

    #[test]
    fn tests_go_to_a_new_file_or_are_appended() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        std::fs::write(dir.path().join("pom.xml"), "<project/>").unwrap();
        let src = dir.path().join("src/main/java/p/A.java");
        let uri = Uri::from_file_path(&src).unwrap();
        let file = SourceFile::parse(SRC);
        let settings = Settings::default();
        let project = Project::default();
        let caps = EditCaps { document_changes: true, create_file: true };
        let none = |_: &Uri| None;
        let cx = |open_text, caps| GenContext {
            settings: &settings,
            project: &project,
            open_text,
            caps,
            enc: Encoding::Utf16,
            cancel: None,
            verifier: None,
            replace_earlier: false,
            annotate: false,
        };
        let g = generate(&uri, &file, 10, &cx(&none, caps));
        let Generated::Edit { edit, path, created: true, .. } = g else { panic!("{g:?}") };
        assert_eq!(path, dir.path().join("src/test/java/p/ATest.java"));
        let json = serde_json::to_value(&edit).unwrap();
        assert_eq!(json["documentChanges"][0]["kind"], "create");
        let content = json["documentChanges"][1]["edits"][0]["newText"].as_str().unwrap().to_string();
        assert!(content.contains("class ATest"), "{content}");
        // The test file exists (open in the editor, with a version): the test is appended...
        let other = "package p;\n\nclass ATest {\n}\n".to_string();
        let open = |u: &Uri| (u.as_str().ends_with("ATest.java")).then(|| (7, other.clone()));
        let g = generate(&uri, &file, 10, &cx(&open, caps));
        let Generated::Edit { edit, created: false, .. } = g else { panic!("{g:?}") };
        let json = serde_json::to_value(&edit).unwrap();
        assert_eq!(json["documentChanges"][0]["textDocument"]["version"], 7);
        // ... unless it has the test already.
        let open = |u: &Uri| (u.as_str().ends_with("ATest.java")).then(|| (7, content.clone()));
        let g = generate(&uri, &file, 10, &cx(&open, caps));
        assert!(
            matches!(&g, Generated::Existing { method, .. } if content.contains(&format!("void {method}()"))),
            "{g:?}"
        );
        // An earlier test for the statement, edited since: kept, the new one added beside it...
        let edited = content.replace("// Reaches line 11", "int mine = 1;\n        // Reaches line 11");
        let open = |u: &Uri| (u.as_str().ends_with("ATest.java")).then(|| (8, edited.clone()));
        let g = generate(&uri, &file, 10, &cx(&open, caps));
        let Generated::Edit { content: beside, replaced: None, .. } = g else { panic!("{g:?}") };
        assert!(beside.contains("int mine = 1;") && beside.matches("@Test").count() == 2, "{beside}");
        // ... unless the user sees the edit first: then it replaces it, asking for confirmation.
        let seen = GenContext { replace_earlier: true, annotate: true, ..cx(&open, caps) };
        let g = generate(&uri, &file, 10, &seen);
        let Generated::Edit { edit, content: replacing, replaced: Some(old), .. } = g else { panic!("{g:?}") };
        assert!(content.contains(&format!("void {old}()")), "{old}");
        assert!(!replacing.contains("int mine = 1;") && replacing.matches("@Test").count() == 1, "{replacing}");
        let json = serde_json::to_value(&edit).unwrap();
        assert_eq!(json["changeAnnotations"]["jreach-replace"]["needsConfirmation"], true, "{json}");
        assert_eq!(json["documentChanges"][0]["edits"][0]["annotationId"], "jreach-replace", "{json}");
        // A dead line is declined with the reason.
        let g = generate(&uri, &file, 5, &cx(&none, caps));
        assert!(matches!(&g, Generated::Declined { status: "unreachable", .. }), "{g:?}");
        // A client without CreateFile: the server writes the file.
        let g = generate(&uri, &file, 10, &cx(&none, EditCaps::default()));
        assert!(matches!(&g, Generated::Written { .. }), "{g:?}");
        assert!(dir.path().join("src/test/java/p/ATest.java").is_file());
        // A buffer that differs from the saved file is not tested: the test would run other code.
        std::fs::create_dir_all(src.parent().unwrap()).unwrap();
        std::fs::write(&src, SRC.replace("return x;", "return -x;")).unwrap();
        let g = generate(&uri, &file, 10, &cx(&none, caps));
        assert!(matches!(&g, Generated::Declined { status: "unsaved", .. }), "{g:?}");
        std::fs::write(&src, SRC).unwrap();
        // Saved: the test is the one the server wrote above.
        assert!(matches!(generate(&uri, &file, 10, &cx(&none, caps)), Generated::Existing { .. }));
    }
}
