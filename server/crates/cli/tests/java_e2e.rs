//! End-to-end suite: `jreach` against real Java.
//!
//! The fixtures under `tests/fixtures/java/` mark target lines with a trailing
//! `// @reach <witness>` (the line can run; the optional witness is a Java statement that runs
//! it), `// @live <witness>` (the line can run, and jreach may honestly not find a test for it:
//! it must never call it unreachable, and a test it writes must reach it) or `// @unreachable`
//! (no input can run it). For every target this suite asks
//! `jreach gen FILE --line N --out DIR`; for a reachable line it compiles the generated test
//! against the compiled fixtures and JUnit, runs it under the JaCoCo agent, and checks with
//! `tests/support/LineCoverage.java` that the test passed and executed the target line. For an
//! unreachable line it expects exit 3. A reachable line reported unreachable is the worst bug
//! the product can have and is reported as FALSE UNREACHABLE.
//!
//! Two further tests check the harness itself without `jreach`: a hand-written JUnit test run
//! over one fixture, and the fixtures' own witnesses, which must cover every `@reach` line.
//!
//! Needs a JDK and Debian's `junit5`, `junit4` and `libjacoco-java` (`scripts/setup.sh`).
//! Environment knobs: `JREACH_E2E_FILTER` (substring of `path:line` to select targets),
//! `JREACH_E2E_JOBS` (worker threads, default 2), `JREACH_E2E_TIMEOUT` (seconds per
//! `jreach gen`, default 120), `JREACH_JAVA_JARS` (folder of the jars, default /usr/share/java),
//! `JREACH_BIN` (another `jreach` binary to test instead of this crate's).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const PACKAGES: &str = "default-jdk-headless junit5 junit4 libjacoco-java";

/// Jars needed to compile and run tests, with the Debian package that ships each.
const JARS: &[(&str, &str)] = &[
    ("junit-platform-console-standalone.jar", "junit5"),
    ("junit-jupiter-api.jar", "junit5"),
    ("junit-platform-commons.jar", "junit5"),
    ("opentest4j.jar", "junit5"),
    ("apiguardian-api.jar", "junit5"),
    ("junit4.jar", "junit4"),
    ("hamcrest-core.jar", "junit4"),
    ("org.jacoco.core.jar", "libjacoco-java"),
    ("org.jacoco.agent.jar", "libjacoco-java"),
    ("asm.jar", "libjacoco-java"),
    ("asm-commons.jar", "libjacoco-java"),
    ("asm-tree.jar", "libjacoco-java"),
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(3).expect("workspace root").to_path_buf()
}

fn fixtures_dir() -> PathBuf {
    repo_root().join("tests/fixtures/java")
}

/// The bundled example the README's first command runs on.
fn examples_dir() -> PathBuf {
    repo_root().join("examples")
}

/// The binary under test; `JREACH_BIN` points the suite at another build.
fn jreach() -> PathBuf {
    std::env::var_os("JREACH_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_jreach")), PathBuf::from)
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

// ---------------------------------------------------------------------------------------------
// Running processes

/// The outcome of one child process.
struct Ran {
    /// Exit code; `None` when killed by a signal or by the time limit.
    code: Option<i32>,
    timed_out: bool,
    stdout: String,
    stderr: String,
    secs: f64,
}

impl Ran {
    fn ok(&self) -> bool {
        self.code == Some(0)
    }

    fn code_text(&self) -> String {
        match (self.code, self.timed_out) {
            (_, true) => "timeout".to_owned(),
            (Some(c), _) => c.to_string(),
            (None, _) => "signal".to_owned(),
        }
    }

    fn output(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Runs `cmd` with a time limit. Output goes through files in `scratch` (named after `tag`), so
/// that a chatty child can never block on a full pipe.
fn run(cmd: &mut Command, timeout: Duration, scratch: &Path, tag: &str) -> Ran {
    let out_path = scratch.join(format!("{tag}.stdout"));
    let err_path = scratch.join(format!("{tag}.stderr"));
    let start = Instant::now();
    let mut child = match cmd
        .stdin(Stdio::null())
        .stdout(File::create(&out_path).expect("create stdout file"))
        .stderr(File::create(&err_path).expect("create stderr file"))
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            return Ran {
                code: Some(-1),
                timed_out: false,
                stdout: String::new(),
                stderr: format!("cannot start {:?}: {e}", cmd.get_program()),
                secs: 0.0,
            }
        }
    };
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for child") {
            break Some(status);
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            timed_out = true;
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Ran {
        code: status.and_then(|s| s.code()),
        timed_out,
        stdout: fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: fs::read_to_string(&err_path).unwrap_or_default(),
        secs: start.elapsed().as_secs_f64(),
    }
}

