//! The `tower-lsp-server` backend: documents, debounced background diagnostics, code actions,
//! the generate-test command, the code lens and command that fill a file's coverage gaps,
//! settings.
//!
//! Rules the handlers follow:
//! - A `didChange` applies its edits before its first `.await`, so edits are applied in the order
//!   the client sent them (the transport starts handlers in order).
//! - Anything that solves runs in `spawn_blocking` (z3 terms are thread-local), inside
//!   `catch_unwind`: a panic becomes an error response or a log line, never a dead server.
//! - Diagnostics are computed ~200 ms after the last change, only for the methods whose text
//!   changed (the [`MethodCache`]), and published only if the document is still at the version
//!   they were computed for.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use dashmap::{DashMap, DashSet};
use jreach_ide::{Finding, Limit, MethodCache};
use jreach_syntax::SourceFile;
use serde_json::{json, Value};
use tokio::sync::{Mutex, Notify, Semaphore};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::notification::Progress;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use crate::analysis::{
    self, ActionData, ActionStyle, EditCaps, GenContext, Generated, PartialDiagnostics, Project, GENERATE_COMMAND,
    TEST_CREATED_COMMAND,
};
use crate::config::Settings;
use crate::fill::{self, WorkspaceCoverage, FILL_COMMAND};
use crate::hover::CheckedMethod;
use crate::position::{self, Encoding};
use crate::quick_fix;
use crate::run_test::{self, RunArgs, RUN_TEST_COMMAND};
use crate::workspace;
use jreach_jvm::SharedVerifier;

/// How long diagnostics wait after a change before they are computed.
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// An open document.
struct Document {
    version: i32,
    file: Arc<SourceFile>,
}

/// What the client said it can do.
#[derive(Clone, Copy, Debug, Default)]
struct Caps {
    enc: Encoding,
    style: ActionStyle,
    edit: EditCaps,
    work_done_progress: bool,
    configuration: bool,
    /// Workspace edits may carry change annotations (and so ask for a preview).
    change_annotations: bool,
    /// `workspace/codeLens/refresh`.
    code_lens_refresh: bool,
    /// A message's buttons may carry properties the client reads (`window/showMessageRequest`):
    /// a declined test's message offers the setting that may help.
    action_properties: bool,
}

/// The state shared by handlers and background tasks.
struct State {
    client: Client,
    docs: DashMap<Uri, Document>,
    cache: MethodCache,
    settings: RwLock<Settings>,
    caps: RwLock<Caps>,
    project: RwLock<Project>,
    /// Last published findings per document (for disabled actions on dead lines, and hovers).
    dead: DashMap<Uri, (i32, Vec<Finding>)>,
    /// The methods' verdicts of the last complete check per document (for hovers).
    verdicts: DashMap<Uri, (i32, Vec<CheckedMethod>)>,
    /// Serialises publishing, so that a stale publication can never follow a clear.
    publish: Mutex<()>,
    /// Background checks running at once.
    slots: Semaphore,
    /// Server-initiated progress tokens the user may cancel.
    progress_cancels: DashMap<String, Arc<Notify>>,
    next_token: AtomicU64,
    /// The JVM that runs a test before it is offered (started on first use).
    verifier: SharedVerifier,
    /// Test files a resolved action creates, whose folders `TEST_CREATED_COMMAND` may make.
    offered_files: DashSet<PathBuf>,
    /// The workspace's JaCoCo reports as last read (read again when they change).
    coverage: std::sync::Mutex<Option<Arc<WorkspaceCoverage>>>,
    /// Files not open whose diagnostics are published (from the disk: `workspace`).
    closed: DashSet<Uri>,
    /// The run of the workspace check going on: a newer run stops an older one.
    workspace_run: AtomicU64,
    shut_down: Arc<AtomicBool>,
}

/// The language server.
pub struct Backend {
    state: Arc<State>,
}

impl Backend {
    /// A backend talking to `client`; `shut_down` is set when the client asks for `shutdown`.
    pub fn new(client: Client, shut_down: Arc<AtomicBool>) -> Backend {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        Backend {
            state: Arc::new(State {
                client,
                docs: DashMap::new(),
                cache: MethodCache::new(),
                settings: RwLock::new(Settings::default()),
                caps: RwLock::new(Caps::default()),
                project: RwLock::new(Project::default()),
                dead: DashMap::new(),
                verdicts: DashMap::new(),
                publish: Mutex::new(()),
                slots: Semaphore::new(cpus.clamp(1, 4)),
                progress_cancels: DashMap::new(),
                next_token: AtomicU64::new(1),
                verifier: SharedVerifier::default(),
                offered_files: DashSet::new(),
                coverage: std::sync::Mutex::new(None),
                closed: DashSet::new(),
                workspace_run: AtomicU64::new(0),
                shut_down,
            }),
        }
    }

    /// `window/workDoneProgress/cancel`: the user pressed cancel on a progress.
    pub async fn progress_cancel(&self, params: WorkDoneProgressCancelParams) {
        if let Some((_, n)) = self.state.progress_cancels.remove(&token_key(&params.token)) {
            n.notify_one();
        }
    }

    /// `jreach/debugDocument`: the server's view of a document (text, version, syntax tree), for
    /// tests that compare incremental sync with a full parse.
    pub async fn debug_document(&self, params: TextDocumentIdentifier) -> Result<Value> {
        let Some(doc) = self.state.docs.get(&params.uri) else {
            return Err(Error::invalid_params(format!("{} is not open", params.uri.as_str())));
        };
        Ok(json!({
            "version": doc.version,
            "text": doc.file.text,
            "tree": doc.file.tree.root_node().to_sexp(),
        }))
    }

    /// `TEST_CREATED_COMMAND`: the client applied an edit that creates a test file; its folders
    /// are made if the server offered that file.
    async fn test_created(&self, arguments: Vec<Value>) -> Result<Option<LSPAny>> {
        let path = arguments
            .first()
            .and_then(|a| a.get("path"))
            .and_then(Value::as_str)
            .map(PathBuf::from)
            .ok_or_else(|| Error::invalid_params("expected one argument {\"path\": ...}"))?;
        if self.state.offered_files.remove(&path).is_none() {
            return Err(Error::invalid_params(format!("jreach offered no test file {}", path.display())));
        }
        if let Some(dir) = path.parent() {
            if let Err(e) = std::fs::create_dir_all(dir) {
                let msg = format!("jreach: cannot create {}: {e}", dir.display());
                self.state.client.show_message(MessageType::ERROR, msg.clone()).await;
                return Ok(Some(json!({"status": "error", "message": msg})));
            }
        }
        Ok(Some(json!({"status": "ok", "path": path})))
    }
}

fn token_key(t: &ProgressToken) -> String {
    match t {
        NumberOrString::Number(n) => format!("n{n}"),
        NumberOrString::String(s) => format!("s{s}"),
    }
}

