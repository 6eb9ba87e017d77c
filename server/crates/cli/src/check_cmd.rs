//! `jreach check`: unreachable-code and constant-condition diagnostics over files and trees, in
//! parallel, as text (`file:line:col: warning: message [code]`), JSON (LSP-shaped diagnostics,
//! 0-based lines and UTF-16 columns) or SARIF 2.1.0. A summary goes to stderr: files, methods,
//! findings, and the methods without a verdict with their most common reasons (JSON and SARIF
//! carry the same numbers).

use std::collections::HashMap;
use std::io::IsTerminal;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use jreach_ide::{
    check_method_profiled, ClassInvariants, FileContext, Finding, MethodProfile, MethodVerdict, CONDITION_ALWAYS_FALSE,
    CONDITION_ALWAYS_TRUE, UNREACHABLE_CODE,
};
use jreach_syntax::SourceFile;
use rayon::prelude::*;
use serde_json::{json, Value};

use crate::check_cache::{CheckCache, Pos, StoredDiag, StoredResult};
use crate::input::{read_java_text, EXIT_ERROR};
use crate::Format;

/// The stack of each worker thread.
pub(crate) const WORKER_STACK: usize = 256 << 20;

/// Exit status of `--fail-on-findings` when something was found.
const EXIT_FINDINGS: u8 = 1;

/// Every `.java` file under the given paths, sorted. A folder reached twice (through a symbolic
/// link back up the tree, say) is walked once.
fn java_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut walked = std::collections::HashSet::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            while let Some(d) = stack.pop() {
                if !walked.insert(std::fs::canonicalize(&d).unwrap_or_else(|_| d.clone())) {
                    continue;
                }
                let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
                for e in entries.flatten() {
                    let path = e.path();
                    if path.is_dir() {
                        stack.push(path);
                    } else if path.extension().and_then(|x| x.to_str()) == Some("java") {
                        out.push(path);
                    }
                }
            }
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or folder", p.display()));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// One finding with positions resolved.
struct Diag {
    file: String,
    start: Pos,
    end: Pos,
    code: &'static str,
    message: String,
    related: Vec<(Pos, Pos, String)>,
}

/// What checking one file gave.
pub(crate) struct FileResult {
    pub(crate) path: PathBuf,
    lines: usize,
    diags: Vec<Diag>,
    verdicts: Vec<MethodVerdict>,
    /// Wall time per method.
    pub(crate) times: Vec<Duration>,
    /// Per method: its signature, the line it starts on (1-based) and where its time went.
    pub(crate) profiles: Vec<(String, usize, MethodProfile)>,
    /// Reading and parsing the file.
    pub(crate) parse: Duration,
    /// Its class table ([`FileContext`]).
    pub(crate) context: Duration,
    /// Whether the result came from the cache (then `times` and `profiles` are empty).
    pub(crate) cached: bool,
    error: Option<String>,
}

fn pos(src: &SourceFile, offset: usize) -> Pos {
    let (line, _) = src.lines.position(offset);
    let start = src.lines.line_range(line).map(|r| r.start).unwrap_or(0).min(offset);
    Pos { line, character: src.text[start..offset].encode_utf16().count() }
}

/// Why a method got no verdict when its file's time budget ran out before it.
fn file_budget_spent(budget: Duration) -> String {
    format!("the file's time budget ({} s) ran out first; raise --file-budget", budget.as_secs())
}

