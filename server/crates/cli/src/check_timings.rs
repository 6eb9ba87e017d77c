//! `jreach check --timings`: where the time of a check went, per phase (parsing, class tables,
//! lowering, encoding, concrete runs, the solver's reachability and explaining questions) summed
//! over every method, and the slowest methods with their own split.

use std::fmt::Write;
use std::time::Duration;

use jreach_ide::MethodProfile;
use jreach_ide::QueryStats;

use crate::check_cmd::FileResult;

/// How many of the slowest methods are listed.
const SLOWEST: usize = 10;

/// The report, one line per phase and per slow method.
pub(crate) fn report(results: &[FileResult], wall: Duration) -> String {
    let mut total = MethodProfile::default();
    let (mut parse, mut context, mut methods_time) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut slow: Vec<(Duration, &FileResult, &(String, usize, MethodProfile))> = Vec::new();
    for r in results {
        parse += r.parse;
        context += r.context;
        for (t, p) in r.times.iter().zip(&r.profiles) {
            methods_time += *t;
            total.add(&p.2);
            slow.push((*t, r, p));
        }
    }
    slow.sort_by(|a, b| b.0.cmp(&a.0));
    let busy = parse + context + methods_time;
    let known = total.lower
        + total.encode
        + total.runs
        + total.reach.time
        + total.explain.time
        + total.exact_loops
        + total.invariants
        + total.class_invariants;
    let other = methods_time.saturating_sub(known);
    let share = |d: Duration| 100.0 * d.as_secs_f64() / busy.as_secs_f64().max(1e-9);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "timings: {:.2} s of work in {:.2} s of wall time ({} methods, {} blocks)",
        busy.as_secs_f64(),
        wall.as_secs_f64(),
        slow.len(),
        total.blocks
    );
    let mut phase = |name: &str, d: Duration, extra: String| {
        let _ = writeln!(s, "  {name:<16} {:>9.2} s {:>5.1}%{extra}", d.as_secs_f64(), share(d));
    };
    phase("parsing", parse, String::new());
    phase("class tables", context, String::new());
    phase("lowering", total.lower, String::new());
    phase("encoding", total.encode, String::new());
    phase("concrete runs", total.runs, String::new());
    phase("reach queries", total.reach.time, format!("  {}", queries(&total.reach)));
    phase("explain queries", total.explain.time, format!("  {}", queries(&total.explain)));
    phase("exact loops", total.exact_loops, "  (loops unrolled for proofs, when bounded)".to_string());
    phase("loop invariants", total.invariants, "  (Houdini over parity and bounds)".to_string());
    phase("class invariants", total.class_invariants, "  (Houdini over the conditions of a class)".to_string());
    phase("other", other, "  (finding statements, describing findings)".to_string());
    let _ = writeln!(s, "  slowest methods:");
    for (t, r, (sig, line, p)) in slow.iter().take(SLOWEST) {
        let _ = writeln!(
            s,
            "  {:>9.2} s  {}:{line} {sig}: {} blocks, lowering {:.2} s, encoding {:.2} s, reach {:.2} s ({}), explain {:.2} s ({})",
            t.as_secs_f64(),
            r.path.display(),
            p.blocks,
            p.lower.as_secs_f64(),
            p.encode.as_secs_f64(),
            p.reach.time.as_secs_f64(),
            queries(&p.reach),
            p.explain.time.as_secs_f64(),
            queries(&p.explain),
        );
    }
    s
}

/// "12 queries: 9 sat, 2 unsat, 1 gave up, 1 quick look deferred".
fn queries(q: &QueryStats) -> String {
    let mut s = format!("{} queries: {} sat, {} unsat, {} gave up", q.count(), q.sat, q.unsat, q.gave_up());
    if q.deferred > 0 {
        let _ = write!(s, ", {} quick look{} deferred", q.deferred, if q.deferred == 1 { "" } else { "s" });
    }
    s
}
