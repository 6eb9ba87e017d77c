//! The two floating-point conversions the safe z3 API lacks, called through z3-sys.
#![allow(unsafe_code)]

use z3::ast::{Ast, Float, BV};
use z3::{Context, Sort};

/// Signed two's-complement bit-vector to floating point, rounding to nearest even.
pub fn bv_to_fp_signed(bv: &BV, sort: &Sort) -> Float {
    let ctx = Context::thread_local();
    let rm = z3::ast::RoundingMode::round_nearest_ties_to_even();
    // SAFETY: every pointer comes from a live object of this thread's context; Z3 returns a new
    // AST owned by that context, which `wrap` reference-counts.
    unsafe {
        let ast = z3_sys::Z3_mk_fpa_to_fp_signed(
            ctx.get_z3_context(),
            rm.get_z3_ast(),
            bv.get_z3_ast(),
            sort.get_z3_sort(),
        )
        .expect("Z3_mk_fpa_to_fp_signed on well-sorted arguments");
        Float::wrap(&ctx, ast)
    }
}
