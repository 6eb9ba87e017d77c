//! `jreach fill`: the statements no test runs (from a JaCoCo report, a change, or lines named)
//! each get a test, a proof that they are dead, or a reason.
//!
//! Here: the arguments, the statements to answer per file, the workers and the budget, and the
//! writing. The work is per source file: a worker (one of `--jobs`, each with its own JVM) takes
//! a file and answers its statements with [`jreach_fill::fill_file`] (from the last up, each new
//! test's covered lines taken off the list, so a block gets one test; the tests' comments, read
//! back, make a second run add nothing), then writes the tests it gathered as `gen` writes them
//! (appended to the class's test file). A watchdog ends every solver query and search when
//! `--budget` runs out.

use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jreach_fill::coverage::{self, Coverage};
use jreach_fill::statements::read_from_disk;
use jreach_fill::{fill_file, options_for_file, statement_line, test_name, FillOptions, Jvm, LineResult, Verdict};
use jreach_ide::GenOptions;
use jreach_syntax::SourceFile;
use jreach_synth::{self as synth, JUnit};

use crate::changes::{self, Lines};
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
                            let found = fill_one(a, &path, &t, &mut jvm, deadline, &spent, bar.as_ref());
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
    for root in coverage::source_roots(&reports, &cwd) {
        if !roots.contains(&root) {
            roots.push(root);
        }
    }

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

/// Answers the statements of one file ([`jreach_fill::fill_file`]) and writes its tests.
fn fill_one(
    a: &FillArgs,
    path: &Path,
    t: &FileTargets,
    jvm: &mut Jvm,
    deadline: Instant,
    spent: &Arc<AtomicBool>,
    bar: Option<&indicatif::ProgressBar>,
) -> Vec<LineResult> {
    let file = &t.file;
    let package = file.package();
    let opts = FillOptions {
        test_root: a.out.clone().unwrap_or_else(|| synth::test_root_for(path, package.as_deref())),
        gen: options_for_file(
            path,
            &file.text,
            a.junit(),
            GenOptions {
                timeout: Duration::from_secs_f64(a.timeout),
                cancel: Some(spent.clone()),
                ..Default::default()
            },
        ),
        search: a.search,
        deadline: Some(deadline),
        stop_reason: format!("the --budget of {} s ran out", a.budget),
    };
    let mut tick = |_: &LineResult| {
        if let Some(b) = bar {
            b.inc(1);
        }
    };
    let mut filled = fill_file(path, file, &t.lines, &opts, jvm, &read_from_disk, &mut tick);
    if !a.dry_run {
        for placed in &filled.tests {
            if let Err(e) = synth::write(placed) {
                lost_tests(&mut filled.results, &placed.path, &format!("cannot write {}: {e}", placed.path.display()));
            }
        }
    }
    filled.results
}

/// The tests of `test_file` could not be written: their statements, and those only they
/// covered, get the error.
fn lost_tests(results: &mut [LineResult], test_file: &Path, why: &str) {
    let lost: BTreeSet<String> = results
        .iter()
        .filter_map(|r| match &r.verdict {
            Verdict::Test { test_file: f, method, .. } if f == test_file => Some(test_name(f, method)),
            _ => None,
        })
        .collect();
    for r in results.iter_mut() {
        let gone = match &r.verdict {
            Verdict::Test { test_file: f, .. } => f == test_file,
            Verdict::Covered { by } => lost.contains(by),
            _ => false,
        };
        if gone {
            r.verdict = Verdict::Error(why.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
