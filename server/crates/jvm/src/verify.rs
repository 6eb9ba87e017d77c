//! Verifying a test on the JVM before it is offered: compile it with the target's file (as the
//! caller holds it) against the project, run it, and accept it only if it passed and its target
//! line ran. A test whose line ran but whose assertion the JVM contradicts (code jreach does not
//! model computed something else) is tried once more without the assertion.

use std::path::{Path, PathBuf};
use std::time::Duration;

use jreach_synth::{
    render_class, test_class_name, test_method_name, CallObservation, JavaValue, ObservedCall, Outcome, TestRequest,
};

use crate::search::{avm, fill, slots, to_json, Budget, Fitness};
use crate::{
    default_cache_root, Jdk, Project, ReturnedCall, ReturnedKind, RunReport, RunRequest, RunStatus, Runner,
    RunnerError, SearchRequest, SearchRun, SearchStatus, SourceText,
};

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
    /// How long a search on the JVM may take for one target (zero: no search).
    pub search_budget: Duration,
    /// Set from another thread to end a search early (a cancelled request).
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    searches: u64,
    last_reached: Option<Reached>,
    /// A runner whose JVM gives every object the same identity hash code, started when a test
    /// first needs it ([`Verifier::same_with_other_identity_hashes`]).
    identity_hash_runner: Option<Runner>,
}

/// A test that ran its target line on the JVM, with the lines of the target's file the run
/// covered (as JaCoCo counts them).
#[derive(Clone, Debug, PartialEq)]
pub struct Reached {
    /// The test as it was run.
    pub test: TestRequest,
    /// 1-based lines of the target's file that ran to a probe point, the target among them.
    pub covered: Vec<usize>,
    /// Whether a line of the project that ran may draw random numbers or read the clock
    /// ([`ran_random_or_clock`]): what the call returns may differ in another run.
    pub random: bool,
}

impl Verifier {
    /// Finds the JDK and builds the runner (its JVM starts on the first check).
    pub fn new(classpath: Vec<PathBuf>) -> Result<Verifier, RunnerError> {
        let jdk = Jdk::find()?;
        let cache_root = default_cache_root();
        let runner = Runner::new(jdk.clone(), &cache_root)?;
        Ok(Verifier {
            runner,
            jdk,
            cache_root,
            classpath,
            test_timeout: Duration::from_secs(10),
            search_budget: DEFAULT_SEARCH_BUDGET,
            cancel: None,
            searches: 0,
            last_reached: None,
            identity_hash_runner: None,
        })
    }

    /// How many JVMs this verifier has started.
    pub fn jvm_starts(&self) -> u32 {
        self.runner.starts
    }

    /// The last run that reached its target line, and what it covered. Whatever verified a test
    /// ([`Verifier::check`], [`offer`], [`Verifier::search`], [`concolic_for`]) ran it last, so
    /// right after, this is that test's run; a caller compares [`Reached::test`] with the test
    /// it holds before it trusts the lines.
    pub fn last_reached(&self) -> Option<&Reached> {
        self.last_reached.as_ref()
    }

    /// Runs `req`, a test for a line of `file` whose text is `text`.
    pub fn check(&mut self, file: &Path, text: &str, req: &TestRequest) -> Result<Checked, RunnerError> {
        self.check_asserting(file, text, req, WhereRandom::AssertWhatEveryRunAgrees)
    }

    /// [`Verifier::check`], asserting the outcome of a run that may draw random numbers or read
    /// the clock as `random` says.
    fn check_asserting(
        &mut self,
        file: &Path,
        text: &str,
        req: &TestRequest,
        random: WhereRandom,
    ) -> Result<Checked, RunnerError> {
        if req.has_search_holes() {
            return Err(RunnerError::Protocol("a test with a search's holes left in it was to be run".into()));
        }
        let project = Project::for_file(file, req.package.as_deref(), &self.classpath, &self.cache_root)
            .ok_or_else(|| RunnerError::NoSourceRoot(file.to_path_buf()))?;
        let first = self.run_once(&project, text, req)?;
        match first {
            Attempt::Reached(c, r) => self.reached_every_time(&project, text, req, (c, r), random),
            Attempt::Contradicted(why) if asserts(&req.outcome) => {
                let mut weaker = req.clone();
                weaker.outcome = Outcome::Undetermined(format!("on the JVM, {why}"));
                match self.run_once(&project, text, &weaker)? {
                    Attempt::Reached(c, r) => {
                        if self.last_reached.as_ref().is_some_and(|r| r.random) {
                            weaker.outcome = Outcome::Undetermined(RESULT_MAY_DIFFER.into());
                        }
                        self.reached_every_time(&project, text, &weaker, (c, r), random)
                    }
                    Attempt::Contradicted(why) | Attempt::Missed(why) => Ok(Checked::Missed(why)),
                }
            }
            Attempt::Contradicted(why) | Attempt::Missed(why) => Ok(Checked::Missed(why)),
        }
    }

