//! `jreach fill` end to end on `examples/shop`, a Maven-layout project whose own tests cover
//! part of it: its tests run under the real JaCoCo agent, JaCoCo's XML report is written where
//! `mvn jacoco:report` writes it, `fill` runs, and the whole suite runs again under JaCoCo.
//!
//! Needs a JDK, git and Debian's `junit5` and `libjacoco-java` (`scripts/setup.sh`).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const PACKAGES: &str = "default-jdk-headless junit5 libjacoco-java git";
const JARS: [&str; 10] = [
    "junit-platform-console-standalone.jar",
    "junit-jupiter-api.jar",
    "opentest4j.jar",
    "apiguardian-api.jar",
    "junit-platform-commons.jar",
    "org.jacoco.agent.jar",
    "org.jacoco.core.jar",
    "org.jacoco.report.jar",
    "asm-commons.jar",
    "asm-tree.jar",
];

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn jreach() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_jreach"))
}

fn classpath(parts: &[PathBuf]) -> OsString {
    std::env::join_paths(parts).expect("class path")
}

fn ok(out: &Output, what: &str) -> String {
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{what} failed ({}):\n{text}", out.status);
    text
}

/// JaCoCo, JUnit and the report writer, set up once per test.
struct Tools {
    _dir: tempfile::TempDir,
    jars: PathBuf,
    agent: PathBuf,
    report_writer: PathBuf,
}

impl Tools {
    fn new() -> Tools {
        let jars = PathBuf::from(std::env::var_os("JREACH_JAVA_JARS").unwrap_or_else(|| "/usr/share/java".into()));
        let mut missing: Vec<String> =
            JARS.iter().filter(|j| !jars.join(j).is_file()).map(|j| jars.join(j).display().to_string()).collect();
        for tool in ["javac", "java", "jar", "git"] {
            if Command::new(tool).arg("--version").output().map_or(true, |o| !o.status.success()) {
                missing.push(format!("`{tool}`"));
            }
        }
        assert!(
            missing.is_empty(),
            "the fill end-to-end test needs a JDK, git, JUnit 5 and JaCoCo; missing:\n  {}\n\
             install them with `scripts/setup.sh` or `apt-get install {PACKAGES}`",
            missing.join("\n  ")
        );
        let dir = tempfile::Builder::new().prefix("jreach-fill-tools-").tempdir().unwrap();
        ok(
            &Command::new("jar")
                .arg("xf")
                .arg(jars.join("org.jacoco.agent.jar"))
                .arg("jacocoagent.jar")
                .current_dir(dir.path())
                .output()
                .unwrap(),
            "unpacking jacocoagent.jar",
        );
        let report_writer = dir.path().join("report-writer");
        ok(
            &Command::new("javac")
                .args(["-nowarn", "--release", "17", "-cp"])
                .arg(classpath(&[jars.join("org.jacoco.core.jar"), jars.join("org.jacoco.report.jar")]))
                .arg("-d")
                .arg(&report_writer)
                .arg(repo_root().join("tests/support/JacocoXml.java"))
                .output()
                .unwrap(),
            "compiling tests/support/JacocoXml.java",
        );
        let agent = dir.path().join("jacocoagent.jar");
        Tools { _dir: dir, jars, agent, report_writer }
    }

    fn jar(&self, name: &str) -> PathBuf {
        self.jars.join(name)
    }

