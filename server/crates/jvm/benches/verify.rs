//! What running a test on the JVM costs: the start of the runner's JVM (once per language
//! server or batch command), and one verification with a warm runner (compiling the file and
//! the test in memory, loading them with line probes, running the test), on the corpus's
//! `Account` example.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use jreach_jvm::{Jdk, RunRequest, RunStatus, Runner, SourceText};

fn account() -> (PathBuf, String) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../examples");
    let text = std::fs::read_to_string(root.join("Account.java")).expect("examples/Account.java");
    (root, text)
}

const TEST: &str = "package bank;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n\
class AccountBenchTest {\n    @Test\n    void t() {\n        assertEquals(1_000, Account.withdrawalFee(0, 10, 0));\n    }\n}\n";

fn bench(c: &mut Criterion) {
    let jdk = Jdk::find().unwrap_or_else(|e| panic!("the bench runs Java: {e}"));
    let cache = tempfile::tempdir().unwrap();
    let (root, text) = account();
    let mut g = c.benchmark_group("jvm");
    g.sample_size(10);
    g.bench_function("start_runner_jvm", |b| {
        b.iter(|| {
            let mut r = Runner::new(jdk.clone(), cache.path()).unwrap();
            r.ping().unwrap()
        })
    });
    let mut runner = Runner::new(jdk.clone(), cache.path()).unwrap();
    let request = RunRequest {
        source_roots: vec![root.clone()],
        classpath: jdk.junit.clone(),
        cache_dir: cache.path().join("classes"),
        sources: vec![
            SourceText { path: "bank/Account.java".into(), text: text.clone() },
            SourceText { path: "bank/AccountBenchTest.java".into(), text: TEST.into() },
        ],
        test_class: "bank.AccountBenchTest".into(),
        test_method: "t".into(),
        timeout_ms: 10_000,
    };
    let first = runner.run(&request).unwrap();
    assert_eq!(first.status, RunStatus::Pass, "{first:?}");
    g.bench_function("verify_with_warm_runner", |b| {
        b.iter(|| {
            let r = runner.run(&request).unwrap();
            assert_eq!(r.status, RunStatus::Pass);
            r
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