    /// `req`'s test, which reached its line in one run: offered, unless a line of the project
    /// that ran may draw random numbers or read the clock ([`ran_random_or_clock`]) and one of
    /// [`RUNS_WHERE_RANDOM`] runs in all misses the line (a message the search found reaches a
    /// CRC's branch only for some random keys). More runs cannot prove that every run reaches it;
    /// they make a test that often does not unlikely. In such code an outcome that one of the
    /// runs contradicts is not asserted (nor any, as `random` says).
    fn reached_every_time(
        &mut self,
        project: &Project,
        text: &str,
        req: &TestRequest,
        (mut compile_ms, mut run_ms): (u64, u64),
        random: WhereRandom,
    ) -> Result<Checked, RunnerError> {
        let mut req = req.clone();
        if self.last_reached.as_ref().is_some_and(|r| r.random) {
            let unasserted = || Outcome::Undetermined(RESULT_MAY_DIFFER.into());
            // Runs in a row that reached the line with the outcome as it now is.
            let mut reached = 1;
            if random == WhereRandom::NeverAssert && asserts(&req.outcome) {
                req.outcome = unasserted();
                reached = 0;
            }
            let mut run = 1;
            while reached < RUNS_WHERE_RANDOM {
                run += 1;
                match self.run_once(project, text, &req)? {
                    Attempt::Reached(c, r) => {
                        (compile_ms, run_ms) = (c, r);
                        reached += 1;
                    }
                    Attempt::Contradicted(_) if asserts(&req.outcome) => {
                        req.outcome = unasserted();
                        reached = 0;
                    }
                    Attempt::Contradicted(why) | Attempt::Missed(why) => {
                        return Ok(Checked::Missed(format!(
                            "the test reached line {} in {} of {run} runs, and the code it runs may draw random \
                             numbers or read the clock: in run {run}, {why}",
                            req.target_line,
                            run - 1
                        )));
                    }
                }
            }
        }
        if !self.same_with_other_identity_hashes(project, text, &req)? {
            // The value asserted came from objects' identity hash codes (`Object.hashCode()`,
            // an enum's, `Foo@1b6d3586`), which differ in another JVM: the call is made, the
            // value not asserted.
            let mut weaker = req.clone();
            weaker.outcome = Outcome::Undetermined(
                "what the call returns depends on objects' identity hash codes, which differ between runs".into(),
            );
            return match self.run_once(project, text, &weaker)? {
                Attempt::Reached(c, r) => Ok(Checked::Reached { req: Box::new(weaker), compile_ms: c, run_ms: r }),
                Attempt::Contradicted(why) | Attempt::Missed(why) => Ok(Checked::Missed(why)),
            };
        }
        Ok(Checked::Reached { req: Box::new(req), compile_ms, run_ms })
    }

    /// Whether `req`'s test, which passed, passes as well in a JVM where every object's
    /// identity hash code is 1, when the value it asserts may come from one: a number where the
    /// code hashes (`hashCode`), a text with an `@` (`Object.toString()`). In the runner's JVM,
    /// which runs many tests, an object the JDK made once (an enum's constant) keeps one identity
    /// hash code from run to run; a developer's test suite gives it another.
    fn same_with_other_identity_hashes(
        &mut self,
        project: &Project,
        text: &str,
        req: &TestRequest,
    ) -> Result<bool, RunnerError> {
        let may_hash = match &req.outcome {
            Outcome::Returns(Some(JavaValue::Int(_) | JavaValue::Long(_))) => text.contains("hashCode"),
            Outcome::Returns(Some(JavaValue::Str(s))) => s.contains('@'),
            _ => false,
        };
        if !may_hash {
            return Ok(true);
        }
        let mut other = match self.identity_hash_runner.take() {
            Some(r) => r,
            None => Runner::with_jvm_options(self.jdk.clone(), &self.cache_root, &IDENTITY_HASH_ONE)?,
        };
        std::mem::swap(&mut self.runner, &mut other);
        let attempt = self.run_once(project, text, req);
        std::mem::swap(&mut self.runner, &mut other);
        self.identity_hash_runner = Some(other);
        Ok(!matches!(attempt?, Attempt::Contradicted(_)))
    }

