//! `jreach gen`: one target, one answer, the contract's exit code.

use std::path::PathBuf;
use std::time::Duration;

use jreach_ide::{Engine, GenOptions};
use jreach_synth::{self as synth, JUnit, TestRequest};
use serde_json::json;

use crate::input::{read_java, EXIT_ERROR, EXIT_USAGE};
use crate::{EngineArg, JUnitArg};
use jreach_fill::{answer, options_for_file, Answer, Jvm};

pub struct GenArgs {
    pub file: PathBuf,
    pub line: usize,
    pub out: Option<PathBuf>,
    pub junit: Option<JUnitArg>,
    pub json: bool,
    pub engine: EngineArg,
    pub timeout: f64,
    pub unroll: u32,
    pub no_run: bool,
    /// Seconds a search on the JVM may take (0: none).
    pub search: f64,
    pub classpath: Vec<PathBuf>,
}

const EXIT_UNREACHABLE: u8 = 3;
const EXIT_UNKNOWN: u8 = 4;

pub fn run(a: GenArgs) -> u8 {
    let report = |code: u8, status: &str, msg: &str, path: Option<&str>| -> u8 {
        if a.json {
            println!("{}", json!({"status": status, "message": msg, "file": a.file, "line": a.line, "test": path}));
        } else if code == 0 {
            println!("{msg}");
        } else if code == EXIT_UNREACHABLE || code == EXIT_UNKNOWN {
            println!("{status}: {msg}");
        } else {
            eprintln!("error: {msg}");
        }
        code
    };
    if a.line == 0 {
        return report(EXIT_USAGE, "error", "--line is 1-based; 0 is not a line", None);
    }
    if !(a.timeout > 0.0 && a.timeout.is_finite()) {
        return report(EXIT_USAGE, "error", "--timeout must be a positive number of seconds", None);
    }
    if !(a.search >= 0.0 && a.search.is_finite()) {
        return report(EXIT_USAGE, "error", "--search must be a number of seconds (0 turns the search off)", None);
    }
    let file = match read_java(&a.file) {
        Ok(f) => f,
        Err((code, msg)) => return report(code, "error", &msg, None),
    };
    let base = GenOptions {
        unroll: a.unroll,
        timeout: Duration::from_secs_f64(a.timeout),
        engine: if a.engine == EngineArg::Naive { Engine::Naive } else { Engine::Shared },
        ..Default::default()
    };
    let opts = options_for_file(&a.file, &file.text, a.junit.map(JUnit::from), base);
    let loc = format!("{}:{}", a.file.display(), a.line);
    let mut jvm = Jvm::new(a.classpath.clone(), a.no_run, a.search);
    match answer(&a.file, &file, a.line, &opts, &mut jvm) {
        Answer::NotTarget(why) => report(EXIT_USAGE, "error", &format!("{loc}: {why}"), None),
        Answer::Unreachable(why) => report(EXIT_UNREACHABLE, "unreachable", &format!("{loc}: {why}"), None),
        Answer::Unknown(why) => report(EXIT_UNKNOWN, "unknown", &format!("{loc}: {why}"), None),
        Answer::Test { req, note } => write_test(&a, &loc, *req, note, report),
    }
}

/// Places and writes `req` (with `note` when it was not run) and reports it.
fn write_test(
    a: &GenArgs,
    loc: &str,
    req: TestRequest,
    note: Option<String>,
    report: impl Fn(u8, &str, &str, Option<&str>) -> u8,
) -> u8 {
    let root = a.out.clone().unwrap_or_else(|| synth::test_root_for(&a.file, req.package.as_deref()));
    let placed = match synth::place(&root, &req) {
        Ok(p) => p,
        Err(e) => {
            return report(EXIT_ERROR, "error", &format!("cannot place the test under {}: {e}", root.display()), None)
        }
    };
    let path = placed.path.display().to_string();
    if let Some(same) = &placed.duplicate_of {
        // Asked again for a test jreach wrote before: the same inputs, nothing new to add.
        let message = format!("{path} ({same}) already reaches {loc} with the same inputs; nothing added");
        if a.json {
            println!(
                "{}",
                json!({"status": "test", "message": message, "file": a.file, "line": a.line, "test": path,
                       "method": same, "existing": true, "verified": note.is_none(), "note": note})
            );
        } else {
            println!("{path}");
            eprintln!("{message}");
        }
        return 0;
    }
    if let Err(e) = synth::write(&placed) {
        return report(EXIT_ERROR, "error", &format!("cannot write {}: {e}", placed.path.display()), None);
    }
    let verb = if placed.created { "wrote" } else { "added a test method to" };
    if a.json {
        println!(
            "{}",
            json!({"status": "test", "message": format!("{verb} {path}"), "file": a.file, "line": a.line,
                   "test": path, "verified": note.is_none(), "note": note})
        );
        0
    } else {
        println!("{path}");
        match note {
            None => eprintln!("{verb} {path} ({}): reaches {loc}, checked on the JVM", placed.method_name),
            Some(n) => {
                eprintln!("{verb} {path} ({}): reaches {loc} on jreach's model; {n}", placed.method_name)
            }
        }
        0
    }
}
