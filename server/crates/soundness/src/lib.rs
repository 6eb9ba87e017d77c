//! Soundness testing of `jreach check`: a finding is a claim about every run of a method, so any
//! run that executes a statement reported unreachable, or evaluates a condition reported constant
//! to the other value, refutes it.
//!
//! [`gen`] writes random methods over the modelled subset; [`check_generated`] runs `check_file` on
//! one and then executes it on many inputs with the concrete interpreter (on a synthesis lowering
//! with a loop bound no generated loop reaches); [`jvm`] runs an instrumented copy of a sample on
//! the real JVM. Every executed statement is compared against the findings of every method of the
//! file: a statement of `m`, and one of a method `m` calls, which runs inside `m`'s lowering (its
//! static helpers, and the constructors and methods of the nested class of the class-invariant
//! feature on the objects `m` creates, are inlined there at their own offsets) and is marked with
//! its own `hit(N)` in the JVM's copy. So a statement of `Pool.check()` that `check` claims
//! unreachable is refuted by any run of `m` that reaches it through `q0.check()`.

pub mod gen;
pub mod jvm;
pub mod oracle;

use std::time::Duration;

use jreach_ide::{
    check_file, with_own_solver_context, Finding, MethodVerdict, CONDITION_ALWAYS_FALSE, CONDITION_ALWAYS_TRUE,
    UNREACHABLE_CODE,
};
use jreach_ir::interp::{run, End, Value};
use jreach_ir::lower::{lower_method, LowerOptions};
use jreach_ir::{LowerMode, Ty};
use jreach_syntax::{MethodInfo, SourceFile};

use gen::{Generated, JTy, Rng};

/// Counts of one or many checked methods.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub methods: u64,
    pub statements: u64,
    /// Methods of the generated classes (helpers included) that got a verdict.
    pub verdicts: u64,
    pub no_verdict: u64,
    pub unreachable_findings: u64,
    pub condition_findings: u64,
    pub runs: u64,
    /// Runs the interpreter could not finish (a value it does not know decided a branch, or an
    /// input it was not given): what they executed up to there is still checked.
    pub runs_unfinished: u64,
    /// Executed statements compared against the findings (with repetitions over runs).
    pub executed_checked: u64,
    /// Evaluated conditions compared against constant-condition findings.
    pub conditions_checked: u64,
    /// Classes with a nested class of the class-invariant feature ([`gen`]'s module doc).
    pub nested_classes: u64,
    /// `unreachable-code` findings inside those nested classes.
    pub nested_unreachable_findings: u64,
    /// Executed statements of the nested classes' constructors and methods among
    /// `executed_checked`.
    pub nested_executed_checked: u64,
    pub violations: u64,
    pub jvm_methods: u64,
    pub jvm_runs: u64,
    pub jvm_executed_checked: u64,
    /// Executed statements of the nested classes among `jvm_executed_checked`.
    pub jvm_nested_executed_checked: u64,
    pub jvm_violations: u64,
    /// Statements the JVM executed that the interpreter did not, on a run the interpreter
    /// completed (a disagreement between lowering and Java, not a wrong finding by itself).
    pub jvm_interp_mismatches: u64,
}

impl Stats {
    pub fn add(&mut self, o: &Stats) {
        self.methods += o.methods;
        self.statements += o.statements;
        self.verdicts += o.verdicts;
        self.no_verdict += o.no_verdict;
        self.unreachable_findings += o.unreachable_findings;
        self.condition_findings += o.condition_findings;
        self.runs += o.runs;
        self.runs_unfinished += o.runs_unfinished;
        self.executed_checked += o.executed_checked;
        self.conditions_checked += o.conditions_checked;
        self.nested_classes += o.nested_classes;
        self.nested_unreachable_findings += o.nested_unreachable_findings;
        self.nested_executed_checked += o.nested_executed_checked;
        self.violations += o.violations;
        self.jvm_methods += o.jvm_methods;
        self.jvm_runs += o.jvm_runs;
        self.jvm_executed_checked += o.jvm_executed_checked;
        self.jvm_nested_executed_checked += o.jvm_nested_executed_checked;
        self.jvm_violations += o.jvm_violations;
        self.jvm_interp_mismatches += o.jvm_interp_mismatches;
    }
}

/// A refuted finding.
#[derive(Clone, Debug)]
pub struct Violation {
    pub class: String,
    pub source: String,
    pub inputs: Vec<String>,
    pub finding: Finding,
    /// What was observed, e.g. "executed `x = 1;`".
    pub observed: String,
}

/// The outcome of checking one generated class.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub stats: Stats,
    pub violations: Vec<Violation>,
    /// Statement ids each input executed in the interpreter, and whether that run completed.
    pub interp_hits: Vec<(Vec<usize>, bool)>,
    pub inputs: Vec<Vec<Value>>,
    pub findings: Vec<Finding>,
}