    /// Looks on the JVM for inputs that run `start`'s target line (see [`crate::search`]):
    /// `start`'s values are where the search begins and its setup is kept. The test found is
    /// verified like any other before it is returned; `Ok(None)` when none was found within
    /// [`Verifier::search_budget`].
    pub fn search(&mut self, file: &Path, text: &str, start: &TestRequest) -> Result<Option<TestRequest>, RunnerError> {
        if self.search_budget.is_zero() {
            return Ok(None);
        }
        let failed = match self.search_from(file, text, start) {
            Err(RunnerError::HarnessCompile(why)) => why,
            found => return found,
        };
        // Calls on the receiver that do not compile (an overload, a type the test names
        // otherwise) cost the search nothing it had without them; nor do choices among values
        // javac cannot take as one (objects of a generic class made in different ways passed to
        // a generic method): the search then moves only the start's own values.
        let mut plain = TestRequest { receiver_call_choices: vec![], ..start.clone() };
        if !start.receiver_call_choices.is_empty() {
            match self.search_from(file, text, &plain) {
                Err(RunnerError::HarnessCompile(_)) => {}
                found => return found,
            }
        }
        match crate::search::first_options(&mut plain) {
            true => self.search_from(file, text, &plain),
            false => Err(RunnerError::HarnessCompile(failed)),
        }
    }

    /// Runs one test method the project has ([`ProjectTest`]) against the code it tests.
    /// Nothing is judged: the report says how it ended and which lines of each file ran;
    /// [`TestRun::relative`] names the code under test among them.
    pub fn run_test(&mut self, t: &ProjectTest<'_>) -> Result<TestRun, RunnerError> {
        let project = Project::for_file(t.file, t.package, &self.classpath, &self.cache_root)
            .ok_or_else(|| RunnerError::NoSourceRoot(t.file.to_path_buf()))?;
        let req = self.test_run(&project, t.text, t.test.clone(), t.class.to_string(), t.method.to_string(), false);
        let report = self.runner.run(&req)?;
        Ok(TestRun { report, relative: project.relative })
    }

