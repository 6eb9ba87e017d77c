//! Scaling of `gen` on long methods: `N` sequential `if`/`else` blocks over redefined locals
//! (`benches/common/chain.rs`, the shape of `../shared/tools/gen_chain.py`), each with a reachable
//! and an unreachable target.
//!
//! - `shared/{reach,unreach}/N` for N = 10, 30, 100, 300, 1000: the production encoding.
//! - `naive/{reach,unreach}/N` and `shared_small/{reach,unreach}/N` for N = 2, 4, 6, … : the
//!   reference engine (resolution by substitution) and, on the same methods, the shared one, up to
//!   the first N where the reference engine gives up on its size budget; that N is printed.
//!
//! Every target is solved once before it is measured; an answer of the wrong kind is printed and
//! not measured. Run: `cargo bench -p jreach-ide --bench gen_chain` (a few minutes on 2 cores);
//! medians are in `target/criterion/<group>/<target>/<N>/new/estimates.json`
//! (`median.point_estimate`, nanoseconds).

#[path = "common/chain.rs"]
mod chain;

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use jreach_ide::{gen, Engine, GenOptions, GenResult};
use jreach_syntax::SourceFile;

/// Sizes tried for the reference engine, until it gives up.
const NAIVE_SIZES: [usize; 8] = [2, 4, 6, 8, 10, 12, 16, 20];

/// Does `gen` answer what the target's label says (a test, or unreachable)? Prints the probe.
fn answers(engine: Engine, n: usize, file: &SourceFile, line: usize, reach: bool) -> bool {
    let opts = GenOptions { engine, ..GenOptions::default() };
    let started = Instant::now();
    let result = gen(file, line, &opts);
    let took = started.elapsed();
    let ok = matches!((&result, reach), (Ok(GenResult::Test(_)), true) | (Ok(GenResult::Unreachable(_)), false));
    if !ok {
        let what = match result {
            Ok(GenResult::Test(_)) => "a test".to_string(),
            Ok(GenResult::Unreachable(_)) => "unreachable".to_string(),
            Ok(GenResult::Unknown(why)) => format!("unknown: {why}"),
            Err(e) => format!("error: {e}"),
        };
        let target = if reach { "reach" } else { "unreach" };
        eprintln!("gen_chain: {engine:?} {target} N={n} answered {what} after {took:.2?}; not measured");
    }
    ok
}

fn bench_target(c: &mut Criterion, group: &str, engine: Engine, sizes: &[usize], stop_on_give_up: bool) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    for reach in [true, false] {
        let target = if reach { "reach" } else { "unreach" };
        for &n in sizes {
            let ch = chain::chain(n);
            let file = SourceFile::parse(ch.text.clone());
            let line = if reach { ch.reach_line } else { ch.unreach_line };
            if !answers(engine, ch.n, &file, line, reach) {
                if stop_on_give_up {
                    eprintln!("gen_chain: {engine:?} {target} gives up from N={n}");
                    break;
                }
                continue;
            }
            let opts = GenOptions { engine, ..GenOptions::default() };
            g.bench_with_input(BenchmarkId::new(target, n), &line, |b, &line| b.iter(|| gen(&file, line, &opts)));
        }
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    bench_target(c, "shared", Engine::Shared, &chain::SIZES, false);
    bench_target(c, "naive", Engine::Naive, &NAIVE_SIZES, true);
    bench_target(c, "shared_small", Engine::Shared, &NAIVE_SIZES, false);
}

criterion_group!(benches, bench);
criterion_main!(benches);
