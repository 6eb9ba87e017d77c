//! `jreach fill`: the statements no test runs (from a JaCoCo report, a change, or lines named)
//! each get a test, a proof that they are dead, or a reason.
//!
//! The work is per source file: a worker (one of `--jobs`, each with its own JVM) takes a file
//! and goes through its statements from the last up. A test is written as `gen` writes it (appended to
//! the class's test file) and says in its comment which other lines its run covered; those
//! lines are then off the list, so a block gets one test. The same comments, read back from the
//! test file ([`jreach_synth::markers_in`]), make a second run add nothing. A watchdog ends
//! every solver query and search when `--budget` runs out.

use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jreach_ide::GenOptions;
use jreach_syntax::{find_target, SourceFile};
use jreach_synth::{self as synth, JUnit};

use crate::answer::{answer, Answer, Jvm};
use crate::changes::{self, Lines};
use crate::coverage::{self, Coverage};
use crate::fill_report::{self, FillFormat};
use crate::input::{read_java, EXIT_ERROR, EXIT_USAGE};
use crate::JUnitArg;

/// `jreach fill`'s arguments.
#[derive(clap::Args)]
pub struct FillArgs {
    /// JaCoCo XML reports (default: target/site/jacoco/jacoco.xml or Gradle's
    /// jacocoTestReport.xml, here or in a module folder below).
    #[arg(long, value_name = "PATH")]
    pub jacoco: Vec<PathBuf>,
    /// Only lines the working tree adds or changes since this git revision (with no report:
    /// every statement it changes).
    #[arg(long, value_name = "REV")]
    pub diff: Option<String>,
    /// Only these lines, `FILE:A-B` or `FILE:N` (repeatable; with no report: every statement in
    /// them).
    #[arg(long, value_name = "FILE:A-B")]
    pub lines: Vec<String>,
    /// Source roots the report's files are found under (default: each report's module's
    /// src/main/java, and ./src/main/java).
    #[arg(long, value_name = "DIR")]
    pub sources: Vec<PathBuf>,
    /// Root folder for the tests (default: each file's project test sources, as for `gen`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seconds the whole run may take; statements not answered by then are reported unknown.
    #[arg(long, value_name = "SECS", default_value_t = 600.0)]
    pub budget: f64,
    /// Files worked on at once (each worker runs its own JVM).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    #[arg(long, value_enum, default_value = "text")]
    pub format: FillFormat,
    /// Decide and run everything, write no test.
    #[arg(long)]
    pub dry_run: bool,
    /// Solver time limit per query, in seconds.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Seconds a search on the JVM may take per statement; 0 turns the search off.
    #[arg(long, value_name = "SECS", default_value_t = 5.0)]
    pub search: f64,
    /// JUnit version (default: what each project uses, else 5).
    #[arg(long, value_enum)]
    pub junit: Option<JUnitArg>,
    /// Do not run tests on the JVM (only tests jreach vouches for on its model are written, and
    /// a test covers only its own line).
    #[arg(long)]
    pub no_run: bool,
    /// Class path of the project's dependencies for running tests (`:`-separated).
    #[arg(long, value_name = "PATHS")]
    pub classpath: Option<std::ffi::OsString>,
}

impl FillArgs {
    fn junit(&self) -> Option<JUnit> {
        self.junit.map(JUnit::from)
    }

    fn classpath(&self) -> Vec<PathBuf> {
        self.classpath.as_ref().map(|cp| std::env::split_paths(cp).collect()).unwrap_or_default()
    }
}

/// What became of one uncovered statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A test was written for it (or would be, with `--dry-run`).
    Test { test_file: PathBuf, method: String, verified: bool, note: Option<String>, also_runs: Vec<usize> },
    /// A test written for another line (in this run or an earlier one) runs it.
    Covered { by: String },
    /// It can never run.
    Dead(String),
    /// jreach cannot tell.
    Unknown(String),
    /// Writing its test failed.
    Error(String),
}