fn tail(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.len() <= max {
        return text.to_owned();
    }
    let mut cut = text.len() - max;
    while !text.is_char_boundary(cut) {
        cut += 1;
    }
    format!("...{}", &text[cut..])
}

fn one_line(text: &str, max: usize) -> String {
    tail(&text.split_whitespace().collect::<Vec<_>>().join(" "), max)
}

fn classpath<P: AsRef<Path>>(parts: impl IntoIterator<Item = P>) -> OsString {
    std::env::join_paths(parts.into_iter().map(|p| p.as_ref().to_path_buf())).expect("classpath")
}

// ---------------------------------------------------------------------------------------------
// Targets

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Reach,
    /// Reachable; a test is not required, a claim of unreachability is a bug.
    Live,
    Unreachable,
}

#[derive(Clone, Debug)]
struct Target {
    /// Absolute path of the Java file.
    file: PathBuf,
    /// Path relative to the repository root, for messages.
    shown: String,
    /// Source path as JaCoCo names it: package folders + file name.
    source: String,
    /// The file's package ("" for the default package).
    package: String,
    /// 1-based line number.
    line: u32,
    kind: Kind,
    /// Java statement(s) that reach the line, from the marker (may be empty).
    witness: String,
    /// The line's source text.
    text: String,
}

impl Target {
    fn loc(&self) -> String {
        format!("{}:{}", self.shown, self.line)
    }
}

/// Finds a `// @reach ...` or `// @unreachable` marker in a line of Java.
fn marker(line: &str) -> Option<(Kind, String)> {
    let mut rest = line;
    while let Some(at) = rest.find("//") {
        let comment = rest[at + 2..].trim_start();
        for (word, kind) in [("@reach", Kind::Reach), ("@live", Kind::Live), ("@unreachable", Kind::Unreachable)] {
            if let Some(after) = comment.strip_prefix(word) {
                if !after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                    return Some((kind, after.trim().to_owned()));
                }
            }
        }
        rest = &rest[at + 2..];
    }
    None
}

fn package_of(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix("package ").and_then(|p| p.split(';').next()))
        .map(|p| p.trim().to_owned())
        .unwrap_or_default()
}