    /// [`Verifier::search`] from each of `starts` in turn (calls through different methods to one
    /// private method's line), until one finds a test: together they take at most
    /// [`Verifier::search_budget`], each the share of what is left. The first error is returned
    /// only when no start found a test.
    pub fn search_each(
        &mut self,
        file: &Path,
        text: &str,
        starts: &[TestRequest],
    ) -> Result<Option<TestRequest>, RunnerError> {
        let total = self.search_budget;
        let deadline = std::time::Instant::now() + total;
        let mut failure = None;
        for (i, start) in starts.iter().enumerate() {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break;
            }
            self.search_budget = left / (starts.len() - i) as u32;
            let found = self.search(file, text, start);
            self.search_budget = total;
            match found {
                Ok(Some(req)) => return Ok(Some(req)),
                Ok(None) => {}
                Err(e) => failure = failure.or(Some(e)),
            }
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(None),
        }
    }

    fn search_from(
        &mut self,
        file: &Path,
        text: &str,
        start: &TestRequest,
    ) -> Result<Option<TestRequest>, RunnerError> {
        // Code that reads standard input reads what the test sets, which the search writes (a
        // start from the model's test has none yet).
        let mut start = start.clone();
        if !start.statics.iter().any(|s| s.is_stdin()) {
            start.statics.extend(jreach_synth::StaticAssignment::stdin_start(text));
        }
        let start = &start;
        let project = Project::for_file(file, start.package.as_deref(), &self.classpath, &self.cache_root)
            .ok_or_else(|| RunnerError::NoSourceRoot(file.to_path_buf()))?;
        let mut harness = slots(&with_empty_arrays(start));
        if !jreach_synth::catches_io_errors(text) {
            crate::search::drop_options(&mut harness, jreach_synth::is_failing_io);
        }
        harness.req.outcome = Outcome::Observe;
        harness.req.unmodelled_before_target = None;
        harness.req.path_condition = vec![];
        self.searches += 1;
        let (test_class, test_method, test_path) = names(&harness.req);
        let mut classpath = project.classpath.clone();
        classpath.extend(self.jdk.junit.iter().cloned());
        let mut request = SearchRequest {
            session: format!("{}-{}", std::process::id(), self.searches),
            source_roots: vec![project.source_root.clone()],
            classpath,
            cache_dir: project.cache_dir.clone(),
            sources: vec![
                SourceText { path: project.relative.clone(), text: text.to_string() },
                SourceText { path: test_path, text: render_class(&harness.req) },
            ],
            test_class,
            test_method,
            target_source: project.relative.clone(),
            target_line: start.target_line,
            inputs: vec![],
            timeout_ms: SEARCH_RUN_TIMEOUT_MS,
        };
        let mut failure: Option<RunnerError> = None;
        let cancel = self.cancel.clone();
        let budget = Budget { time: self.search_budget, runs: SEARCH_MAX_RUNS, cancel: cancel.as_deref() };
        tracing::debug!(
            "search on the JVM for line {} with this harness:\n{}",
            start.target_line,
            render_class(&harness.req)
        );
        let runner = &mut self.runner;
        let found = avm(harness.start.clone(), vec![], budget, 0x6a72_6561_6368, |cands| {
            request.inputs = cands.iter().map(|c| c.iter().map(to_json).collect()).collect();
            let report = match runner.search(&request) {
                Ok(r) => r,
                Err(e) => {
                    failure = Some(e);
                    return None;
                }
            };
            if report.status == SearchStatus::CompileError {
                failure = Some(RunnerError::HarnessCompile(report.message.clone()));
                return None;
            }
            let fits = report
                .results
                .iter()
                .map(|r| Fitness {
                    hit: r.hit,
                    started: r.started,
                    divergence: r.fitness,
                    lines: r.lines,
                    size: 0,
                    novel: r.novel,
                    read: r.read.as_deref().map(std::rc::Rc::from),
                })
                .collect();
            let seeds = report
                .constants
                .iter()
                .filter_map(|c| match c {
                    serde_json::Value::String(s) => Some(JavaValue::Str(s.clone())),
                    serde_json::Value::Number(n) => n.as_i64().map(JavaValue::Long),
                    _ => None,
                })
                .chain(report.chars.encode_utf16().map(JavaValue::Char))
                .collect();
            Some((fits, seeds))
        });
        match &found {
            Some(f) => tracing::debug!("search found inputs after {} runs: {:?}", f.runs, f.values),
            None => tracing::debug!("search found no inputs (failure: {failure:?})"),
        }
        let Some(found) = found else {
            return match failure {
                Some(e) => Err(e),
                None => Ok(None),
            };
        };
        // What the call did with the inputs found: two more runs of the harness, which must
        // agree (code that draws random numbers or reads the clock may not), else the test
        // asserts nothing (nor where a line that ran may draw them, see below). Without them
        // the test asserts nothing either, and the check below still decides whether it is
        // offered.
        let values: Vec<serde_json::Value> = found.values.iter().map(to_json).collect();
        request.inputs = vec![values.clone(), values];
        let runs = self.runner.search(&request).map(|r| r.results).unwrap_or_default();
        let mut req = fill(&harness.req, &found.values);
        req.outcome = match runs.as_slice() {
            [first, second] if !same_outcome(first, second) => Outcome::Undetermined(
                "what the call returns, which differed between two runs with the same inputs (random numbers, \
                 the clock)"
                    .into(),
            ),
            [SearchRun { returned: Some(_), .. }, ..] if returns_a_hash_code(&req) => Outcome::Undetermined(
                "what hashCode() returns, which another JVM need not return again (Object.hashCode's contract)".into(),
            ),
            [SearchRun { exception: Some(e), .. }, ..] => Outcome::Throws(java_name(e)),
            [SearchRun { returned: Some(r), .. }, ..] => Outcome::Returns(returned_value(&r.value, &req.return_ty)),
            _ => Outcome::Returns(None),
        };
        // Two runs may agree by chance where the code draws from a random source with little
        // entropy (a skip list's heights): asserted, the test would fail on another run.
        Ok(match self.check_asserting(file, text, &req, WhereRandom::NeverAssert)? {
            Checked::Reached { req, .. } => Some(*req),
            Checked::Missed(why) => {
                tracing::debug!("the test written from the search's inputs missed its line: {why}");
                tracing::trace!("the test that missed:\n{}", render_class(&req));
                self.ending_at_a_receiver_call(file, text, &req)?
            }
        })
    }

    /// A search's run may reach the line inside one of the calls that set the receiver up, which
    /// then throws (a reader's `skipValue()` reading a malformed escape): the test that ends at
    /// that call, the shortest such prefix of the calls that the JVM shows reaching the line.
    fn ending_at_a_receiver_call(
        &mut self,
        file: &Path,
        text: &str,
        req: &TestRequest,
    ) -> Result<Option<TestRequest>, RunnerError> {
        // (A run that returned reached the line wherever it ran, and the check counts it there.)
        if !matches!(req.outcome, Outcome::Throws(_)) {
            return Ok(None);
        }
        for k in 0..req.receiver_calls.len() {
            let Some(shorter) = req.ending_at_receiver_call(k) else { break };
            if let Checked::Reached { req, .. } = self.check(file, text, &shorter)? {
                tracing::debug!("the test ending at the receiver's call {} reaches the line", req.method);
                return Ok(Some(*req));
            }
        }
        Ok(None)
    }

    /// Runs `req` (its outcome is not asserted) and reports what the calls of `file` returned and
    /// whether its target line ran: one concolic round's run (see `jreach_ide::concolic`). A run
    /// that tried to end the JVM shows nothing.
    pub fn observe_calls(
        &mut self,
        file: &Path,
        text: &str,
        req: &TestRequest,
    ) -> Result<CallObservation, RunnerError> {
        if req.has_search_holes() {
            return Err(RunnerError::Protocol("a test with a search's holes left in it was to be run".into()));
        }
        let project = Project::for_file(file, req.package.as_deref(), &self.classpath, &self.cache_root)
            .ok_or_else(|| RunnerError::NoSourceRoot(file.to_path_buf()))?;
        let mut req = req.clone();
        req.outcome = Outcome::Undetermined("a concolic round".into());
        let report = self.runner.run(&self.run_request(&project, text, &req, true))?;
        if report.status == RunStatus::Error {
            return Err(RunnerError::Protocol(report.message));
        }
        if report.exit_call.is_some() {
            return Ok(CallObservation::default());
        }
        Ok(CallObservation {
            reached: report.status == RunStatus::Pass && report.completed(&project.relative, req.target_line),
            calls: report.calls.iter().map(observed_call).collect(),
        })
    }

    /// The run of `req`'s test against `text`, the file as the caller holds it; with `observe`,
    /// the file's calls report what they return.
    fn run_request(&self, project: &Project, text: &str, req: &TestRequest, observe: bool) -> RunRequest {
        let (binary, test_method, test_path) = names(req);
        let test = SourceText { path: test_path, text: render_class(req) };
        self.test_run(project, text, test, binary, test_method, observe)
    }

    /// The run of the test `test_class.test_method` (its file `test`) against `text`, the
    /// project's file as the caller holds it; with `observe`, the file's calls report what they
    /// return.
    fn test_run(
        &self,
        project: &Project,
        text: &str,
        test: SourceText,
        test_class: String,
        test_method: String,
        observe: bool,
    ) -> RunRequest {
        let mut classpath = project.classpath.clone();
        classpath.extend(self.jdk.junit.iter().cloned());
        RunRequest {
            source_roots: vec![project.source_root.clone()],
            classpath,
            cache_dir: project.cache_dir.clone(),
            sources: vec![SourceText { path: project.relative.clone(), text: text.to_string() }, test],
            test_class,
            test_method,
            timeout_ms: self.test_timeout.as_millis() as u64,
            observe_calls: observe.then(|| project.relative.clone()),
        }
    }

    fn run_once(&mut self, project: &Project, text: &str, req: &TestRequest) -> Result<Attempt, RunnerError> {
        let (_, _, test_path) = names(req);
        self.last_reached = None;
        let report = self.runner.run(&self.run_request(project, text, req, false))?;
        let line = req.target_line;
        let ran = report.ran(&project.relative, line);
        tracing::trace!(
            "run of the test: {:?}, lines of {}: {:?}",
            report.status,
            project.relative,
            report.lines.get(&project.relative)
        );
        if let Some(call) = &report.exit_call {
            let when = if ran { "after" } else { "before" };
            return Ok(Attempt::Missed(format!(
                "the code calls {call} {when} line {line} runs, which would end the JVM running the tests"
            )));
        }
        Ok(match report.status {
            RunStatus::Pass if report.completed(&project.relative, line) => {
                let covered = report.completed.get(&project.relative).cloned().unwrap_or_default();
                let random = ran_random_or_clock(project, text, &report.lines);
                self.last_reached = Some(Reached { test: req.clone(), covered, random });
                Attempt::Reached(report.compile_ms, report.run_ms)
            }
            RunStatus::Pass if ran => Attempt::Missed(format!(
                "on the JVM line {line} starts, yet an exception comes before coverage tools count it as run \
                 (JaCoCo counts a line's code once a probe after it runs)"
            )),
            RunStatus::Pass => Attempt::Missed(format!("on the JVM the test passes without running line {line}")),
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

/// A call's result as the runner reported it, as a value the engine reads.
fn observed_call(c: &ReturnedCall) -> ObservedCall {
    use serde_json::Value as J;
    let value = match (c.kind, &c.value) {
        (ReturnedKind::Int, J::Number(n)) => n.as_i64().map(JavaValue::Long),
        (ReturnedKind::Bool, J::Bool(b)) => Some(JavaValue::Bool(*b)),
        (ReturnedKind::Float, J::String(s)) => s.parse::<f64>().ok().map(JavaValue::Double),
        (ReturnedKind::String, J::String(s)) => Some(JavaValue::Str(s.clone())),
        (ReturnedKind::Null, _) => Some(JavaValue::Null),
        _ => None,
    };
    ObservedCall { line: c.line, name: c.name.clone(), value }
}

/// `start` with its null arguments of array-of-primitive or string types made empty arrays, which
/// the search can then grow (it cannot grow a null).
fn with_empty_arrays(start: &TestRequest) -> TestRequest {
    let mut start = start.clone();
    if start.args.len() != start.params.len() {
        return start;
    }
    for (i, (_, ty)) in start.params.iter().enumerate() {
        let Some(elem) = ty.trim().strip_suffix("[]") else { continue };
        let searchable = crate::search::slot_elem(elem).is_some()
            || crate::search::matrix_elem(elem).is_some()
            || crate::search::is_object(elem);
        if searchable && start.args[i] == JavaValue::Null {
            start.args[i] = JavaValue::Array { elem_ty: elem.trim().to_string(), id: -1_000 - i as i64, items: vec![] };
        }
    }
    start
}

/// How long one run of a search may take (most take well under a millisecond; the ones that
/// take longer are mostly the search's own overshoots, a loop bound of a billion).
const SEARCH_RUN_TIMEOUT_MS: u64 = 250;

/// The most runs one search makes.
const SEARCH_MAX_RUNS: usize = 20_000;

/// How long a search on the JVM may take by default.
pub const DEFAULT_SEARCH_BUDGET: Duration = Duration::from_secs(5);

/// The binary name of `req`'s test class, its test method, and the test file's path relative to
/// the source root.
fn names(req: &TestRequest) -> (String, String, String) {
    let pkg_dir = req.package.as_deref().map(|p| format!("{}/", p.replace('.', "/"))).unwrap_or_default();
    let class = test_class_name(req);
    let binary = match &req.package {
        Some(p) => format!("{p}.{class}"),
        None => class.clone(),
    };
    (binary, test_method_name(req), format!("{pkg_dir}{class}.java"))
}

/// A value a search run saw the call return, as a value of the method's return type `ty` (as
/// written) that a test can assert; `None` for types the test does not compare.
/// Whether the call a test observes is `hashCode()`, whose value Java does not promise from one
/// run of a program to the next (an identity hash, a hash of one: two runs in the same JVM agree,
/// the test's JVM may not).
fn returns_a_hash_code(req: &TestRequest) -> bool {
    match &req.then_call {
        Some(then) => then.method == "hashCode" && then.args.is_empty(),
        None => req.method == "hashCode" && req.params.is_empty() && !req.is_static && !req.is_constructor,
    }
}

/// How many times [`Verifier::check`] runs a test whose run may draw random numbers or read the
/// clock ([`ran_random_or_clock`]); it is offered only if every run reaches its line.
const RUNS_WHERE_RANDOM: u32 = 4;

/// Why a test of code that may draw random numbers or read the clock asserts nothing.
const RESULT_MAY_DIFFER: &str =
    "what the call returns, which may differ between runs: the code it runs may draw random numbers or read the clock";

/// Whether a test's outcome is asserted when it may come from random numbers or the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WhereRandom {
    /// Asserted when every run ended alike (a test jreach's model computed the outcome of).
    AssertWhatEveryRunAgrees,
    /// Never (a search's inputs: its runs may agree by chance).
    NeverAssert,
}

/// Whether a test with `outcome` asserts how its call ends.
fn asserts(outcome: &Outcome) -> bool {
    !matches!(outcome, Outcome::Undetermined(_) | Outcome::Observe)
}

/// The options under which a JVM gives every object the identity hash code 1.
const IDENTITY_HASH_ONE: [&str; 2] = ["-XX:+UnlockExperimentalVMOptions", "-XX:hashCode=2"];

/// Whether a line of the project that ran (`lines`, 1-based per source file as the runner
/// reports them; `text` is the target's file as the caller holds it, the others are read from
/// the source root) may draw random numbers or read the clock ([`draws_random_numbers`]). Only
/// the lines that ran count: a file with a `shuffle` method does not make every test of it one
/// whose result may differ between runs. (A file the source root does not hold is the test
/// itself, which draws none.)
fn ran_random_or_clock(project: &Project, text: &str, lines: &std::collections::BTreeMap<String, Vec<usize>>) -> bool {
    lines.iter().any(|(file, ran)| {
        let other;
        let source = match file == &project.relative {
            true => text,
            false => match std::fs::read_to_string(project.source_root.join(file)) {
                Ok(t) => {
                    other = t;
                    &other
                }
                Err(_) => return false,
            },
        };
        // (A variable of any name may hold a `Random` where the file names the class.)
        let holds_random = source.contains("Random");
        let source_lines: Vec<&str> = source.lines().collect();
        ran.iter().any(|&n| {
            let Some(line) = n.checked_sub(1).and_then(|i| source_lines.get(i)) else { return false };
            let draws = draws_random_numbers(line, holds_random);
            if draws {
                tracing::debug!("{file}:{n} may draw random numbers or read the clock: {}", line.trim());
            }
            draws
        })
    })
}

/// The calls of `java.util.Random` (and its kin) that draw a number.
const RANDOM_METHODS: [&str; 11] = [
    ".nextInt(",
    ".nextLong(",
    ".nextDouble(",
    ".nextFloat(",
    ".nextBoolean(",
    ".nextGaussian(",
    ".nextBytes(",
    ".nextExponential(",
    ".ints(",
    ".longs(",
    ".doubles(",
];

/// Whether a line of code may draw random numbers or read the clock: it names a random source
/// in any case (`new Random()`, `RANDOM.nextInt`, `Math.random()`, `ThreadLocalRandom`,
/// `randomUUID`), shuffles, reads the clock (`System.nanoTime()`, `currentTimeMillis`,
/// `Instant.now()`, a `Clock`), or, in a file that names `Random` (`holds_random`), calls one
/// of its methods that draw ([`RANDOM_METHODS`]) on any variable (`rng.nextInt(n)`; elsewhere
/// `nextInt` is a reader's, and `nextSetBit` is never one).
fn draws_random_numbers(line: &str, holds_random: bool) -> bool {
    // Making a source without a seed draws nothing yet (`static final Random RANDOM = new
    // Random();`, run once as the class loads).
    let t = line.trim();
    if t.ends_with("Random();") && t.contains("= new ") && t.matches('(').count() == 1 {
        return false;
    }
    let lower = line.to_ascii_lowercase();
    ["random", "shuffle", "nanotime", "currenttimemillis", ".now("].iter().any(|w| lower.contains(w))
        || ["Clock.", "clock."].iter().any(|w| line.contains(w))
        || holds_random && RANDOM_METHODS.iter().any(|m| line.contains(m))
}

/// Whether two runs of a harness with the same inputs ended alike: the same exception, or the
/// same value returned.
fn same_outcome(a: &SearchRun, b: &SearchRun) -> bool {
    a.exception == b.exception && a.returned.as_ref().map(|r| &r.value) == b.returned.as_ref().map(|r| &r.value)
}

fn returned_value(v: &serde_json::Value, ty: &str) -> Option<JavaValue> {
    use serde_json::Value as J;
    let ty = ty.trim().trim_start_matches("java.lang.");
    let boxed =
        matches!(ty, "Integer" | "Long" | "Short" | "Byte" | "Character" | "Boolean" | "Float" | "Double" | "String");
    if v.is_null() {
        return boxed.then_some(JavaValue::Null);
    }
    let int = v.as_i64();
    let float = || match v {
        J::String(s) => s.parse::<f64>().ok(),
        _ => None,
    };
    Some(match ty {
        "int" | "Integer" => JavaValue::Int(i32::try_from(int?).ok()?),
        "long" | "Long" => JavaValue::Long(int?),
        "short" | "Short" => JavaValue::Short(i16::try_from(int?).ok()?),
        "byte" | "Byte" => JavaValue::Byte(i8::try_from(int?).ok()?),
        "char" | "Character" => JavaValue::Char(u16::try_from(int?).ok()?),
        "boolean" | "Boolean" => JavaValue::Bool(v.as_bool()?),
        "float" | "Float" => JavaValue::Float(v.as_str()?.parse::<f32>().ok()?),
        "double" | "Double" => JavaValue::Double(float()?),
        "String" => JavaValue::Str(v.as_str()?.to_string()),
        _ => return None,
    })
}

/// An exception's binary name as Java code names it: `java.lang` classes simply, others fully
/// qualified, nested classes with dots.
fn java_name(binary: &str) -> String {
    match binary.strip_prefix("java.lang.") {
        Some(simple) if !simple.contains('.') => simple.replace('$', "."),
        _ => binary.replace('$', "."),
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
                // The model was wrong about code it does not see: look on the JVM from its inputs.
                if let Ok(Some(found)) = v.search(file, text, &req) {
                    return Offer::Verified(Box::new(found));
                }
                let searched =
                    if v.search_budget.is_zero() { "" } else { "; a search on the JVM found no other inputs" };
                return Offer::Declined(format!(
                    "jreach found inputs for line {}, but {why}{searched}",
                    req.target_line
                ));
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

/// For a target jreach found no test for on its model: a search on the JVM from `starts` (tests
/// with the simplest inputs, one per method a test may enter through, see
/// `jreach_ide::search_starts`), when `verifier` is there. `Err`: why there was no search.
pub fn search_for(
    verifier: Result<&mut Verifier, String>,
    file: &Path,
    text: &str,
    starts: &[TestRequest],
) -> Result<Option<TestRequest>, String> {
    match verifier {
        Err(why) => Err(why),
        Ok(v) => v.search_each(file, text, starts).map_err(|e| format!("no search on the JVM: {e}")),
    }
}

/// A test found by concolic rounds, verified as written: `rounds` (`jreach_ide::concolic`) is
/// given the run on the JVM that reports what the calls of `file` returned. `None` when the
/// rounds found nothing, the test they found misses its line, or searching is off
/// ([`Verifier::search_budget`] zero).
pub fn concolic_for(
    verifier: &mut Verifier,
    file: &Path,
    text: &str,
    rounds: impl FnOnce(&mut dyn FnMut(&TestRequest) -> Option<CallObservation>) -> Option<TestRequest>,
) -> Option<TestRequest> {
    if verifier.search_budget.is_zero() {
        return None;
    }
    let found = rounds(&mut |req: &TestRequest| verifier.observe_calls(file, text, req).ok())?;
    match verifier.check(file, text, &found) {
        Ok(Checked::Reached { req, .. }) => Some(*req),
        _ => None,
    }
}

/// A test method of the project to run against the code it tests ([`Verifier::run_test`]).
#[derive(Clone, Debug)]
pub struct ProjectTest<'a> {
    /// The code under test, its package and its text.
    pub file: &'a Path,
    pub package: Option<&'a str>,
    pub text: &'a str,
    /// The test file, relative to a source root (`shop/OrderTest.java`).
    pub test: SourceText,
    /// The test class's binary name and the method to run.
    pub class: &'a str,
    pub method: &'a str,
}

/// A run of a test the project has ([`Verifier::run_test`]).
#[derive(Clone, Debug)]
pub struct TestRun {
    pub report: RunReport,
    /// The code under test relative to its source root, as the report names it.
    pub relative: String,
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

    /// [`concolic_for`] with this server's verifier, using `classpath` before the build's.
    pub fn concolic(
        &self,
        classpath: &[PathBuf],
        file: &Path,
        text: &str,
        rounds: impl FnOnce(&mut dyn FnMut(&TestRequest) -> Option<CallObservation>) -> Option<TestRequest>,
    ) -> Option<TestRequest> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let v = state.get_or_insert_with(|| Verifier::new(classpath.to_vec()).map_err(|e| format!("not run: {e}")));
        match v {
            Ok(v) => {
                v.classpath = classpath.to_vec();
                concolic_for(v, file, text, rounds)
            }
            Err(_) => None,
        }
    }

    /// [`Verifier::run_test`] with this server's verifier, using `classpath` before the build's.
    pub fn run_test(&self, classpath: &[PathBuf], t: &ProjectTest<'_>) -> Result<TestRun, String> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let v = state.get_or_insert_with(|| Verifier::new(classpath.to_vec()).map_err(|e| format!("not run: {e}")));
        match v {
            Ok(v) => {
                v.classpath = classpath.to_vec();
                v.run_test(t).map_err(|e| e.to_string())
            }
            Err(why) => Err(why.clone()),
        }
    }

    /// [`search_for`] with this server's verifier; `cancel` ends the search early.
    pub fn search(
        &self,
        classpath: &[PathBuf],
        file: &Path,
        text: &str,
        starts: &[TestRequest],
        cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> Result<Option<TestRequest>, String> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let v = state.get_or_insert_with(|| Verifier::new(classpath.to_vec()).map_err(|e| format!("not run: {e}")));
        match v {
            Ok(v) => {
                v.classpath = classpath.to_vec();
                v.cancel = cancel;
                let found = search_for(Ok(v), file, text, starts);
                v.cancel = None;
                found
            }
            Err(why) => Err(why.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_draw_random_numbers_or_read_the_clock() {
        for line in [
            "return RANDOM.nextInt(n);",
            "int k = ThreadLocalRandom.current().nextInt(3);",
            "double d = Math.random();",
            "Collections.shuffle(list);",
            "long t = System.nanoTime();",
            "return Instant.now();",
            "String id = UUID.randomUUID().toString();",
            "private static final Random R = new Random(System.currentTimeMillis());",
        ] {
            assert!(draws_random_numbers(line, false), "{line}");
        }
        // A variable of any name, where the file names `Random`.
        assert!(draws_random_numbers("return rng.nextInt(6);", true));
        assert!(!draws_random_numbers("return in.nextInt();", false));
        assert!(!draws_random_numbers("for (int i = bits.nextSetBit(0); i >= 0; i = bits.nextSetBit(i + 1)) {", true));
        // Making a source without a seed draws nothing yet.
        assert!(!draws_random_numbers("private static final Random RANDOM = new Random();", true));
        assert!(!draws_random_numbers("return indexOf(array, value, 0);", true));
    }

    #[test]
    fn a_hash_code_is_not_asserted_but_other_calls_are() {
        let req = |method: &str, then: Option<&str>| TestRequest {
            method: method.into(),
            then_call: then.map(|m| jreach_synth::ThenCall {
                declared_as: "Object".into(),
                cast: false,
                throws_throwable: false,
                method: m.into(),
                args: vec![],
            }),
            is_static: false,
            params: vec![],
            args: vec![],
            ..crate::search::tests::start_request()
        };
        assert!(returns_a_hash_code(&req("hashCode", None)));
        assert!(!returns_a_hash_code(&req("size", None)));
        assert!(returns_a_hash_code(&req("create", Some("hashCode"))));
        assert!(!returns_a_hash_code(&req("hashCode", Some("read"))));
    }
}
