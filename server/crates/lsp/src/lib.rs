//! The jreach language server (`jreach lsp`): unreachable-code diagnostics and "Generate test
//! reaching line N" code actions for Java, over LSP on stdio.
//!
//! - [`position`]: the only place that knows LSP columns (UTF-16 by default, UTF-8 when the client
//!   offers it); byte offsets everywhere else.
//! - [`config`]: the settings (`unroll`, `timeout`, `junit`, `testRoot`, `diagnostics`).
//! - [`analysis`]: what the server computes, as plain functions of a snapshot (also what the
//!   benchmark measures).
//! - [`quick_fix`]: the fix offered on jreach's warnings (suppress them in their method).
//! - [`fill`]: the workspace's JaCoCo report, a file's uncovered statements, the code lens
//!   "Generate tests for the N uncovered statements" and the one edit that adds their tests.
//! - [`run_test`]: the "Run" code lens on the tests jreach wrote, and the run behind it (the
//!   test's outcome and the lines of the code under test it covered).
//! - [`server`]: the `tower-lsp-server` backend (documents, debounced diagnostics, actions,
//!   commands, progress, cancellation).
//! - [`workspace`]: dead code in the files that are not open (the workspace's main sources).
//! - [`wire`]: the frames between the client and the server, checked on the way in so that no
//!   input ends the server.

pub mod analysis;
pub mod config;
pub mod fill;
pub mod hover;
pub mod position;
pub mod quick_fix;
pub mod remove_dead;
pub mod run_test;
pub mod server;
pub mod wire;
pub mod workspace;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tower_lsp_server::{LspService, Server};

pub use server::Backend;

/// How many requests and notifications the transport runs at once. Generous, so that a few
/// long code-action resolutions never hold back `didChange` notifications.
const CONCURRENCY: usize = 64;

/// Serves LSP on stdin/stdout until the client says `exit` (or closes stdin). Returns the process
/// exit code: 0 when `shutdown` came before `exit`, 1 otherwise, as the protocol asks.
pub fn run_stdio() -> std::io::Result<i32> {
    // Large stacks for the solver work in `spawn_blocking`: the lowering and the encoding recurse
    // over the syntax tree.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("jreach-lsp")
        .thread_stack_size(256 << 20)
        .build()?;
    let shut_down = Arc::new(AtomicBool::new(false));
    let flag = shut_down.clone();
    // The transport polls the handlers' futures on the thread that blocks on it, and handlers
    // such as code-action listing walk the syntax tree: a large stack there too.
    let serve = move || runtime_serve(runtime, flag);
    let main = std::thread::Builder::new().name("jreach-lsp-main".into()).stack_size(256 << 20).spawn(serve)?;
    main.join().map_err(|_| std::io::Error::other("the language server's main thread panicked"))?;
    Ok(if shut_down.load(Ordering::SeqCst) { 0 } else { 1 })
}

/// Runs the server on `runtime` until the client leaves; `flag` is set by `shutdown`.
fn runtime_serve(runtime: tokio::runtime::Runtime, flag: Arc<AtomicBool>) {
    runtime.block_on(async move {
        let (service, socket) = LspService::build(move |client| Backend::new(client, flag))
            .custom_method("window/workDoneProgress/cancel", Backend::progress_cancel)
            .custom_method("jreach/debugDocument", Backend::debug_document)
            .finish();
        wire::guard(tokio::io::stdin(), tokio::io::stdout(), |input, output| {
            Server::new(input, output, socket).concurrency_level(CONCURRENCY).serve(service)
        })
        .await;
    });
    // Solver work still running for cancelled requests must not hold the process.
    runtime.shutdown_background();
}
