//! Times `gen` in-process (no JVM, no compilation of the generated test) on every target line of
//! a corpus: each line of a `.java` file under the given directories that carries `// @reach` or
//! `// @unreachable` is solved `--repeat K` times (default 5). Prints each target's median, then
//! the overall median and p95 of the per-target medians and the counts of outcomes, and flags
//! answers that contradict a label. Parsing is done once per file and is not timed.
//!
//! With `--chains` it also prints the scaling table of the generated chain methods (see
//! `benches/common/chain.rs`): for N = 10 … 1000 the shared engine's medians on the reachable and
//! the unreachable target, the naive (reference) engine's, or the reason it gave up, and the ratio.
//!
//! ```text
//! cargo run --release -p jreach-ide --example bench_corpus -- DIR... [--repeat K] [--chains]
//!     [--timeout SECS]
//! ```

#[path = "../benches/common/chain.rs"]
mod chain;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use jreach_ide::{gen, Engine, GenOptions, GenResult};
use jreach_syntax::SourceFile;

struct Args {
    dirs: Vec<PathBuf>,
    repeat: usize,
    chains: bool,
    timeout: Duration,
}

const USAGE: &str = "usage: bench_corpus DIR... [--repeat K] [--chains] [--timeout SECS]";

fn parse_args() -> Result<Args, String> {
    let mut args = Args { dirs: vec![], repeat: 5, chains: false, timeout: GenOptions::default().timeout };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--repeat" => {
                let k = it.next().ok_or("--repeat needs a number")?;
                args.repeat = k.parse().ok().filter(|&k| k > 0).ok_or(format!("--repeat: bad number {k:?}"))?;
            }
            "--timeout" => {
                let s = it.next().ok_or("--timeout needs seconds")?;
                let secs: f64 = s.parse().ok().filter(|&s| s > 0.0).ok_or(format!("--timeout: bad number {s:?}"))?;
                args.timeout = Duration::from_secs_f64(secs);
            }
            "--chains" => args.chains = true,
            "-h" | "--help" => return Err(USAGE.to_string()),
            _ if a.starts_with("--") => return Err(format!("unknown option {a}\n{USAGE}")),
            _ => args.dirs.push(PathBuf::from(a)),
        }
    }
    if args.dirs.is_empty() && !args.chains {
        return Err(USAGE.to_string());
    }
    Ok(args)
}

/// What one `gen` answered.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Test,
    Unreachable,
    Unknown,
    Error,
}

impl Outcome {
    fn name(self) -> &'static str {
        match self {
            Outcome::Test => "test",
            Outcome::Unreachable => "unreachable",
            Outcome::Unknown => "unknown",
            Outcome::Error => "error",
        }
    }
}

/// One timed run: the outcome, its detail (the reason for unknown/error) and the time.
fn run_once(file: &SourceFile, line: usize, opts: &GenOptions) -> (Outcome, String, Duration) {
    let started = Instant::now();
    let result = gen(file, line, opts);
    let took = started.elapsed();
    let (outcome, why) = match result {
        Ok(GenResult::Test(_)) => (Outcome::Test, String::new()),
        Ok(GenResult::Unreachable(_)) => (Outcome::Unreachable, String::new()),
        Ok(GenResult::Unknown(why)) => (Outcome::Unknown, why.why),
        Err(e) => (Outcome::Error, e.to_string()),
    };
    (outcome, why, took)
}

/// `repeat` runs; the last outcome, whether all runs agreed, and the median time.
fn run_repeated(file: &SourceFile, line: usize, opts: &GenOptions, repeat: usize) -> (Outcome, String, bool, Duration) {
    let mut times = Vec::with_capacity(repeat);
    let mut outcomes = Vec::with_capacity(repeat);
    let mut why = String::new();
    for _ in 0..repeat {
        let (o, w, t) = run_once(file, line, opts);
        outcomes.push(o);
        why = w;
        times.push(t);
    }
    let stable = outcomes.iter().all(|&o| o == outcomes[0]);
    (outcomes[repeat - 1], why, stable, median(&mut times))
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    let n = times.len();
    if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2
    }
}