/// The message of a caught panic.
fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

fn internal(message: impl Into<String>) -> Error {
    Error { code: ErrorCode::InternalError, message: message.into().into(), data: None }
}

/// Runs `f` on a thread of its own; a panic becomes an error. z3 keeps one context per thread and
/// that context only grows, so every job gets a fresh thread (and a fresh context) that ends with
/// it: memory stays flat however long the session (10,000 edits: +24 KiB, against +12 MiB on a
/// reused thread; `cargo run --release -p jreach-lsp --example memory_after_edits`).
/// The thread has a 256 MiB stack, as the lowering and the encoding recurse over the syntax tree
/// (50,000 nested parentheses overflowed the default 2 MiB and ended the server).
async fn blocking<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    let job = move || {
        std::thread::scope(|s| {
            let worker = std::thread::Builder::new().name("jreach-job".into()).stack_size(JOB_STACK);
            match worker.spawn_scoped(s, move || catch_unwind(AssertUnwindSafe(f))) {
                Ok(handle) => handle.join().unwrap_or_else(Err),
                Err(e) => Err(Box::new(format!("cannot start a thread: {e}")) as Box<dyn std::any::Any + Send>),
            }
        })
    };
    match tokio::task::spawn_blocking(job).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(p)) => Err(internal(format!("jreach failed while {what}: {}", panic_message(&*p)))),
        Err(e) => Err(internal(format!("jreach failed while {what}: {e}"))),
    }
}

/// The stack of a thread that runs the engine.
const JOB_STACK: usize = 256 << 20;

