//! The log of slow solver queries (`jreach check --slow-queries DIR`, `gen` likewise): every query
//! that takes at least a threshold is written to the folder as an SMT-LIB 2 file that `z3 FILE`
//! replays, with a header naming the method, the question and what the solver answered. It is how
//! the encoding's time-outs are found and studied; it is off unless asked for.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use z3::ast::Bool;
use z3::{SatResult, Solver};

struct SlowLog {
    dir: PathBuf,
    at_least: Duration,
    written: AtomicUsize,
}

static LOG: OnceLock<SlowLog> = OnceLock::new();

/// Writes every query of this process that takes at least `at_least` into `dir` (created if
/// missing). Files already there are kept: a name that is taken gets the next number. Only the
/// first call has an effect.
pub fn log_slow_queries(dir: &Path, at_least: Duration) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let _ = LOG.set(SlowLog { dir: dir.to_path_buf(), at_least, written: AtomicUsize::new(0) });
    Ok(())
}

/// Logs the query `solver` just answered (under `assumptions`, about IR function `function`,
/// asking `question` in words) if a log is set up and the query took at least its threshold. A
/// file that cannot be written is reported on stderr; the query's answer is not affected.
pub(crate) fn record(
    solver: &Solver,
    function: &str,
    question: impl FnOnce() -> String,
    assumptions: &[Bool],
    answer: SatResult,
    took: Duration,
) {
    let Some(log) = LOG.get() else { return };
    if took < log.at_least {
        return;
    }
    let answer = match answer {
        SatResult::Sat => "sat",
        SatResult::Unsat => "unsat",
        SatResult::Unknown => "unknown",
    };
    let mut text = format!(
        "; jreach slow query\n; function: {}\n; question: {}\n; answer: {answer} after {:.2} s\n",
        function,
        question(),
        took.as_secs_f64()
    );
    text.push_str(&solver.to_string());
    if assumptions.is_empty() {
        text.push_str("(check-sat)\n");
    } else {
        let lits: Vec<String> = assumptions.iter().map(|a| a.to_string()).collect();
        text.push_str(&format!("(check-sat-assuming ({}))\n", lits.join(" ")));
    }
    let safe: String =
        function.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '_' }).take(80).collect();
    loop {
        let n = log.written.fetch_add(1, Ordering::Relaxed);
        let path = log.dir.join(format!("{n:05}-{safe}.smt2"));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut file) => {
                if let Err(e) = file.write_all(text.as_bytes()) {
                    eprintln!("warning: cannot write the slow query {}: {e}", path.display());
                }
                return;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                eprintln!("warning: cannot write the slow query {}: {e}", path.display());
                return;
            }
        }
    }
}
