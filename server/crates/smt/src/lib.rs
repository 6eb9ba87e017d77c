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
mod solve;
pub mod strings;

pub use encode::Encoder;
pub use explain::{DeadCode, Decision, Status};
pub use naive::{solve_naive, solve_naive_with};
pub use solve::{solve_reach, SolveOptions, Verdict};