fn check_one(path: &Path, timeout: Duration, file_budget: Duration, cache: Option<&CheckCache>) -> FileResult {
    let mut r = FileResult {
        path: path.to_path_buf(),
        lines: 0,
        diags: vec![],
        verdicts: vec![],
        times: vec![],
        profiles: vec![],
        parse: Duration::ZERO,
        context: Duration::ZERO,
        cached: false,
        error: None,
    };
    let started = Instant::now();
    let text = match read_java_text(path) {
        Ok(t) => t,
        Err((_, msg)) => {
            r.error = Some(msg);
            return r;
        }
    };
    r.lines = text.lines().count();
    let file = abs(path);
    // A file seen before is not even parsed.
    if let Some(stored) = cache.and_then(|c| c.get(&text)) {
        r.cached = true;
        r.verdicts =
            stored.verdicts.into_iter().map(|v| v.map_or(MethodVerdict::Verdict, MethodVerdict::NoVerdict)).collect();
        r.diags = stored.diags.into_iter().map(|d| Diag::from_stored(&file, d)).collect();
        return r;
    }
    let src = SourceFile::parse(text);
    r.parse = started.elapsed();
    let mut budget_ran_out = false;
    let mut findings: Vec<Finding> = Vec::new();
    let deadline = Instant::now() + file_budget;
    let started = Instant::now();
    let ctx = FileContext::new(&src, None, None);
    let invariants = ClassInvariants::new();
    r.context = started.elapsed();
    for m in ctx.methods() {
        if Instant::now() >= deadline {
            budget_ran_out = true;
            r.times.push(Duration::ZERO);
            r.profiles.push((m.signature(), src.lines.line_of(m.range.start) + 1, MethodProfile::default()));
            r.verdicts.push(MethodVerdict::NoVerdict(file_budget_spent(file_budget)));
            continue;
        }
        let t = Instant::now();
        let (verdict, fs, profile) = check_method_profiled(&ctx, &invariants, m, timeout);
        r.times.push(t.elapsed());
        r.profiles.push((m.signature(), src.lines.line_of(m.range.start) + 1, profile));
        r.verdicts.push(verdict);
        findings.extend(fs);
    }
    let span = |range: &Range<usize>| (pos(&src, range.start), pos(&src, range.end));
    r.diags = findings
        .iter()
        .map(|fd| {
            let (start, end) = span(&fd.range);
            let related = fd
                .related
                .iter()
                .filter(|x| x.range.end > x.range.start)
                .map(|x| {
                    let (s, e) = span(&x.range);
                    (s, e, x.message.clone())
                })
                .collect();
            Diag { file: file.clone(), start, end, code: fd.code(), message: fd.message(&src.lines), related }
        })
        .collect();
    // A method a query's time-out left undecided may be decided on a less busy machine: such a
    // result is not kept for the next run.
    let ran_out_of_time = budget_ran_out || r.profiles.iter().any(|(_, _, p)| p.ran_out_of_time);
    if let (Some(cache), false) = (cache, ran_out_of_time) {
        cache.put(&src.text, &r.stored());
    }
    r
}

impl FileResult {
    /// The result as the cache keeps it.
    fn stored(&self) -> StoredResult {
        StoredResult {
            diags: self
                .diags
                .iter()
                .map(|d| StoredDiag {
                    start: d.start,
                    end: d.end,
                    code: d.code.to_string(),
                    message: d.message.clone(),
                    related: d.related.clone(),
                })
                .collect(),
            verdicts: self
                .verdicts
                .iter()
                .map(|v| match v {
                    MethodVerdict::Verdict => None,
                    MethodVerdict::NoVerdict(why) => Some(why.clone()),
                })
                .collect(),
        }
    }
}

impl Diag {
    /// A stored finding of `file`.
    fn from_stored(file: &str, d: StoredDiag) -> Diag {
        let code = [UNREACHABLE_CODE, CONDITION_ALWAYS_FALSE, CONDITION_ALWAYS_TRUE]
            .into_iter()
            .find(|c| *c == d.code)
            .unwrap_or(UNREACHABLE_CODE);
        Diag { file: file.to_string(), start: d.start, end: d.end, code, message: d.message, related: d.related }
    }
}

/// Progress on stderr: a bar on a terminal, else a line every half minute (for CI logs).
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    total: usize,
    done: std::sync::atomic::AtomicUsize,
    started: Instant,
    last_line: std::sync::Mutex<Instant>,
}

impl Progress {
    const LINE_EVERY: Duration = Duration::from_secs(30);

