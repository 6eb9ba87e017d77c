//! One target, one answer: jreach's model first, then the JVM (the test run before it is
//! offered, concolic rounds, a search from the simplest inputs). Shared by `gen` (one line) and
//! `fill` (many lines, one JVM for all of them), in the CLI and the server.

use std::path::{Path, PathBuf};
use std::time::Duration;

use jreach_ide::{concolic, gen, search_starts, ConcolicLimits, GenError, GenOptions, GenResult};
use jreach_jvm::{concolic_for, offer, search_for, Offer, Verifier};
use jreach_syntax::SourceFile;
use jreach_synth::{self as synth, JUnit, TestRequest};

/// The JVM a command runs its tests on, started on first use and kept for the next target.
pub struct Jvm {
    made: Option<Result<Verifier, String>>,
    classpath: Vec<PathBuf>,
    /// `--no-run`: nothing is run; only tests jreach vouches for on its model are offered.
    no_run: bool,
    /// Seconds a search on the JVM may take for one target (0: none).
    pub search: f64,
}

impl Jvm {
    pub fn new(classpath: Vec<PathBuf>, no_run: bool, search: f64) -> Jvm {
        Jvm { made: None, classpath, no_run, search }
    }

    /// The verifier, or why tests are not run.
    fn verifier(&mut self) -> Result<&mut Verifier, String> {
        if self.no_run {
            return Err("not run (--no-run)".to_string());
        }
        let classpath = &self.classpath;
        let made =
            self.made.get_or_insert_with(|| Verifier::new(classpath.clone()).map_err(|e| format!("not run: {e}")));
        match made {
            Ok(v) => {
                v.search_budget = Duration::from_secs_f64(self.search);
                Ok(v)
            }
            Err(why) => Err(why.clone()),
        }
    }

    /// The lines of the target's file that `test` covered when it was verified, if it was the
    /// last test this JVM verified (see [`Verifier::last_reached`]).
    pub fn covered(&self, test: &TestRequest) -> Option<Vec<usize>> {
        let Some(Ok(v)) = &self.made else { return None };
        v.last_reached().filter(|r| r.test == *test).map(|r| r.covered.clone())
    }
}

/// `base` for the statements of the file at `path` (text `text`): the JUnit generation `junit`,
/// else the one its project uses (else 5), and the sources of its package and of its imports,
/// which tests may need.
pub fn options_for_file(path: &Path, text: &str, junit: Option<JUnit>, base: GenOptions) -> GenOptions {
    GenOptions {
        junit: junit.unwrap_or_else(|| synth::detect_junit(path).unwrap_or(JUnit::V5)),
        package_sources: synth::package_sources(path, text),
        imported_sources: synth::imported_sources(path, text),
        ..base
    }
}

/// What jreach can say about one line.
pub enum Answer {
    /// A test; `note` says why it was not run on the JVM (`None`: it ran and reached its line).
    Test { req: Box<TestRequest>, note: Option<String> },
    /// A proof that the line never runs: why.
    Unreachable(String),
    /// Neither: why.
    Unknown(String),
    /// The line holds no statement jreach can target, or its method cannot be read: why (a
    /// mistake in the request, for `gen`).
    NotTarget(String),
}

/// The answer for 1-based `line` of `file` (read from `path`).
pub fn answer(path: &Path, file: &SourceFile, line: usize, opts: &GenOptions, jvm: &mut Jvm) -> Answer {
    match gen(file, line - 1, opts) {
        Err(GenError::Target(e)) if e.not_yet() => Answer::Unknown(e.to_string()),
        Err(e) => Answer::NotTarget(e.to_string()),
        Ok(GenResult::Unreachable(why)) => Answer::Unreachable(why),
        Ok(GenResult::Unknown(why)) => match searched(path, file, line, opts, jvm) {
            Ok(req) => Answer::Test { req: Box::new(req), note: None },
            Err(Some(searched)) => Answer::Unknown(format!("{why}; {searched}")),
            Err(None) => Answer::Unknown(why.why),
        },
        Ok(GenResult::Test(req)) => {
            let verifier = jvm.verifier();
            match offer(verifier, path, &file.text, *req) {
                Offer::Verified(req) => Answer::Test { req, note: None },
                Offer::Unverified(req, why) => Answer::Test { req, note: Some(why) },
                // The model's inputs missed on the JVM, and a search from them found nothing:
                // the searches from the other ways in (a private method's other callers, a
                // receiver a static field holds) may still.
                Offer::Declined(why) => match searched_from_starts(path, file, line, opts, jvm) {
                    Some(req) => Answer::Test { req: Box::new(req), note: None },
                    None => Answer::Unknown(why),
                },
            }
        }
    }
}

/// A test a search on the JVM found from the simplest inputs of each way into `line` (no
/// concolic rounds: the model's own inputs were tried), if code may run and one did.
fn searched_from_starts(
    path: &Path,
    file: &SourceFile,
    line: usize,
    opts: &GenOptions,
    jvm: &mut Jvm,
) -> Option<TestRequest> {
    if jvm.no_run || jvm.search == 0.0 {
        return None;
    }
    let verifier = jvm.verifier().ok()?;
    let starts = search_starts(file, line - 1, opts);
    if starts.is_empty() {
        return None;
    }
    search_for(Ok(verifier), path, &file.text, &starts).ok().flatten()
}

/// A test found on the JVM, verified, when jreach's model found none: by concolic rounds, then by
/// a search from the simplest inputs. `Err`: none, with what the user should hear of the search
/// when it ran (none with `--no-run` or `--search 0`, or when jreach cannot write a call to start
/// from).
fn searched(
    path: &Path,
    file: &SourceFile,
    line: usize,
    opts: &GenOptions,
    jvm: &mut Jvm,
) -> Result<TestRequest, Option<String>> {
    if jvm.no_run || jvm.search == 0.0 {
        return Err(None);
    }
    let secs = jvm.search;
    let mut verifier = jvm.verifier();
    if let Ok(v) = verifier.as_mut() {
        // Concolic rounds first: the model's inputs, with what the calls it does not model
        // return on the JVM.
        let limits = ConcolicLimits { time: v.search_budget, ..Default::default() };
        let found = concolic_for(v, path, &file.text, |run| concolic(file, line - 1, opts, limits, run));
        if let Some(req) = found {
            return Ok(req);
        }
    }
    let starts = search_starts(file, line - 1, opts);
    if starts.is_empty() {
        return Err(None);
    }
    match search_for(verifier, path, &file.text, &starts) {
        Ok(Some(req)) => Ok(req),
        Ok(None) => {
            let knob = match opts.knobs {
                jreach_ide::Knobs::Cli => ", --search",
                jreach_ide::Knobs::Editor => "",
            };
            Err(Some(format!("a search on the JVM ({secs} s{knob}) found no inputs that run it either")))
        }
        Err(why) => Err(Some(why)),
    }
}
