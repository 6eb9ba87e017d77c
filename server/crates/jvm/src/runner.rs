//! The child JVM: built from the Java source kept in this crate (`java/jreach/runner/`) with the
//! machine's JDK into a cache directory on first use, started once and reused for every run,
//! started again when it dies or outlives a run's limit. One JSON request per line on its stdin,
//! one reply per line on its stdout (see `Main.java`).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::jdk::Jdk;
use crate::RunnerError;

/// The runner's Java sources, compiled on first use: (file name, text).
const SOURCES: &[(&str, &str)] = &[
    ("Main.java", include_str!("../java/jreach/runner/Main.java")),
    ("Compile.java", include_str!("../java/jreach/runner/Compile.java")),
    ("Json.java", include_str!("../java/jreach/runner/Json.java")),
    ("Lines.java", include_str!("../java/jreach/runner/Lines.java")),
    ("Probe.java", include_str!("../java/jreach/runner/Probe.java")),
    ("RunLoader.java", include_str!("../java/jreach/runner/RunLoader.java")),
    ("Inputs.java", include_str!("../java/jreach/runner/Inputs.java")),
    ("Branches.java", include_str!("../java/jreach/runner/Branches.java")),
    ("Calls.java", include_str!("../java/jreach/runner/Calls.java")),
];

/// A source file of a run given as text: `path` is relative to a source root (`shop/Checkout.java`).
#[derive(Clone, Debug, Serialize)]
pub struct SourceText {
    pub path: String,
    pub text: String,
}

/// One candidate test to compile and run.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunRequest {
    /// The project's source roots: classes the texts need are compiled from them.
    pub source_roots: Vec<PathBuf>,
    /// Jars and class directories: the project's dependencies and JUnit.
    pub classpath: Vec<PathBuf>,
    /// Where classes compiled from the source roots are kept between runs.
    pub cache_dir: PathBuf,
    /// The files compiled from text: the target's file as the editor holds it, the test.
    pub sources: Vec<SourceText>,
    /// Binary name of the test class and the one method to run.
    pub test_class: String,
    pub test_method: String,
    pub timeout_ms: u64,
    /// A source file (relative to its root, `shop/Checkout.java`) whose calls report what they
    /// return ([`RunReport::calls`]): concolic rounds read the values of calls jreach does not model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observe_calls: Option<String>,
}

/// What one call of the observed file returned (see `Calls.java`), in the order calls returned.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ReturnedCall {
    /// The call instruction's 1-based line (javac's: the line of the call's `(`).
    pub line: usize,
    /// The method's name.
    pub name: String,
    pub kind: ReturnedKind,
    /// An integral value (chars as their code), a boolean, a floating value as text, a string, or
    /// the class of another object.
    #[serde(default)]
    pub value: serde_json::Value,
}

/// What kind of value a call returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReturnedKind {
    Int,
    Bool,
    Float,
    String,
    Null,
    Object,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunStatus {
    Pass,
    Fail,
    CompileError,
    Timeout,
    Error,
}

/// The runner's reply to a [`RunRequest`].
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    pub status: RunStatus,
    /// javac's first error, the failure's message, or what went wrong.
    #[serde(default)]
    pub message: String,
    /// The class of the exception a failing test threw.
    #[serde(default)]
    pub exception: Option<String>,
    /// The first frames of that exception outside the runner.
    #[serde(default)]
    pub trace: Vec<String>,
    /// Lines that started running, per source file (`shop/Checkout.java`), 1-based.
    #[serde(default)]
    pub lines: std::collections::BTreeMap<String, Vec<usize>>,
    /// Lines whose code ran up to a probe point where JaCoCo puts its probes (see `Lines.java`):
    /// what coverage tools count as run. A line whose call threw, or straight code an exception
    /// followed before the next probe point, started but is not here.
    #[serde(default)]
    pub completed: std::collections::BTreeMap<String, Vec<usize>>,
    /// What the code printed (the start of it).
    #[serde(default)]
    pub output: String,
    /// A call that tried to end the JVM during the run (`System.exit(3)`), refused by the runner
    /// even where the test caught the refusal: in a build it would have ended the test run.
    #[serde(default)]
    pub exit_call: Option<String>,
    #[serde(default)]
    pub compile_ms: u64,
    #[serde(default)]
    pub run_ms: u64,
    /// What the calls of [`RunRequest::observe_calls`]' file returned, in order.
    #[serde(default)]
    pub calls: Vec<ReturnedCall>,
}

impl RunReport {
    /// Whether line `line` of `source` (relative to its source root) started running.
    pub fn ran(&self, source: &str, line: usize) -> bool {
        self.lines.get(source).is_some_and(|ls| ls.binary_search(&line).is_ok())
    }

