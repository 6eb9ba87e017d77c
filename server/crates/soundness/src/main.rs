//! `jreach-soundness --methods N --jvm-sample K --seed S`: generates N random methods (from index
//! `--first`, each seeded by the seed and its index), checks each
//! with `jreach check`'s engine, runs it on random inputs in the interpreter (and K of them on the
//! JVM), and prints the counts. Exit status 1 when any finding was refuted.
//!
//! `jreach-soundness oracle --src DIR --classes DIR [...]`: the execution oracle on a real source
//! tree (see [`jreach_soundness::oracle`]): every `unreachable-code` finding's method is driven on
//! the JVM under JaCoCo. Exit status 1 when a line reported dead ran, 2 on bad input.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use jreach_soundness::oracle;
use jreach_soundness::{soundness_run, RunOptions};

const ORACLE_USAGE: &str = "usage: jreach-soundness oracle --src DIR --classes DIR [--findings CHECK_JSON] \
[--seconds S (2)] [--seed N (1)] [--timeout Q (10, solver seconds per query)] [--work DIR] [--batch M (50)] \
[--cp EXTRA_CLASSPATH]";

/// `jreach-soundness oracle ...`: parses the options, runs the oracle, prints the report.
fn oracle_main(args: &[String]) -> ! {
    let fail = |msg: &str| -> ! {
        eprintln!("{msg}\n{ORACLE_USAGE}");
        std::process::exit(2);
    };
    let mut opts = oracle::Options::default();
    let mut i = 0;
    while i < args.len() {
        let Some(val) = args.get(i + 1) else { fail(&format!("{} needs a value", args[i])) };
        let num = |what: &str| -> f64 {
            val.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .unwrap_or_else(|| fail(&format!("{what} {val}: not a number")))
        };
        match args[i].as_str() {
            "--src" => opts.src = PathBuf::from(val),
            "--classes" => opts.classes = PathBuf::from(val),
            "--findings" => opts.findings = Some(PathBuf::from(val)),
            "--seconds" => opts.seconds = num("--seconds"),
            "--seed" => opts.seed = val.parse().unwrap_or_else(|_| fail(&format!("--seed {val}: not an integer"))),
            "--timeout" => opts.timeout = Duration::from_secs_f64(num("--timeout")),
            "--work" => opts.work = Some(PathBuf::from(val)),
            "--batch" => opts.batch = (num("--batch") as usize).max(1),
            "--cp" => opts.classpath.extend(std::env::split_paths(val)),
            other => fail(&format!("unknown option {other}")),
        }
        i += 2;
    }
    if opts.src.as_os_str().is_empty() || opts.classes.as_os_str().is_empty() {
        fail("--src and --classes are required");
    }
    let start = Instant::now();
    match oracle::run(&opts) {
        Ok(report) => {
            print!("{}", report.render(&opts.src));
            println!("oracle: {:.1} s", start.elapsed().as_secs_f64());
            std::process::exit(if report.violations().is_empty() { 0 } else { 1 });
        }
        Err(e) => {
            eprintln!("jreach-soundness oracle: {e}");
            std::process::exit(2);
        }
    }
}

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    if all.first().is_some_and(|a| a == "oracle") {
        oracle_main(&all[1..]);
    }
    let mut opts = RunOptions {
        methods: 1000,
        first: 0,
        trace: false,
        save: None,
        jvm_sample: 20,
        sampled_only: false,
        seed: 1,
        runs_per_method: 32,
        size: 16,
        timeout: Duration::from_secs(5),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut show = 5usize;
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--sampled-only" {
            opts.sampled_only = true;
            i += 1;
            continue;
        }
        if args[i] == "--save" {
            let Some(dir) = args.get(i + 1) else {
                eprintln!("--save needs a directory");
                std::process::exit(2);
            };
            if let Err(e) = std::fs::create_dir_all(dir) {
                eprintln!("--save {dir}: {e}");
                std::process::exit(2);
            }
            opts.save = Some(PathBuf::from(dir));
            i += 2;
            continue;
        }
        let val = args.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        let Some(v) = val else {
            eprintln!("usage: jreach-soundness [--methods N] [--first I] [--trace 0|1] [--save DIR] [--jvm-sample K] [--sampled-only] [--seed S] [--runs R] [--size Z] [--timeout-ms T] [--show V]");
            std::process::exit(2);
        };
        match args[i].as_str() {
            "--methods" => opts.methods = v,
            "--first" => opts.first = v,
            "--trace" => opts.trace = v != 0,
            "--jvm-sample" => opts.jvm_sample = v,
            "--seed" => opts.seed = v,
            "--runs" => opts.runs_per_method = v as usize,
            "--size" => opts.size = v as i32,
            "--timeout-ms" => opts.timeout = Duration::from_millis(v),
            "--show" => show = v as usize,
            other => {
                eprintln!("unknown option {other}");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    let start = Instant::now();
    let total = opts.methods;
    let (stats, violations) = soundness_run(&opts, &|n, s| {
        eprintln!(
            "{n}/{total} methods, {:.0} s: {} statements, {} verdicts, {} no verdict, {} unreachable + {} condition findings, {} executed statements checked, {} violations",
            start.elapsed().as_secs_f64(),
            s.statements,
            s.verdicts,
            s.no_verdict,
            s.unreachable_findings,
            s.condition_findings,
            s.executed_checked,
            s.violations
        );
    });
    for v in violations.iter().take(show) {
        println!(
            "VIOLATION in {}: {} ({:?}: {}) on inputs ({})",
            v.class,
            v.observed,
            v.finding.range,
            v.finding.message(&jreach_syntax::LineIndex::new(&v.source)),
            v.inputs.join(", ")
        );
        println!("{}", v.source);
    }
    println!("seed {}: {:.1} s", opts.seed, start.elapsed().as_secs_f64());
    println!("{stats:#?}");
    if stats.violations + stats.jvm_violations > 0 {
        std::process::exit(1);
    }
}
