//! `jreach check`: unreachable-code diagnostics over files and trees, in parallel.

use std::path::{Path, PathBuf};
use std::time::Duration;

use jreach_ide::{check_file, MethodVerdict};
use rayon::prelude::*;
use serde_json::json;

use crate::input::{read_java, EXIT_ERROR};
use crate::Format;

/// Every `.java` file under the given paths, sorted.
fn java_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            while let Some(d) = stack.pop() {
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
    Ok(out)
}

/// 0-based UTF-16 column of byte `offset` on its line.
fn utf16_col(text: &str, line_start: usize, offset: usize) -> usize {
    text[line_start..offset].encode_utf16().count()
}

pub fn run(paths: &[PathBuf], format: Format, timeout: f64) -> u8 {
    let files = match java_files(paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_ERROR;
        }
    };
    let timeout = Duration::from_secs_f64(timeout.max(0.001));
    let results: Vec<(PathBuf, Result<Vec<serde_json::Value>, String>, usize, usize)> = files
        .par_iter()
        .map(|path| {
            let src = match read_java(path) {
                Ok(s) => s,
                Err((_, msg)) => return (path.clone(), Err(msg), 0, 0),
            };
            let report = check_file(&src, timeout);
            let no_verdict = report.methods.iter().filter(|(_, v)| matches!(v, MethodVerdict::NoVerdict(_))).count();
            let diags = report
                .findings
                .iter()
                .map(|fd| {
                    let (sl, _) = src.lines.position(fd.range.start);
                    let (el, _) = src.lines.position(fd.range.end);
                    let sls = src.lines.line_range(sl).map(|r| r.start).unwrap_or(0);
                    let els = src.lines.line_range(el).map(|r| r.start).unwrap_or(0);
                    json!({
                        "file": abs(path),
                        "range": {
                            "start": {"line": sl, "character": utf16_col(&src.text, sls, fd.range.start)},
                            "end": {"line": el, "character": utf16_col(&src.text, els, fd.range.end)},
                        },
                        "severity": "warning",
                        "code": "unreachable-code",
                        "source": "jreach",
                        "message": fd.message,
                    })
                })
                .collect();
            (path.clone(), Ok(diags), report.methods.len(), no_verdict)
        })
        .collect();
    let mut all = Vec::new();
    let (mut methods, mut no_verdict, mut errors) = (0, 0, 0);
    for (path, r, m, nv) in results {
        methods += m;
        no_verdict += nv;
        match r {
            Ok(d) => all.extend(d),
            Err(e) => {
                errors += 1;
                eprintln!("error: {} skipped: {e}", path.display());
            }
        }
    }
    match format {
        Format::Json => println!(
            "{}",
            json!({"diagnostics": all, "summary": {"files": files.len(), "methods": methods, "findings": all.len(), "methods_without_verdict": no_verdict}})
        ),
        Format::Text => {
            for d in &all {
                println!(
                    "{}:{}:{}: warning: {} [unreachable-code]",
                    d["file"].as_str().unwrap_or(""),
                    d["range"]["start"]["line"].as_u64().unwrap_or(0) + 1,
                    d["range"]["start"]["character"].as_u64().unwrap_or(0) + 1,
                    d["message"].as_str().unwrap_or("")
                );
            }
            eprintln!(
                "{} files, {methods} methods, {} findings, {no_verdict} methods without a verdict",
                files.len(),
                all.len()
            );
        }
    }
    if errors > 0 {
        EXIT_ERROR
    } else {
        0
    }
}

fn abs(p: &Path) -> String {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()).display().to_string()
}
