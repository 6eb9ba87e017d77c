//! A quick soundness run: 300 random methods, 60 of them also on the JVM (a JDK must be on the
//! path). No finding may be refuted.

use std::time::Duration;

use jreach_soundness::{soundness_run, RunOptions};

#[test]
fn no_executed_statement_is_reported_unreachable() {
    let has_java = std::process::Command::new("javac").arg("-version").output().is_ok_and(|o| o.status.success());
    assert!(has_java, "this test needs a JDK on the path: install default-jdk-headless (scripts/setup.sh does)");
    let opts = RunOptions {
        methods: 300,
        first: 0,
        trace: false,
        save: None,
        jvm_sample: 60,
        sampled_only: false,
        seed: 2024,
        runs_per_method: 24,
        size: 14,
        timeout: Duration::from_secs(10),
    };
    let (stats, violations) = soundness_run(&opts, &|_, _| {});
    for v in violations.iter().take(3) {
        eprintln!(
            "{} on ({}): {}\n{}",
            v.observed,
            v.inputs.join(", "),
            v.finding.message(&jreach_syntax::LineIndex::new(&v.source)),
            v.source
        );
    }
    assert!(violations.is_empty(), "{} refuted findings; {stats:#?}", violations.len());
    assert_eq!(stats.methods, 300);
    assert!(stats.verdicts > 0 && stats.executed_checked > 0, "{stats:#?}");
    // The interpreter runs nearly every method to its end (a run it cannot finish checks only
    // what came before: when the static field's input was missing, half the methods ran none).
    assert!(stats.runs_unfinished * 10 < stats.runs, "{stats:#?}");
    assert_eq!(stats.jvm_methods, 60);
    assert!(stats.jvm_executed_checked > 0 && stats.jvm_nested_executed_checked > 0, "{stats:#?}");
}
