//! `jreach dump`: the IR of one method as the engine lowers it for synthesis or for proofs.

use jreach_ir::lower::{lower_in, FileContext, LowerOptions};
use jreach_ir::LowerMode;
use jreach_syntax::{MethodInfo, SourceFile};

use crate::synthesis_options;

/// How to lower a method for [`dump`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DumpMode {
    /// As `gen` first lowers it: loops unrolled `unroll` times, and with `setup_calls` the calls
    /// on created objects that `gen` tries second.
    Synthesis { unroll: u32, setup_calls: bool },
    /// As proofs lower it: loops and unseen calls abstracted.
    OverApprox,
}

/// The text of the IR of `m` of `file` (with source lines).
pub fn dump(file: &SourceFile, m: &MethodInfo, mode: DumpMode) -> String {
    let ctx = FileContext::new(file, None, None);
    let opts = match mode {
        DumpMode::Synthesis { unroll, setup_calls } => synthesis_options(&ctx, m, unroll, setup_calls),
        DumpMode::OverApprox => LowerOptions { mode: LowerMode::OverApprox, ..Default::default() },
    };
    jreach_ir::dump::dump(&lower_in(&ctx, m, &opts), Some(&file.lines))
}
