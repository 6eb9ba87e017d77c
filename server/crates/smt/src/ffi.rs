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
        let ast =
            z3_sys::Z3_mk_fpa_to_fp_signed(ctx.get_z3_context(), rm.get_z3_ast(), bv.get_z3_ast(), sort.get_z3_sort())
                .expect("Z3_mk_fpa_to_fp_signed on well-sorted arguments");
        Float::wrap(&ctx, ast)
    }
}

/// `str.indexof(s, t, 0)` (an Int, -1 when absent).
pub fn seq_index(s: &z3::ast::String, t: &z3::ast::String) -> z3::ast::Int {
    let ctx = Context::thread_local();
    let zero = z3::ast::Int::from_i64(0);
    // SAFETY: as above; all operands belong to this thread's context.
    unsafe {
        let ast = z3_sys::Z3_mk_seq_index(ctx.get_z3_context(), s.get_z3_ast(), t.get_z3_ast(), zero.get_z3_ast())
            .expect("Z3_mk_seq_index on strings");
        z3::ast::Int::wrap(&ctx, ast)
    }
}

/// `str.lastindexof(s, t)`.
pub fn seq_last_index(s: &z3::ast::String, t: &z3::ast::String) -> z3::ast::Int {
    let ctx = Context::thread_local();
    // SAFETY: as above.
    unsafe {
        let ast = z3_sys::Z3_mk_seq_last_index(ctx.get_z3_context(), s.get_z3_ast(), t.get_z3_ast())
            .expect("Z3_mk_seq_last_index on strings");
        z3::ast::Int::wrap(&ctx, ast)
    }
}

/// `str.from_int(n)`: the decimal digits of a non-negative integer ("" for negatives).
pub fn int_to_str(n: &z3::ast::Int) -> z3::ast::String {
    let ctx = Context::thread_local();
    // SAFETY: as above.
    unsafe {
        let ast = z3_sys::Z3_mk_int_to_str(ctx.get_z3_context(), n.get_z3_ast()).expect("Z3_mk_int_to_str on an Int");
        z3::ast::String::wrap(&ctx, ast)
    }
}

/// `str.to_int(s)`: the value of a string of decimal digits, -1 for anything else.
pub fn str_to_int(s: &z3::ast::String) -> z3::ast::Int {
    let ctx = Context::thread_local();
    // SAFETY: as above.
    unsafe {
        let ast = z3_sys::Z3_mk_str_to_int(ctx.get_z3_context(), s.get_z3_ast()).expect("Z3_mk_str_to_int on a string");
        z3::ast::Int::wrap(&ctx, ast)
    }
}

/// The regular expression of the characters from `lo` to `hi` (one-character strings, which
/// may be escaped, unlike the safe API's `char` arguments).
pub fn re_range(lo: &z3::ast::String, hi: &z3::ast::String) -> z3::ast::Regexp {
    let ctx = Context::thread_local();
    // SAFETY: as above.
    unsafe {
        let ast = z3_sys::Z3_mk_re_range(ctx.get_z3_context(), lo.get_z3_ast(), hi.get_z3_ast())
            .expect("Z3_mk_re_range on one-character strings");
        z3::ast::Regexp::wrap(&ctx, ast)
    }
}

/// The version of the libz3 this process runs with: `(major, minor, build)`.
pub fn solver_version() -> (u32, u32, u32) {
    let (mut major, mut minor, mut build, mut revision) = (0, 0, 0, 0);
    // SAFETY: `Z3_get_version` only writes the four integers it is given.
    unsafe { z3_sys::Z3_get_version(&mut major, &mut minor, &mut build, &mut revision) };
    (major, minor, build)
}

/// `str.from_code(n)`: the one-character string of code point `n` (empty outside the range).
pub fn string_from_code(n: &z3::ast::Int) -> z3::ast::String {
    let ctx = Context::thread_local();
    // SAFETY: as above; the operand belongs to this thread's context.
    unsafe {
        let ast = z3_sys::Z3_mk_string_from_code(ctx.get_z3_context(), n.get_z3_ast())
            .expect("Z3_mk_string_from_code on an integer");
        z3::ast::String::wrap(&ctx, ast)
    }
}

/// `str.to_code(s)`: the code point of a one-character string, -1 for other strings.
pub fn string_to_code(s: &z3::ast::String) -> z3::ast::Int {
    let ctx = Context::thread_local();
    // SAFETY: as above.
    unsafe {
        let ast = z3_sys::Z3_mk_string_to_code(ctx.get_z3_context(), s.get_z3_ast())
            .expect("Z3_mk_string_to_code on a string");
        z3::ast::Int::wrap(&ctx, ast)
    }
}
