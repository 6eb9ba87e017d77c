//! A quick look (`DeadCode::try_block`/`try_edge`): a question the solver cannot answer within
//! the short limit is left open, not recorded as given up, and can be asked again in full; one
//! it answers is answered as `block`/`edge` would.

use std::time::{Duration, Instant};

use jreach_ir::lower::{lower_method, LowerOptions};
use jreach_ir::{BlockId, Function, LowerMode};
use jreach_smt::{DeadCode, Decision, GaveUp, Status};
use jreach_syntax::{find_target, SourceFile};

/// `x = 0;` on line 6 is dead (no two doubles are each three times the other, rounding
/// included), which z3 does not prove in ten seconds; `n = 1;` on line 4 is live, and easy.
const SRC: &str = "class A {\n static void f(int n, double x, double y) {\n  if (n > 0) {\n   n = 1;\n  }\n  if (x / y == 3.0 && y / x == 3.0) {\n   x = 0;\n  }\n }\n}\n";

/// The lowering, and the first block of the statement on (0-based) `line`.
fn lowered() -> (Function, impl Fn(usize) -> BlockId) {
    let file = SourceFile::parse(SRC);
    let target = find_target(&file, 6).expect("a statement on line 7");
    let f = lower_method(&file, &target.method, &LowerOptions { mode: LowerMode::OverApprox, ..Default::default() });
    let g = f.clone();
    (f, move |line| g.blocks_of_stmt(find_target(&file, line).expect("a statement").stmt.start)[0])
}

#[test]
fn a_question_that_needs_longer_is_left_open() {
    let (f, block_on) = lowered();
    let (easy, hard) = (block_on(3), block_on(6));
    let mut dc = DeadCode::new(&f, Duration::from_millis(300), Instant::now() + Duration::from_secs(20));
    let quick = Duration::from_millis(20);
    // A quick look the solver answers is an answer.
    assert_eq!(dc.try_block(easy, quick), Some(Status::Live));
    assert!(dc.is_live(easy));
    assert_eq!(dc.try_block(hard, quick), None);
    assert_eq!(dc.try_block(hard, quick), None, "not recorded: asked again");
    assert!(!dc.is_live(hard));
    let (reach, _) = dc.stats();
    assert_eq!((reach.unknown, reach.deferred, reach.gave_up()), (2, 2, 0), "{reach:?}");
    // In full, it runs out of the query time limit, and that is recorded.
    assert_eq!(dc.block(hard), Status::Unknown(GaveUp::Timeout(Duration::from_millis(300))));
    let (reach, _) = dc.stats();
    assert_eq!(reach.gave_up(), 1, "{reach:?}");
    // Once a query gave up, a quick look is the full question: the same answer, at once.
    assert!(matches!(dc.try_block(hard, quick), Some(Status::Unknown(_))));
}

#[test]
fn a_quick_look_at_a_branch_answers_as_the_full_question() {
    let (f, block_on) = lowered();
    // The first block ends in the branch on `n > 0`; its true side leads to `n = 1;`.
    let first = Decision { block: f.entry, taken: true };
    let mut dc = DeadCode::new(&f, Duration::from_secs(10), Instant::now() + Duration::from_secs(20));
    assert_eq!(dc.try_edge(first, Duration::from_millis(500)), Ok(Some(Status::Live)));
    assert!(dc.is_live_edge(first));
    assert_eq!(dc.try_edge(first, Duration::from_millis(1)), Ok(Some(Status::Live)), "recorded");
    // The branch on `y / x == 3.0` goes to `x = 0;` only where no input goes.
    let hard = block_on(6);
    let inner = Decision { block: f.block(hard).preds[0], taken: true };
    assert!(dc.try_edge(inner, Duration::from_millis(20)).is_err());
    assert!(!dc.is_live_edge(inner));
    // A block that ends in no two-way branch has no edge to ask about.
    assert_eq!(dc.try_edge(Decision { block: hard, taken: true }, Duration::from_millis(20)), Ok(None));
}

#[test]
fn slow_questions_share_a_limit() {
    let (f, block_on) = lowered();
    let (easy, hard) = (block_on(3), block_on(6));
    let mut dc = DeadCode::new(&f, Duration::from_secs(10), Instant::now() + Duration::from_secs(20));
    dc.limit_slow_questions(Duration::from_millis(50), Duration::from_millis(200));
    assert_eq!(dc.block(easy), Status::Live);
    // The hard question may take 50 ms and the 200 ms past it, not its 10 s: then the method's
    // budget has run out, and no later question is asked.
    let started = Instant::now();
    assert_eq!(dc.block(hard), Status::Unknown(GaveUp::Budget));
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    let first = Decision { block: f.entry, taken: false };
    assert_eq!(dc.edge(first), Some(Status::Unknown(GaveUp::Budget)));
}
