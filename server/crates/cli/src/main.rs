//! The `jreach` command line: `gen` (a test reaching a line, or a proof it cannot run), `check`
//! (provably dead statements of files and trees), `fill` (the statements a coverage report or a
//! change leaves uncovered, each answered like `gen`), `lsp` and `dump` (the IR of a method).
//!
//! Exit codes of `gen` are a contract (see DESIGN.md): 0 test written, 3 proved unreachable,
//! 4 unknown, 1 error, 2 usage or parse error.

mod changes;
mod check_cache;
mod check_cmd;
mod check_timings;
mod dump_cmd;
mod fill_cmd;
mod fill_report;
mod gen_cmd;
mod input;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(name = "jreach", version, about = "JUnit tests that reach any Java statement, or a proof that it cannot run")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Write every solver query of `check`, `gen` or `fill` that takes at least --slow-query-secs
    /// into DIR, as an SMT-LIB file that z3 replays (with the method, the question and the
    /// answer in its header): for studying time-outs.
    #[arg(long, global = true, value_name = "DIR")]
    slow_queries: Option<PathBuf>,
    /// The threshold of --slow-queries, in seconds.
    #[arg(long, global = true, value_name = "SECS", default_value_t = 1.0, requires = "slow_queries")]
    slow_query_secs: f64,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
pub(crate) enum JUnitArg {
    #[value(name = "4")]
    V4,
    #[value(name = "5")]
    V5,
}

impl From<JUnitArg> for jreach_synth::JUnit {
    fn from(j: JUnitArg) -> Self {
        match j {
            JUnitArg::V4 => jreach_synth::JUnit::V4,
            JUnitArg::V5 => jreach_synth::JUnit::V5,
        }
    }
}

#[derive(Copy, Clone, Debug, ValueEnum, PartialEq, Eq)]
enum EngineArg {
    /// Conditional definitions encoded with sharing (default).
    Shared,
    /// The reference resolution by substitution (exponential; for comparison).
    Naive,
}

#[derive(Copy, Clone, Debug, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
}

#[derive(Copy, Clone, Debug, ValueEnum, PartialEq, Eq)]
enum DumpMode {
    /// Loops unrolled for test synthesis.
    Synthesis,
    /// Loops abstracted for unreachability proofs.
    Over,
}

