//! `jreach dump`: the IR of one method, as snapshot tests see it.

use std::path::Path;

use jreach_syntax::MethodInfo;

use crate::input::{read_java, EXIT_USAGE};
use crate::DumpMode;

pub fn run(file: &Path, method: &str, mode: DumpMode, unroll: u32, setup_calls: bool) -> u8 {
    let src = match read_java(file) {
        Ok(s) => s,
        Err((code, msg)) => {
            eprintln!("error: {msg}");
            return code;
        }
    };
    let Some(m) = MethodInfo::all(&src).into_iter().find(|m| m.name == method) else {
        eprintln!("error: {}: no method named `{method}`", file.display());
        return EXIT_USAGE;
    };
    let mode = match mode {
        DumpMode::Synthesis => jreach_ide::DumpMode::Synthesis { unroll, setup_calls },
        DumpMode::Over => jreach_ide::DumpMode::OverApprox,
    };
    print!("{}", jreach_ide::dump(&src, &m, mode));
    0
}
