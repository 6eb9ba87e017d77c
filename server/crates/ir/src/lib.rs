//! The intermediate representation: one Java method body, lowered to a control-flow graph in SSA
//! form (Braun et al. 2013), with calls to visible helpers inlined and loops either unrolled to a
//! bound (synthesis) or abstracted by havoc (unreachability proofs).
//!
//! Every lowered body is acyclic: the encoding in `analysis`/`smt` is one pass in block order.
//! Blocks are created in a topological order (every edge goes from a lower to a higher block id),
//! which the verifier checks.

pub mod builder;
mod classes;
pub mod dump;
pub mod exceptions;
pub mod func;
pub mod interp;
pub mod lower;
pub mod opaque_jdk;

pub mod types;
pub mod verify;

pub use func::*;
pub use types::{ArrTy, Const, Leaf, Ty};