    /// Whether line `line` of `source` ran to its end (see [`RunReport::completed`]).
    pub fn completed(&self, source: &str, line: usize) -> bool {
        self.completed.get(source).is_some_and(|ls| ls.binary_search(&line).is_ok())
    }
}

/// A batch of runs of one search harness: a test whose inputs are `Inputs` calls (see
/// `Inputs.java`), compiled and loaded once per `session` and run once per input vector.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchRequest {
    /// A key the caller chooses: a request naming the session of the one before reuses its
    /// compiled harness and loaded classes (and ignores the fields that made them).
    pub session: String,
    pub source_roots: Vec<PathBuf>,
    pub classpath: Vec<PathBuf>,
    pub cache_dir: PathBuf,
    pub sources: Vec<SourceText>,
    pub test_class: String,
    pub test_method: String,
    /// The target's file relative to its source root, and its 1-based line.
    pub target_source: String,
    pub target_line: usize,
    /// One vector of input values per run, in `Inputs`' slot order.
    pub inputs: Vec<Vec<serde_json::Value>>,
    /// How long one run may take.
    pub timeout_ms: u64,
}

/// What one run of a [`SearchRequest`] showed.
#[derive(Clone, Debug, Deserialize)]
pub struct SearchRun {
    pub status: RunStatus,
    /// The class of the exception the harness threw, if it failed.
    #[serde(default)]
    pub exception: Option<String>,
    /// Whether the target line ran to its end (see [`RunReport::completed`]).
    pub hit: bool,
    /// Whether the target line started (a run whose call on it threw started it, and did not hit
    /// it).
    #[serde(default)]
    pub started: bool,
    /// How many lines of the target's file ran.
    pub lines: usize,
    /// How many lines of the target's file ran that no earlier run of the search ran.
    #[serde(default)]
    pub novel: usize,
    /// Which inputs the run read (`Inputs.i(k)` and kin), by index; `None` when the runner did
    /// not say. An input the run did not read cannot change what it does.
    #[serde(default, deserialize_with = "read_mask")]
    pub read: Option<Vec<bool>>,
    /// The run's divergence closest to the target: instructions from the deciding jump to the
    /// target, and the jump's normalised branch distance in [0, 1). `None`: no jump toward the
    /// target went the wrong way (the run never came to one).
    #[serde(default)]
    pub fitness: Option<(f64, f64)>,
    /// What the call returned, when the harness observes it and JSON can carry it: integers,
    /// booleans, characters as their code, floating values as Java spells them (a string),
    /// strings, null.
    #[serde(default)]
    pub returned: Option<Returned>,
}

/// [`SearchRun::read`] from the runner's hex digits (digit `j` holds inputs `4j..4j+3`, input
/// `k` as bit `k % 4`); a malformed mask is as good as none.
fn read_mask<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<bool>>, D::Error> {
    let Some(hex) = Option::<String>::deserialize(d)? else { return Ok(None) };
    let mut read = Vec::with_capacity(hex.len() * 4);
    for c in hex.chars() {
        let Some(digit) = c.to_digit(16) else { return Ok(None) };
        read.extend((0..4).map(|b| digit & (1 << b) != 0));
    }
    Ok(Some(read))
}

/// A value a harness's call returned (see [`SearchRun::returned`]).
#[derive(Clone, Debug, Deserialize)]
pub struct Returned {
    pub value: serde_json::Value,
}

/// Whether a [`SearchRequest`]'s harness could be run.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SearchStatus {
    Ok,
    CompileError,
}

/// The runner's reply to a [`SearchRequest`].
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchReport {
    pub status: SearchStatus,
    #[serde(default)]
    pub message: String,
    /// One per input vector, in order, up to the first that ran the target line; fewer also when
    /// a run could not be stopped (the runner then restarts, and the rest of the batch is not run).
    #[serde(default)]
    pub results: Vec<SearchRun>,
    /// String and number constants of the target's classes and of the classes that the runs'
    /// exceptions came from: seeds for the search.
    #[serde(default)]
    pub constants: Vec<serde_json::Value>,
    /// Characters the code of those classes pushes as small constants (`c == '"'`): the search
    /// builds strings of them.
    #[serde(default)]
    pub chars: String,
    #[serde(default)]
    pub compile_ms: u64,
    #[serde(default)]
    pub run_ms: u64,
}

struct Process {
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<String>,
}

/// The long-lived child JVM. Not shared between threads: callers hold it behind a lock.
pub struct Runner {
    jdk: Jdk,
    /// The runner's jar.
    runner_classes: PathBuf,
    scratch: PathBuf,
    /// This runner's name among the process's: `<pid>-<n>`.
    id: String,
    process: Option<Process>,
    next_id: u64,
    /// How many times a JVM was started (the first start included).
    pub starts: u32,
    /// Options of its JVM beyond the usual (`-XX:hashCode=2`); such a runner only reads the
    /// class-data archive, never writes it.
    jvm_options: Vec<String>,
}

