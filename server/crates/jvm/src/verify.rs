//! Verifying a test on the JVM before it is offered: compile it with the target's file (as the
//! caller holds it) against the project, run it, and accept it only if it passed and its target
//! line ran. A test whose line ran but whose assertion the JVM contradicts (code jreach does not
//! model computed something else) is tried once more without the assertion.

use std::path::{Path, PathBuf};
use std::time::Duration;

use jreach_synth::{render_class, test_class_name, test_method_name, Outcome, TestRequest};

use crate::{default_cache_root, Jdk, Project, RunRequest, RunStatus, Runner, RunnerError, SourceText};

/// What a run on the JVM showed about a test.
#[derive(Clone, Debug)]
pub enum Checked {
    /// It compiled, passed and ran its target line; `req` is the test to offer (its assertion
    /// may have been dropped, see the module doc).
    Reached { req: Box<TestRequest>, compile_ms: u64, run_ms: u64 },
    /// It did not: why, for the user.
    Missed(String),
}

/// The runner with what it needs to verify tests of one workspace.
pub struct Verifier {
    runner: Runner,
    jdk: Jdk,
    cache_root: PathBuf,
    /// Class path entries the user gave, before those found in the build.
    pub classpath: Vec<PathBuf>,
    /// How long one test may run.
    pub test_timeout: Duration,
}

impl Verifier {
    /// Finds the JDK and builds the runner (its JVM starts on the first check).
    pub fn new(classpath: Vec<PathBuf>) -> Result<Verifier, RunnerError> {
        let jdk = Jdk::find()?;
        let cache_root = default_cache_root();
        let runner = Runner::new(jdk.clone(), &cache_root)?;
        Ok(Verifier { runner, jdk, cache_root, classpath, test_timeout: Duration::from_secs(10) })
    }

    /// How many JVMs this verifier has started.
    pub fn jvm_starts(&self) -> u32 {
        self.runner.starts
    }

    /// Runs `req`, a test for a line of `file` whose text is `text`.
    pub fn check(&mut self, file: &Path, text: &str, req: &TestRequest) -> Result<Checked, RunnerError> {
        let project = Project::for_file(file, req.package.as_deref(), &self.classpath, &self.cache_root)
            .ok_or_else(|| RunnerError::NoSourceRoot(file.to_path_buf()))?;
        let first = self.run_once(&project, text, req)?;
        match first {
            Attempt::Reached(c, r) => Ok(Checked::Reached { req: Box::new(req.clone()), compile_ms: c, run_ms: r }),
            Attempt::Contradicted(why) if !matches!(req.outcome, Outcome::Undetermined(_)) => {
                let mut weaker = req.clone();
                weaker.outcome = Outcome::Undetermined(format!("on the JVM, {why}"));
                match self.run_once(&project, text, &weaker)? {
                    Attempt::Reached(c, r) => Ok(Checked::Reached { req: Box::new(weaker), compile_ms: c, run_ms: r }),
                    Attempt::Contradicted(why) | Attempt::Missed(why) => Ok(Checked::Missed(why)),
                }
            }
            Attempt::Contradicted(why) | Attempt::Missed(why) => Ok(Checked::Missed(why)),
        }
    }