    /// Builds the project, runs all its tests under JaCoCo and writes
    /// `target/site/jacoco/jacoco.xml`.
    fn test_with_coverage(&self, project: &Path) -> Run {
        let target = project.join("target");
        let _ = fs::remove_dir_all(&target);
        let (classes, test_classes) = (target.join("classes"), target.join("test-classes"));
        let javac = |cp: &[PathBuf], out: &Path, sources: Vec<PathBuf>, what: &str| {
            ok(
                &Command::new("javac")
                    .args(["-g", "-nowarn", "--release", "17", "-cp"])
                    .arg(classpath(cp))
                    .arg("-d")
                    .arg(out)
                    .args(sources)
                    .output()
                    .unwrap(),
                what,
            )
        };
        javac(&[], &classes, java_files(&project.join("src/main/java")), "compiling the project");
        let api: Vec<PathBuf> =
            ["junit-jupiter-api.jar", "opentest4j.jar", "apiguardian-api.jar", "junit-platform-commons.jar"]
                .iter()
                .map(|j| self.jar(j))
                .chain([classes.clone()])
                .collect();
        javac(&api, &test_classes, java_files(&project.join("src/test/java")), "compiling the tests");
        let exec = target.join("jacoco.exec");
        let mut agent = OsString::from("-javaagent:");
        agent.push(&self.agent);
        agent.push("=destfile=");
        agent.push(&exec);
        let junit = Command::new("java")
            .arg("-ea")
            .arg(agent)
            .arg("-jar")
            .arg(self.jar("junit-platform-console-standalone.jar"))
            .arg("-cp")
            .arg(classpath(&[classes.clone(), test_classes.clone()]))
            .arg("--scan-classpath")
            .arg(&test_classes)
            .args(["--disable-banner", "--disable-ansi-colors", "--details=summary", "--fail-if-no-tests"])
            .output()
            .unwrap();
        let junit_text =
            format!("{}{}", String::from_utf8_lossy(&junit.stdout), String::from_utf8_lossy(&junit.stderr));
        let tests = junit_text
            .lines()
            .find_map(|l| l.trim().trim_start_matches('[').trim().strip_suffix("tests successful      ]"))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0);
        let report = target.join("site/jacoco/jacoco.xml");
        fs::create_dir_all(report.parent().unwrap()).unwrap();
        ok(
            &Command::new("java")
                .arg("-cp")
                .arg(classpath(&[
                    self.report_writer.clone(),
                    self.jar("org.jacoco.core.jar"),
                    self.jar("org.jacoco.report.jar"),
                    self.jar("asm.jar"),
                    self.jar("asm-commons.jar"),
                    self.jar("asm-tree.jar"),
                ]))
                .arg("JacocoXml")
                .arg(&exec)
                .arg(&classes)
                .arg(project.join("src/main/java"))
                .arg(&report)
                .output()
                .unwrap(),
            "writing JaCoCo's XML report",
        );
        Run {
            passed: junit.status.success(),
            tests,
            junit: junit_text,
            lines: lines_of(&fs::read_to_string(&report).unwrap()),
        }
    }
}

/// One run of a project's whole test suite.
struct Run {
    passed: bool,
    tests: usize,
    junit: String,
    /// `shop/Cart.java` → line → whether it ran (lines with code only).
    lines: BTreeMap<String, BTreeMap<usize, bool>>,
}

impl Run {
    fn covered(&self) -> (usize, usize) {
        let all = self.lines.values().map(|l| l.len()).sum();
        let ran = self.lines.values().map(|l| l.values().filter(|r| **r).count()).sum();
        (all, ran)
    }

    fn ran(&self, file: &str, line: usize) -> bool {
        self.lines.get(file).and_then(|l| l.get(&line)).copied().unwrap_or(false)
    }
}

/// The lines of a JaCoCo XML report, read with no help from jreach's own reader.
fn lines_of(xml: &str) -> BTreeMap<String, BTreeMap<usize, bool>> {
    let mut out: BTreeMap<String, BTreeMap<usize, bool>> = BTreeMap::new();
    let attr = |tag: &str, name: &str| -> Option<String> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[at..].split('"').next()?.to_string())
    };
    let (mut package, mut file) = (String::new(), String::new());
    for tag in xml.split('<').skip(1) {
        if tag.starts_with("package ") {
            package = attr(tag, "name").unwrap();
        } else if tag.starts_with("sourcefile ") {
            file = format!("{package}/{}", attr(tag, "name").unwrap());
        } else if tag.starts_with("line ") {
            let n = |k: &str| attr(tag, k).unwrap().parse::<usize>().unwrap();
            if n("mi") + n("ci") > 0 {
                out.entry(file.clone()).or_default().insert(n("nr"), n("ci") > 0);
            }
        }
    }
    out
}

fn java_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "java") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A copy of `examples/shop` to work on.
fn shop() -> tempfile::TempDir {
    let dir = tempfile::Builder::new().prefix("jreach-fill-shop-").tempdir().unwrap();
    let from = repo_root().join("examples/shop");
    for f in java_files(&from).into_iter().chain([from.join("pom.xml")]) {
        let to = dir.path().join(f.strip_prefix(&from).unwrap());
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(&f, &to).unwrap();
    }
    dir
}

