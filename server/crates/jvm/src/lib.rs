//! jreach's JVM in the loop: running a candidate test on the real JVM before it is offered.
//!
//! - [`jdk`] finds the JDK, ASM and JUnit on this machine.
//! - [`runner`] builds the Java runner from its source (kept in this crate, `java/`), starts it as
//!   one long-lived child JVM and speaks JSON lines with it.
//! - [`project`] finds where a file's code comes from: its source root and class path.
//! - [`verify`] runs a test for a target line and says whether it compiled, passed and ran the
//!   line; only such tests are offered.
//! - [`search`] looks for inputs on the JVM where jreach's model cannot tell (code it does not
//!   model, long loops): a harness run with many inputs, guided by branch distances.
//!
//! User code runs only in the child JVM, never during `check`; see the README's "Running code".

pub mod jdk;
pub mod project;
pub mod runner;
pub mod search;
pub mod verify;

use std::path::PathBuf;
use std::time::Duration;

pub use jdk::Jdk;
pub use project::Project;
pub use runner::{
    Returned, ReturnedCall, ReturnedKind, RunReport, RunRequest, RunStatus, Runner, SearchReport, SearchRequest,
    SearchRun, SearchStatus, SourceText,
};
pub use verify::{
    concolic_for, offer, search_for, Checked, Offer, ProjectTest, Reached, SharedVerifier, TestRun, Verifier,
};

/// Why code could not be run (as opposed to a run that showed a test misses its line).
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    #[error("missing {0}")]
    Missing(String),
    #[error("the JVM runner could not be built: {0}")]
    Build(String),
    #[error("the JVM could not be started: {0}")]
    Start(String),
    #[error("the JVM runner stopped: {0}")]
    Died(String),
    #[error("the JVM runner did not answer within {} s and was stopped", .0.as_secs())]
    Hung(Duration),
    #[error("the JVM runner answered something unexpected: {0}")]
    Protocol(String),
    #[error("the search harness does not compile: {0}")]
    HarnessCompile(String),
    #[error("{}: {error}", .path.display())]
    Io { path: PathBuf, error: std::io::Error },
    #[error("{} is not in a folder matching its package, so its source root is unknown", .0.display())]
    NoSourceRoot(PathBuf),
}

/// Where jreach keeps the runner and compiled classes: `$JREACH_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/jreach`, else `~/.cache/jreach`, else the system's temporary folder.
pub fn default_cache_root() -> PathBuf {
    if let Some(d) = std::env::var_os("JREACH_CACHE_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("jreach");
    }
    if let Some(h) = std::env::var_os("HOME") {
        return PathBuf::from(h).join(".cache/jreach");
    }
    std::env::temp_dir().join("jreach")
}