/// Extra time a reply may take beyond the test's own limit: compiling and loading.
const COMPILE_ALLOWANCE: Duration = Duration::from_secs(120);

impl Runner {
    /// Builds the runner if this version of it is not in the cache yet; the JVM itself starts on
    /// the first run.
    pub fn new(jdk: Jdk, cache_root: &Path) -> Result<Runner, RunnerError> {
        let runner_classes = build(&jdk, cache_root)?;
        // A name per runner, not per process: `fill --jobs 2` runs two in one process, and
        // neither may remove the other's working folder or write its class archive.
        static RUNNERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let nth = RUNNERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let id = format!("{}-{nth}", std::process::id());
        let scratch = cache_root.join("scratch").join(&id);
        std::fs::create_dir_all(&scratch).map_err(|e| RunnerError::Io { path: scratch.clone(), error: e })?;
        Ok(Runner { jdk, runner_classes, scratch, id, process: None, next_id: 0, starts: 0, jvm_options: vec![] })
    }

    /// A runner whose JVM also takes `options`.
    pub fn with_jvm_options(jdk: Jdk, cache_root: &Path, options: &[&str]) -> Result<Runner, RunnerError> {
        let mut runner = Runner::new(jdk, cache_root)?;
        runner.jvm_options = options.iter().map(|o| o.to_string()).collect();
        Ok(runner)
    }

    fn spawn(&mut self) -> Result<(), RunnerError> {
        let cp = std::env::join_paths([self.runner_classes.clone(), self.jdk.asm_jar.clone()])
            .map_err(|e| RunnerError::Start(e.to_string()))?;
        // A class-data archive of what the runner loads (javac above all) makes every start after
        // the first faster; it is written when the first runner exits normally.
        let archive = self.runner_classes.with_file_name("runner.jsa");
        let share = if archive.is_file() {
            Some(format!("-XX:SharedArchiveFile={}", archive.display()))
        } else if self.jvm_options.is_empty() {
            Some(format!("-XX:ArchiveClassesAtExit={}", self.archive_tmp().display()))
        } else {
            None
        };
        let mut child = Command::new(&self.jdk.java)
            .args(share)
            .args(&self.jvm_options)
            .arg("-Djava.security.manager=allow")
            .arg("-Xss64m")
            .arg("-Xmx1g")
            .arg("-XX:+UseSerialGC")
            .arg("-XX:TieredStopAtLevel=1")
            .arg("-cp")
            .arg(cp)
            .arg("jreach.runner.Main")
            .current_dir(&self.scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| RunnerError::Start(format!("{}: {e}", self.jdk.java.display())))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.process = Some(Process { child, stdin, replies: rx });
        self.starts += 1;
        Ok(())
    }

