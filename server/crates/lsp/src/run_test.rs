//! The "Run" code lens on the tests jreach wrote, and the command behind it (`jreach.runTest`).
//!
//! A jreach test starts with `// Reaches line N in <member>: <statement>`
//! ([`jreach_synth::markers_in`]); the lens sits on such a test method and runs it in the JVM
//! runner, the same child JVM that checks a test before it is offered (so only where
//! `jreach.runCode` is on). The answer says whether the test passed and ran its target statement,
//! found where it is now ([`jreach_fill::target_of_marker`]: the line the comment names while it
//! still holds the quoted statement in that member, else the one line of the member that does),
//! with the lines of the code under test the run covered, which the editors show in that file.
//!
//! The code under test is the test class's namesake (`OrderTest` tests `Order`) in the source
//! root whose test root ([`jreach_synth::test_root_for`]) is the test's: the same mapping the
//! test was written by, read backwards.

use std::path::{Path, PathBuf};

use jreach_jvm::{ProjectTest, RunReport, RunStatus, SourceText, TestRun};
use jreach_syntax::{text_of, SourceFile};
use jreach_synth::Marker;
use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{CodeLens, Command, Uri};

use crate::position::{self, Encoding};

/// The server's command behind the lens: `{uri, method}`.
pub const RUN_TEST_COMMAND: &str = "jreach.runTest";

/// The command's argument.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunArgs {
    /// The test file.
    pub uri: Uri,
    /// The test method.
    pub method: String,
}

/// A test method jreach wrote, found in a test file by its first comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedTest {
    /// The test method's name.
    pub method: String,
    /// The top-level class holding it.
    pub class: String,
    /// Bytes of the method's name.
    pub name: std::ops::Range<usize>,
    /// Its comment: the line it says the test reaches and the statement it quotes.
    pub marker: Marker,
}

/// The jreach tests of a test file, in order.
pub fn generated_tests(file: &SourceFile) -> Vec<GeneratedTest> {
    let src = file.text.as_str();
    let mut out = Vec::new();
    for marker in jreach_synth::markers_in(src) {
        let Some(line) = file.lines.line_range(marker.at - 1) else { continue };
        let at = line.start + (src[line.clone()].len() - src[line.clone()].trim_start().len());
        let Some(mut node) = file.tree.root_node().descendant_for_byte_range(at, at) else { continue };
        while node.kind() != "method_declaration" {
            match node.parent() {
                Some(p) => node = p,
                None => break,
            }
        }
        let Some(name) = node.child_by_field_name("name").filter(|_| node.kind() == "method_declaration") else {
            continue;
        };
        // The top-level class: the last class declaration on the way up.
        let mut class = None;
        let mut up = node.parent();
        while let Some(n) = up {
            if n.kind() == "class_declaration" {
                class = n.child_by_field_name("name").map(|c| text_of(c, src).to_string());
            }
            up = n.parent();
        }
        let Some(class) = class else { continue };
        out.push(GeneratedTest { method: text_of(name, src).to_string(), class, name: name.byte_range(), marker });
    }
    out
}

/// The lenses of a test file: "Run" on each test jreach wrote.
pub fn lenses(uri: &Uri, file: &SourceFile, enc: Encoding) -> Vec<CodeLens> {
    generated_tests(file)
        .into_iter()
        .map(|t| {
            let args = serde_json::to_value(RunArgs { uri: uri.clone(), method: t.method.clone() })
                .expect("plain data serializes");
            CodeLens {
                range: position::range(&file.text, &file.lines, t.name.clone(), enc),
                command: Some(Command::new(
                    format!("▶ Run test (reaches line {})", t.marker.target_line),
                    RUN_TEST_COMMAND.into(),
                    Some(vec![args]),
                )),
                data: None,
            }
        })
        .collect()
}