#[derive(Subcommand)]
enum Command {
    /// Write a JUnit test that reaches the statement on a line, or prove it can never run.
    Gen {
        /// The Java source file.
        file: PathBuf,
        /// 1-based line of the statement to reach.
        #[arg(long)]
        line: usize,
        /// Root folder for the test (package folders are created below it); default: the project's test sources.
        #[arg(long)]
        out: Option<PathBuf>,
        /// JUnit version (default: what the project uses, else 5).
        #[arg(long, value_enum)]
        junit: Option<JUnitArg>,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
        /// Resolution engine.
        #[arg(long, value_enum, default_value = "shared")]
        engine: EngineArg,
        /// Solver time limit per query, in seconds.
        #[arg(long, default_value_t = 10.0)]
        timeout: f64,
        /// Most loop iterations unrolled for synthesis (beyond 64 only in small methods).
        #[arg(long, default_value_t = jreach_ide::DEFAULT_UNROLL)]
        unroll: u32,
        /// Do not run the test on the JVM before writing it: only tests whose whole path jreach
        /// models are written, unverified.
        #[arg(long)]
        no_run: bool,
        /// Seconds a search on the JVM may take when jreach's model finds no test (code it does
        /// not model, long loops); 0 turns the search off.
        #[arg(long, value_name = "SECS", default_value_t = 5.0)]
        search: f64,
        /// Class path of the project's dependencies for running the test (`:`-separated), before
        /// what the build (Maven, lib/) provides.
        #[arg(long, value_name = "PATHS")]
        classpath: Option<std::ffi::OsString>,
    },
    /// Report statements that can never run.
    Check {
        /// Java files or folders (searched recursively for .java files).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Solver time limit per query, in seconds (a method gets twice that in all, at least 20). Proofs of
        /// dead code rarely need more than the default; longer queries are mostly about live
        /// code.
        #[arg(long, default_value_t = jreach_ide::DEFAULT_CHECK_TIMEOUT.as_secs_f64())]
        timeout: f64,
        /// Seconds all the methods of one file may take together; the methods after get no verdict.
        #[arg(long, default_value_t = 120.0)]
        file_budget: f64,
        /// Exit with status 1 when anything is found (for CI).
        #[arg(long)]
        fail_on_findings: bool,
        /// Print where the time went (per phase and the slowest methods) after the summary.
        #[arg(long)]
        timings: bool,
        /// Megabytes the solver may allocate in all (0: no limit). A query that takes the
        /// process past it gives up, and so do the other workers' queries while it lasts: fewer
        /// methods may get a verdict, and which ones depends on timing.
        #[arg(long, value_name = "MB", default_value_t = 0)]
        solver_memory: u32,
        /// Folder of the results cache (default: $XDG_CACHE_HOME/jreach/check or
        /// ~/.cache/jreach/check): a file whose text is unchanged since a run of the same jreach
        /// with the same --timeout is not checked again.
        #[arg(long, value_name = "DIR")]
        cache_dir: Option<PathBuf>,
        /// Check every file, neither reading nor writing the cache.
        #[arg(long, conflicts_with = "cache_dir")]
        no_cache: bool,
    },
    /// Give the statements no test runs a test, a proof that they are dead, or a reason: those
    /// a JaCoCo report shows uncovered, narrowed to a change (--diff) or to lines (--lines).
    Fill(fill_cmd::FillArgs),
    /// Run the language server on stdin/stdout (diagnostics, "Generate test reaching line N").
    Lsp,
    /// Print the IR of a method.
    Dump {
        file: PathBuf,
        /// Method name (the first method of that name).
        #[arg(long)]
        method: String,
        #[arg(long, value_enum, default_value = "synthesis")]
        mode: DumpMode,
        #[arg(long, default_value_t = 2)]
        unroll: u32,
        /// Synthesis: also offer the optional calls on created objects that `gen` tries second.
        #[arg(long)]
        setup_calls: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // For those working on jreach: `JREACH_LOG=jreach_jvm=debug` shows what a search on the JVM
    // runs (its harness, where it ends; `trace`: each place it steps from), on standard error.
    if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_env("JREACH_LOG") {
        use std::io::IsTerminal;
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_ansi(std::io::stderr().is_terminal())
            .without_time()
            .init();
    }
    if matches!(cli.command, Command::Gen { .. } | Command::Check { .. } | Command::Fill { .. }) {
        if let Some(w) = jreach_ide::solver_version_warning() {
            eprintln!("warning: {w}");
        }
    }
    if let Some(dir) = &cli.slow_queries {
        let at_least = match std::time::Duration::try_from_secs_f64(cli.slow_query_secs) {
            Ok(d) => d,
            Err(_) => {
                eprintln!("error: --slow-query-secs must be a number of seconds, not {}", cli.slow_query_secs);
                return ExitCode::from(2);
            }
        };
        if let Err(e) = jreach_ide::log_slow_queries(dir, at_least) {
            eprintln!("error: cannot create the folder for slow queries {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    }
    if let Command::Check { solver_memory, .. } = cli.command {
        jreach_ide::limit_solver_memory(solver_memory);
    }
    let code = match cli.command {
        Command::Gen { file, line, out, junit, json, engine, timeout, unroll, no_run, search, classpath } => {
            let classpath = classpath.map(|cp| std::env::split_paths(&cp).collect()).unwrap_or_default();
            let args =
                gen_cmd::GenArgs { file, line, out, junit, json, engine, timeout, unroll, no_run, search, classpath };
            // The lowering and the encoding recurse over the syntax tree: deeply nested code
            // needs the stack `check`'s workers have.
            match std::thread::Builder::new().stack_size(check_cmd::WORKER_STACK).spawn(move || gen_cmd::run(args)) {
                Ok(worker) => worker.join().unwrap_or(1),
                Err(e) => {
                    eprintln!("error: cannot start the worker thread: {e}");
                    1
                }
            }
        }
        Command::Check {
            paths,
            format,
            timeout,
            file_budget,
            fail_on_findings,
            timings,
            solver_memory: _,
            cache_dir,
            no_cache,
        } => {
            let cache_dir = if no_cache { None } else { cache_dir.or_else(check_cache::default_dir) };
            check_cmd::run(check_cmd::CheckArgs {
                paths: &paths,
                format,
                timeout,
                file_budget,
                fail_on_findings,
                timings,
                cache_dir,
            })
        }
        Command::Fill(args) => fill_cmd::run(args),
        Command::Dump { file, method, mode, unroll, setup_calls } => {
            dump_cmd::run(&file, &method, mode, unroll, setup_calls)
        }
        Command::Lsp => match jreach_lsp::run_stdio() {
            Ok(code) => code as u8,
            Err(e) => {
                eprintln!("error: cannot start the language server: {e}");
                1
            }
        },
    };
    ExitCode::from(code)
}