/// One statement's result.
#[derive(Clone, Debug)]
pub struct LineResult {
    pub file: PathBuf,
    /// 1-based line where the statement starts.
    pub line: usize,
    /// The statement's first line.
    pub statement: String,
    pub verdict: Verdict,
}

/// Everything a run found, for the report.
#[derive(Debug, Default)]
pub struct Outcome {
    pub results: Vec<LineResult>,
    /// Lines the report or the change names that hold no statement (a declaration's code, the
    /// continuation of a statement already listed), per file.
    pub not_statements: Vec<(PathBuf, usize)>,
    /// Files the report names that no source root holds.
    pub missing_sources: Vec<String>,
    /// What the user should know about the inputs (a report older than the sources).
    pub warnings: Vec<String>,
    /// Lines with code and lines run, per the reports (none without a report).
    pub report_lines: Option<(usize, usize)>,
    pub elapsed: Duration,
    pub budget: Duration,
    pub budget_spent: bool,
    pub dry_run: bool,
}

pub fn run(a: FillArgs) -> u8 {
    let started = Instant::now();
    let fail = |code: u8, msg: String| {
        eprintln!("error: {msg}");
        code
    };
    if !(a.budget > 0.0 && a.budget.is_finite()) {
        return fail(EXIT_USAGE, "--budget must be a positive number of seconds".into());
    }
    if !(a.timeout > 0.0 && a.timeout.is_finite()) {
        return fail(EXIT_USAGE, "--timeout must be a positive number of seconds".into());
    }
    if !(a.search >= 0.0 && a.search.is_finite()) {
        return fail(EXIT_USAGE, "--search must be a number of seconds (0 turns the search off)".into());
    }
    if a.jobs == 0 {
        return fail(EXIT_USAGE, "--jobs must be at least 1".into());
    }
    let (targets, mut outcome) = match targets(&a) {
        Ok(t) => t,
        Err((code, msg)) => return fail(code, msg),
    };
    outcome.budget = Duration::from_secs_f64(a.budget);
    outcome.dry_run = a.dry_run;
    let deadline = started + outcome.budget;
    let spent = Arc::new(AtomicBool::new(false));
    let total: usize = targets.values().map(|t| t.lines.len()).sum();
    let bar = (std::io::stderr().is_terminal() && total > 0).then(|| {
        let b = indicatif::ProgressBar::new(total as u64);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} statements {elapsed} {wide_msg}")
        {
            b.set_style(style);
        }
        b
    });

    // The files, most statements first, for the workers to take.
    let mut queue: Vec<(PathBuf, FileTargets)> = targets.into_iter().collect();
    queue.sort_by_key(|(p, t)| (t.lines.len(), std::cmp::Reverse(p.clone())));
    let queue = Mutex::new(queue);
    let results = Mutex::new(Vec::<LineResult>::new());
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        // The watchdog: at the deadline, every query and search in flight stops.
        let watchdog = {
            let spent = spent.clone();
            let done = &done;
            s.spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    let now = Instant::now();
                    if now >= deadline {
                        spent.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep((deadline - now).min(Duration::from_millis(100)));
                }
            })
        };
        let workers: Vec<_> = (0..a.jobs.min(queue.lock().map(|q| q.len()).unwrap_or(1)).max(1))
            .filter_map(|_| {
                let (a, queue, results, spent, bar) = (&a, &queue, &results, spent.clone(), bar.clone());
                std::thread::Builder::new()
                    .stack_size(crate::check_cmd::WORKER_STACK)
                    .spawn_scoped(s, move || {
                        let mut jvm = Jvm::new(a.classpath(), a.no_run, a.search);
                        loop {
                            let next = queue.lock().unwrap_or_else(|p| p.into_inner()).pop();
                            let Some((path, t)) = next else { break };
                            if let Some(b) = &bar {
                                b.set_message(path.file_name().unwrap_or_default().to_string_lossy().into_owned());
                            }
                            let found = fill_file(a, &path, &t, &mut jvm, deadline, &spent, bar.as_ref());
                            let mut all = results.lock().unwrap_or_else(|p| p.into_inner());
                            all.extend(found);
                            // Without a terminal (a CI log), a line per file instead of the bar.
                            if bar.is_none() {
                                eprintln!(
                                    "fill: {}/{total} statements answered, {} done ({:.0} s)",
                                    all.len(),
                                    path.display(),
                                    started.elapsed().as_secs_f64()
                                );
                            }
                        }
                    })
                    .ok()
            })
            .collect();
        for w in workers {
            let _ = w.join();
        }
        done.store(true, Ordering::Relaxed);
        let _ = watchdog.join();
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    outcome.results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    outcome.results.sort_by(|x, y| (&x.file, x.line).cmp(&(&y.file, y.line)));
    outcome.elapsed = started.elapsed();
    outcome.budget_spent = spent.load(Ordering::Relaxed);
    print!("{}", fill_report::render(&outcome, a.format));
    if outcome.results.iter().any(|r| matches!(r.verdict, Verdict::Error(_))) {
        EXIT_ERROR
    } else {
        0
    }
}