fn java_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = match fs::read_dir(&d) {
            Ok(entries) => entries,
            Err(_) => continue,
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "java") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn targets(dir: &Path) -> Vec<Target> {
    let root = repo_root();
    let mut out = Vec::new();
    for file in java_files(dir) {
        let text = fs::read_to_string(&file).expect("read fixture");
        let package = package_of(&text);
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let source = if package.is_empty() { name } else { format!("{}/{name}", package.replace('.', "/")) };
        let shown = file.strip_prefix(&root).unwrap_or(&file).display().to_string();
        for (i, line) in text.lines().enumerate() {
            if let Some((kind, witness)) = marker(line) {
                out.push(Target {
                    file: file.clone(),
                    shown: shown.clone(),
                    source: source.clone(),
                    package: package.clone(),
                    line: i as u32 + 1,
                    kind,
                    witness,
                    text: line.to_owned(),
                });
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The Java side: compiled fixtures, JUnit, JaCoCo and LineCoverage

struct Harness {
    dir: tempfile::TempDir,
    jars: PathBuf,
    classes: PathBuf,
    agent: PathBuf,
    line_coverage: PathBuf,
}

/// Coverage and outcome of one JUnit run.
struct TestRun {
    passed: bool,
    output: String,
    /// `pkg/File.java` → executed lines.
    covered: BTreeMap<String, BTreeSet<u32>>,
}

impl TestRun {
    fn covers(&self, source: &str, line: u32) -> bool {
        self.covered.get(source).is_some_and(|lines| lines.contains(&line))
    }
}

impl Harness {
    /// Checks the prerequisites, compiles the fixtures and the coverage helper, unpacks the agent.
    fn new() -> Harness {
        let jars = PathBuf::from(std::env::var_os("JREACH_JAVA_JARS").unwrap_or_else(|| "/usr/share/java".into()));
        let mut missing = Vec::new();
        for tool in ["javac", "java", "jar"] {
            let found = Command::new(tool)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if !found {
                missing.push(format!("`{tool}` (Debian package default-jdk-headless)"));
            }
        }
        for (jar, package) in JARS {
            if !jars.join(jar).is_file() {
                missing.push(format!("{} (Debian package {package})", jars.join(jar).display()));
            }
        }
        assert!(
            missing.is_empty(),
            "the Java end-to-end tests need a JDK, JUnit and JaCoCo; missing:\n  {}\n\
             install them with `scripts/setup.sh` or `apt-get install {PACKAGES}`",
            missing.join("\n  ")
        );

        let dir = tempfile::Builder::new().prefix("jreach-e2e-").tempdir().expect("temp dir");
        let classes = dir.path().join("classes");
        let sources = java_files(&fixtures_dir());
        assert!(!sources.is_empty(), "no Java fixtures under {}", fixtures_dir().display());
        // The examples' code, not their projects' own tests (`examples/shop/src/test`).
        let examples = java_files(&examples_dir()).into_iter().filter(|p| !p.to_string_lossy().contains("/src/test/"));
        let sources: Vec<PathBuf> = sources.into_iter().chain(examples).collect();
        let ran = run(
            Command::new("javac").args(["-g", "-nowarn", "--release", "17", "-d"]).arg(&classes).args(&sources),
            Duration::from_secs(300),
            dir.path(),
            "javac-fixtures",
        );
        assert!(
            ran.ok(),
            "the fixtures and examples do not compile with javac --release 17:\n{}",
            tail(&ran.output(), 4000)
        );

        let ran = run(
            Command::new("jar")
                .arg("xf")
                .arg(jars.join("org.jacoco.agent.jar"))
                .arg("jacocoagent.jar")
                .current_dir(dir.path()),
            Duration::from_secs(120),
            dir.path(),
            "jar-agent",
        );
        let agent = dir.path().join("jacocoagent.jar");
        assert!(ran.ok() && agent.is_file(), "cannot unpack jacocoagent.jar: {}", tail(&ran.output(), 2000));

        let line_coverage = dir.path().join("line-coverage");
        let ran = run(
            Command::new("javac")
                .args(["-nowarn", "--release", "17", "-cp"])
                .arg(jars.join("org.jacoco.core.jar"))
                .arg("-d")
                .arg(&line_coverage)
                .arg(repo_root().join("tests/support/LineCoverage.java")),
            Duration::from_secs(300),
            dir.path(),
            "javac-linecoverage",
        );
        assert!(ran.ok(), "tests/support/LineCoverage.java does not compile:\n{}", tail(&ran.output(), 4000));

        Harness { dir, jars, classes, agent, line_coverage }
    }

    /// A fresh scratch folder inside the harness's temporary directory.
    fn scratch(&self, name: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        fs::create_dir_all(&path).expect("create scratch dir");
        path
    }

    fn jar(&self, name: &str) -> PathBuf {
        self.jars.join(name)
    }

    /// Class path for compiling tests: the fixtures plus JUnit 5 and JUnit 4 APIs.
    fn compile_classpath(&self) -> OsString {
        let mut parts = vec![self.classes.clone()];
        for jar in [
            "junit-jupiter-api.jar",
            "junit-jupiter-params.jar",
            "junit-platform-commons.jar",
            "opentest4j.jar",
            "apiguardian-api.jar",
            "junit4.jar",
            "hamcrest-core.jar",
        ] {
            if self.jar(jar).is_file() {
                parts.push(self.jar(jar));
            }
        }
        classpath(parts)
    }

    /// Compiles test sources into `out`; returns javac's diagnostics on failure.
    fn compile_tests(&self, sources: &[PathBuf], out: &Path, scratch: &Path) -> Result<(), String> {
        let ran = run(
            Command::new("javac")
                .args(["-g", "-nowarn", "--release", "17", "-cp"])
                .arg(self.compile_classpath())
                .arg("-d")
                .arg(out)
                .args(sources),
            Duration::from_secs(300),
            scratch,
            "javac-test",
        );
        if ran.ok() {
            Ok(())
        } else {
            Err(ran.output())
        }
    }

    /// Runs the given JUnit test classes (JUnit 5 or 4) under the JaCoCo agent and reads back
    /// which fixture lines ran.
    fn run_tests(&self, test_classes: &Path, class_names: &[String], scratch: &Path) -> TestRun {
        let exec = scratch.join("jacoco.exec");
        let _ = fs::remove_file(&exec);
        let mut agent_arg = OsString::from("-javaagent:");
        agent_arg.push(&self.agent);
        agent_arg.push("=destfile=");
        agent_arg.push(&exec);
        let mut cmd = Command::new("java");
        // Assertions on, as Maven Surefire and Gradle run tests.
        cmd.arg("-ea")
            .arg(agent_arg)
            .arg("-jar")
            .arg(self.jar("junit-platform-console-standalone.jar"))
            .arg("-cp")
            .arg(classpath([
                self.classes.clone(),
                test_classes.to_path_buf(),
                self.jar("junit4.jar"),
                self.jar("hamcrest-core.jar"),
            ]))
            .args(["--disable-banner", "--disable-ansi-colors", "--details=tree", "--fail-if-no-tests"]);
        for name in class_names {
            cmd.arg("--select-class").arg(name);
        }
        let junit = run(&mut cmd, Duration::from_secs(180), scratch, "junit");

        let cov = run(
            Command::new("java")
                .arg("-cp")
                .arg(classpath([
                    self.line_coverage.clone(),
                    self.jar("org.jacoco.core.jar"),
                    self.jar("asm.jar"),
                    self.jar("asm-commons.jar"),
                    self.jar("asm-tree.jar"),
                ]))
                .arg("LineCoverage")
                .arg(&exec)
                .arg(&self.classes),
            Duration::from_secs(120),
            scratch,
            "linecoverage",
        );
        assert!(cov.ok(), "LineCoverage failed:\n{}", tail(&cov.output(), 3000));
        let mut covered = BTreeMap::new();
        for line in cov.stdout.lines() {
            let Some((name, nums)) = line.split_once(':') else { continue };
            let lines: BTreeSet<u32> = nums.split_whitespace().filter_map(|n| n.parse().ok()).collect();
            covered.insert(name.trim().to_owned(), lines);
        }
        let output = if junit.timed_out { format!("JUnit run timed out\n{}", junit.output()) } else { junit.output() };
        TestRun { passed: junit.ok(), output, covered }
    }
}

/// Fully qualified class names of Java sources (package declaration + file stem).
fn class_names(sources: &[PathBuf]) -> Vec<String> {
    sources
        .iter()
        .map(|src| {
            let text = fs::read_to_string(src).unwrap_or_default();
            let package = package_of(&text);
            let stem = src.file_stem().unwrap().to_string_lossy().into_owned();
            if package.is_empty() {
                stem
            } else {
                format!("{package}.{stem}")
            }
        })
        .collect()
}

fn write_java(root: &Path, package: &str, class: &str, body: &str) -> PathBuf {
    let dir = root.join(package.replace('.', "/"));
    fs::create_dir_all(&dir).expect("create package dir");
    let path = dir.join(format!("{class}.java"));
    fs::write(&path, body).expect("write java source");
    path
}

// ---------------------------------------------------------------------------------------------
// Harness self-tests: no jreach involved

fn line_of(targets: &[Target], source: &str, witness: &str) -> u32 {
    targets
        .iter()
        .find(|t| t.source == source && t.witness == witness)
        .unwrap_or_else(|| panic!("no target with witness `{witness}` in {source}"))
        .line
}

/// A hand-written JUnit 5 test over `Basics.java`: LineCoverage must report exactly what ran, and
/// a failing assertion must be seen as a failing run.
#[test]
fn harness_reports_lines_of_a_handwritten_test() {
    let h = Harness::new();
    let all = targets(&fixtures_dir());
    let source = "fixtures/Basics.java";
    let over_100 = line_of(&all, source, "Basics.classify(101)");
    let over_10 = line_of(&all, source, "Basics.classify(11)");
    let grade_b = line_of(&all, source, "Basics.grade(81)");

    let scratch = h.scratch("self-test");
    let src = scratch.join("src");
    let passing = write_java(
        &src,
        "fixtures",
        "BasicsHandTest",
        "package fixtures;\n\n\
         import static org.junit.jupiter.api.Assertions.assertEquals;\n\n\
         import org.junit.jupiter.api.Test;\n\n\
         class BasicsHandTest {\n    \
             @Test\n    void classifyLarge() {\n        assertEquals(2, Basics.classify(101));\n    }\n\n    \
             @Test\n    void gradeB() {\n        assertEquals(33, Basics.grade(81));\n    }\n\
         }\n",
    );
    let failing = write_java(
        &src,
        "fixtures",
        "BasicsFailingTest",
        "package fixtures;\n\n\
         import org.junit.jupiter.api.Assertions;\n\
         import org.junit.jupiter.api.Test;\n\n\
         class BasicsFailingTest {\n    \
             @Test\n    void wrongExpectation() {\n        Assertions.assertEquals(3, Basics.classify(101));\n    }\n\
         }\n",
    );
    let out = scratch.join("out");
    if let Err(e) = h.compile_tests(&[passing.clone(), failing.clone()], &out, &scratch) {
        panic!("hand-written test does not compile:\n{e}");
    }

    let run = h.run_tests(&out, &class_names(&[passing]), &scratch);
    assert!(run.passed, "hand-written test should pass:\n{}", tail(&run.output, 3000));
    let lines =
        run.covered.get(source).unwrap_or_else(|| panic!("LineCoverage did not report {source}: {:?}", run.covered));
    assert!(lines.contains(&over_100), "line {over_100} ran but is not reported: {lines:?}");
    assert!(lines.contains(&grade_b), "line {grade_b} ran but is not reported: {lines:?}");
    assert!(!lines.contains(&over_10), "line {over_10} did not run but is reported: {lines:?}");
    assert!(
        run.covered.get("fixtures/Loops.java").is_some_and(BTreeSet::is_empty),
        "a fixture that never ran must be reported with no lines: {:?}",
        run.covered.get("fixtures/Loops.java")
    );

    let run = h.run_tests(&out, &class_names(&[failing]), &scratch);
    assert!(!run.passed, "a failing assertion must make the run fail:\n{}", tail(&run.output, 3000));
    assert!(run.covers(source, over_100), "coverage is recorded even when the test fails");
}

/// Every `@reach` marker's witness must really run its line, and no witness may run an
/// `@unreachable` line: the fixtures' labels are ground truth for the suite below.
#[test]
fn fixture_witnesses_reach_their_lines() {
    let h = Harness::new();
    let all = targets(&fixtures_dir());
    let reach: Vec<&Target> = all.iter().filter(|t| matches!(t.kind, Kind::Reach | Kind::Live)).collect();
    assert!(!reach.is_empty(), "no @reach targets found under {}", fixtures_dir().display());
    let unwitnessed: Vec<String> = reach.iter().filter(|t| t.witness.is_empty()).map(|t| t.loc()).collect();
    assert!(unwitnessed.is_empty(), "@reach markers without a witness statement: {unwitnessed:?}");

    // One test class per package; one test method per witness, each guarded so that a witness
    // that throws (on purpose, for exception targets) does not stop the others.
    let scratch = h.scratch("witnesses");
    let src = scratch.join("src");
    let mut by_package: BTreeMap<&str, Vec<&Target>> = BTreeMap::new();
    for t in &reach {
        by_package.entry(t.package.as_str()).or_default().push(t);
    }
    let mut sources = Vec::new();
    for (package, ts) in &by_package {
        let mut body = String::new();
        if !package.is_empty() {
            writeln!(body, "package {package};\n").unwrap();
        }
        body.push_str("public class FixtureWitnessesTest {\n");
        for (i, t) in ts.iter().enumerate() {
            writeln!(
                body,
                "    // {}\n    @org.junit.jupiter.api.Test\n    public void w{i}() {{\n        \
                 try {{\n            {};\n        }} catch (Throwable expected) {{\n        }}\n    }}\n",
                t.loc(),
                t.witness.trim_end_matches(';')
            )
            .unwrap();
        }
        body.push_str("}\n");
        sources.push(write_java(&src, package, "FixtureWitnessesTest", &body));
    }
    let out = scratch.join("out");
    if let Err(e) = h.compile_tests(&sources, &out, &scratch) {
        panic!("witnesses do not compile:\n{}", tail(&e, 4000));
    }
    let run = h.run_tests(&out, &class_names(&sources), &scratch);
    assert!(run.passed, "witness run failed:\n{}", tail(&run.output, 3000));

    let mut problems = Vec::new();
    for t in &all {
        match (t.kind, run.covers(&t.source, t.line)) {
            (Kind::Reach | Kind::Live, false) => problems.push(format!("WITNESS MISSES {}  ({})", t.loc(), t.witness)),
            (Kind::Unreachable, true) => problems.push(format!("@unreachable LINE RAN {}", t.loc())),
            _ => {}
        }
    }
    assert!(problems.is_empty(), "fixture labels are wrong:\n  {}", problems.join("\n  "));
}

// ---------------------------------------------------------------------------------------------
// jreach gen

struct Outcome {
    target: Target,
    code: String,
    secs: f64,
    /// `None` when the target met its expectation.
    failure: Option<String>,
    false_unreachable: bool,
}

/// What a `jreach gen` run must do for a target, checked end to end.
fn check_gen(h: &Harness, t: &Target, index: usize, junit: Option<&str>) -> Outcome {
    let scratch = h.scratch(&format!("gen-{index}"));
    let gen_dir = scratch.join("gen");
    fs::create_dir_all(&gen_dir).expect("create out dir");
    let mut cmd = Command::new(jreach());
    cmd.arg("gen").arg(&t.file).arg("--line").arg(t.line.to_string()).arg("--out").arg(&gen_dir);
    if let Some(version) = junit {
        cmd.args(["--junit", version]);
    }
    let timeout = Duration::from_secs(env_or("JREACH_E2E_TIMEOUT", 120));
    let ran = run(&mut cmd, timeout, &scratch, "jreach");
    let mut outcome =
        Outcome { target: t.clone(), code: ran.code_text(), secs: ran.secs, failure: None, false_unreachable: false };
    let log = || one_line(&ran.output(), 300);

    if t.kind == Kind::Unreachable {
        if ran.code != Some(3) {
            let what = if ran.code == Some(0) { "TEST FOR UNREACHABLE LINE" } else { "expected exit 3 (unreachable)" };
            outcome.failure = Some(format!("{what}: {}", log()));
        }
        return outcome;
    }
    if ran.code == Some(3) {
        outcome.false_unreachable = true;
        outcome.failure = Some(format!("FALSE UNREACHABLE: {}", log()));
        return outcome;
    }
    if t.kind == Kind::Live && ran.code == Some(4) {
        // An honest "unknown" is allowed here.
        return outcome;
    }
    if !ran.ok() {
        outcome.failure = Some(format!("expected exit 0 (test written): {}", log()));
        return outcome;
    }
    let generated = java_files(&gen_dir);
    if generated.is_empty() {
        outcome.failure = Some(format!("exit 0 but no .java file under --out: {}", log()));
        return outcome;
    }
    let printed = generated.iter().any(|g| {
        let name = g.file_name().unwrap().to_string_lossy();
        ran.stdout.contains(name.as_ref())
    });
    if !printed {
        outcome.failure = Some(format!("the test's path is not printed on stdout: {}", log()));
        return outcome;
    }
    let sources: String = generated.iter().map(|g| fs::read_to_string(g).unwrap_or_default()).collect();
    if t.text.contains("throw ") && !(sources.contains("assertThrows") || sources.contains("expected =")) {
        outcome.failure = Some("target throws, but the test does not assert the exception (assertThrows)".to_owned());
        return outcome;
    }
    let classes = scratch.join("classes");
    if let Err(e) = h.compile_tests(&generated, &classes, &scratch) {
        outcome.failure = Some(format!("generated test does not compile: {}", one_line(&e, 400)));
        return outcome;
    }
    let run = h.run_tests(&classes, &class_names(&generated), &scratch);
    let reached = run.covers(&t.source, t.line);
    outcome.failure = match (run.passed, reached) {
        (true, true) => None,
        (false, true) => Some(format!("test reaches the line but fails: {}", one_line(&run.output, 400))),
        (true, false) => Some("test passes but does not execute the target line".to_owned()),
        (false, false) => Some(format!("test fails and misses the line: {}", one_line(&run.output, 400))),
    };
    outcome
}

/// Runs `check_gen` over the targets with a small pool of worker threads.
fn gen_all(h: &Harness, targets: &[Target], junit: Option<&str>) -> Vec<Outcome> {
    let jobs = env_or("JREACH_E2E_JOBS", 2usize).max(1);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new((0..targets.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(t) = targets.get(i) else { break };
                let outcome = check_gen(h, t, i, junit);
                results.lock().unwrap()[i] = Some(outcome);
            });
        }
    });
    results.into_inner().unwrap().into_iter().map(|o| o.expect("every target ran")).collect()
}

fn report(outcomes: &[Outcome]) -> (String, usize) {
    let reach = outcomes.iter().filter(|o| o.target.kind == Kind::Reach).count();
    let reached = outcomes.iter().filter(|o| o.target.kind == Kind::Reach && o.failure.is_none()).count();
    let live = outcomes.iter().filter(|o| o.target.kind == Kind::Live).count();
    let live_tested =
        outcomes.iter().filter(|o| o.target.kind == Kind::Live && o.code == "0" && o.failure.is_none()).count();
    let unreach = outcomes.iter().filter(|o| o.target.kind == Kind::Unreachable).count();
    let proven = outcomes.iter().filter(|o| o.target.kind == Kind::Unreachable && o.failure.is_none()).count();
    let false_unreach = outcomes.iter().filter(|o| o.false_unreachable).count();
    let mut secs: Vec<f64> = outcomes.iter().map(|o| o.secs).collect();
    secs.sort_by(f64::total_cmp);
    let median = secs.get(secs.len() / 2).copied().unwrap_or(0.0);
    let max = secs.last().copied().unwrap_or(0.0);
    let mut text = String::new();
    if false_unreach > 0 {
        writeln!(text, "FALSE UNREACHABLE: {false_unreach} reachable line(s) reported unreachable (soundness bug)")
            .unwrap();
    }
    writeln!(
        text,
        "reached {reached}/{reach}, @live with a test {live_tested}/{live} (the rest unknown), proven unreachable \
         {proven}/{unreach}, false unreachable {false_unreach}; jreach gen median {median:.2}s, max {max:.2}s"
    )
    .unwrap();
    let mut slowest: Vec<&Outcome> = outcomes.iter().collect();
    slowest.sort_by(|a, b| b.secs.total_cmp(&a.secs));
    let slowest: Vec<String> = slowest.iter().take(3).map(|o| format!("{} {:.2}s", o.target.loc(), o.secs)).collect();
    writeln!(text, "slowest: {}", slowest.join(", ")).unwrap();
    let failures: Vec<&Outcome> = outcomes.iter().filter(|o| o.failure.is_some()).collect();
    if !failures.is_empty() {
        let width = failures.iter().map(|o| o.target.loc().len()).max().unwrap_or(0);
        writeln!(text, "\n{:width$}  {:11}  {:7}  problem", "target", "expected", "exit").unwrap();
        for o in &failures {
            let expected = match o.target.kind {
                Kind::Reach => "reach",
                Kind::Live => "live",
                Kind::Unreachable => "unreachable",
            };
            writeln!(text, "{:width$}  {:11}  {:7}  {}", o.target.loc(), expected, o.code, o.failure.as_ref().unwrap())
                .unwrap();
        }
    }
    (text, failures.len())
}

fn selected_targets() -> Vec<Target> {
    let all = targets(&fixtures_dir());
    assert!(!all.is_empty(), "no @reach/@unreachable targets found under {}", fixtures_dir().display());
    let filter = std::env::var("JREACH_E2E_FILTER").unwrap_or_default();
    let chosen: Vec<Target> = all.into_iter().filter(|t| t.loc().contains(&filter)).collect();
    assert!(!chosen.is_empty(), "JREACH_E2E_FILTER={filter:?} selects no target");
    chosen
}

/// The main suite: every fixture target through `jreach gen`, JUnit 5 (the default).
#[test]
fn generated_tests_reach_their_targets() {
    let h = Harness::new();
    let targets = selected_targets();
    let outcomes = gen_all(&h, &targets, None);
    assert_eq!(outcomes.len(), targets.len());
    let (text, failed) = report(&outcomes);
    if failed == 0 {
        println!("java_e2e: {text}");
    }
    assert!(failed == 0, "{failed} of {} targets failed\n{text}", outcomes.len());
}

/// `--junit 4` produces a JUnit 4 test that runs and reaches its line, including an exception.
#[test]
fn junit4_tests_reach_their_targets() {
    let h = Harness::new();
    let all = targets(&fixtures_dir());
    let picked: Vec<Target> = ["Basics.grade(81)", "Exceptions.checkedAge(-1)", "new Counter().add(-1)"]
        .iter()
        .map(|w| all.iter().find(|t| t.witness == *w).cloned().unwrap_or_else(|| panic!("no fixture target for `{w}`")))
        .collect();
    let outcomes = gen_all(&h, &picked, Some("4"));
    let mut problems = Vec::new();
    for (i, o) in outcomes.iter().enumerate() {
        let generated: String = java_files(&h.dir.path().join(format!("gen-{i}/gen")))
            .iter()
            .map(|g| fs::read_to_string(g).unwrap_or_default())
            .collect();
        if o.failure.is_none() && (generated.contains("org.junit.jupiter") || !generated.contains("org.junit.")) {
            problems.push(format!("{}: --junit 4 did not produce a JUnit 4 test", o.target.loc()));
        }
    }
    let (text, failed) = report(&outcomes);
    if failed == 0 && problems.is_empty() {
        println!("java_e2e (JUnit 4): {text}");
    }
    assert!(failed == 0 && problems.is_empty(), "{text}\n{}", problems.join("\n"));
}

/// The README's first command, `jreach gen examples/Account.java --line 14`, writes a test that
/// passes and runs that line.
#[test]
fn readme_example_reaches_its_line() {
    let h = Harness::new();
    let file = examples_dir().join("Account.java");
    let text = fs::read_to_string(&file).expect("read examples/Account.java");
    let line = text.lines().nth(13).unwrap_or_default().to_owned();
    assert!(
        line.contains("return 3_500"),
        "README.md runs `gen examples/Account.java --line 14`, but line 14 is now `{}`: update both",
        line.trim()
    );
    let target = Target {
        file,
        shown: "examples/Account.java".to_owned(),
        source: "bank/Account.java".to_owned(),
        package: "bank".to_owned(),
        line: 14,
        kind: Kind::Reach,
        witness: String::new(),
        text: line,
    };
    let (text, failed) = report(&gen_all(&h, &[target], None));
    assert!(failed == 0, "{text}");
}

// ---------------------------------------------------------------------------------------------
// jreach check

/// `jreach check --format json` over the fixtures: a diagnostic on a reachable line is a false
/// "unreachable" (the worst bug); every `@unreachable` line should be flagged.
#[test]
fn check_flags_unreachable_lines_only() {
    let all = targets(&fixtures_dir());
    assert!(!all.is_empty());
    let scratch = tempfile::tempdir().expect("temp dir");
    let ran = run(
        // (No cache: the run checks this binary's engine on the fixtures as they are.)
        Command::new(jreach()).arg("check").arg(fixtures_dir()).args(["--format", "json", "--no-cache"]),
        Duration::from_secs(env_or("JREACH_E2E_TIMEOUT", 120) * 4),
        scratch.path(),
        "check",
    );
    assert!(ran.ok(), "jreach check exited {}: {}", ran.code_text(), tail(&ran.output(), 2000));
    let json: serde_json::Value = serde_json::from_str(&ran.stdout)
        .unwrap_or_else(|e| panic!("jreach check output is not JSON ({e}):\n{}", tail(&ran.stdout, 2000)));
    let diags = match &json {
        serde_json::Value::Array(items) => items.clone(),
        other => other.get("diagnostics").and_then(|d| d.as_array()).cloned().unwrap_or_default(),
    };
    let mut flagged: BTreeSet<(PathBuf, u32)> = BTreeSet::new();
    for d in &diags {
        let file = d.get("file").and_then(|f| f.as_str()).unwrap_or_default();
        let file = fs::canonicalize(file).unwrap_or_else(|_| PathBuf::from(file));
        let line = |end: &str| d.pointer(&format!("/range/{end}/line")).and_then(|l| l.as_u64());
        let (Some(start), Some(end)) = (line("start"), line("end")) else {
            panic!("diagnostic without range: {d}");
        };
        for l in start..=end {
            flagged.insert((file.clone(), l as u32 + 1)); // LSP lines are 0-based
        }
    }
    let mut problems = Vec::new();
    for t in &all {
        let key = (fs::canonicalize(&t.file).unwrap(), t.line);
        match (t.kind, flagged.contains(&key)) {
            (Kind::Reach | Kind::Live, true) => problems.push(format!("FALSE UNREACHABLE (check) {}", t.loc())),
            (Kind::Unreachable, false) => problems.push(format!("not flagged {}", t.loc())),
            _ => {}
        }
    }
    assert!(problems.is_empty(), "jreach check:\n  {}", problems.join("\n  "));
}