/// Random inputs for parameters of the given types: boundary values and small numbers first.
pub fn inputs(rng: &mut Rng, params: &[JTy], n: usize) -> Vec<Vec<Value>> {
    const INTS: [i64; 9] = [0, 1, -1, 2, 3, 4, -5, i32::MAX as i64, i32::MIN as i64];
    (0..n)
        .map(|k| {
            params
                .iter()
                .map(|t| match t {
                    JTy::Bool => Value::Bool(rng.below(2) == 1),
                    JTy::Str => gen::text_input(rng).map_or(Value::Null, Value::Str),
                    JTy::Int | JTy::Long => {
                        let ty = if *t == JTy::Int { Ty::Int } else { Ty::Long };
                        let v = match rng.below(10) {
                            _ if k == 0 => 0,
                            0..=3 => INTS[rng.below(INTS.len() as u64) as usize],
                            4..=7 => rng.range(-8, 8),
                            8 => rng.range(-1000, 1000),
                            _ => rng.next_u64() as i64,
                        };
                        Value::int(ty, v)
                    }
                })
                .collect()
        })
        .collect()
}

/// Checks one generated class: `check_file`, then `runs` concrete runs of `m` ([`confront`]).
/// The check has a solver context of its own, as each file of `jreach check` and each job of the
/// language server have: a run of thousands of classes on one thread's context crashed inside
/// libz3 after 1,000 to 3,800 of them.
pub fn check_generated(g: &Generated, rng: &mut Rng, runs: usize, timeout: Duration) -> Outcome {
    let file = SourceFile::parse(g.source.as_str());
    let report = with_own_solver_context(|| check_file(&file, timeout));
    let mut out = confront(g, report.findings, rng, runs);
    for (_, v) in &report.methods {
        match v {
            MethodVerdict::Verdict => out.stats.verdicts += 1,
            MethodVerdict::NoVerdict(_) => out.stats.no_verdict += 1,
        }
    }
    out
}

/// Runs `m` on `runs` random inputs in the interpreter and confronts `findings` (`check`'s, or
/// planted ones in tests) with every statement and condition the runs executed: those of `m`
/// and those of the methods the lowering of `m` inlines (the static helpers, and the
/// constructors and methods of the nested class on the objects `m` creates), since an inlined
/// statement begins in a block of `m`'s lowering at its own offset in the file.
pub fn confront(g: &Generated, findings: Vec<Finding>, rng: &mut Rng, runs: usize) -> Outcome {
    let file = SourceFile::parse(g.source.as_str());
    let mut stats = Stats {
        methods: 1,
        statements: g.stmts.len() as u64,
        nested_classes: g.nested.is_some() as u64,
        ..Stats::default()
    };
    stats.unreachable_findings = findings.iter().filter(|f| f.code() == UNREACHABLE_CODE).count() as u64;
    stats.condition_findings = findings.len() as u64 - stats.unreachable_findings;
    stats.nested_unreachable_findings =
        findings.iter().filter(|f| f.code() == UNREACHABLE_CODE && g.in_nested(f.range.start)).count() as u64;
    let mut out = Outcome { stats, violations: vec![], interp_hits: vec![], inputs: vec![], findings };
    let Some(m) = MethodInfo::all(&file).into_iter().find(|m| m.name == "m") else { return out };
    let f = lower_method(&file, &m, &LowerOptions { mode: LowerMode::Synthesis { unroll: 6 }, ..Default::default() });
    let args_list = inputs(rng, &g.params, runs);
    for args in &args_list {
        let r = run(&f, &with_statics(&f, args), 1_000_000);
        out.stats.runs += 1;
        if matches!(r.end, End::Unknown(_)) {
            out.stats.runs_unfinished += 1;
        }
        let mut starts: Vec<usize> = r.blocks.iter().flat_map(|b| f.block(*b).stmts.iter().copied()).collect();
        starts.sort();
        starts.dedup();
        let mut ids = Vec::new();
        for s in &starts {
            if let Some(id) = g.stmts.iter().position(|r| r.start == *s) {
                ids.push(id);
            }
            out.stats.executed_checked += 1;
            let nested = g.in_nested(*s);
            if nested {
                out.stats.nested_executed_checked += 1;
            }
            if let Some(fd) = out.findings.iter().find(|fd| fd.code() == UNREACHABLE_CODE && fd.range.contains(s)) {
                let text = g.source[*s..].lines().next().unwrap_or("").to_string();
                let place = if nested { " in the nested class" } else { "" };
                out.violations.push(violation(g, args, fd, format!("the interpreter executed `{text}`{place}")));
            }
        }
        for (origin, value) in &r.decisions {
            for fd in out.findings.iter().filter(|fd| fd.range == origin.span) {
                out.stats.conditions_checked += 1;
                let refuted =
                    (fd.code() == CONDITION_ALWAYS_FALSE && *value) || (fd.code() == CONDITION_ALWAYS_TRUE && !*value);
                if refuted {
                    out.violations.push(violation(
                        g,
                        args,
                        fd,
                        format!("the interpreter saw `{}` be {value}", origin.text),
                    ));
                }
            }
        }
        let completed = matches!(r.end, End::Return(_) | End::Throw(_));
        out.interp_hits.push((ids, completed));
    }
    out.stats.violations = out.violations.len() as u64;
    out.inputs = args_list;
    out
}