/// One file to work on: as read and parsed when its lines were mapped to statements, and the
/// statements to answer, ascending (1-based lines).
struct FileTargets {
    file: SourceFile,
    lines: BTreeSet<usize>,
}

/// The statements to answer per file, from the reports, the change and `--lines`; and what the
/// report shows of the rest.
fn targets(a: &FillArgs) -> Result<(BTreeMap<PathBuf, FileTargets>, Outcome), (u8, String)> {
    let cwd = std::env::current_dir().map_err(|e| (EXIT_ERROR, format!("no current folder: {e}")))?;
    let reports = if a.jacoco.is_empty() { coverage::find_reports(&cwd) } else { a.jacoco.clone() };
    let chosen = a.diff.is_some() || !a.lines.is_empty();
    if reports.is_empty() && !chosen {
        return Err((
            EXIT_USAGE,
            "no JaCoCo XML report at the usual places (target/site/jacoco/jacoco.xml, \
             build/reports/jacoco/test/jacocoTestReport.xml, in this folder or a module below it): run the \
             tests with JaCoCo first, give --jacoco PATH, or choose lines with --diff REV or --lines FILE:A-B"
                .into(),
        ));
    }
    let mut outcome = Outcome::default();
    let mut cov = Coverage::default();
    for r in &reports {
        cov.merge(coverage::read(r).map_err(|e| (EXIT_ERROR, e))?);
    }
    for s in &a.sources {
        if !s.is_dir() {
            return Err((EXIT_USAGE, format!("--sources {}: no such folder", s.display())));
        }
    }
    let mut roots: Vec<PathBuf> = a.sources.iter().map(|s| std::fs::canonicalize(s).unwrap_or(s.clone())).collect();
    roots.extend(reports.iter().filter_map(|r| coverage::source_root_of(r)));
    let plain = cwd.join("src/main/java");
    if plain.is_dir() {
        roots.push(plain);
    }
    roots.dedup();

    let mut lines: Lines = BTreeMap::new();
    if !reports.is_empty() {
        if roots.is_empty() {
            return Err((
                EXIT_USAGE,
                "cannot tell where the report's source files are: give their source roots with --sources DIR".into(),
            ));
        }
        let (found, missing) = coverage::locate(&cov, &roots);
        outcome.missing_sources = missing;
        let named: Vec<PathBuf> =
            cov.files.keys().filter_map(|rel| roots.iter().map(|r| r.join(rel)).find(|p| p.is_file())).collect();
        outcome.warnings.extend(stale(&reports, named.iter()));
        outcome.report_lines = Some(cov.line_counts());
        lines = found;
    }
    let mut named: Option<Lines> = None;
    if let Some(rev) = &a.diff {
        named = Some(changes::changed_since(rev, &cwd).map_err(|e| (EXIT_ERROR, e))?);
    }
    for arg in &a.lines {
        let (file, ls) = changes::parse_lines_arg(arg).map_err(|e| (EXIT_USAGE, e))?;
        named.get_or_insert_with(BTreeMap::new).entry(file).or_default().extend(ls);
    }
    let lines = match named {
        // No report: every statement the change or `--lines` names.
        Some(named) if reports.is_empty() => named,
        Some(named) => lines
            .into_iter()
            .filter_map(|(f, ls)| {
                let keep: BTreeSet<usize> = ls.intersection(named.get(&f)?).copied().collect();
                (!keep.is_empty()).then_some((f, keep))
            })
            .collect(),
        None => lines,
    };

    let mut out = BTreeMap::new();
    for (path, ls) in lines {
        let file = read_java(&path)?;
        let mut t = FileTargets { file, lines: BTreeSet::new() };
        for l in ls {
            match statement_line(&t.file, l) {
                Some(s) => {
                    t.lines.insert(s);
                }
                None => outcome.not_statements.push((path.clone(), l)),
            }
        }
        if !t.lines.is_empty() {
            out.insert(path, t);
        }
    }
    Ok((out, outcome))
}

