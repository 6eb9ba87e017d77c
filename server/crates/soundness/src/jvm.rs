//! The JVM as the final judge: instrumented copies of generated classes (a `hit(N);` call before
//! statement N of `m` and of the nested class's constructors and methods, which call the outer
//! class's static `hit`) are compiled with `javac` and run with `java` on the same inputs as the
//! interpreter; every statement the JVM executes, in `m` or in a method it called on its objects,
//! is compared against the findings.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use jreach_ide::{Finding, UNREACHABLE_CODE};

use crate::gen::Generated;
use crate::{Outcome, Stats, Violation};

/// A generated class with what the analysis and the interpreter said about it.
#[derive(Clone, Debug)]
pub struct Sample {
    pub g: Generated,
    /// Inputs as Java literals.
    pub inputs: Vec<Vec<String>>,
    pub findings: Vec<Finding>,
    pub interp_hits: Vec<(Vec<usize>, bool)>,
}

impl Sample {
    pub fn from_outcome(g: &Generated, o: &Outcome) -> Sample {
        Sample {
            g: g.clone(),
            inputs: o.inputs.iter().map(|args| args.iter().map(|a| a.to_string()).collect()).collect(),
            findings: o.findings.clone(),
            interp_hits: o.interp_hits.clone(),
        }
    }
}

/// How many (class, inputs) pairs whose runs on the JVM and on the interpreter disagree are
/// printed (with the class's source) to stderr; all are counted.
const MISMATCHES_SHOWN: usize = 5;

/// Compiles and runs the samples in one JVM; counts and violations.
pub fn run_samples(samples: &[Sample]) -> Result<(Stats, Vec<Violation>), String> {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let dir: PathBuf = std::env::temp_dir().join(format!("jreach-soundness-{}-{nanos}", std::process::id()));
    let src = dir.join("src");
    let out = dir.join("out");
    std::fs::create_dir_all(&src).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let mut main = String::from("public class SoundnessMain {\n");
    main.push_str(
        "    static void report(String c, int k, boolean[] hit) {\n        StringBuilder sb = new StringBuilder(c).append(' ').append(k);\n        for (int i = 0; i < hit.length; i++) if (hit[i]) sb.append(' ').append(i);\n        System.out.println(sb);\n        java.util.Arrays.fill(hit, false);\n    }\n",
    );
    let mut calls = String::new();
    for s in samples {
        let c = &s.g.class;
        std::fs::write(src.join(format!("{c}.java")), &s.g.instrumented).map_err(|e| e.to_string())?;
        let _ = writeln!(main, "    static void run{c}() {{");
        for (k, args) in s.inputs.iter().enumerate() {
            let _ = writeln!(
                main,
                "        try {{ {c}.m({}); }} catch (Throwable t) {{ }}\n        report(\"{c}\", {k}, {c}.HIT);",
                args.join(", ")
            );
        }
        main.push_str("    }\n");
        let _ = writeln!(calls, "        run{c}();");
    }
    let _ = write!(main, "    public static void main(String[] a) {{\n{calls}    }}\n}}\n");
    std::fs::write(src.join("SoundnessMain.java"), main).map_err(|e| e.to_string())?;
    let files: Vec<PathBuf> = std::fs::read_dir(&src).map_err(|e| e.to_string())?.flatten().map(|e| e.path()).collect();
    let javac = Command::new("javac")
        .arg("-nowarn")
        .arg("-d")
        .arg(&out)
        .args(&files)
        .output()
        .map_err(|e| format!("javac: {e}"))?;
    if !javac.status.success() {
        return Err(format!(
            "javac failed (sources kept in {}):\n{}",
            src.display(),
            String::from_utf8_lossy(&javac.stderr)
        ));
    }
    let java = Command::new("java")
        .arg("-Xss16m")
        .arg("-cp")
        .arg(&out)
        .arg("SoundnessMain")
        .output()
        .map_err(|e| format!("java: {e}"))?;
    if !java.status.success() {
        return Err(format!("java failed: {}", String::from_utf8_lossy(&java.stderr)));
    }
    let mut stats = Stats { jvm_methods: samples.len() as u64, ..Stats::default() };
    let mut violations = Vec::new();
    // The (class, run) pairs whose mismatches were printed, so each is shown once.
    let mut shown = std::collections::HashSet::new();
    for line in String::from_utf8_lossy(&java.stdout).lines() {
        let mut parts = line.split_whitespace();
        let (Some(c), Some(k)) = (parts.next(), parts.next().and_then(|k| k.parse::<usize>().ok())) else { continue };
        let Some(s) = samples.iter().find(|s| s.g.class == c) else { continue };
        stats.jvm_runs += 1;
        for id in parts.filter_map(|p| p.parse::<usize>().ok()) {
            let Some(range) = s.g.stmts.get(id) else { continue };
            stats.jvm_executed_checked += 1;
            let nested = s.g.in_nested(range.start);
            if nested {
                stats.jvm_nested_executed_checked += 1;
            }
            if let Some(fd) =
                s.findings.iter().find(|fd| fd.code() == UNREACHABLE_CODE && fd.range.contains(&range.start))
            {
                let text = s.g.source[range.start..].lines().next().unwrap_or("").to_string();
                let place = if nested { " in the nested class" } else { "" };
                violations.push(Violation {
                    class: c.to_string(),
                    source: s.g.source.clone(),
                    inputs: s.inputs[k].clone(),
                    finding: fd.clone(),
                    observed: format!("the JVM executed `{text}`{place}"),
                });
            }
            // (Code the lowering does not follow is not the interpreter's to run.)
            let followed = !s.g.in_unfollowed(range.start);
            if let (Some((ids, true)), true) = (s.interp_hits.get(k), followed) {
                if !ids.contains(&id) {
                    stats.jvm_interp_mismatches += 1;
                    if shown.len() < MISMATCHES_SHOWN && shown.insert((c.to_string(), k)) {
                        let text = s.g.source[range.start..].lines().next().unwrap_or("").trim().to_string();
                        eprintln!(
                            "MISMATCH in {c}: the JVM executed statement {id} `{text}` on ({}), which the \
                             interpreter's run on the same inputs did not\n{}",
                            s.inputs[k].join(", "),
                            s.g.source
                        );
                    }
                }
            }
        }
    }
    stats.jvm_violations = violations.len() as u64;
    let _ = std::fs::remove_dir_all(&dir);
    Ok((stats, violations))
}
