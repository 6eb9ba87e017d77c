//! A solve under way stops when its cancel flag is set (invariant 7: every solver call has a time
//! limit and can be cancelled).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use jreach_ir::lower::{lower_method, LowerOptions};
use jreach_ir::LowerMode;
use jreach_smt::{solve_reach, SolveOptions, Verdict};
use jreach_syntax::{find_target, SourceFile};

#[test]
fn a_long_solve_stops_when_cancelled() {
    // An identity of 64-bit division that z3 takes far longer than a second to refute.
    let src = "class A {\n static void f(long a, long b) {\n  if (b != 0) {\n   long q = a / b;\n   long r = a % b;\n   if (q * b + r != a) {\n    a = 0;\n   }\n  }\n }\n}\n";
    let file = SourceFile::parse(src);
    let target = find_target(&file, 6).expect("a statement on line 7");
    let f = lower_method(&file, &target.method, &LowerOptions { mode: LowerMode::OverApprox, ..Default::default() });
    let targets = f.blocks_of_stmt(target.stmt.start);
    let flag = Arc::new(AtomicBool::new(false));
    let setter = {
        let flag = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            flag.store(true, Ordering::SeqCst);
        })
    };
    let started = Instant::now();
    let opts = SolveOptions { timeout: Duration::from_secs(120), prefer_small: false, cancel: Some(flag) };
    let verdict = solve_reach(&f, &targets, &opts);
    let took = started.elapsed();
    setter.join().unwrap();
    assert!(took < Duration::from_secs(10), "took {took:?}: {verdict:?}");
    // Either z3 refuted it within 300 ms (then it must be UNSAT) or it was cancelled.
    assert!(matches!(verdict, Verdict::Unknown(_) | Verdict::Unsat), "{verdict:?}");
}