/// A warning when a source file changed after the oldest of `reports` was written: its lines
/// may have moved since, and the report's line numbers then name other statements.
fn stale<'p>(reports: &[PathBuf], files: impl Iterator<Item = &'p PathBuf>) -> Option<String> {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let (oldest, report) = reports.iter().filter_map(|r| Some((modified(r)?, r))).min()?;
    let newer: Vec<String> = files
        .filter(|f| modified(f).is_some_and(|m| m > oldest))
        .map(|f| f.file_name().unwrap_or_default().to_string_lossy().into_owned())
        .collect();
    let (first, more) = (newer.first()?, newer.len() - 1);
    let others =
        if more == 0 { String::new() } else { format!(" and {more} other file{}", if more == 1 { "" } else { "s" }) };
    Some(format!(
        "{first}{others} changed after {} was written: lines may have moved since; run the tests again for a fresh report",
        report.display()
    ))
}

/// The 1-based line of the statement that 1-based `line` belongs to: the line itself when a
/// statement starts there, else the start of the innermost statement spanning it (a call's
/// arguments on the lines below it); `None` for lines outside statements (declarations).
fn statement_line(file: &SourceFile, line: usize) -> Option<usize> {
    let line0 = line.checked_sub(1)?;
    match find_target(file, line0) {
        Ok(_) => return Some(line),
        Err(e) if e.not_yet() => return Some(line),
        Err(_) => {}
    }
    let range = file.lines.line_range(line0)?;
    // The node at the line's first non-blank byte.
    let first = file.text[range.clone()].find(|c: char| !c.is_whitespace()).map(|i| range.start + i)?;
    let mut up = file.tree.root_node().descendant_for_byte_range(first, first);
    while let Some(n) = up {
        if jreach_syntax::is_statement_kind(n.kind()) {
            let start = file.lines.line_of(n.start_byte());
            return (start < line0 && find_target(file, start).is_ok()).then_some(start + 1);
        }
        if matches!(n.kind(), "method_declaration" | "constructor_declaration" | "class_body") {
            return None;
        }
        up = n.parent();
    }
    None
}

/// The statement's first line, as a test's comment quotes it.
fn statement_text(file: &SourceFile, line: usize) -> String {
    match find_target(file, line - 1) {
        Ok(t) => t.first_line(file).to_string(),
        Err(_) => file.lines.line_range(line - 1).map(|r| file.text[r].trim().to_string()).unwrap_or_default(),
    }
}

