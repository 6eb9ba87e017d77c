//! The nested classes of the class-invariant feature (see `gen`'s module doc): they compile with
//! `javac`, as written and instrumented, and the oracle confronts findings inside their methods:
//! a false finding planted on a statement of a nested method that runs is refuted by the
//! interpreter and by the JVM. They need a JDK on the path and fail saying so without one.

use std::path::Path;
use std::process::Command;

use jreach_ide::{Finding, FindingKind};
use jreach_soundness::gen::{generate, Generated, Rng};
use jreach_soundness::{confront, jvm};
use jreach_syntax::{MethodInfo, SourceFile};

/// Fails the test with what to install when there is no JDK on the path.
fn require_javac() {
    let ok = Command::new("javac").arg("-version").output().is_ok_and(|o| o.status.success());
    assert!(ok, "these tests need a JDK on the path: install default-jdk-headless (scripts/setup.sh does)");
}

/// The first `n` generated classes (from seed 0) with a nested class.
fn with_nested(n: usize) -> Vec<Generated> {
    (0u64..).map(|s| generate(&mut Rng::new(s), &format!("N{s}"), 12)).filter(|g| g.nested.is_some()).take(n).collect()
}

fn javac(dir: &Path, sources: &[(String, &str)]) {
    let src = dir.join("src");
    let out = dir.join("out");
    std::fs::create_dir_all(&src).expect("a source folder");
    std::fs::create_dir_all(&out).expect("an output folder");
    let mut files = Vec::new();
    for (class, text) in sources {
        let f = src.join(format!("{class}.java"));
        std::fs::write(&f, text).expect("a source file");
        files.push(f);
    }
    let r = Command::new("javac").arg("-nowarn").arg("-d").arg(&out).args(&files).output().expect("javac runs");
    assert!(r.status.success(), "javac failed in {}:\n{}", src.display(), String::from_utf8_lossy(&r.stderr));
}

#[test]
fn nested_classes_compile_as_written_and_instrumented() {
    require_javac();
    let gs = with_nested(80);
    for shape in ["class Pool", "class Span", "class Latch", "class Cursor"] {
        assert!(gs.iter().any(|g| g.source.contains(shape)), "no `{shape}` among 80 classes");
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    javac(&dir.path().join("plain"), &gs.iter().map(|g| (g.class.clone(), g.source.as_str())).collect::<Vec<_>>());
    javac(
        &dir.path().join("instr"),
        &gs.iter().map(|g| (g.class.clone(), g.instrumented.as_str())).collect::<Vec<_>>(),
    );
}

/// A statement of an instance method (not a constructor) of the nested class that ran on a run
/// the interpreter completed, preferring one guarded by a condition (nested in an `if`): its id
/// and method name.
fn ran_in_nested_method(g: &Generated, hits: &[(Vec<usize>, bool)]) -> Option<(usize, String)> {
    let file = SourceFile::parse(g.source.as_str());
    let methods: Vec<MethodInfo> =
        MethodInfo::all(&file).into_iter().filter(|m| !m.is_constructor && g.in_nested(m.range.start)).collect();
    let mut ran: Vec<usize> = hits.iter().filter(|h| h.1).flat_map(|h| h.0.iter().copied()).collect();
    ran.sort();
    ran.dedup();
    let in_method = |id: &usize| methods.iter().find(|m| m.body.contains(&g.stmts[*id].start));
    let guarded = |id: &usize| {
        let line_start = g.source[..g.stmts[*id].start].rfind('\n').map_or(0, |i| i + 1);
        g.stmts[*id].start - line_start >= 16
    };
    let id = ran
        .iter()
        .find(|id| in_method(id).is_some() && guarded(id))
        .or_else(|| ran.iter().find(|id| in_method(id).is_some()))?;
    let m = in_method(id)?;
    Some((*id, format!("{}.{}", m.classes.join("."), m.name)))
}

#[test]
fn a_false_finding_in_a_nested_method_is_refuted_by_the_interpreter_and_the_jvm() {
    require_javac();
    let mut refuted = 0;
    for g in with_nested(20) {
        // Runs without findings: which statements of the nested class's methods ran.
        let base = confront(&g, vec![], &mut Rng::new(11), 24);
        assert!(base.violations.is_empty());
        let Some((id, method)) = ran_in_nested_method(&g, &base.interp_hits) else { continue };
        let planted =
            Finding { range: g.stmts[id].clone(), method, kind: FindingKind::Unreachable(None), related: vec![] };
        let text = g.source[g.stmts[id].clone()].lines().next().unwrap_or("").to_string();
        // The same inputs (the same seed), now with a finding claiming the statement dead.
        let o = confront(&g, vec![planted.clone()], &mut Rng::new(11), 24);
        assert!(
            o.violations.iter().any(|v| v.finding == planted && v.observed.contains("in the nested class")),
            "the interpreter did not refute `{text}` in {}:\n{}",
            planted.method,
            g.source
        );
        assert!(o.stats.nested_executed_checked > 0);
        let sample = jvm::Sample::from_outcome(&g, &o);
        let (stats, violations) = jvm::run_samples(&[sample]).expect("the sample runs on the JVM");
        assert!(stats.jvm_nested_executed_checked > 0, "{stats:#?}");
        assert!(
            violations.iter().any(|v| v.finding == planted && v.observed.starts_with("the JVM executed")),
            "the JVM did not refute `{text}` in {}:\n{}",
            planted.method,
            g.source
        );
        refuted += 1;
        if refuted == 4 {
            break;
        }
    }
    assert_eq!(refuted, 4, "too few nested methods ran");
}