    fn run_once(&mut self, project: &Project, text: &str, req: &TestRequest) -> Result<Attempt, RunnerError> {
        let pkg_dir = req.package.as_deref().map(|p| format!("{}/", p.replace('.', "/"))).unwrap_or_default();
        let class = test_class_name(req);
        let binary = match &req.package {
            Some(p) => format!("{p}.{class}"),
            None => class.clone(),
        };
        let test_path = format!("{pkg_dir}{class}.java");
        let mut classpath = project.classpath.clone();
        classpath.extend(self.jdk.junit.iter().cloned());
        let run = RunRequest {
            source_roots: vec![project.source_root.clone()],
            classpath,
            cache_dir: project.cache_dir.clone(),
            sources: vec![
                SourceText { path: project.relative.clone(), text: text.to_string() },
                SourceText { path: test_path.clone(), text: render_class(req) },
            ],
            test_class: binary,
            test_method: test_method_name(req),
            timeout_ms: self.test_timeout.as_millis() as u64,
        };
        let report = self.runner.run(&run)?;
        let line = req.target_line;
        let ran = report.ran(&project.relative, line);
        Ok(match report.status {
            RunStatus::Pass if ran => Attempt::Reached(report.compile_ms, report.run_ms),
            RunStatus::Pass => Attempt::Missed(format!("the test passes on the JVM but line {line} never runs")),
            RunStatus::Fail => {
                let at = report.trace.first().map(|f| format!(" at {f}")).unwrap_or_default();
                let exception = report.exception.clone().unwrap_or_default();
                let what = if report.message.is_empty() {
                    exception.clone()
                } else {
                    format!("{exception}: {}", report.message)
                };
                let assertion = exception.ends_with("AssertionFailedError") || exception == "java.lang.AssertionError";
                if ran && assertion {
                    Attempt::Contradicted(format!("the result differs from jreach's model ({what})"))
                } else if ran {
                    Attempt::Contradicted(format!("the call throws {what}{at} after line {line} ran"))
                } else {
                    Attempt::Missed(format!("the test fails on the JVM before line {line} runs: {what}{at}"))
                }
            }
            RunStatus::CompileError if report.message.contains(&test_path) => {
                Attempt::Missed(format!("the test jreach wrote does not compile: {}", report.message))
            }
            RunStatus::CompileError => Attempt::Missed(format!("the code does not compile: {}", report.message)),
            RunStatus::Timeout => {
                Attempt::Missed(format!("the test still ran after {} s on the JVM", self.test_timeout.as_secs()))
            }
            RunStatus::Error => return Err(RunnerError::Protocol(report.message)),
        })
    }
}

enum Attempt {
    Reached(u64, u64),
    /// The line ran but the test failed after it.
    Contradicted(String),
    Missed(String),
}

/// What to do with a test jreach found on its model.
#[derive(Clone, Debug)]
pub enum Offer {
    /// Run on the JVM: it compiled, passed and ran its line.
    Verified(Box<TestRequest>),
    /// Not run (the reason says why); offered because jreach models its whole path to the line.
    Unverified(Box<TestRequest>, String),
    /// Not offered: why, for the user (the honest "unknown").
    Declined(String),
}

/// Decides whether `req`, a test for a line of `file` (text `text`), is offered: run on the JVM
/// when `verifier` is there, otherwise (`Err`: why not) offered only if no code jreach does not
/// model runs before its line. Never offers a test that a run showed to miss its line.
pub fn offer(verifier: Result<&mut Verifier, String>, file: &Path, text: &str, req: TestRequest) -> Offer {
    let not_run = match verifier {
        Err(why) => why,
        Ok(v) => match v.check(file, text, &req) {
            Ok(Checked::Reached { req, .. }) => return Offer::Verified(req),
            Ok(Checked::Missed(why)) => {
                return Offer::Declined(format!("jreach found inputs for line {}, but {why}", req.target_line))
            }
            Err(e) => format!("not run: {e}"),
        },
    };
    match &req.unmodelled_before_target {
        Some(what) => Offer::Declined(format!(
            "the path to line {} runs code jreach does not model ({what}); only a run on the JVM can show \
             whether it gets there, and the test was {not_run}",
            req.target_line
        )),
        None => Offer::Unverified(Box::new(req), not_run),
    }
}

/// A [`Verifier`] made on first use and shared by a server's requests (one JVM per server); if
/// it cannot be made, the reason is kept and every request is told.
#[derive(Default)]
pub struct SharedVerifier {
    state: std::sync::Mutex<Option<Result<Verifier, String>>>,
}

impl SharedVerifier {
    /// [`offer`] with this server's verifier, using `classpath` before the build's.
    pub fn offer(&self, classpath: &[PathBuf], file: &Path, text: &str, req: TestRequest) -> Offer {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let v = state.get_or_insert_with(|| Verifier::new(classpath.to_vec()).map_err(|e| format!("not run: {e}")));
        match v {
            Ok(v) => {
                v.classpath = classpath.to_vec();
                offer(Ok(v), file, text, req)
            }
            Err(why) => offer(Err(why.clone()), file, text, req),
        }
    }
}
