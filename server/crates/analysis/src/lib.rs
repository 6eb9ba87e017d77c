//! Solver-independent reachability analysis over the IR: the edge conditions of the CFG, the slice
//! of a function that can matter for reaching a target (its cone of influence), and the
//! conditional definitions of Lichman & Gross with their reference resolution (`naive`).

pub mod edges;
pub mod naive;
pub mod slice;

pub use edges::{edge_cond, EdgeCond};
pub use slice::Slice;
