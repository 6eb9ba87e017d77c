//! What running a test on the JVM costs: the start of the runner's JVM (once per language
//! server or batch command), and one verification with a warm runner (compiling the file and
//! the test in memory, loading them with line probes, running the test), on the corpus's
//! `Account` example. For the search on the JVM: one batch of 64 runs of a compiled harness, and
//! a whole search (a loop bound of 3,002 iterations, found from 0, shrunk and verified) on the
//! fixture `LoopState.deep`.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use jreach_jvm::{Jdk, RunRequest, RunStatus, Runner, SearchRequest, SearchStatus, SourceText, Verifier};
use jreach_synth::{JUnit, JavaValue, Outcome, TestRequest};

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
        observe_calls: None,
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

    // One batch of the search: 64 runs of a harness compiled by the first batch.
    let harness = "package bank;\nimport org.junit.jupiter.api.Test;\nclass AccountSearchTest {\n    @Test\n    void t() {\n        \
                   jreach.runner.Inputs.observe(Account.withdrawalFee(jreach.runner.Inputs.i(0), 10, 0));\n    }\n}\n";
    let search = SearchRequest {
        session: "bench".into(),
        source_roots: vec![root.clone()],
        classpath: jdk.junit.clone(),
        cache_dir: cache.path().join("classes"),
        sources: vec![
            SourceText { path: "bank/Account.java".into(), text: text.clone() },
            SourceText { path: "bank/AccountSearchTest.java".into(), text: harness.into() },
        ],
        test_class: "bank.AccountSearchTest".into(),
        test_method: "t".into(),
        target_source: "bank/Account.java".into(),
        target_line: 14,
        inputs: (0..64).map(|i| vec![serde_json::json!(i * 7 - 100)]).collect(),
        timeout_ms: 1_000,
    };
    let first = runner.search(&search).unwrap();
    assert_eq!(first.status, SearchStatus::Ok, "{first:?}");
    g.bench_function("search_batch_of_64_runs", |b| {
        b.iter(|| {
            let r = runner.search(&search).unwrap();
            assert_eq!(r.results.len(), 64);
            r
        })
    });

    // A whole search: LoopState.deep's line 17 needs n = 3,002.
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/fixtures/java/fixtures");
    let file = fixtures.join("LoopState.java");
    let loop_text = std::fs::read_to_string(&file).expect("LoopState.java");
    let mut verifier = Verifier::new(vec![]).unwrap();
    let start = TestRequest {
        package: Some("fixtures".into()),
        classes: vec!["LoopState".into()],
        method: "deep".into(),
        is_static: true,
        is_constructor: false,
        params: vec![("n".into(), "int".into())],
        args: vec![JavaValue::Int(0)],
        return_ty: "int".into(),
        outcome: Outcome::Undetermined("start".into()),
        target_line: 17,
        target_text: "hits++;".into(),
        target_member: Some("hit(int)".into()),
        target_action: jreach_syntax::Action::Sets("hits".into()),
        path_condition: vec![],
        junit: JUnit::V5,
        receiver_args: vec![],
        receiver_calls: vec![],
        receiver_body: None,
        receiver_fields: None,
        receiver_class: None,
        statics: vec![],
        imports: vec![],
        unmodelled_before_target: None,
        declares_checked: false,
        receiver_call_choices: vec![],
        receiver_factory: None,
        receiver_from: None,
        then_call: None,
        null_casts: Default::default(),
        named_classes: vec![],
        held_by: None,
        initializes_class: false,
        outer: None,
        also_runs: vec![],
    };
    g.bench_function("search_loop_bound_3002", |b| {
        b.iter(|| {
            let found = verifier.search(&file, &loop_text, &start).unwrap().expect("found");
            assert_eq!(found.args, vec![JavaValue::Int(3002)]);
            found
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
