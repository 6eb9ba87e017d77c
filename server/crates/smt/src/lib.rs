//! The only crate that talks to z3. It turns an IR function into one formula with sharing (every
//! SSA value one term, a φ an `ite` over the guards of its incoming edges, the guard of a block the
//! disjunction over its predecessors of guard ∧ edge condition), solves it with a time limit, and
//! reads parameter values back from the model.
//!
//! z3 0.22 keeps its context per thread: terms never leave the thread that built them, so callers
//! share IR, not terms.

mod arrays;
mod encode;
mod explain;
mod ffi;
mod naive;
mod slow_log;
mod solve;
mod sorts;
pub mod strings;

pub use encode::Encoder;
pub use ffi::solver_version;
pub use slow_log::log_slow_queries;

/// The oldest libz3 jreach runs on without known faults: Debian's 4.8.12 crashes inside
/// `Z3_solver_check_assumptions` on real code. `scripts/setup.sh` installs a current release.
pub const MIN_SOLVER_VERSION: (u32, u32, u32) = (4, 13, 0);

/// A warning to show when the linked libz3 is older than [`MIN_SOLVER_VERSION`].
pub fn solver_version_warning() -> Option<String> {
    let v = solver_version();
    (v < MIN_SOLVER_VERSION).then(|| {
        format!(
            "jreach runs with libz3 {}.{}.{}, which is known to crash on some methods; install libz3 {}.{} or newer (scripts/setup.sh does) and rebuild",
            v.0, v.1, v.2, MIN_SOLVER_VERSION.0, MIN_SOLVER_VERSION.1
        )
    })
}
/// The limit set by [`limit_solver_memory`] (0: none).
pub(crate) static SOLVER_MEMORY_MB: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Makes every query give up once z3's allocations in this process pass `mb` megabytes (0: no
/// limit, the default). The limit is the process's, not a query's: while one query holds most of
/// it, the queries of other threads give up too, until it lets go (their answer is then
/// "unknown", never a wrong one, but which methods get a verdict then depends on timing).
pub fn limit_solver_memory(mb: u32) {
    if mb > 0 {
        z3::set_global_param("memory_high_watermark_mb", &mb.to_string());
    }
    SOLVER_MEMORY_MB.store(mb, std::sync::atomic::Ordering::Relaxed);
}

/// Runs `work` with a z3 context of its own, dropped when it returns: what the solver answers
/// then does not depend on what the thread solved before (z3's search depends on the terms its
/// context has seen), and the context's memory is given back.
pub fn with_own_context<R: Send + Sync>(work: impl FnOnce() -> R + Send + Sync) -> R {
    z3::with_z3_config(&z3::Config::new(), work)
}

pub use explain::{DeadCode, Decision, NeedsLonger, QueryStats, Status};
pub use naive::{solve_naive, solve_naive_with};
pub use solve::{
    broken_class_invariants, discharge_invariants, discharge_unwinding, solve_reach, solve_reach_avoiding,
    solve_reach_fixing, GaveUp, SolveOptions, Verdict,
};
