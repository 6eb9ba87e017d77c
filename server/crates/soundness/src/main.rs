//! `jreach-soundness --methods N --jvm-sample K --seed S`: generates N random methods, checks each
//! with `jreach check`'s engine, runs it on random inputs in the interpreter (and K of them on the
//! JVM), and prints the counts. Exit status 1 when any finding was refuted.

use std::time::{Duration, Instant};

use jreach_soundness::{soundness_run, RunOptions};

fn main() {
    let mut opts = RunOptions {
        methods: 1000,
        jvm_sample: 20,
        seed: 1,
        runs_per_method: 32,
        size: 16,
        timeout: Duration::from_secs(5),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut show = 5usize;
    let mut i = 0;
    while i < args.len() {
        let val = args.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        let Some(v) = val else {
            eprintln!("usage: jreach-soundness [--methods N] [--jvm-sample K] [--seed S] [--runs R] [--size Z] [--timeout-ms T] [--show V]");
            std::process::exit(2);
        };
        match args[i].as_str() {
            "--methods" => opts.methods = v,
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
            v.finding.message,
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