/// The lines jreach's tests in `file`'s test files already cover, with the test that does,
/// from their comments: a comment counts only while its line still holds the statement it
/// quotes.
fn covered_by_earlier_tests(file: &SourceFile, test_root: &Path) -> BTreeMap<usize, String> {
    let mut covered = BTreeMap::new();
    let package = file.package();
    for top in top_classes(file) {
        let Ok(test_file) = synth::test_path_of_class(test_root, package.as_deref(), &top) else { continue };
        let Ok(text) = std::fs::read_to_string(&test_file) else { continue };
        let name = test_file.file_name().unwrap_or_default().to_string_lossy().into_owned();
        for m in synth::markers_in(&text) {
            if m.target_line == 0 || synth::quoted_target(&statement_text(file, m.target_line)) != m.quoted {
                continue;
            }
            let by = format!("{name}:{}", m.at);
            for l in std::iter::once(m.target_line).chain(m.also_runs) {
                covered.entry(l).or_insert_with(|| by.clone());
            }
        }
    }
    covered
}

/// The names of the file's top-level types.
fn top_classes(file: &SourceFile) -> Vec<String> {
    let root = file.tree.root_node();
    let mut c = root.walk();
    root.named_children(&mut c)
        .filter(|n| {
            n.kind().ends_with("_declaration") && n.kind() != "package_declaration" && n.kind() != "import_declaration"
        })
        .filter_map(|n| n.child_by_field_name("name"))
        .map(|n| jreach_syntax::text_of(n, &file.text).to_string())
        .collect()
}

/// Answers the statements of one file in order; see the module doc.
fn fill_file(
    a: &FillArgs,
    path: &Path,
    t: &FileTargets,
    jvm: &mut Jvm,
    deadline: Instant,
    spent: &Arc<AtomicBool>,
    bar: Option<&indicatif::ProgressBar>,
) -> Vec<LineResult> {
    let file = &t.file;
    let junit = a.junit().unwrap_or_else(|| synth::detect_junit(path).unwrap_or(JUnit::V5));
    let package = file.package();
    let test_root = a.out.clone().unwrap_or_else(|| synth::test_root_for(path, package.as_deref()));
    let mut covered = covered_by_earlier_tests(file, &test_root);
    let base = GenOptions {
        timeout: Duration::from_secs_f64(a.timeout),
        junit,
        cancel: Some(spent.clone()),
        package_sources: synth::package_sources(path, &file.text),
        imported_sources: synth::imported_sources(path, &file.text),
        ..Default::default()
    };
    // Last statements first: the path to a statement usually runs those above it in its
    // method, so one test covers a block (the other way round, an `if` would get a test of its
    // own that takes the other branch).
    let mut results = Vec::new();
    for &line in t.lines.iter().rev() {
        let statement = statement_text(file, line);
        let verdict = if let Some(by) = covered.get(&line) {
            Verdict::Covered { by: by.clone() }
        } else if spent.load(Ordering::Relaxed) || Instant::now() >= deadline {
            Verdict::Unknown(format!("not tried: the --budget of {} s was spent", a.budget))
        } else {
            let left = deadline.saturating_duration_since(Instant::now());
            let opts = GenOptions { timeout: base.timeout.min(left), ..base.clone() };
            jvm.search = a.search.min(left.as_secs_f64());
            let answered = answer(path, file, line, &opts, jvm);
            let cut = spent.load(Ordering::Relaxed);
            match answered {
                Answer::Test { mut req, note } => {
                    let ran = if note.is_none() { jvm.covered(&req) } else { None };
                    let ran = ran.unwrap_or_else(|| vec![line]);
                    req.also_runs = ran.iter().copied().filter(|&l| l != line).collect();
                    match write_test(&test_root, &req, a.dry_run) {
                        Ok((test_file, method)) => {
                            let by = fill_report::test_name(&test_file, &method);
                            for &l in &ran {
                                covered.entry(l).or_insert_with(|| by.clone());
                            }
                            Verdict::Test {
                                test_file,
                                method,
                                verified: note.is_none(),
                                note,
                                also_runs: req.also_runs.clone(),
                            }
                        }
                        Err(e) => Verdict::Error(e),
                    }
                }
                Answer::Unreachable(why) => Verdict::Dead(why),
                Answer::Unknown(_) | Answer::NotTarget(_) if cut => {
                    Verdict::Unknown(format!("the --budget of {} s ran out while jreach worked on it", a.budget))
                }
                Answer::Unknown(why) | Answer::NotTarget(why) => Verdict::Unknown(why),
            }
        };
        results.push(LineResult { file: path.to_path_buf(), line, statement, verdict });
        if let Some(b) = bar {
            b.inc(1);
        }
    }
    results
}

