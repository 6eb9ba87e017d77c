//! Server-side latency of the editor features on a generated 3,000-line file (150 methods):
//!
//! - `diagnostics_after_edit`: one character changed inside one method, as `didChange` and the
//!   background check do it: the LSP change applied to the text and the tree (incremental
//!   reparse), the per-method cache consulted, the changed method checked again, diagnostics
//!   converted. Excludes the 200 ms debounce.
//! - `list_code_actions`: the instant listing (no solving).
//! - `resolve_test_action`: solving for a test and building the WorkspaceEdit.
//!
//! Run: `cargo bench -p jreach-lsp --bench latency`; medians are in
//! `target/criterion/<name>/new/estimates.json` (`median.point_estimate`, nanoseconds).

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use jreach_ide::MethodCache;
use jreach_lsp::analysis::{self, ActionStyle, EditCaps, GenContext, Generated, Project};
use jreach_lsp::config::Settings;
use jreach_lsp::position::Encoding;
use jreach_lsp::server::apply_changes;
use jreach_syntax::SourceFile;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

const METHODS: usize = 150;

/// `METHODS` methods of 20 lines, each with a dead statement and a reachable `return 1;`.
fn big_file() -> String {
    let mut out = String::from("package demo;\n\npublic class Calc {\n");
    for i in 0..METHODS {
        out.push_str(&format!(
            "    public static int m{i}(int x, int y) {{\n        int z = x + {i};\n        if (z > 10 && z < 5) {{\n            z = 0;\n        }}\n        if (y == {i}) {{\n            z = z * 2;\n        }}\n        for (int k = 0; k < 3; k++) {{\n            z += k;\n        }}\n        if (z == 77) {{\n            return 1;\n        }}\n        return z;\n    }}\n\n"
        ));
    }
    out.push_str("}\n");
    out
}

/// 0-based line of `if (z > 10 && z < 5)` in method `i`; the `5` is at column 26.
fn guard_line(i: usize) -> u32 {
    (3 + i * 17 + 2) as u32
}

fn bench(c: &mut Criterion) {
    let text = big_file();
    assert!(text.lines().count() >= 2_500);
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    std::fs::write(dir.path().join("pom.xml"), "<project><artifactId>junit-jupiter</artifactId></project>").unwrap();
    let src = dir.path().join("src/main/java/demo/Calc.java");
    std::fs::create_dir_all(src.parent().unwrap()).unwrap();
    std::fs::write(&src, &text).unwrap();
    let uri = Uri::from_file_path(&src).unwrap();
    let settings = Settings::default();
    let enc = Encoding::Utf16;

    let cache = MethodCache::new();
    let mut file = SourceFile::parse(text.clone());
    let started = Instant::now();
    let diags = analysis::check(&cache, &uri, &file, &settings, enc, &|| false, &|_| {}).unwrap().diags;
    eprintln!(
        "{} lines, {METHODS} methods: first full check {:?}, {} diagnostics",
        file.lines.line_count(),
        started.elapsed(),
        diags.len()
    );

    let mut g = c.benchmark_group("lsp");
    g.sample_size(30).measurement_time(Duration::from_secs(10));

    // Each iteration toggles the `5` of one method's guard (5 ⇄ 6), going round the methods, so
    // exactly one method differs from what the cache holds.
    let mut round = 0usize;
    g.bench_function("diagnostics_after_edit", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let method = round % METHODS;
                let digit = ["6", "5"][(round / METHODS) & 1];
                round += 1;
                let line = guard_line(method);
                let change = TextDocumentContentChangeEvent {
                    range: Some(Range::new(Position::new(line, 26), Position::new(line, 27))),
                    range_length: None,
                    text: digit.to_string(),
                };
                let t = Instant::now();
                apply_changes(&mut file, vec![change], enc);
                let before = cache.stats().misses;
                let diags = analysis::check(&cache, &uri, &file, &settings, enc, &|| false, &|_| {}).unwrap().diags;
                total += t.elapsed();
                assert_eq!(cache.stats().misses - before, 1, "one method checked again");
                assert_eq!(diags.len(), 2 * METHODS);
            }
            total
        })
    });

    let style = ActionStyle { resolve: true, literals: true, disabled: true };
    let mid = guard_line(METHODS / 2) + 10; // `return 1;` of the middle method
    g.bench_function("list_code_actions", |b| {
        b.iter(|| {
            let r = Range::new(Position::new(mid, 12), Position::new(mid, 12));
            let actions = analysis::list_actions(&uri, Some(1), &file, r, &[], None, style);
            assert_eq!(actions.len(), 1);
            actions
        })
    });

    let project = Project::default();
    let none = |_: &Uri| None;
    let cx = GenContext {
        settings: &settings,
        project: &project,
        open_text: &none,
        caps: EditCaps { document_changes: true, create_file: true },
        enc,
        cancel: None,
        // The solver's part only; the JVM's share is measured by the `verify` bench of jreach-jvm.
        verifier: None,
        replace_earlier: false,
        annotate: false,
    };
    g.sample_size(10);
    g.bench_function("resolve_test_action", |b| {
        b.iter(|| {
            let g = analysis::generate(&uri, &file, mid, &cx);
            assert!(matches!(g, Generated::Edit { created: true, .. }), "{g:?}");
            g
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