/// Sets its flag when dropped: tells a blocking job that nobody waits for its result any more
/// (the request was cancelled and its future dropped).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl State {
    fn settings(&self) -> Settings {
        self.settings.read().map(|s| s.clone()).unwrap_or_default()
    }

    fn caps(&self) -> Caps {
        self.caps.read().map(|c| *c).unwrap_or_default()
    }

    fn version_of(&self, uri: &Uri) -> Option<i32> {
        self.docs.get(uri).map(|d| d.version)
    }

    /// Checks `uri` at `version` after the debounce, in the background.
    fn schedule_diagnostics(self: &Arc<Self>, uri: Uri, version: i32, delay: Duration) {
        let state = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let Some(file) = state.docs.get(&uri).filter(|d| d.version == version).map(|d| d.file.clone()) else {
                return; // closed, or a newer version has its own task
            };
            let settings = state.settings();
            if !settings.diagnostics {
                return;
            }
            let Ok(_slot) = state.slots.acquire().await else { return };
            if state.version_of(&uri) != Some(version) {
                return;
            }
            let enc = state.caps().enc;
            let (s, u) = (state.clone(), uri.clone());
            // What is known while the check goes on: published as it comes, with a progress
            // report once the check has taken longer than one partial's interval.
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<PartialDiagnostics>();
            let job = blocking("checking for unreachable code", move || {
                let cancelled = || s.version_of(&u) != Some(version) || !s.settings().diagnostics;
                let partial = |p: PartialDiagnostics| {
                    let _ = tx.send(p);
                };
                analysis::check(&s.cache, &u, &file, &settings, enc, &cancelled, &partial)
            });
            tokio::pin!(job);
            // A check that takes longer than this publishes what it knows as it goes, with a
            // progress report; a quicker one publishes once, when it is done.
            let slow = tokio::time::sleep(jreach_ide::PARTIAL_EVERY);
            tokio::pin!(slow);
            let (mut progress, mut is_slow) = (None, false);
            let mut latest: Option<PartialDiagnostics> = None;
            let result = loop {
                tokio::select! {
                    r = &mut job => break r,
                    _ = &mut slow, if !is_slow => {
                        is_slow = true;
                        let name = uri.path().as_str().rsplit('/').next().unwrap_or_default().to_string();
                        progress = state.begin_progress(None, format!("jreach: checking {name}"), false).await;
                        if let Some(p) = latest.take() {
                            state.publish_partial(&uri, version, p, &progress).await;
                        }
                    }
                    Some(p) = rx.recv() => {
                        if is_slow {
                            state.publish_partial(&uri, version, p, &progress).await;
                        } else {
                            latest = Some(p);
                        }
                    }
                }
            };
            match result {
                Ok(Some(checked)) => {
                    state.verdicts.insert(uri.clone(), (version, checked.methods));
                    state.publish(uri, version, checked.findings, checked.diags).await
                }
                Ok(None) => {}
                Err(e) => state.client.log_message(MessageType::ERROR, e.message).await,
            }
            state.end_progress(progress, "done").await;
        });
    }

    /// Publishes what a check going on knows, and says how far it has come.
    async fn publish_partial(
        &self,
        uri: &Uri,
        version: i32,
        p: PartialDiagnostics,
        progress: &Option<(ProgressToken, Arc<Notify>)>,
    ) {
        let pct = (100 * p.decided / p.methods.max(1)) as u32;
        let message = format!("{} of {} methods", p.decided, p.methods);
        self.publish(uri.clone(), version, p.findings, p.diags).await;
        self.report_progress(progress, message, pct).await;
    }

    /// Publishes diagnostics of `uri` if it is still open at `version` and diagnostics are on.
    async fn publish(&self, uri: Uri, version: i32, findings: Vec<Finding>, diags: Vec<Diagnostic>) {
        let _turn = self.publish.lock().await;
        if self.version_of(&uri) != Some(version) || !self.settings().diagnostics {
            return;
        }
        self.closed.remove(&uri);
        self.dead.insert(uri.clone(), (version, findings));
        self.client.publish_diagnostics(uri, diags, Some(version)).await;
    }

    /// Publishes the diagnostics of `uri` as it is on disk, if it is not open and workspace
    /// diagnostics are on.
    async fn publish_closed(&self, uri: Uri, diags: Vec<Diagnostic>) {
        let _turn = self.publish.lock().await;
        let s = self.settings();
        if self.docs.contains_key(&uri) || !(s.diagnostics && s.workspace_diagnostics) {
            return;
        }
        self.closed.insert(uri.clone());
        self.client.publish_diagnostics(uri, diags, None).await;
    }

    /// Clears the diagnostics of every file that is not open.
    async fn clear_closed(&self) {
        let _turn = self.publish.lock().await;
        let uris: Vec<Uri> = self.closed.iter().map(|u| u.clone()).collect();
        self.closed.clear();
        for uri in uris {
            self.client.publish_diagnostics(uri, vec![], None).await;
        }
    }

    /// Checks `uri` as it is on disk (its editor was closed), in the background.
    fn check_closed(self: &Arc<Self>, uri: Uri) {
        let state = self.clone();
        tokio::spawn(async move {
            let s = state.settings();
            let Some(path) = uri.to_file_path().map(|p| p.into_owned()) else { return };
            if !(s.diagnostics && s.workspace_diagnostics) {
                return;
            }
            let Ok(_slot) = state.slots.acquire().await else { return };
            let (u, enc, timeout) = (uri.clone(), state.caps().enc, s.check_timeout());
            match blocking("checking a closed file", move || workspace::check_on_disk(&u, &path, timeout, enc)).await {
                // A file that is gone or a test source: what its buffer had goes too.
                Ok(diags) => state.publish_closed(uri, diags.unwrap_or_default()).await,
                Err(e) => state.client.log_message(MessageType::ERROR, e.message).await,
            }
        });
    }

    /// Checks the workspace's Java sources that are not open, one at a time in the background,
    /// with a progress report; a later call stops an earlier run.
    fn check_workspace(self: &Arc<Self>) {
        let state = self.clone();
        let run = self.workspace_run.fetch_add(1, Ordering::SeqCst) + 1;
        tokio::spawn(async move {
            let s = state.settings();
            let root = state.project.read().ok().and_then(|p| p.root.clone());
            let (Some(root), true) = (root, s.diagnostics && s.workspace_diagnostics) else { return };
            let Ok(files) = blocking("listing the workspace", move || workspace::java_sources(&root)).await else {
                return;
            };
            let current = || {
                let s = state.settings();
                state.workspace_run.load(Ordering::SeqCst) == run
                    && s.diagnostics
                    && s.workspace_diagnostics
                    && !state.shut_down.load(Ordering::SeqCst)
            };
            let progress = state.begin_progress(None, "jreach: checking the workspace".into(), false).await;
            let total = files.len();
            for (i, path) in files.into_iter().enumerate() {
                if !current() {
                    break;
                }
                let Some(uri) = Uri::from_file_path(&path) else { continue };
                if state.docs.contains_key(&uri) {
                    continue;
                }
                let name = uri.path().as_str().rsplit('/').next().unwrap_or_default().to_string();
                let (u, enc, timeout) = (uri.clone(), state.caps().enc, s.check_timeout());
                let checked =
                    blocking("checking the workspace", move || workspace::check_on_disk(&u, &path, timeout, enc));
                if let Ok(Some(diags)) = checked.await {
                    if current() {
                        state.publish_closed(uri, diags).await;
                    }
                }
                state
                    .report_progress(
                        &progress,
                        format!("{} of {total} files: {name}", i + 1),
                        (100 * (i + 1) / total.max(1)) as u32,
                    )
                    .await;
            }
            state.end_progress(progress, "done").await;
        });
    }

    /// Clears the diagnostics of `uri`.
    async fn clear(&self, uri: Uri) {
        let _turn = self.publish.lock().await;
        self.dead.remove(&uri);
        self.verdicts.remove(&uri);
        self.client.publish_diagnostics(uri, vec![], None).await;
    }

    /// Settings changed: apply them and refresh what depends on them.
    async fn apply_settings(self: &Arc<Self>, value: &Value) {
        let (before, after, ignored) = {
            let Ok(mut s) = self.settings.write() else { return };
            let before = s.clone();
            let ignored = s.update(value);
            (before, s.clone(), ignored)
        };
        if !ignored.is_empty() {
            let msg = format!("jreach: ignored invalid settings: {}", ignored.join(", "));
            self.client.show_message(MessageType::WARNING, msg).await;
        }
        if before.diagnostics && !after.diagnostics {
            let open: Vec<Uri> = self.docs.iter().map(|d| d.key().clone()).collect();
            for uri in open {
                self.clear(uri).await;
            }
            self.clear_closed().await;
        } else if after.diagnostics && (!before.diagnostics || before.check_timeout != after.check_timeout) {
            let open: Vec<(Uri, i32)> = self.docs.iter().map(|d| (d.key().clone(), d.version)).collect();
            for (uri, version) in open {
                self.schedule_diagnostics(uri, version, Duration::ZERO);
            }
        }
        let workspace = |s: &Settings| s.diagnostics && s.workspace_diagnostics;
        if workspace(&before) && !workspace(&after) {
            self.clear_closed().await;
        } else if workspace(&after) && (!workspace(&before) || before.check_timeout != after.check_timeout) {
            self.check_workspace();
        }
    }

    /// Asks the client for the `jreach` section (`workspace/configuration`), when it can answer.
    async fn pull_settings(self: &Arc<Self>) {
        if !self.caps().configuration {
            return;
        }
        let item = ConfigurationItem { scope_uri: None, section: Some("jreach".to_string()) };
        // A client that never answers must not hold a handler (and so `exit`) forever.
        let asked = tokio::time::timeout(Duration::from_secs(10), self.client.configuration(vec![item])).await;
        if let Ok(Ok(values)) = asked {
            if let Some(v) = values.into_iter().next().filter(|v| v.is_object()) {
                self.apply_settings(&v).await;
            }
        }
    }

    /// Starts a progress report; `None` when the client cannot show one.
    async fn begin_progress(
        &self,
        token: Option<ProgressToken>,
        title: String,
        cancellable: bool,
    ) -> Option<(ProgressToken, Arc<Notify>)> {
        let token = match token {
            Some(t) => t,
            None if self.caps().work_done_progress => {
                let t = NumberOrString::String(format!("jreach-{}", self.next_token.fetch_add(1, Ordering::Relaxed)));
                let created = self.client.create_work_done_progress(t.clone());
                tokio::time::timeout(Duration::from_secs(5), created).await.ok()?.ok()?;
                t
            }
            None => return None,
        };
        let cancel = Arc::new(Notify::new());
        self.progress_cancels.insert(token_key(&token), cancel.clone());
        let begin = WorkDoneProgressBegin { title, cancellable: Some(cancellable), message: None, percentage: None };
        self.client
            .send_notification::<Progress>(ProgressParams {
                token: token.clone(),
                value: ProgressParamsValue::WorkDone(WorkDoneProgress::Begin(begin)),
            })
            .await;
        Some((token, cancel))
    }

    /// Reports how far a progress has come (nothing when there is none).
    async fn report_progress(&self, progress: &Option<(ProgressToken, Arc<Notify>)>, message: String, percentage: u32) {
        let Some((token, _)) = progress else { return };
        let report = WorkDoneProgressReport { cancellable: None, message: Some(message), percentage: Some(percentage) };
        self.client
            .send_notification::<Progress>(ProgressParams {
                token: token.clone(),
                value: ProgressParamsValue::WorkDone(WorkDoneProgress::Report(report)),
            })
            .await;
    }

    async fn end_progress(&self, progress: Option<(ProgressToken, Arc<Notify>)>, message: &str) {
        let Some((token, _)) = progress else { return };
        self.progress_cancels.remove(&token_key(&token));
        let end = WorkDoneProgressEnd { message: Some(message.to_string()) };
        self.client
            .send_notification::<Progress>(ProgressParams {
                token,
                value: ProgressParamsValue::WorkDone(WorkDoneProgress::End(end)),
            })
            .await;
    }

    /// A snapshot of `uri`: the open document, else the file on disk.
    fn snapshot(&self, uri: &Uri) -> Result<Arc<SourceFile>> {
        if let Some(doc) = self.docs.get(uri) {
            return Ok(doc.file.clone());
        }
        let path = uri
            .to_file_path()
            .ok_or_else(|| Error::invalid_params(format!("{} is not open and not a file", uri.as_str())))?;
        match jreach_synth::read_source(&path) {
            Ok(text) => Ok(Arc::new(SourceFile::parse(text))),
            Err(e) => Err(Error::invalid_params(format!("{} is not open and cannot be read: {e}", path.display()))),
        }
    }

    /// Solves for a test reaching `line` of `uri`, with progress and cancellation.
    async fn generate(self: &Arc<Self>, data: ActionData, token: Option<ProgressToken>) -> Result<Generated> {
        let file = self.snapshot(&data.uri)?;
        let title = format!("jreach: test for line {}", data.line + 1);
        let progress = self.begin_progress(token, title, true).await;
        let gone = Arc::new(AtomicBool::new(false));
        let _guard = CancelOnDrop(gone.clone());
        let (settings, caps, project) =
            (self.settings(), self.caps(), self.project.read().map(|p| p.clone()).unwrap_or_default());
        let state = self.clone();
        let job = blocking("generating a test", move || {
            let cancel = Some(gone.clone());
            if gone.load(Ordering::SeqCst) {
                return Generated::Declined { status: "error", message: "cancelled".into(), may_help: None };
            }
            let open = |u: &Uri| state.docs.get(u).map(|d| (d.version, d.file.text.clone()));
            // A replacement is seen before it happens: in the client's preview, or as an edit
            // that asks for confirmation.
            let replace_earlier = data.preview || caps.change_annotations;
            let cx = GenContext {
                settings: &settings,
                project: &project,
                open_text: &open,
                caps: caps.edit,
                enc: caps.enc,
                cancel,
                verifier: Some(&state.verifier),
                replace_earlier,
                annotate: !data.preview && caps.change_annotations,
            };
            analysis::generate(&data.uri, &file, data.line, &cx)
        });
        let cancel = progress.as_ref().map(|(_, n)| n.clone());
        let result = tokio::select! {
            r = job => r,
            () = async { match cancel { Some(n) => n.notified().await, None => std::future::pending().await } } => {
                Err(Error::request_cancelled())
            }
        };
        let summary = match &result {
            Ok(Generated::Edit { path, .. } | Generated::Written { path, .. } | Generated::Existing { path, .. }) => {
                format!("{}", path.display())
            }
            Ok(Generated::Declined { status, .. }) => status.to_string(),
            Err(e) => e.message.to_string(),
        };
        self.end_progress(progress, &summary).await;
        result
    }
}