    fn new(total: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = indicatif::ProgressBar::new(total as u64);
            if let Ok(style) =
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed} {wide_msg}")
            {
                b.set_style(style);
            }
            b
        });
        Progress {
            bar,
            total,
            done: Default::default(),
            started: Instant::now(),
            last_line: std::sync::Mutex::new(Instant::now()),
        }
    }

    fn started(&self, path: &Path) {
        if let Some(b) = &self.bar {
            b.set_message(path.display().to_string());
        }
    }

    fn finished(&self) {
        let done = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if let Some(b) = &self.bar {
            b.inc(1);
            return;
        }
        let mut last = self.last_line.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() >= Self::LINE_EVERY {
            *last = Instant::now();
            eprintln!("check: {done}/{} files, {:.0} s", self.total, self.started.elapsed().as_secs_f64());
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// The arguments of `jreach check`.
pub struct CheckArgs<'a> {
    pub paths: &'a [PathBuf],
    pub format: Format,
    pub timeout: f64,
    /// Seconds all the methods of one file may take together.
    pub file_budget: f64,
    pub fail_on_findings: bool,
    /// Print where the time went after the summary.
    pub timings: bool,
    /// The folder of the results cache; `None`: no cache.
    pub cache_dir: Option<PathBuf>,
}

pub fn run(args: CheckArgs<'_>) -> u8 {
    let files = match java_files(args.paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_ERROR;
        }
    };
    let timeout = Duration::from_secs_f64(args.timeout.max(0.001));
    let file_budget = Duration::from_secs_f64(args.file_budget.max(0.001));
    let cache = args.cache_dir.as_deref().and_then(|dir| match CheckCache::open(dir, timeout) {
        Ok(c) => Some(c),
        Err(e) => {
            eprintln!("warning: {e}; checking without a cache");
            None
        }
    });
    let started = Instant::now();
    let progress = Progress::new(files.len());
    // Largest files first: they set the wall time, and the small ones fill the gaps after.
    let mut order: Vec<(u64, usize)> =
        files.iter().enumerate().map(|(i, p)| (std::fs::metadata(p).map(|m| m.len()).unwrap_or(0), i)).collect();
    order.sort_by(|a, b| b.cmp(a));
    // `par_bridge` hands the files out in this order, one at a time. Workers get large stacks:
    // the lowering and the encoding recurse over the syntax tree.
    let check_all = || -> Vec<(usize, FileResult)> {
        order
            .into_iter()
            .par_bridge()
            .map(|(_, i)| {
                progress.started(&files[i]);
                let cache = cache.as_ref();
                let r = jreach_ide::with_own_solver_context(|| check_one(&files[i], timeout, file_budget, cache));
                progress.finished();
                (i, r)
            })
            .collect()
    };
    let mut results = match rayon::ThreadPoolBuilder::new().stack_size(WORKER_STACK).build() {
        Ok(pool) => pool.install(check_all),
        Err(_) => check_all(),
    };
    progress.finish();
    results.sort_by_key(|(i, _)| *i);
    let results: Vec<FileResult> = results.into_iter().map(|(_, r)| r).collect();
    let elapsed = started.elapsed();
    let summary = Summary::of(&results, elapsed);
    for r in &results {
        if let Some(e) = &r.error {
            eprintln!("error: skipped {e}");
        }
    }
    let diags: Vec<&Diag> = results.iter().flat_map(|r| r.diags.iter()).collect();
    // A closed pipe (`jreach check ... | head`) ends the output quietly.
    let mut out = std::io::stdout().lock();
    let written = match args.format {
        Format::Json => writeln!(out, "{}", json_report(&diags, &summary)),
        Format::Sarif => writeln!(out, "{}", sarif_report(&diags, &summary)),
        Format::Text => diags.iter().try_for_each(|d| {
            writeln!(
                out,
                "{}:{}:{}: warning: {} [{}]",
                d.file,
                d.start.line + 1,
                d.start.character + 1,
                d.message,
                d.code
            )?;
            d.related
                .iter()
                .try_for_each(|(s, _, msg)| writeln!(out, "{}:{}:{}: note: {msg}", d.file, s.line + 1, s.character + 1))
        }),
    };
    if written.is_err() {
        return if args.fail_on_findings && !diags.is_empty() { EXIT_FINDINGS } else { 0 };
    }
    eprintln!("{}", summary.line());
    if args.timings {
        eprint!("{}", crate::check_timings::report(&results, elapsed));
    }
    if summary.errors > 0 {
        EXIT_ERROR
    } else if args.fail_on_findings && !diags.is_empty() {
        EXIT_FINDINGS
    } else {
        0
    }
}