/// `jreach fill ARGS --format json` in `project`: its report.
fn fill(project: &Path, args: &[&str]) -> Value {
    let out = Command::new(jreach())
        .arg("fill")
        .args(args)
        .args(["--format", "json"])
        .current_dir(project)
        .env("JREACH_CACHE_DIR", project.join("target/jreach-cache"))
        .output()
        .unwrap();
    let text = ok(&out, &format!("jreach fill {}", args.join(" ")));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("fill's JSON: {e}\n{text}"))
}

fn test_sources(project: &Path) -> BTreeMap<PathBuf, String> {
    java_files(&project.join("src/test/java"))
        .into_iter()
        .map(|p| (p.clone(), fs::read_to_string(p).unwrap()))
        .collect()
}

/// `shop/Pricing.java` for a line's absolute path.
fn relative(file: &str) -> String {
    let i = file.rfind("/src/main/java/").expect("a file of the project") + "/src/main/java/".len();
    file[i..].to_string()
}

#[test]
fn fill_covers_what_the_projects_tests_leave_and_adds_nothing_the_second_time() {
    let tools = Tools::new();
    let project = shop();
    let project = project.path();
    let before = tools.test_with_coverage(project);
    assert!(before.passed, "the example's own tests fail:\n{}", before.junit);
    let stale_report = project.join("before.xml");
    fs::copy(project.join("target/site/jacoco/jacoco.xml"), &stale_report).unwrap();

    let report = fill(project, &["--jobs", "2"]);
    let summary = &report["summary"];
    let lines = report["lines"].as_array().unwrap();
    assert_eq!(summary["errors"], 0, "{report:#}");
    assert!(summary["tests"].as_u64().unwrap() >= 5, "{report:#}");
    // Discounts add up to 20% at most: the guard against more is dead.
    assert!(
        lines
            .iter()
            .any(|l| l["status"] == "unreachable" && l["statement"].as_str().unwrap().contains("AssertionError")),
        "{report:#}"
    );

    let after = tools.test_with_coverage(project);
    assert!(after.passed, "a test fill wrote fails:\n{}", after.junit);
    assert!(after.tests > before.tests, "{} tests before, {} after", before.tests, after.tests);
    for l in lines {
        let (file, line) = (relative(l["file"].as_str().unwrap()), l["line"].as_u64().unwrap() as usize);
        match l["status"].as_str().unwrap() {
            "test" | "covered" => {
                assert!(after.ran(&file, line), "{file}:{line} got a test but JaCoCo says it never ran: {l}")
            }
            "unreachable" => assert!(!after.ran(&file, line), "{file}:{line} was proved dead but ran: {l}"),
            "unknown" => {}
            other => panic!("unexpected status {other}: {l}"),
        }
    }
    let ((all, ran_before), (_, ran_after)) = (before.covered(), after.covered());
    eprintln!(
        "examples/shop: line coverage {ran_before}/{all} -> {ran_after}/{all}; {} statements: {} tests, {} covered \
         by them, {} dead, {} unknown; tests in the suite {} -> {}",
        summary["statements"],
        summary["tests"],
        summary["covered"],
        summary["unreachable"],
        summary["unknown"],
        before.tests,
        after.tests
    );
    assert!(ran_after > ran_before);

    // A second run adds nothing: with the new report, and with the old one.
    let written = test_sources(project);
    let again = fill(project, &[]);
    assert_eq!(again["summary"]["tests"], 0, "{again:#}");
    let stale = fill(project, &["--jacoco", stale_report.to_str().unwrap()]);
    assert_eq!(stale["summary"]["tests"], 0, "{stale:#}");
    assert_eq!(stale["summary"]["statements"], summary["statements"], "{stale:#}");
    assert_eq!(test_sources(project), written, "a second fill changed the tests");
}

