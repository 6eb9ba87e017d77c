//! The condition under which control flows over one CFG edge.

use jreach_ir::{BlockId, Function, Terminator, ValueId};

/// When the edge `pred → succ` is taken, given that `pred` runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EdgeCond {
    Always,
    /// Taken when the boolean value equals the flag.
    If(ValueId, bool),
}

/// The condition of the edge from `pred` to `succ` (which must be a successor of `pred`).
pub fn edge_cond(f: &Function, pred: BlockId, succ: BlockId) -> EdgeCond {
    match &f.block(pred).term {
        Terminator::Branch { cond, then_to, else_to, .. } if then_to != else_to => {
            if *then_to == succ {
                EdgeCond::If(*cond, true)
            } else {
                EdgeCond::If(*cond, false)
            }
        }
        _ => EdgeCond::Always,
    }
}