/// Telling the user why there is no test.
impl State {
    /// Shows `message`; where raising a limit may help and the client's buttons carry
    /// properties, with an "Open Setting" button whose `setting` property names it (the VS Code
    /// extension opens that setting). The button's answer is not awaited: the request it
    /// answers does not wait for the user.
    async fn show_declined(&self, typ: MessageType, message: String, may_help: Option<Limit>) {
        let client = self.client.clone();
        match may_help.filter(|_| self.caps().action_properties) {
            Some(limit) => {
                let button = MessageActionItem {
                    title: OPEN_SETTING.into(),
                    properties: [("setting".to_string(), MessageActionItemProperty::String(limit.setting().into()))]
                        .into(),
                };
                tokio::spawn(async move {
                    let _ = client.show_message_request(typ, message, Some(vec![button])).await;
                });
            }
            None => client.show_message(typ, message).await,
        }
    }
}

/// The title of the button that opens the setting a message names.
const OPEN_SETTING: &str = "Open Setting";

/// Running a test jreach wrote (`RUN_TEST_COMMAND`, the "Run" lens of a test file).
impl State {
    /// Runs the test on the JVM, with progress, and says how it went (a message, and the answer:
    /// [`run_test::RunOutcome`], whose covered lines the client shows).
    async fn run_test(self: &Arc<Self>, args: RunArgs, token: Option<ProgressToken>) -> Result<Value> {
        let settings = self.settings();
        let outcome = if !settings.run_code {
            run_test::RunOutcome::error("running code is off (jreach.runCode): the test was not run")
        } else {
            let path = args
                .uri
                .to_file_path()
                .map(|p| p.into_owned())
                .ok_or_else(|| Error::invalid_params(format!("{} is not a file", args.uri.as_str())))?;
            let text = self.snapshot(&args.uri)?.text.clone();
            let progress = self.begin_progress(token, format!("jreach: running {}", args.method), false).await;
            let state = self.clone();
            let method = args.method.clone();
            let ran = blocking("running a test", move || {
                let run = |t: &jreach_jvm::ProjectTest<'_>| state.verifier.run_test(&settings.classpath, t);
                run_test::run(&path, &text, &method, &run)
            })
            .await;
            let outcome = ran.unwrap_or_else(|e| run_test::RunOutcome::error(e.message.to_string()));
            self.end_progress(progress, outcome.status).await;
            outcome
        };
        let typ = match outcome.status {
            "passed" if outcome.reached => MessageType::INFO,
            "passed" => MessageType::WARNING,
            _ => MessageType::ERROR,
        };
        self.client.show_message(typ, format!("jreach: {}", outcome.message)).await;
        serde_json::to_value(&outcome).map_err(|e| internal(e.to_string()))
    }
}

/// Filling a file's coverage gaps (`FILL_COMMAND` and its code lens).
impl State {
    /// The workspace's JaCoCo reports, read again when they changed; `Ok(None)` without a
    /// workspace folder or a report.
    fn workspace_coverage(&self) -> std::result::Result<Option<Arc<WorkspaceCoverage>>, String> {
        let Some(root) = self.project.read().ok().and_then(|p| p.root.clone()) else { return Ok(None) };
        let mut cached = self.coverage.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(c) = cached.as_ref().filter(|c| c.is_current(&root)) {
            return Ok(Some(c.clone()));
        }
        let loaded = WorkspaceCoverage::load(&root)?.map(Arc::new);
        cached.clone_from(&loaded);
        Ok(loaded)
    }

    /// A test file as the editor has it: the open buffer, else the disk.
    fn read_test(&self, path: &std::path::Path) -> std::io::Result<Option<String>> {
        if let Some(doc) = Uri::from_file_path(path).and_then(|u| self.docs.get(&u).map(|d| d.file.text.clone())) {
            return Ok(Some(doc));
        }
        jreach_fill::statements::read_from_disk(path)
    }

