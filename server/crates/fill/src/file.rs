//! One file's uncovered statements, answered from the last up.
//!
//! Each statement gets a test, a proof that it is dead, or a reason. A new test's run says which
//! other lines of the file it covered ([`Jvm::covered`]); those come off the list and the test's
//! comment names them, so a block gets one test, and the same comments, read back by
//! [`covered_by_earlier_tests`], make a second fill add nothing. The tests are gathered per test
//! file (the text before, the text with every new test appended) for the caller to write or to
//! offer as one edit.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use jreach_ide::GenOptions;
use jreach_syntax::SourceFile;
use jreach_synth::{self as synth, Placement, TestRequest};

use crate::answer::{answer, Answer, Jvm};
use crate::statements::{covered_by_earlier_tests, statement_text, ReadTest};

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

/// Counts of the verdicts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub statements: usize,
    pub tests: usize,
    /// Statements a test written for another one runs.
    pub covered: usize,
    pub dead: usize,
    pub unknown: usize,
    pub errors: usize,
}

pub fn counts(results: &[LineResult]) -> Counts {
    let mut c = Counts { statements: results.len(), ..Counts::default() };
    for r in results {
        match r.verdict {
            Verdict::Test { .. } => c.tests += 1,
            Verdict::Covered { .. } => c.covered += 1,
            Verdict::Dead(_) => c.dead += 1,
            Verdict::Unknown(_) => c.unknown += 1,
            Verdict::Error(_) => c.errors += 1,
        }
    }
    c
}

/// `CartTest.add_reachesLine12`: a test as people name it.
pub fn test_name(test_file: &Path, method: &str) -> String {
    let class = test_file.file_stem().unwrap_or_default().to_string_lossy();
    format!("{class}.{method}")
}

/// How one file is filled.
#[derive(Clone)]
pub struct FillOptions {
    /// Root folder of the test sources.
    pub test_root: PathBuf,
    /// Each statement's options (JUnit version, time limit, the file's package and imported
    /// sources). Their `cancel` flag, when set, stops the work: the query or search in flight
    /// ends and the statements left are not tried.
    pub gen: GenOptions,
    /// Seconds a search on the JVM may take per statement.
    pub search: f64,
    /// When the work must end, if ever: each query and search gets at most the time left.
    pub deadline: Option<Instant>,
    /// Why the work stops when the cancel flag is set, for the statements it leaves
    /// ("the --budget of 600 s ran out", "the request was cancelled").
    pub stop_reason: String,
}

/// What filling one file found and the tests it gathered.
#[derive(Debug, Default)]
pub struct Filled {
    /// One per statement, in the order they were answered (last line first).
    pub results: Vec<LineResult>,
    /// Per test file, the text it had before ([`Placement::original`]) and the text with every
    /// new test appended ([`Placement::content`]): what [`synth::write`] writes.
    pub tests: Vec<Placement>,
}

/// Answers the statements `lines` (1-based, each where a statement starts) of `file` (read from
/// `path`): see the module doc. `read_test` reads a test file as the caller sees it; `progress`
/// hears each result as it comes.
pub fn fill_file(
    path: &Path,
    file: &SourceFile,
    lines: &BTreeSet<usize>,
    opts: &FillOptions,
    jvm: &mut Jvm,
    read_test: ReadTest<'_>,
    progress: &mut dyn FnMut(&LineResult),
) -> Filled {
    let stopped = || {
        opts.gen.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
            || opts.deadline.is_some_and(|d| Instant::now() >= d)
    };
    let mut covered = covered_by_earlier_tests(file, &opts.test_root, read_test);
    let mut tests: BTreeMap<PathBuf, Placement> = BTreeMap::new();
    let mut results = Vec::new();
    // Last statements first: the path to a statement usually runs those above it in its
    // method, so one test covers a block (the other way round, an `if` would get a test of its
    // own that takes the other branch).
    for &line in lines.iter().rev() {
        let statement = statement_text(file, line);
        let verdict = if let Some(by) = covered.get(&line) {
            Verdict::Covered { by: by.clone() }
        } else if stopped() {
            Verdict::Unknown(format!("not tried: {}", opts.stop_reason))
        } else {
            let left = opts.deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let limit = |t: Duration| left.map_or(t, |l| t.min(l));
            let gen = GenOptions { timeout: limit(opts.gen.timeout), ..opts.gen.clone() };
            jvm.search = limit(Duration::from_secs_f64(opts.search)).as_secs_f64();
            let answered = answer(path, file, line, &gen, jvm);
            match answered {
                Answer::Test { mut req, note } => {
                    let ran = if note.is_none() { jvm.covered(&req) } else { None };
                    let ran = ran.unwrap_or_else(|| vec![line]);
                    req.also_runs = ran.iter().copied().filter(|&l| l != line).collect();
                    match add_test(&mut tests, &opts.test_root, &req, read_test) {
                        Ok((test_file, method)) => {
                            let by = test_name(&test_file, &method);
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
                Answer::Unknown(_) | Answer::NotTarget(_) if stopped() => {
                    Verdict::Unknown(format!("{} while jreach worked on it", opts.stop_reason))
                }
                Answer::Unknown(why) | Answer::NotTarget(why) => Verdict::Unknown(why),
            }
        };
        let result = LineResult { file: path.to_path_buf(), line, statement, verdict };
        progress(&result);
        results.push(result);
    }
    Filled { results, tests: tests.into_values().collect() }
}

/// Appends the test for `req` to its test file's text as gathered so far (first read with
/// `read_test`): its file and method name.
fn add_test(
    tests: &mut BTreeMap<PathBuf, Placement>,
    root: &Path,
    req: &TestRequest,
    read_test: ReadTest<'_>,
) -> Result<(PathBuf, String), String> {
    let path =
        synth::test_path(root, req).map_err(|e| format!("cannot place the test under {}: {e}", root.display()))?;
    let (original, so_far) = match tests.get(&path) {
        Some(p) => (p.original.clone(), Some(p.content.clone())),
        None => {
            let text = read_test(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            (text.clone(), text)
        }
    };
    let mut placed = synth::place_in(path.clone(), so_far, req).map_err(|e| format!("cannot add the test: {e}"))?;
    if placed.duplicate_of.is_some() {
        // A test of the class does this already: nothing to add.
        return Ok((path, placed.method_name));
    }
    // One edit from the text before to the text with every test: what `write` checks against.
    placed.created = original.is_none();
    placed.original = original;
    let method = placed.method_name.clone();
    tests.insert(path.clone(), placed);
    Ok((path, method))
}