/// The file of the code a test class tests: `<package>/<Name>.java` for the test class
/// `<Name>Test` in a source root whose test root is `test_root` (the test's). `None` when no
/// such file exists.
pub fn source_under_test(test_path: &Path, package: Option<&str>, test_class: &str) -> Option<PathBuf> {
    let name = test_class.strip_suffix("Test").filter(|n| !n.is_empty())?;
    let pkg_dir: PathBuf = package.map(|p| p.split('.').collect()).unwrap_or_default();
    let test_root = ancestor(test_path.parent()?, pkg_dir.components().count())?;
    let test_root = std::fs::canonicalize(test_root).ok()?;
    let relative = pkg_dir.join(format!("{name}.java"));
    // Source roots near the test root: below its ancestors, one or three folders deep
    // (`src/`, `src/main/java/`), tried nearest first.
    let mut candidates = Vec::new();
    for up in ancestors(&test_root, 4) {
        candidates.push(up.join("src/main/java"));
        candidates.push(up.join("src"));
        candidates.push(up.to_path_buf());
        if let Ok(entries) = std::fs::read_dir(up) {
            let mut dirs: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
            dirs.sort();
            candidates.extend(dirs);
        }
    }
    candidates.into_iter().map(|root| root.join(&relative)).find(|source| {
        source.is_file()
            && std::fs::canonicalize(jreach_synth::test_root_for(source, package)).is_ok_and(|r| r == test_root)
    })
}

/// `dir` without its last `n` folders.
fn ancestor(dir: &Path, n: usize) -> Option<&Path> {
    let mut d = dir;
    for _ in 0..n {
        d = d.parent()?;
    }
    Some(d)
}

/// `dir` and up to `n` of its ancestors.
fn ancestors(dir: &Path, n: usize) -> impl Iterator<Item = &Path> {
    dir.ancestors().take(n + 1)
}

/// What a run of a test said, for the client: how it ended, whether it ran its target, and the
/// lines of the code under test it covered.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunOutcome {
    /// `passed`, `failed`, `error` (it did not run: a compile error, no JVM, no code under test).
    pub status: &'static str,
    /// One sentence for the user.
    pub message: String,
    /// The code under test.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Uri>,
    /// The target statement's 1-based line as it is now, if found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Whether the run ran the target statement (as coverage tools count it).
    pub reached: bool,
    /// 1-based lines of the code under test the run covered.
    pub covered: Vec<usize>,
}

impl RunOutcome {
    pub fn error(message: impl Into<String>) -> RunOutcome {
        RunOutcome {
            status: "error",
            message: message.into(),
            source: None,
            line: None,
            reached: false,
            covered: vec![],
        }
    }
}