    /// What the lens and the command start from: the file as saved, whether the editor's buffer
    /// differs from it, and where its tests go.
    fn saved_source(&self, uri: &Uri) -> std::result::Result<SavedSource, String> {
        let path = uri.to_file_path().map(|p| p.into_owned()).ok_or("the document is not a file")?;
        let text = jreach_synth::read_source(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let open = self.docs.get(uri).map(|d| (d.version, d.file.clone()));
        let unsaved = open.as_ref().is_some_and(|(_, f)| f.text != text);
        // A buffer that is the saved file lends its tree (the lens asks after every edit) and
        // the dead code shown for it.
        let (file, dead) = match open {
            Some((version, f)) if !unsaved => {
                let dead = self.dead.get(uri).filter(|d| d.0 == version).map(|d| d.1.clone()).unwrap_or_default();
                (f, dead)
            }
            _ => (Arc::new(SourceFile::parse(text)), vec![]),
        };
        let (settings, project) = (self.settings(), self.project.read().map(|p| p.clone()).unwrap_or_default());
        let test_root = analysis::test_root(&settings, &project, Some(&path), file.package().as_deref())
            .ok_or("no test root for the file")?;
        Ok(SavedSource { path, file, unsaved, test_root, dead })
    }

    /// The statements of `uri` the report says no test runs (see [`fill::uncovered`]), with the
    /// file they were read from; `Ok(None)` without a report that names the file.
    fn uncovered(&self, uri: &Uri) -> std::result::Result<Option<(SavedSource, fill::Uncovered, bool)>, String> {
        let Some(cov) = self.workspace_coverage()? else { return Ok(None) };
        let saved = self.saved_source(uri)?;
        if cov.uncovered_lines(&saved.path).is_none() {
            return Ok(None);
        }
        let read = |p: &std::path::Path| self.read_test(p);
        let u = fill::uncovered(&cov, &saved.path, &saved.file, &saved.test_root, &read, &saved.dead);
        let stale = cov.older_than(&saved.path);
        Ok(Some((saved, u, stale)))
    }

    /// `FILL_COMMAND`: a test, a proof or a reason for each statement of `uri` no test runs,
    /// with progress and cancel; the tests come as one workspace edit (shown for preview where
    /// the client can). Cancelled, it offers the tests found so far.
    async fn fill(self: &Arc<Self>, uri: Uri, token: Option<ProgressToken>) -> Result<Value> {
        let name = uri.path().as_str().rsplit('/').next().unwrap_or_default().to_string();
        let decline = |status: &'static str, message: String| async move {
            let typ = if status == "error" { MessageType::ERROR } else { MessageType::WARNING };
            self.client.show_message(typ, format!("jreach: {message}")).await;
            Ok(json!({"status": status, "message": message}))
        };
        let (saved, uncovered, stale) = match self.uncovered(&uri) {
            Ok(Some(u)) => u,
            Ok(None) => {
                return decline(
                    "error",
                    format!(
                        "no coverage report names {name}: run the tests with JaCoCo first (mvn test jacoco:report, \
                         or Gradle's jacocoTestReport)"
                    ),
                )
                .await
            }
            Err(e) => return decline("error", e).await,
        };
        if saved.unsaved {
            return decline("unsaved", format!("save {name} first: tests are made for the file as saved")).await;
        }
        if stale {
            return decline(
                "stale",
                format!("{name} changed after the coverage report was written: run the tests again for a fresh report"),
            )
            .await;
        }
        let total = uncovered.lines.len();
        if total == 0 {
            let message = format!("no uncovered statements in {name}");
            self.client.show_message(MessageType::INFO, format!("jreach: {message}")).await;
            return Ok(json!({"status": "none", "message": message}));
        }
        let progress = self.begin_progress(token, fill::progress_title(total, &name), true).await;
        let stop = Arc::new(AtomicBool::new(false));
        let _guard = CancelOnDrop(stop.clone());
        // The user's cancel stops the work and keeps what was found.
        let user_cancelled = Arc::new(AtomicBool::new(false));
        if let Some((_, n)) = &progress {
            let (n, stop, user) = (n.clone(), stop.clone(), user_cancelled.clone());
            tokio::spawn(async move {
                n.notified().await;
                user.store(true, Ordering::SeqCst);
                stop.store(true, Ordering::SeqCst);
            });
        }
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<usize>();
        let (settings, state, cancel) = (self.settings(), self.clone(), stop.clone());
        let SavedSource { path, file, test_root, .. } = saved;
        let lines = uncovered.lines;
        let job = blocking("filling coverage gaps", move || {
            let read = |p: &std::path::Path| state.read_test(p);
            let cx = fill::FillContext { settings: &settings, test_root, cancel, read_test: &read };
            fill::fill(&path, &file, &lines, &cx, &mut |r| {
                let _ = tx.send(r.line);
            })
        });
        tokio::pin!(job);
        let mut done = 0;
        let filled = loop {
            tokio::select! {
                r = &mut job => break r,
                Some(line) = rx.recv() => {
                    done += 1;
                    let message = format!("{done} of {total} statements (line {line})");
                    self.report_progress(&progress, message, (100 * done / total) as u32).await;
                }
            }
        };
        let filled = match filled {
            Ok(f) => f,
            Err(e) => {
                self.end_progress(progress, "failed").await;
                return Err(e);
            }
        };
        let counts = jreach_fill::counts(&filled.results);
        let cancelled = user_cancelled.load(Ordering::SeqCst);
        let summary = fill::summary(counts);
        self.end_progress(progress, &summary).await;
        let results: Vec<Value> = filled.results.iter().map(fill::result_json).collect();
        let answer = |status: &str| {
            json!({"status": status, "tests": counts.tests, "covered": counts.covered, "dead": counts.dead,
                   "unknown": counts.unknown, "errors": counts.errors, "cancelled": cancelled, "results": results})
        };
        let cut = if cancelled { " (cancelled: the tests found so far)" } else { "" };
        if filled.tests.is_empty() {
            self.client.show_message(MessageType::WARNING, format!("jreach: {name}: {summary}; no test{cut}")).await;
            return Ok(answer("none"));
        }
        let files: Vec<String> = filled.tests.iter().map(|p| file_name(&p.path)).collect();
        let caps = self.caps();
        if !(caps.edit.document_changes && caps.edit.create_file) {
            // The client cannot create files: the server writes the tests itself, as `generate`
            // does for such clients.
            for p in &filled.tests {
                if let Err(e) = jreach_synth::write(p) {
                    let why = format!("cannot write {}: {e}", p.path.display());
                    self.client.show_message(MessageType::ERROR, format!("jreach: {why}")).await;
                    return Ok(json!({"status": "error", "message": why}));
                }
            }
            let msg = format!("jreach: {name}: {summary}; wrote {}{cut}", files.join(", "));
            self.client.show_message(MessageType::INFO, msg).await;
            return Ok(answer("tests"));
        }
        for dir in filled.tests.iter().filter(|p| p.original.is_none()).filter_map(|p| p.path.parent()) {
            if let Err(e) = std::fs::create_dir_all(dir) {
                let why = format!("cannot create {}: {e}", dir.display());
                self.client.show_message(MessageType::ERROR, format!("jreach: {why}")).await;
                return Ok(json!({"status": "error", "message": why}));
            }
        }
        let annotate =
            caps.change_annotations.then(|| (format!("jreach: tests for {name}"), format!("{summary}{cut}")));
        let open_version = |u: &Uri| self.docs.get(u).map(|d| d.version);
        let edit = match fill::workspace_edit(&filled.tests, caps.enc, &open_version, annotate) {
            Ok(e) => e,
            Err(why) => return decline("error", why).await,
        };
        // A preview waits for the user: no time limit but the request's own cancel.
        match self.client.apply_edit(edit).await {
            Ok(r) if r.applied => {
                let msg = format!("jreach: {name}: {summary}; added to {}{cut}", files.join(", "));
                self.client.show_message(MessageType::INFO, msg).await;
                if caps.code_lens_refresh {
                    let _ = self.client.code_lens_refresh().await;
                }
                Ok(answer("tests"))
            }
            Ok(r) => {
                let why = r.failure_reason.unwrap_or_else(|| "the edit was not applied".into());
                self.client.show_message(MessageType::INFO, format!("jreach: {name}: {why}")).await;
                Ok(json!({"status": "discarded", "message": why}))
            }
            Err(e) => Err(internal(format!("jreach: workspace/applyEdit failed: {}", e.message))),
        }
    }
}