#[test]
fn fill_diff_answers_only_the_changed_statements_and_dry_run_writes_nothing() {
    let tools = Tools::new();
    let project = shop();
    let project = project.path();
    let git = |args: &[&str]| {
        ok(
            &Command::new("git")
                .args(["-c", "user.name=jreach", "-c", "user.email=jreach@example.org", "-c", "commit.gpgsign=false"])
                .args(args)
                .current_dir(project)
                .output()
                .unwrap(),
            &format!("git {}", args.join(" ")),
        )
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "shop"]);
    let edit = |file: &str, from: &str, to: &str| {
        let path = project.join("src/main/java/shop").join(file);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has no `{from}`");
        fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    // Three methods change.
    edit(
        "Pricing.java",
        "        return base;\n",
        "        if (zone == 3 && grams > 50_000) {\n            base += 2_000;\n        }\n        return base;\n",
    );
    edit(
        "Inventory.java",
        "        stock -= units;\n",
        "        stock -= units;\n        if (stock == 0) {\n            stock = 0;\n        }\n",
    );
    edit(
        "Receipt.java",
        "        long euros = cents / 100;\n",
        "        long euros = cents / 100;\n        if (euros > 1_000_000) {\n            return sign + \"many\";\n        }\n",
    );
    let diff = git(&["diff", "--unified=0", "HEAD"]);
    let changed: BTreeSet<(String, usize)> = {
        let mut set = BTreeSet::new();
        let mut file = String::new();
        for l in diff.lines() {
            if let Some(p) = l.strip_prefix("+++ b/") {
                file = relative(&format!("/{p}"));
            } else if let Some(h) = l.strip_prefix("@@ ") {
                let new = h.split_whitespace().find_map(|w| w.strip_prefix('+')).unwrap();
                let (start, count) = new.split_once(',').map_or((new, "1"), |(s, c)| (s, c));
                let start: usize = start.parse().unwrap();
                set.extend((start..start + count.parse::<usize>().unwrap()).map(|n| (file.clone(), n)));
            }
        }
        set
    };

    let untouched = test_sources(project);
    let dry = fill(project, &["--diff", "HEAD", "--dry-run"]);
    assert_eq!(test_sources(project), untouched, "--dry-run wrote a test");
    assert!(dry["summary"]["tests"].as_u64().unwrap() >= 3, "{dry:#}");

    let report = fill(project, &["--diff", "HEAD"]);
    let lines = report["lines"].as_array().unwrap();
    let answered: BTreeSet<(String, usize)> =
        lines.iter().map(|l| (relative(l["file"].as_str().unwrap()), l["line"].as_u64().unwrap() as usize)).collect();
    assert!(answered.is_subset(&changed), "answered {answered:?}, changed {changed:?}");
    let files: BTreeSet<&str> = answered.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(files.len(), 3, "{report:#}");
    // One test per changed method: each block's last statement's test covers its `if`.
    assert_eq!(report["summary"]["tests"], 3, "{report:#}");
    assert_eq!(report["summary"]["covered"], 3, "{report:#}");
    let run = tools.test_with_coverage(project);
    assert!(run.passed, "a test fill wrote fails:\n{}", run.junit);
    for (file, line) in &answered {
        assert!(run.ran(file, *line), "{file}:{line} changed, got a test, and did not run");
    }
}

#[test]
fn fill_lines_without_a_report_answers_the_statements_named() {
    // No JVM (`--no-run`): only tests jreach vouches for on its model, each covering its line.
    let project = shop();
    let project = project.path();
    let file = project.join("src/main/java/shop/Pricing.java");
    let report = fill(project, &["--no-run", "--lines", &format!("{}:33-48", file.display())]);
    let lines: Vec<u64> = report["lines"].as_array().unwrap().iter().map(|l| l["line"].as_u64().unwrap()).collect();
    // discountPercent's statements (the method spans lines 33-48; 33 is its declaration).
    assert_eq!(lines, [34, 35, 36, 38, 39, 41, 42, 44, 45, 47], "{report:#}");
    assert_eq!(report["summary"]["unreachable"], 1, "{report:#}");
    let bad = Command::new(jreach()).args(["fill", "--lines", "Nowhere.java:3"]).current_dir(project).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("Nowhere.java: no such file"));
    let none = Command::new(jreach()).arg("fill").current_dir(project).output().unwrap();
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no JaCoCo XML report"), "{none:?}");
}