/// Runs `test` of the test file `test_path` (text `test_text`) against its code under test on
/// the JVM (`run` is the runner's [`jreach_jvm::SharedVerifier::run_test`] with the workspace's
/// class path) and says what happened.
pub fn run(
    test_path: &Path,
    test_text: &str,
    method: &str,
    run: &dyn Fn(&ProjectTest<'_>) -> Result<TestRun, String>,
) -> RunOutcome {
    let test_file = SourceFile::parse(test_text);
    let Some(test) = generated_tests(&test_file).into_iter().find(|t| t.method == method) else {
        return RunOutcome::error(format!("{method} is not a test jreach wrote in {}", file_name(test_path)));
    };
    let package = test_file.package();
    let label = format!("{}.{}", test.class, test.method);
    let Some(source_path) = source_under_test(test_path, package.as_deref(), &test.class) else {
        let name = test.class.strip_suffix("Test").unwrap_or(&test.class);
        return RunOutcome::error(format!("{label}: cannot find {name}.java, the code it tests"));
    };
    let source_text = match jreach_synth::read_source(&source_path) {
        Ok(t) => t,
        Err(e) => return RunOutcome::error(format!("{label}: cannot read {}: {e}", source_path.display())),
    };
    let source = SourceFile::parse(source_text.as_str());
    let line = jreach_fill::target_of_marker(&source, &test.marker);
    let pkg_dir = package.as_deref().map(|p| format!("{}/", p.replace('.', "/"))).unwrap_or_default();
    let test_source = SourceText { path: format!("{pkg_dir}{}", file_name(test_path)), text: test_text.to_string() };
    let binary = match &package {
        Some(p) => format!("{p}.{}", test.class),
        None => test.class.clone(),
    };
    let ran = run(&ProjectTest {
        file: &source_path,
        package: package.as_deref(),
        text: &source_text,
        test: test_source,
        class: &binary,
        method: &test.method,
    });
    let mut out = match ran {
        Ok(r) => outcome(&label, &file_name(&source_path), &r.report, &r.relative, line, &test),
        Err(why) => RunOutcome::error(format!("{label}: {why}")),
    };
    out.source = Uri::from_file_path(&source_path);
    out.line = line;
    out
}

/// The outcome of a finished run of `label`, whose code under test `name` is `relative` in
/// `report`, and whose target is on `line` now.
fn outcome(
    label: &str,
    name: &str,
    report: &RunReport,
    relative: &str,
    line: Option<usize>,
    test: &GeneratedTest,
) -> RunOutcome {
    let covered = report.completed.get(relative).cloned().unwrap_or_default();
    let reached = line.is_some_and(|l| report.completed(relative, l));
    let target = match line {
        Some(l) => format!("line {l} of {name}"),
        None => format!("`{}` (no longer on line {} of {name})", test.marker.quoted, test.marker.target_line),
    };
    let (status, message) = match report.status {
        RunStatus::Pass if reached => ("passed", format!("{label} passed and ran {target}")),
        RunStatus::Pass if line.is_some_and(|l| report.ran(relative, l)) => (
            "passed",
            format!("{label} passed; {target} started but an exception came before coverage tools count it as run"),
        ),
        RunStatus::Pass => ("passed", format!("{label} passed, but {target} did not run")),
        RunStatus::Fail => {
            let exception = report.exception.clone().unwrap_or_default();
            let what = if report.message.is_empty() { exception } else { format!("{exception}: {}", report.message) };
            let at = report.trace.first().map(|f| format!(" at {f}")).unwrap_or_default();
            let ran = if reached { format!(" after it ran {target}") } else { String::new() };
            ("failed", format!("{label} failed{ran}: {what}{at}"))
        }
        RunStatus::CompileError => ("error", format!("{label} does not compile: {}", report.message)),
        RunStatus::Timeout => ("failed", format!("{label} still ran when its time was up")),
        RunStatus::Error => ("error", format!("{label} could not be run: {}", report.message)),
    };
    RunOutcome { status, message, source: None, line, reached, covered }
}

fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    const TEST: &str = "package shop;\n\nimport org.junit.jupiter.api.Test;\n\nclass OrderTest {\n    @Test\n    void mine() {\n    }\n\n    @Test\n    void total_reachesLine5() {\n        // Reaches line 5: return -1;\n        new Order().total(-3);\n    }\n}\n";

    const SOURCE: &str = "package shop;\n\nclass Order {\n    int total(int n) {\n        if (n < 0) return -1;\n        return n;\n    }\n}\n";

    #[test]
    fn the_tests_jreach_wrote_are_found_by_their_comment() {
        let f = SourceFile::parse(TEST);
        let found = generated_tests(&f);
        assert_eq!(found.len(), 1, "only the test with a `Reaches line` comment: {found:?}");
        let t = &found[0];
        assert_eq!((t.method.as_str(), t.class.as_str(), t.marker.target_line), ("total_reachesLine5", "OrderTest", 5));
        assert_eq!(&TEST[t.name.clone()], "total_reachesLine5");
        let uri = Uri::from_file_path("/p/src/test/java/shop/OrderTest.java").unwrap();
        let lenses = lenses(&uri, &f, Encoding::Utf16);
        let titles: Vec<_> = lenses.iter().map(|l| l.command.as_ref().unwrap().title.clone()).collect();
        expect![[r#"["▶ Run test (reaches line 5)"]"#]].assert_eq(&format!("{titles:?}"));
        assert_eq!(lenses[0].range.start.line, 10);
    }

    #[test]
    fn the_target_is_followed_when_lines_move() {
        let test = generated_tests(&SourceFile::parse(TEST)).remove(0);
        let target_now = |src: &str| jreach_fill::target_of_marker(&SourceFile::parse(src), &test.marker);
        assert_eq!(target_now(SOURCE), Some(5));
        let moved = SOURCE.replace("class Order {\n", "class Order {\n    // a comment\n\n");
        assert_eq!(target_now(&moved), Some(7));
        let gone = SOURCE.replace("return -1;", "return 0;");
        assert_eq!(target_now(&gone), None);
    }

    #[test]
    fn the_code_under_test_is_found_where_the_test_root_maps_back_to() {
        let dir = std::env::temp_dir().join(format!("jreach-run-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let maven = dir.join("maven");
        std::fs::create_dir_all(maven.join("src/main/java/shop")).unwrap();
        std::fs::create_dir_all(maven.join("src/test/java/shop")).unwrap();
        std::fs::write(maven.join("pom.xml"), "<project/>").unwrap();
        std::fs::write(maven.join("src/main/java/shop/Order.java"), SOURCE).unwrap();
        let test = maven.join("src/test/java/shop/OrderTest.java");
        std::fs::write(&test, TEST).unwrap();
        let found = source_under_test(&test, Some("shop"), "OrderTest").unwrap();
        assert!(found.ends_with("src/main/java/shop/Order.java"), "{}", found.display());
        // Not a namesake in another tree whose tests go elsewhere, nor a class with no `Test`.
        assert_eq!(source_under_test(&test, Some("shop"), "Order"), None);
        assert_eq!(source_under_test(&test, Some("shop"), "InvoiceTest"), None);
        // A plain folder: `src/shop/Order.java` tested from `test/shop/OrderTest.java`.
        let plain = dir.join("plain");
        std::fs::create_dir_all(plain.join("src/shop")).unwrap();
        std::fs::create_dir_all(plain.join("test/shop")).unwrap();
        std::fs::write(plain.join("src/shop/Order.java"), SOURCE).unwrap();
        let test = plain.join("test/shop/OrderTest.java");
        std::fs::write(&test, TEST).unwrap();
        let found = source_under_test(&test, Some("shop"), "OrderTest").unwrap();
        assert!(found.ends_with("plain/src/shop/Order.java"), "{}", found.display());
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn report(status: RunStatus, ran: &[usize], completed: &[usize]) -> RunReport {
        serde_json::from_value(serde_json::json!({
            "status": match status { RunStatus::Pass => "pass", RunStatus::Fail => "fail", _ => "error" },
            "message": if status == RunStatus::Fail { "boom" } else { "" },
            "exception": if status == RunStatus::Fail { Some("java.lang.IllegalStateException") } else { None },
            "lines": { "shop/Order.java": ran },
            "completed": { "shop/Order.java": completed },
        }))
        .unwrap()
    }

    #[test]
    fn outcomes_say_whether_the_target_ran() {
        let test = generated_tests(&SourceFile::parse(TEST)).remove(0);
        let said = |r: RunReport, line: Option<usize>| {
            let o = outcome("OrderTest.t", "Order.java", &r, "shop/Order.java", line, &test);
            format!("{} {} {:?}: {}", o.status, o.reached, o.covered, o.message)
        };
        expect!["passed true [4, 5]: OrderTest.t passed and ran line 5 of Order.java"]
            .assert_eq(&said(report(RunStatus::Pass, &[4, 5], &[4, 5]), Some(5)));
        expect!["passed false [4]: OrderTest.t passed, but line 5 of Order.java did not run"]
            .assert_eq(&said(report(RunStatus::Pass, &[4], &[4]), Some(5)));
        expect!["passed false [4]: OrderTest.t passed; line 5 of Order.java started but an exception came before coverage tools count it as run"]
            .assert_eq(&said(report(RunStatus::Pass, &[4, 5], &[4]), Some(5)));
        expect!["failed false [4]: OrderTest.t failed: java.lang.IllegalStateException: boom"]
            .assert_eq(&said(report(RunStatus::Fail, &[4], &[4]), Some(5)));
        expect![
            "passed false [4, 5]: OrderTest.t passed, but `return -1;` (no longer on line 5 of Order.java) did not run"
        ]
        .assert_eq(&said(report(RunStatus::Pass, &[4, 5], &[4, 5]), None));
    }
}