/// A source file as saved, for the fill.
struct SavedSource {
    path: PathBuf,
    file: Arc<SourceFile>,
    /// The editor's buffer differs from the file on disk.
    unsaved: bool,
    test_root: PathBuf,
    /// The dead code shown for the file.
    dead: Vec<Finding>,
}

fn file_name(path: &std::path::Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let cap = &params.capabilities;
        let enc = Encoding::negotiate(cap.general.as_ref().and_then(|g| g.position_encodings.as_deref()));
        let ca = cap.text_document.as_ref().and_then(|t| t.code_action.as_ref());
        let style = ActionStyle {
            resolve: ca
                .and_then(|c| c.resolve_support.as_ref())
                .is_some_and(|r| r.properties.iter().any(|p| p == "edit")),
            literals: ca.is_some_and(|c| c.code_action_literal_support.is_some()),
            disabled: ca.and_then(|c| c.disabled_support).unwrap_or(false),
        };
        let ws = cap.workspace.as_ref();
        let we = ws.and_then(|w| w.workspace_edit.as_ref());
        let create_file = we
            .and_then(|w| w.resource_operations.as_ref())
            .is_some_and(|ops| ops.contains(&ResourceOperationKind::Create));
        // Resource operations only exist inside `documentChanges`: a client offering them takes
        // `documentChanges` (Neovim 0.7 does, without saying so).
        let edit = EditCaps {
            document_changes: we.and_then(|w| w.document_changes).unwrap_or(false) || create_file,
            create_file,
        };
        let work_done_progress = cap.window.as_ref().and_then(|w| w.work_done_progress).unwrap_or(false);
        let configuration = ws.and_then(|w| w.configuration).unwrap_or(false);
        let change_annotations = we.is_some_and(|w| w.change_annotation_support.is_some());
        let code_lens_refresh = ws.and_then(|w| w.code_lens.as_ref()).and_then(|c| c.refresh_support).unwrap_or(false);
        let action_properties = cap
            .window
            .as_ref()
            .and_then(|w| w.show_message.as_ref())
            .and_then(|m| m.message_action_item.as_ref())
            .and_then(|a| a.additional_properties_support)
            .unwrap_or(false);
        if let Ok(mut c) = self.state.caps.write() {
            *c = Caps {
                enc,
                style,
                edit,
                work_done_progress,
                configuration,
                change_annotations,
                code_lens_refresh,
                action_properties,
            };
        }
        #[allow(deprecated)]
        let root = params
            .workspace_folders
            .as_ref()
            .and_then(|f| f.first())
            .map(|f| f.uri.clone())
            .or(params.root_uri.clone())
            .and_then(|u| u.to_file_path().map(|p| p.into_owned()));
        if let Ok(mut p) = self.state.project.write() {
            p.root = root;
        }
        if let Some(opts) = &params.initialization_options {
            let ignored = self.state.settings.write().map(|mut s| s.update(opts)).unwrap_or_default();
            if !ignored.is_empty() {
                let msg = format!("jreach: ignored invalid settings: {}", ignored.join(", "));
                self.state.client.log_message(MessageType::WARNING, msg).await;
            }
        }
        Ok(InitializeResult {
            server_info: Some(ServerInfo { name: "jreach".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
            capabilities: ServerCapabilities {
                position_encoding: Some(enc.kind()),
                text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    ..Default::default()
                })),
                code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                    code_action_kinds: Some(vec![CodeActionKind::REFACTOR, CodeActionKind::QUICKFIX]),
                    resolve_provider: Some(true),
                    work_done_progress_options: WorkDoneProgressOptions { work_done_progress: Some(true) },
                })),
                code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(false) }),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                execute_command_provider: Some(ExecuteCommandOptions {
                    commands: vec![
                        GENERATE_COMMAND.to_string(),
                        TEST_CREATED_COMMAND.to_string(),
                        FILL_COMMAND.to_string(),
                        RUN_TEST_COMMAND.to_string(),
                    ],
                    work_done_progress_options: WorkDoneProgressOptions { work_done_progress: Some(true) },
                }),
                ..Default::default()
            },
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        if let Some(w) = jreach_ide::solver_version_warning() {
            self.state.client.show_message(MessageType::WARNING, w).await;
        }
        let state = self.state.clone();
        tokio::spawn(async move {
            state.pull_settings().await;
            state.check_workspace();
        });
    }

    async fn shutdown(&self) -> Result<()> {
        self.state.shut_down.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        let parsed = catch_unwind(AssertUnwindSafe(|| SourceFile::parse(doc.text)));
        let Ok(file) = parsed else { return };
        self.state.docs.insert(doc.uri.clone(), Document { version: doc.version, file: Arc::new(file) });
        self.state.schedule_diagnostics(doc.uri, doc.version, Duration::ZERO);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        // No `.await` before the edits are applied: edits must land in the order they were sent.
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        let enc = self.state.caps().enc;
        let applied = {
            let Some(mut doc) = self.state.docs.get_mut(&uri) else { return };
            let file = Arc::make_mut(&mut doc.file);
            let r = catch_unwind(AssertUnwindSafe(|| apply_changes(file, params.content_changes, enc)));
            doc.version = version;
            r.map_err(|p| panic_message(&*p))
        };
        match applied {
            Ok(()) => self.state.schedule_diagnostics(uri, version, DEBOUNCE),
            Err(msg) => {
                self.state.client.log_message(MessageType::ERROR, format!("jreach: cannot apply an edit: {msg}")).await;
            }
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.state.docs.remove(&uri);
        self.state.cache.forget_file(uri.as_str());
        self.state.verdicts.remove(&uri);
        let s = self.state.settings();
        if s.diagnostics && s.workspace_diagnostics {
            // What the file on disk has replaces what the buffer had.
            self.state.dead.remove(&uri);
            self.state.check_closed(uri);
        } else {
            self.state.clear(uri).await;
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        if params.settings.is_object() && params.settings.as_object().is_some_and(|m| !m.is_empty()) {
            self.state.apply_settings(&params.settings).await;
        } else {
            let state = self.state.clone();
            tokio::spawn(async move { state.pull_settings().await });
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        let uri = at.text_document.uri;
        let Some((version, file)) = self.state.docs.get(&uri).map(|d| (d.version, d.file.clone())) else {
            return Ok(None);
        };
        let enc = self.state.caps().enc;
        let findings = self.state.dead.get(&uri).filter(|d| d.0 == version).map(|d| d.1.clone()).unwrap_or_default();
        let methods = self.state.verdicts.get(&uri).filter(|d| d.0 == version).map(|d| d.1.clone());
        let settings = self.state.settings();
        let diagnostics = settings.diagnostics;
        let offset = position::offset(&file.text, &file.lines, at.position, enc);
        // A jreach test that runs the line, from the comments of the file's test classes.
        let state = self.state.clone();
        let f = file.clone();
        let found = tokio::task::spawn_blocking(move || {
            let path = uri.to_file_path()?.into_owned();
            let project = state.project.read().map(|p| p.clone()).unwrap_or_default();
            let root = analysis::test_root(&settings, &project, Some(&path), f.package().as_deref())?;
            let read = |p: &std::path::Path| state.read_test(p);
            crate::hover::witness(&f, f.lines.line_of(offset), &root, &read)
        })
        .await
        .ok()
        .flatten();
        Ok(crate::hover::hover(&file, offset, &findings, methods.as_deref(), diagnostics, found.as_ref(), enc))
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        let Some(file) = self.state.docs.get(&uri).map(|d| d.file.clone()) else { return Ok(None) };
        if analysis::is_test_source(&uri, &file) {
            // "Run" on the tests jreach wrote, where running code is allowed.
            if !self.state.settings().run_code {
                return Ok(None);
            }
            return Ok(Some(run_test::lenses(&uri, &file, self.state.caps().enc)));
        }
        let state = self.state.clone();
        let u = uri.clone();
        // Reads the report and the test files, and parses the saved file: off the handler.
        let found = tokio::task::spawn_blocking(move || state.uncovered(&u)).await;
        let (uncovered, stale) = match found {
            Ok(Ok(Some((_, u, stale)))) => (u, stale),
            Ok(Ok(None)) => return Ok(None),
            Ok(Err(e)) => {
                self.state.client.log_message(MessageType::WARNING, format!("jreach: coverage: {e}")).await;
                return Ok(None);
            }
            Err(e) => return Err(internal(format!("jreach failed while reading the coverage report: {e}"))),
        };
        let Some(mut lens) = fill::lens(&uri, &file, &uncovered) else { return Ok(Some(vec![])) };
        if stale {
            // Its lines may have moved: said, not offered.
            lens.command = Some(Command::new(
                "jreach: the coverage report is older than this file; run the tests again".into(),
                String::new(),
                None,
            ));
        }
        Ok(Some(vec![lens]))
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let Some((version, file)) = self.state.docs.get(&uri).map(|d| (d.version, d.file.clone())) else {
            return Ok(None); // closed: nothing to offer
        };
        let dead = self.state.dead.get(&uri).filter(|d| d.0 == version).map(|d| d.1.clone()).unwrap_or_default();
        let caps = self.state.caps();
        let only = params.context.only;
        // Asked on its own as the cursor moves (for a lightbulb), the editor gets the fixes of
        // jreach's warnings only: a "generate test" action on every line reads as a problem on
        // every line. Asked by the user (Refactor..., the code action key), it gets both.
        let automatic = params.context.trigger_kind == Some(CodeActionTriggerKind::AUTOMATIC);
        let diagnostics = params.context.diagnostics;
        let listed = catch_unwind(AssertUnwindSafe(|| {
            let mut actions = quick_fix::quick_fixes(&uri, &file, &diagnostics, &dead, only.as_deref(), caps.enc);
            if !automatic {
                actions.extend(analysis::list_actions(
                    &uri,
                    Some(version),
                    &file,
                    params.range,
                    &dead,
                    only.as_deref(),
                    caps.style,
                ));
            }
            actions
        }));
        match listed {
            Ok(actions) => Ok(Some(actions)),
            Err(p) => Err(internal(format!("jreach failed while listing code actions: {}", panic_message(&*p)))),
        }
    }

    async fn code_action_resolve(&self, mut action: CodeAction) -> Result<CodeAction> {
        let Some(data) = action.data.clone().and_then(|d| serde_json::from_value::<ActionData>(d).ok()) else {
            return Ok(action);
        };
        let caps = self.state.caps();
        if !(caps.edit.document_changes && caps.edit.create_file) {
            // The client cannot create the test file: the command writes it, once chosen.
            // Resolving itself changes nothing on disk.
            let args = serde_json::to_value(&data).map_err(|e| internal(e.to_string()))?;
            action.command = Some(Command::new(action.title.clone(), GENERATE_COMMAND.into(), Some(vec![args])));
            return Ok(action);
        }
        let line_of_action = data.line;
        match self.state.generate(data, None).await? {
            Generated::Edit { edit, path, method, created, .. } => {
                action.edit = Some(edit);
                if created {
                    self.state.offered_files.insert(path.clone());
                    // The test method too: a client may show it (the Neovim plugin does).
                    let args = json!({ "path": path, "method": method });
                    action.command = Some(Command::new(
                        "jreach: test created".into(),
                        TEST_CREATED_COMMAND.into(),
                        Some(vec![args]),
                    ));
                }
            }
            Generated::Written { path, method, not_run } => {
                let msg = format!("jreach: wrote {} ({method}){}", path.display(), run_note(&not_run));
                self.state.client.show_message(MessageType::INFO, msg).await;
            }
            Generated::Existing { path, method } => {
                let msg = already_there(&path, &method, line_of_action);
                self.state.client.show_message(MessageType::INFO, format!("jreach: {msg}")).await;
                action.disabled = Some(CodeActionDisabled { reason: msg });
            }
            Generated::Declined { message, may_help, .. } => {
                self.state.show_declined(MessageType::WARNING, format!("jreach: {message}"), may_help).await;
                action.disabled = Some(CodeActionDisabled { reason: message });
            }
        }
        Ok(action)
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        if params.command == TEST_CREATED_COMMAND {
            return self.test_created(params.arguments).await;
        }
        if params.command == FILL_COMMAND {
            let uri = params
                .arguments
                .first()
                .and_then(|a| a.get("uri"))
                .cloned()
                .and_then(|u| serde_json::from_value::<Uri>(u).ok())
                .ok_or_else(|| Error::invalid_params("expected one argument {\"uri\": ...}"))?;
            let token = params.work_done_progress_params.work_done_token;
            return self.state.fill(uri, token).await.map(Some);
        }
        if params.command == RUN_TEST_COMMAND {
            let args = params
                .arguments
                .first()
                .cloned()
                .and_then(|a| serde_json::from_value::<RunArgs>(a).ok())
                .ok_or_else(|| Error::invalid_params("expected one argument {\"uri\": ..., \"method\": ...}"))?;
            let token = params.work_done_progress_params.work_done_token;
            return self.state.run_test(args, token).await.map(Some);
        }
        if params.command != GENERATE_COMMAND {
            return Err(Error::invalid_params(format!("unknown command {}", params.command)));
        }
        let data =
            params.arguments.first().cloned().and_then(|a| serde_json::from_value::<ActionData>(a).ok()).ok_or_else(
                || Error::invalid_params("expected one argument {\"uri\": ..., \"line\": <0-based line>}"),
            )?;
        let token = params.work_done_progress_params.work_done_token;
        let line = data.line;
        let preview = data.preview;
        match self.state.generate(data, token).await? {
            Generated::Edit { edit, path, method, created, not_run, content, replaced } if preview => {
                // The client shows it and applies the edit once the user accepts.
                Ok(Some(json!({"status": "test", "preview": true, "edit": edit, "content": content, "path": path,
                               "method": method, "created": created, "replaces": replaced,
                               "verified": not_run.is_none(), "note": run_note(&not_run)})))
            }
            Generated::Edit { edit, path, method, created, not_run, replaced, .. } => {
                let label = format!("jreach: test for line {}", line + 1);
                // The user asked for the test to be written: some clients create the file but
                // not its folders.
                if let Some(dir) = path.parent().filter(|_| created) {
                    if let Err(e) = std::fs::create_dir_all(dir) {
                        let why = format!("cannot create {}: {e}", dir.display());
                        self.state.client.show_message(MessageType::ERROR, format!("{label}: {why}")).await;
                        return Ok(Some(json!({"status": "error", "message": why})));
                    }
                }
                // An edit that asks the user to confirm waits for them.
                let asks = edit.change_annotations.is_some();
                let wait = Duration::from_secs(if asks { 3600 } else { 60 });
                let applied =
                    tokio::time::timeout(wait, self.state.client.apply_edit(edit)).await.unwrap_or_else(|_| {
                        Err(internal(format!("the editor did not answer within {} s", wait.as_secs())))
                    });
                match applied {
                    Ok(r) if !r.applied && asks && r.failure_reason.is_none() => {
                        // The user looked at the replacement and discarded it.
                        let msg = format!(
                            "{label}: not written (the replacement of {} was discarded)",
                            replaced.as_deref().unwrap_or("the earlier test")
                        );
                        self.state.client.show_message(MessageType::INFO, msg.clone()).await;
                        Ok(Some(json!({"status": "discarded", "message": msg})))
                    }
                    Ok(r) if r.applied => {
                        let verb = match (&replaced, created) {
                            (Some(old), _) => format!("replaced {old} in"),
                            (None, true) => "created".into(),
                            (None, false) => "added a test to".into(),
                        };
                        let msg = format!("jreach: {verb} {} ({method}){}", file_name(&path), run_note(&not_run));
                        self.state.client.show_message(MessageType::INFO, msg).await;
                        Ok(Some(json!({"status": "test", "path": path, "method": method, "created": created,
                                       "replaces": replaced, "verified": not_run.is_none(), "note": not_run})))
                    }
                    Ok(r) => {
                        let why = r.failure_reason.unwrap_or_else(|| "the editor refused the edit".into());
                        self.state.client.show_message(MessageType::ERROR, format!("{label}: {why}")).await;
                        Ok(Some(json!({"status": "error", "message": why})))
                    }
                    Err(e) => Err(internal(format!("{label}: workspace/applyEdit failed: {}", e.message))),
                }
            }
            Generated::Written { path, method, not_run } => {
                let msg = format!("jreach: wrote {} ({method}){}", path.display(), run_note(&not_run));
                self.state.client.show_message(MessageType::INFO, msg).await;
                Ok(Some(json!({"status": "test", "path": path, "method": method, "created": true,
                               "verified": not_run.is_none(), "note": not_run})))
            }
            Generated::Existing { path, method } => {
                let msg = already_there(&path, &method, line);
                self.state.client.show_message(MessageType::INFO, format!("jreach: {msg}")).await;
                Ok(Some(json!({"status": "test", "path": path, "method": method, "created": false, "existing": true,
                               "message": msg})))
            }
            Generated::Declined { status, message, may_help } => {
                let typ = if status == "error" { MessageType::ERROR } else { MessageType::WARNING };
                self.state.show_declined(typ, format!("jreach: {message}"), may_help).await;
                let setting = may_help.map(Limit::setting);
                Ok(Some(json!({"status": status, "message": message, "setting": setting})))
            }
        }
    }
}

/// What the user is told when the test class has the test already.
fn already_there(path: &std::path::Path, method: &str, line: u32) -> String {
    format!("{} ({method}) already reaches line {} with the same inputs; nothing added", file_name(path), line + 1)
}

/// What the user is told about the run of an offered test.
fn run_note(not_run: &Option<String>) -> String {
    match not_run {
        None => ", checked on the JVM".into(),
        Some(why) => format!("; {why}"),
    }
}

/// Applies LSP content changes to `file`, in order, then reparses once.
pub fn apply_changes(file: &mut SourceFile, changes: Vec<TextDocumentContentChangeEvent>, enc: Encoding) {
    let mut edited = false;
    for change in changes {
        match change.range {
            Some(r) => {
                let bytes = position::byte_range(&file.text, &file.lines, r, enc);
                file.edit(bytes, &change.text);
                edited = true;
            }
            None => {
                *file = SourceFile::parse(change.text);
                edited = false;
            }
        }
    }
    if edited {
        file.reparse();
    }
}
