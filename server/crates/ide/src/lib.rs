//! The engine as one façade: from a file and a line to a test, a proof of unreachability or an
//! honest "unknown" (`gen`), and from a file to its provably dead statements (`check`, or
//! [`MethodCache::check_file`], which re-checks only the methods an edit touched). Pure
//! functions of their inputs: no I/O here beyond what the caller hands in.

mod cache;
mod check;
mod class_invariants;
mod contain;
mod dump;
mod exact_loops;
mod gen;
mod live_runs;
mod loop_invariants;

pub use cache::{CacheStats, MethodCache, MethodKey, PartialReport, PARTIAL_EVERY};
pub use check::{
    check_file, check_method, check_method_profiled, CheckReport, Condition, Conflict, Finding, FindingKind,
    MethodProfile, MethodVerdict, Related, CONDITION_ALWAYS_FALSE, CONDITION_ALWAYS_TRUE, DEFAULT_CHECK_TIMEOUT,
    SUPPRESSED, UNREACHABLE_CODE,
};
pub use class_invariants::ClassInvariants;
pub use dump::{dump, DumpMode};
pub use gen::{
    concolic, gen, search_start, search_starts, searched_through_field, synthesis_options, ConcolicLimits, Engine,
    GenError, GenOptions, GenResult, Knobs, Limit, RunOnJvm, Unknown, DEFAULT_UNROLL, USUAL_UNROLL,
};
pub use jreach_ir::lower::FileContext;
pub use jreach_smt::{
    limit_solver_memory, log_slow_queries, solver_version_warning, with_own_context as with_own_solver_context,
    QueryStats,
};