    fn stop(&mut self) {
        if let Some(mut p) = self.process.take() {
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
    }

    fn archive_tmp(&self) -> PathBuf {
        self.runner_classes.with_file_name(format!("runner.jsa.{}", self.id))
    }

    /// Ends the runner by closing its input, so that it exits normally (and writes the class
    /// archive if it was asked to); killed if it does not within five seconds.
    fn finish(&mut self) {
        let Some(p) = self.process.take() else { return };
        let Process { mut child, stdin, .. } = p;
        drop(stdin);
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        let exited = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status.success(),
                Ok(None) if std::time::Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break false;
                }
            }
        };
        // Only an archive the JVM finished writing is kept.
        let tmp = self.archive_tmp();
        if exited && tmp.is_file() {
            let _ = std::fs::rename(&tmp, self.runner_classes.with_file_name("runner.jsa"));
        } else {
            let _ = std::fs::remove_file(&tmp);
        }
    }

    /// Sends one request and waits for its reply; a runner that died or hangs is stopped (the
    /// next request starts a new one) and the error says what happened.
    fn request(&mut self, mut body: serde_json::Value, limit: Duration) -> Result<serde_json::Value, RunnerError> {
        if self.process.as_mut().is_some_and(|p| p.child.try_wait().ok().flatten().is_some()) {
            self.stop();
        }
        if self.process.is_none() {
            self.spawn()?;
        }
        self.next_id += 1;
        let id = self.next_id;
        body["id"] = id.into();
        let p = self.process.as_mut().expect("spawned");
        let line = serde_json::to_string(&body).expect("requests serialize");
        if writeln!(p.stdin, "{line}").and_then(|()| p.stdin.flush()).is_err() {
            self.stop();
            return Err(RunnerError::Died("it did not accept the request".into()));
        }
        loop {
            let p = self.process.as_mut().expect("spawned");
            match p.replies.recv_timeout(limit) {
                Ok(reply) => {
                    let Ok(v) = serde_json::from_str::<serde_json::Value>(&reply) else { continue };
                    if v["id"].as_u64() != Some(id) {
                        continue; // a late reply to an earlier request
                    }
                    if v["fatal"].as_bool() == Some(true) {
                        self.stop();
                    }
                    return Ok(v);
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.stop();
                    return Err(RunnerError::Hung(limit));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = p.child.wait().ok().and_then(|s| s.code());
                    self.process = None;
                    return Err(RunnerError::Died(match status {
                        Some(code) => {
                            format!("it exited with status {code} (the code under test may have called System.exit)")
                        }
                        None => "it was killed".into(),
                    }));
                }
            }
        }
    }

    /// Checks that the JVM starts and answers; returns its Java version.
    pub fn ping(&mut self) -> Result<String, RunnerError> {
        let v = self.request(serde_json::json!({"op": "ping"}), Duration::from_secs(60))?;
        Ok(v["java"].as_str().unwrap_or("?").to_string())
    }

    /// Runs a search harness once per input vector (see [`SearchRequest`]).
    pub fn search(&mut self, req: &SearchRequest) -> Result<SearchReport, RunnerError> {
        let mut body = serde_json::to_value(req).expect("requests serialize");
        body["op"] = "search".into();
        let runs = req.inputs.len() as u64;
        let limit = Duration::from_millis(req.timeout_ms.saturating_add(600).saturating_mul(runs)) + COMPILE_ALLOWANCE;
        let v = self.request(body, limit)?;
        if v["status"] == "error" {
            return Err(RunnerError::Protocol(v["message"].as_str().unwrap_or("").to_string()));
        }
        serde_json::from_value(v).map_err(|e| RunnerError::Protocol(e.to_string()))
    }

    /// Compiles and runs one candidate test.
    pub fn run(&mut self, req: &RunRequest) -> Result<RunReport, RunnerError> {
        let mut body = serde_json::to_value(req).expect("requests serialize");
        body["op"] = "run".into();
        let limit = Duration::from_millis(req.timeout_ms) + COMPILE_ALLOWANCE;
        let v = self.request(body, limit)?;
        if v["status"] == "error" && v.get("exception").is_none() {
            return Err(RunnerError::Protocol(v["message"].as_str().unwrap_or("").to_string()));
        }
        serde_json::from_value(v).map_err(|e| RunnerError::Protocol(e.to_string()))
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.finish();
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// Compiles the runner's sources into `cache_root/runner-<hash>/runner.jar` unless already there.
fn build(jdk: &Jdk, cache_root: &Path) -> Result<PathBuf, RunnerError> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    SOURCES.hash(&mut h);
    jdk.java.hash(&mut h);
    let dir = cache_root.join(format!("runner-{:016x}", h.finish()));
    let jar = dir.join("runner.jar");
    if jar.is_file() {
        return Ok(jar);
    }
    // Built in a folder of its own and renamed into place, so that two builds running at once
    // never see half a runner. A jar, not a folder: the JVM's class data archive takes only jars.
    // A folder per build, not per process: two threads of one process (a test binary, a server
    // verifying while it searches) building at once shared a folder and left a jar without `Main`.
    static BUILDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nth = BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let work = dir.join(format!("build-{}-{nth}", std::process::id()));
    let src = work.join("src/jreach/runner");
    std::fs::create_dir_all(&src).map_err(|e| RunnerError::Io { path: src.clone(), error: e })?;
    let mut files = Vec::new();
    for (name, text) in SOURCES {
        let path = src.join(name);
        std::fs::write(&path, text).map_err(|e| RunnerError::Io { path: path.clone(), error: e })?;
        files.push(path);
    }
    let run = |cmd: &mut Command, tool: &Path| -> Result<(), RunnerError> {
        let out = cmd.output().map_err(|e| RunnerError::Start(format!("{}: {e}", tool.display())))?;
        if out.status.success() {
            return Ok(());
        }
        let _ = std::fs::remove_dir_all(&work);
        Err(RunnerError::Build(String::from_utf8_lossy(&out.stderr).lines().take(5).collect::<Vec<_>>().join("\n")))
    };
    let classes = work.join("classes");
    run(
        Command::new(&jdk.javac).arg("-nowarn").arg("-cp").arg(&jdk.asm_jar).arg("-d").arg(&classes).args(&files),
        &jdk.javac,
    )?;
    let jar_tool = jdk.javac.with_file_name("jar");
    let built = work.join("runner.jar");
    run(Command::new(&jar_tool).arg("cf").arg(&built).arg("-C").arg(&classes).arg("."), &jar_tool)?;
    // Another process may have won the race: its runner is the same.
    let _ = std::fs::rename(&built, &jar);
    let _ = std::fs::remove_dir_all(&work);
    if !jar.is_file() {
        return Err(RunnerError::Build(format!("{} was not created", jar.display())));
    }
    Ok(jar)
}