/// Nearest-rank percentile `p` (0..=100) of `times`.
fn percentile(times: &mut [Duration], p: usize) -> Duration {
    times.sort();
    let rank = (p * times.len()).div_ceil(100).max(1);
    times[rank - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn java_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        if p.is_dir() {
            java_files(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "java") {
            out.push(p);
        }
    }
    Ok(())
}

/// The label of a target line: `Some(true)` for `// @reach`, `Some(false)` for `// @unreachable`.
fn label(line: &str) -> Option<bool> {
    if line.contains("// @unreachable") {
        Some(false)
    } else if line.contains("// @reach") {
        Some(true)
    } else {
        None
    }
}

fn corpus(args: &Args, opts: &GenOptions) -> Result<(), String> {
    let mut files = vec![];
    for d in &args.dirs {
        java_files(d, &mut files).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let mut medians = vec![];
    let mut answered = vec![];
    let mut counts = [0usize; 4];
    let mut contradictions = vec![];
    let started = Instant::now();
    println!("{:>10}  {:<11}  {:<11}  target", "median ms", "outcome", "label");
    for path in &files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = SourceFile::parse(text.clone());
        for (line0, line) in text.lines().enumerate() {
            let Some(reach) = label(line) else { continue };
            let (outcome, why, stable, med) = run_repeated(&file, line0, opts, args.repeat);
            medians.push(med);
            if matches!(outcome, Outcome::Test | Outcome::Unreachable) {
                answered.push(med);
            }
            counts[outcome as usize] += 1;
            let where_ = format!("{}:{}", path.display(), line0 + 1);
            let label = if reach { "@reach" } else { "@unreachable" };
            let mut note = if why.is_empty() { String::new() } else { format!("  ({why})") };
            if !stable {
                note.push_str("  [outcome varied between runs]");
            }
            println!("{:>10.1}  {:<11}  {:<11}  {where_}{note}", ms(med), outcome.name(), label);
            if (reach && outcome == Outcome::Unreachable) || (!reach && outcome == Outcome::Test) {
                contradictions.push(format!("{where_}: labelled {label}, answered {}", outcome.name()));
            }
        }
    }
    if medians.is_empty() {
        return Err("no target lines (// @reach, // @unreachable) found".into());
    }
    let total = medians.len();
    let (med, p95, max) =
        (median(&mut medians.clone()), percentile(&mut medians.clone(), 95), *medians.iter().max().unwrap());
    println!();
    println!(
        "{total} targets in {} files, {} runs each, {:.1} s wall",
        files.len(),
        args.repeat,
        started.elapsed().as_secs_f64()
    );
    println!("per-target median: median {:.1} ms, p95 {:.1} ms, max {:.1} ms", ms(med), ms(p95), ms(max));
    if !answered.is_empty() {
        println!(
            "answered targets only (test or unreachable, {}): median {:.1} ms, p95 {:.1} ms",
            answered.len(),
            ms(median(&mut answered.clone())),
            ms(percentile(&mut answered, 95))
        );
    }
    println!(
        "outcomes: test {}, unreachable {}, unknown {}, error {}",
        counts[Outcome::Test as usize],
        counts[Outcome::Unreachable as usize],
        counts[Outcome::Unknown as usize],
        counts[Outcome::Error as usize]
    );
    if contradictions.is_empty() {
        println!("answers contradicting a label: none");
    } else {
        println!("answers contradicting a label: {}", contradictions.len());
        for c in &contradictions {
            println!("  {c}");
        }
    }
    Ok(())
}

/// A table cell: the median, or why the engine gave up (with how long giving up took).
fn cell(outcome: Outcome, why: &str, med: Duration, expected: Outcome) -> String {
    if outcome == expected {
        format!("{:.1}", ms(med))
    } else if outcome == Outcome::Unknown && why.contains("budget") {
        format!("budget@{:.0}ms", ms(med))
    } else if outcome == Outcome::Unknown && why.contains("timed out") {
        format!("timeout@{:.0}ms", ms(med))
    } else {
        format!("{}?{:.0}ms", outcome.name(), ms(med))
    }
}

fn ratio(naive: (Outcome, Duration), shared: (Outcome, Duration), expected: Outcome) -> String {
    if naive.0 == expected && shared.0 == expected && !shared.1.is_zero() {
        format!("{:.1}x", naive.1.as_secs_f64() / shared.1.as_secs_f64())
    } else {
        "-".into()
    }
}

/// Timings of one chain: per engine (shared, naive) and target (reach, unreach), the outcome and
/// median, with why an engine gave up.
struct ChainRow {
    n: usize,
    lines: usize,
    cells: [(Outcome, String, Duration); 4],
}

const EXPECTED: [Outcome; 4] = [Outcome::Test, Outcome::Unreachable, Outcome::Test, Outcome::Unreachable];

fn chain_row(n: usize, args: &Args, opts: &GenOptions) -> ChainRow {
    let c = chain::chain(n);
    let file = SourceFile::parse(c.text.clone());
    let shared = GenOptions { engine: Engine::Shared, ..opts.clone() };
    let naive = GenOptions { engine: Engine::Naive, ..opts.clone() };
    let runs = [(&shared, c.reach_line), (&shared, c.unreach_line), (&naive, c.reach_line), (&naive, c.unreach_line)];
    let cells = std::array::from_fn(|i| {
        let (opts, line) = runs[i];
        // One probe; repeat only what answered (an engine that gives up is timed once).
        let (o, why, t) = run_once(&file, line, opts);
        if o == EXPECTED[i] && args.repeat > 1 {
            let (o, why, _, med) = run_repeated(&file, line, opts, args.repeat);
            (o, why, med)
        } else {
            (o, why, t)
        }
    });
    ChainRow { n: c.n, lines: c.text.lines().count(), cells }
}

fn print_header() {
    println!(
        "{:>5} {:>6} | {:>14} {:>14} | {:>14} {:>14} | {:>10} {:>10}",
        "N", "lines", "shared reach", "shared unreach", "naive reach", "naive unreach", "n/s reach", "n/s unrch"
    );
}

fn print_row(row: &ChainRow) {
    let cell = |i: usize| cell(row.cells[i].0, &row.cells[i].1, row.cells[i].2, EXPECTED[i]);
    let pair = |i: usize| (row.cells[i].0, row.cells[i].2);
    println!(
        "{:>5} {:>6} | {:>14} {:>14} | {:>14} {:>14} | {:>10} {:>10}",
        row.n,
        row.lines,
        cell(0),
        cell(1),
        cell(2),
        cell(3),
        ratio(pair(2), pair(0), EXPECTED[2]),
        ratio(pair(3), pair(1), EXPECTED[3])
    );
}

fn chains(args: &Args, opts: &GenOptions) {
    println!();
    println!("gen_chain scaling (median of {} runs, ms; an engine that gives up is timed once)", args.repeat);
    print_header();
    let mut odd = vec![];
    for n in chain::SIZES {
        let row = chain_row(n, args, opts);
        print_row(&row);
        for (i, (o, why, _)) in row.cells.iter().enumerate() {
            let budget = *o == Outcome::Unknown && why.contains("budget") && i >= 2;
            if *o != EXPECTED[i] && !budget {
                odd.push(format!(
                    "N={n} {}: {} ({why})",
                    ["shared reach", "shared unreach", "naive reach", "naive unreach"][i],
                    o.name()
                ));
            }
        }
    }
    for o in &odd {
        println!("  unexpected: {o}");
    }

    // Where the reference engine stops answering: N = 1, 2, … until both its targets gave up.
    println!();
    println!("naive engine range (N = 1, 2, … until it gives up on both targets)");
    print_header();
    let mut gave_up: [Option<(usize, String)>; 2] = [None, None];
    for n in 1..=64 {
        let row = chain_row(n, args, opts);
        print_row(&row);
        for t in 0..2 {
            let (o, why, _) = &row.cells[2 + t];
            if gave_up[t].is_none() && *o != EXPECTED[2 + t] {
                gave_up[t] = Some((n, format!("{}: {why}", o.name())));
            }
        }
        if gave_up.iter().all(Option::is_some) {
            break;
        }
    }
    for (t, name) in ["reach", "unreach"].iter().enumerate() {
        match &gave_up[t] {
            Some((n, why)) => println!("naive {name}: first gives up at N = {n} ({why})"),
            None => println!("naive {name}: answered up to N = 64"),
        }
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let opts = GenOptions { timeout: args.timeout, ..GenOptions::default() };
    if !args.dirs.is_empty() {
        if let Err(e) = corpus(&args, &opts) {
            eprintln!("bench_corpus: {e}");
            return ExitCode::FAILURE;
        }
    }
    if args.chains {
        chains(&args, &opts);
    }
    ExitCode::SUCCESS
}