/// Places the test under `root` and writes it unless `dry_run`: its file and method name.
fn write_test(root: &Path, req: &synth::TestRequest, dry_run: bool) -> Result<(PathBuf, String), String> {
    let placed = synth::place(root, req).map_err(|e| format!("cannot place the test under {}: {e}", root.display()))?;
    if !dry_run {
        synth::write(&placed).map_err(|e| format!("cannot write {}: {e}", placed.path.display()))?;
    }
    Ok((placed.path, placed.method_name))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "package p;\nclass A {\n    A() {\n        super();\n    }\n    int f(int a) {\n        int x = g(a,\n              a + 1);\n        if (x > 0) {\n            return 1;\n        }\n        return 0;\n    }\n    int g(int a, int b) { return a + b; }\n}\n";

    #[test]
    fn lines_map_to_the_statements_they_belong_to() {
        let f = SourceFile::parse(SRC);
        let got: Vec<(usize, Option<usize>)> = (1..=15).map(|l| (l, statement_line(&f, l))).collect();
        assert_eq!(
            got,
            [
                (1, None),
                (2, None),
                (3, None),
                (4, Some(4)),
                (5, None),
                (6, None),
                (7, Some(7)),
                // A call's argument on the next line: its statement.
                (8, Some(7)),
                (9, Some(9)),
                (10, Some(10)),
                // A block's closing brace: the statement the block belongs to.
                (11, Some(9)),
                (12, Some(12)),
                (13, None),
                (14, Some(14)),
                (15, None),
            ]
        );
    }

    #[test]
    fn a_report_older_than_a_source_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let (report, source) = (dir.path().join("jacoco.xml"), dir.path().join("A.java"));
        std::fs::write(&report, "<report/>").unwrap();
        std::fs::write(&source, "class A {}").unwrap();
        let at = |p: &Path, secs: u64| {
            let t = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
            std::fs::File::options().write(true).open(p).unwrap().set_modified(t).unwrap();
        };
        at(&report, 2_000_000_000);
        at(&source, 1_000_000_000);
        assert_eq!(stale(std::slice::from_ref(&report), [&source].into_iter()), None);
        at(&source, 2_000_000_001);
        let warning = stale(std::slice::from_ref(&report), [&source].into_iter()).expect("a warning");
        assert!(warning.starts_with("A.java changed after"), "{warning}");
    }

    #[test]
    fn earlier_tests_count_while_their_line_still_holds_the_statement() {
        let dir = tempfile::tempdir().unwrap();
        let test = dir.path().join("p/ATest.java");
        std::fs::create_dir_all(test.parent().unwrap()).unwrap();
        std::fs::write(
            &test,
            "class ATest {\n  void f_reachesLine10() {\n    // Reaches line 10: return 1;\n    // Also runs lines 7-9.\n  }\n  void stale() {\n    // Reaches line 12: return 2;\n    // Also runs lines 14.\n  }\n}\n",
        )
        .unwrap();
        let f = SourceFile::parse(SRC);
        let covered = covered_by_earlier_tests(&f, dir.path());
        assert_eq!(covered.keys().copied().collect::<Vec<_>>(), [7, 8, 9, 10]);
        assert_eq!(covered[&10], "ATest.java:3");
    }
}
