//! `check` on code whose terms once broke the solver itself: a long integer squared in a loop
//! (`b *= b`) that the proof lowering unrolls, whose product z3's rewriter flattened into one
//! multiplication of 2^k factors, too large to allocate: the process died (a segfault in z3's
//! `mk_app_core`), found by the soundness generator (seed 35, method 29215). `check` must finish
//! and say what it found.

use std::time::Duration;

use jreach_ide::{check_file, UNREACHABLE_CODE};
use jreach_syntax::SourceFile;

const SQUARES: &str = r#"class Squares {
    static int m(int p0) {
        int a0 = p0;
        long b0 = Long.MAX_VALUE;
        boolean c0 = false;
        java.util.List<Integer> list = new java.util.ArrayList<>();
        int w1 = 0;
        while (w1 < 2 && (list.size() > 4)) {
            w1++;
            int w2 = 0;
            while (w2 < 4 && (a0 == 0)) {
                w2++;
                try {
                    list.add(-w1);
                    if (159090346L <= b0 * b0) {
                        return w2 % (-5);
                    }
                } catch (ArithmeticException e3) {
                    b0 *= b0;
                    c0 ^= c0;
                }
            }
        }
        return (int) (a0 + b0) + (c0 ? 1 : 0);
    }

    static long power(long x, int n) {
        long r = x;
        for (int i = 0; i < 8; i++) {
            r *= r;
        }
        if (r == 3) {
            return -1;
        }
        return r;
    }
}
"#;

#[test]
fn squares_unrolled_in_loops_leave_the_solver_standing() {
    let file = SourceFile::parse(SQUARES);
    let report = jreach_smt::with_own_context(|| check_file(&file, Duration::from_secs(10)));
    assert_eq!(report.methods.len(), 2, "both methods were checked: {:?}", report.methods);
    // Whether jreach proves `r == 3` impossible (it is: an odd square is 1 modulo 8) is not this
    // test's point; `return r;` runs for every `x`, and nothing may say otherwise.
    let live = SQUARES.find("return r;").expect("the fixture has the line");
    let wrong: Vec<_> =
        report.findings.iter().filter(|f| f.code() == UNREACHABLE_CODE && f.range.contains(&live)).collect();
    assert!(wrong.is_empty(), "a live line reported dead: {wrong:?}");
}
