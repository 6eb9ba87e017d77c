//! The part of a function that can influence whether a set of target blocks runs: the blocks
//! from which a target can be reached, and the values their branch conditions and φs read.

use jreach_ir::{BlockId, Function, Op, Terminator, ValueId};

/// Which blocks and values matter for reaching the targets.
#[derive(Clone, Debug)]
pub struct Slice {
    pub blocks: Vec<bool>,
    pub values: Vec<bool>,
}

impl Slice {
    /// Computes the slice for reaching any of `targets`.
    pub fn for_targets(f: &Function, targets: &[BlockId]) -> Slice {
        let mut blocks = vec![false; f.blocks.len()];
        // Blocks are in topological order: walk backwards once.
        for t in targets {
            blocks[t.index()] = true;
        }
        for b in (0..f.blocks.len()).rev() {
            if blocks[b] {
                continue;
            }
            if f.blocks[b].term.successors().iter().any(|s| blocks[s.index()]) {
                blocks[b] = true;
            }
        }
        let mut values = vec![false; f.values.len()];
        let mut work: Vec<ValueId> = Vec::new();
        for (i, blk) in f.blocks.iter().enumerate() {
            if !blocks[i] {
                continue;
            }
            if let Terminator::Branch { cond, then_to, else_to, .. } = &blk.term {
                if blocks[then_to.index()] || blocks[else_to.index()] {
                    work.push(*cond);
                }
            }
        }
        // φs of needed blocks are needed only when something needed reads them; start from the
        // branch conditions and close over operands.
        while let Some(v) = work.pop() {
            if values[v.index()] {
                continue;
            }
            values[v.index()] = true;
            let vd = f.value(v);
            if let Op::Phi(ins) = &vd.op {
                for (p, _) in ins {
                    // The φ's choice depends on which edge was taken: the predecessor's branch.
                    if let Terminator::Branch { cond, .. } = &f.block(*p).term {
                        work.push(*cond);
                    }
                }
            }
            work.extend(vd.op.operands());
        }
        Slice { blocks, values }
    }

    pub fn has_block(&self, b: BlockId) -> bool {
        self.blocks[b.index()]
    }

    pub fn has_value(&self, v: ValueId) -> bool {
        self.values[v.index()]
    }
}