/// Totals over all files.
struct Summary {
    files: usize,
    lines: usize,
    methods: usize,
    with_verdict: usize,
    without_verdict: usize,
    findings: usize,
    by_code: Vec<(&'static str, usize)>,
    /// Reasons for no verdict, most common first (a method with several counts for each).
    reasons: Vec<(String, usize)>,
    errors: usize,
    /// Files whose result came from the cache.
    cached: usize,
    elapsed: Duration,
    median_method: Duration,
}

impl Summary {
    fn of(results: &[FileResult], elapsed: Duration) -> Summary {
        let mut reasons: HashMap<String, usize> = HashMap::new();
        let mut times: Vec<Duration> = Vec::new();
        let (mut methods, mut without) = (0, 0);
        for r in results {
            methods += r.verdicts.len();
            times.extend(&r.times);
            for v in &r.verdicts {
                if let MethodVerdict::NoVerdict(why) = v {
                    without += 1;
                    let mut parts: Vec<&str> = why.split("; ").collect();
                    parts.sort();
                    parts.dedup();
                    for p in parts {
                        *reasons.entry(p.to_string()).or_default() += 1;
                    }
                }
            }
        }
        let mut reasons: Vec<(String, usize)> = reasons.into_iter().collect();
        reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        times.sort();
        let diags = results.iter().flat_map(|r| r.diags.iter());
        let count = |code: &str| diags.clone().filter(|d| d.code == code).count();
        let by_code = [UNREACHABLE_CODE, CONDITION_ALWAYS_FALSE, CONDITION_ALWAYS_TRUE].map(|c| (c, count(c))).to_vec();
        Summary {
            files: results.len(),
            lines: results.iter().map(|r| r.lines).sum(),
            methods,
            with_verdict: methods - without,
            without_verdict: without,
            findings: diags.count(),
            by_code,
            reasons,
            errors: results.iter().filter(|r| r.error.is_some()).count(),
            cached: results.iter().filter(|r| r.cached).count(),
            elapsed,
            median_method: times.get(times.len() / 2).copied().unwrap_or_default(),
        }
    }

    fn line(&self) -> String {
        let mut s = format!(
            "{} files ({} lines), {} methods, {} findings ({} unreachable, {} always false, {} always true), {} methods without a verdict",
            self.files,
            self.lines,
            self.methods,
            self.findings,
            self.by_code[0].1,
            self.by_code[1].1,
            self.by_code[2].1,
            self.without_verdict
        );
        if !self.reasons.is_empty() {
            let top: Vec<String> = self.reasons.iter().take(3).map(|(r, n)| format!("{r} ({n})")).collect();
            s.push_str(&format!(": {}", top.join(", ")));
        }
        if self.cached > 0 {
            s.push_str(&format!("; {} of {} files unchanged since a checked run (cached)", self.cached, self.files));
        }
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        s.push_str(&format!("; {:.2} s, {:.0} lines/s", secs, self.lines as f64 / secs));
        if self.cached < self.files {
            s.push_str(&format!(", median {:.1} ms per method checked", self.median_method.as_secs_f64() * 1000.0));
        }
        s
    }