/// `args` followed by the values the lowering's other inputs have when `m` starts: the static
/// fields it reads (`F`), at their defaults as a fresh class has them (every generated method
/// that reads one sets it before).
fn with_statics(f: &jreach_ir::Function, args: &[Value]) -> Vec<Value> {
    let mut all = args.to_vec();
    for p in f.params.iter().skip(args.len()) {
        // An input takes a null reference as `Null` (`interp::default_value` gives array and
        // object references as the ids a running method holds).
        all.push(match p.ty {
            Ty::Arr(_) | Ty::Obj(_) => Value::Null,
            t => jreach_ir::interp::default_value(t),
        });
    }
    all
}

fn violation(g: &Generated, args: &[Value], fd: &Finding, observed: String) -> Violation {
    Violation {
        class: g.class.clone(),
        source: g.source.clone(),
        inputs: args.iter().map(|a| a.to_string()).collect(),
        finding: fd.clone(),
        observed,
    }
}

/// Options of a soundness run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub methods: u64,
    /// The index of the first method: methods `first..first + methods` are generated, so a run
    /// can be resumed or one method replayed (`--first I --methods 1`).
    pub first: u64,
    /// Print each method's index to stderr as it starts (to find the method a crash came from).
    pub trace: bool,
    /// Write each generated class to `DIR/G<index>.java` before checking it.
    pub save: Option<std::path::PathBuf>,
    pub jvm_sample: u64,
    /// Check only the methods that go to the JVM (every `methods / jvm_sample`-th): replays a
    /// run's JVM sample without the rest.
    pub sampled_only: bool,
    pub seed: u64,
    pub runs_per_method: usize,
    pub size: i32,
    pub timeout: Duration,
}

/// The stack of each worker thread (as `jreach check`'s).
const WORKER_STACK: usize = 256 << 20;

/// Generates and checks `opts.methods` classes (in parallel), runs a sample on the JVM, and
/// returns the counts and the violations. `progress` is called every 1000 methods with the number
/// done and the counts so far; violations are printed to stderr as they are found.
pub fn soundness_run(opts: &RunOptions, progress: &(dyn Fn(u64, &Stats) + Sync)) -> (Stats, Vec<Violation>) {
    use rayon::prelude::*;
    use std::sync::Mutex;
    let every = opts.methods.checked_div(opts.jvm_sample).map_or(u64::MAX, |e| e.max(1));
    let acc: Mutex<(Stats, Vec<Violation>, Vec<jvm::Sample>)> = Mutex::new(Default::default());
    // The stacks `check` gives its workers: lowering and z3 recurse deeply on large methods (with
    // rayon's default 2 MiB, z3 overflowed one on a method with unrolled loops: a segfault).
    let pool = rayon::ThreadPoolBuilder::new().stack_size(WORKER_STACK).build().expect("a thread pool");
    pool.install(|| {
        (opts.first..opts.first + opts.methods).into_par_iter().for_each(|i| {
            let sampled = (i - opts.first) % every == 0 && (i - opts.first) / every < opts.jvm_sample;
            if opts.sampled_only && !sampled {
                return;
            }
            if opts.trace {
                eprintln!("start G{i}");
            }
            let mut rng = Rng::new(opts.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ i);
            let size = 4 + rng.below(opts.size.max(1) as u64) as i32;
            let g = gen::generate(&mut rng, &format!("G{i}"), size);
            if let Some(dir) = &opts.save {
                if let Err(e) = std::fs::write(dir.join(format!("G{i}.java")), &g.source) {
                    eprintln!("cannot save G{i}.java in {}: {e}", dir.display());
                }
            }
            let o = check_generated(&g, &mut rng, opts.runs_per_method, opts.timeout);
            let sample = sampled.then(|| jvm::Sample::from_outcome(&g, &o));
            let mut a = acc.lock().unwrap_or_else(|e| e.into_inner());
            a.0.add(&o.stats);
            for v in &o.violations {
                eprintln!(
                    "VIOLATION in {}: {} on ({}): {}\n{}",
                    v.class,
                    v.observed,
                    v.inputs.join(", "),
                    v.finding.message(&jreach_syntax::LineIndex::new(&v.source)),
                    v.source
                );
            }
            a.1.extend(o.violations);
            a.2.extend(sample);
            if a.0.methods.is_multiple_of(1000) {
                progress(a.0.methods, &a.0);
            }
        })
    });
    let (mut stats, mut violations, samples) = acc.into_inner().unwrap_or_else(|e| e.into_inner());
    if !samples.is_empty() {
        match jvm::run_samples(&samples) {
            Ok((s, v)) => {
                stats.add(&s);
                violations.extend(v);
            }
            Err(e) => eprintln!("jvm sample skipped: {e}"),
        }
    }
    (stats, violations)
}