    fn json(&self) -> Value {
        json!({
            "files": self.files,
            "lines": self.lines,
            "methods": self.methods,
            "methods_with_verdict": self.with_verdict,
            "methods_without_verdict": self.without_verdict,
            "no_verdict_reasons": self.reasons.iter().map(|(r, n)| json!({"reason": r, "methods": n})).collect::<Vec<_>>(),
            "findings": self.findings,
            "findings_by_code": self.by_code.iter().map(|(c, n)| (c.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
            "errors": self.errors,
            "files_from_cache": self.cached,
            "seconds": self.elapsed.as_secs_f64(),
            "median_method_ms": self.median_method.as_secs_f64() * 1000.0,
        })
    }
}

fn lsp_range(s: Pos, e: Pos) -> Value {
    json!({"start": {"line": s.line, "character": s.character}, "end": {"line": e.line, "character": e.character}})
}

fn json_report(diags: &[&Diag], summary: &Summary) -> Value {
    let ds: Vec<Value> = diags
        .iter()
        .map(|d| {
            json!({
                "file": d.file,
                "range": lsp_range(d.start, d.end),
                "severity": "warning",
                "code": d.code,
                "source": "jreach",
                "message": d.message,
                "tags": if d.code == UNREACHABLE_CODE { vec!["unnecessary"] } else { vec![] },
                "relatedInformation": d.related.iter().map(|(s, e, m)| json!({
                    "location": {"file": d.file, "uri": file_uri(&d.file), "range": lsp_range(*s, *e)},
                    "message": m,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({"diagnostics": ds, "summary": summary.json()})
}

/// The rules jreach reports, in SARIF's `rules` order.
const RULES: [(&str, &str, &str); 3] = [
    (
        UNREACHABLE_CODE,
        "Unreachable code",
        "No input can make these statements run (proved over an over-approximation of the method).",
    ),
    (CONDITION_ALWAYS_FALSE, "Condition always false", "The condition is false every time it is evaluated."),
    (CONDITION_ALWAYS_TRUE, "Condition always true", "The condition is true every time it is evaluated."),
];

fn sarif_region(s: Pos, e: Pos) -> Value {
    json!({"startLine": s.line + 1, "startColumn": s.character + 1, "endLine": e.line + 1, "endColumn": e.character + 1})
}

fn sarif_report(diags: &[&Diag], summary: &Summary) -> Value {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|(id, name, text)| {
            json!({
                "id": id,
                "name": name.replace(' ', ""),
                "shortDescription": {"text": name},
                "fullDescription": {"text": text},
                "defaultConfiguration": {"level": "warning"},
            })
        })
        .collect();
    let results: Vec<Value> = diags
        .iter()
        .map(|d| {
            let uri = file_uri(&d.file);
            json!({
                "ruleId": d.code,
                "ruleIndex": RULES.iter().position(|r| r.0 == d.code).unwrap_or(0),
                "level": "warning",
                "message": {"text": d.message},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": uri},
                    "region": sarif_region(d.start, d.end),
                }}],
                "relatedLocations": d.related.iter().enumerate().map(|(i, (s, e, m))| json!({
                    "id": i,
                    "message": {"text": m},
                    "physicalLocation": {"artifactLocation": {"uri": uri}, "region": sarif_region(*s, *e)},
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    sarif_log(rules, results, summary.errors == 0, summary.json())
}

/// A SARIF 2.1.0 log of one jreach run: its rules, results, whether it went through, and the
/// summary as the run's properties.
pub(crate) fn sarif_log(rules: Vec<Value>, results: Vec<Value>, successful: bool, properties: Value) -> Value {
    json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {"driver": {
                "name": "jreach",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/jreach/jreach",
                "rules": rules,
            }},
            "columnKind": "utf16CodeUnits",
            "results": results,
            "invocations": [{"executionSuccessful": successful}],
            "properties": properties,
        }],
    })
}

/// A `file://` URI for an absolute path (reserved characters percent-encoded).
pub(crate) fn file_uri(path: &str) -> String {
    let mut s = String::from("file://");
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

fn abs(p: &Path) -> String {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()).display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(file_uri("/a b/C#.java"), "file:///a%20b/C%23.java");
    }
}
