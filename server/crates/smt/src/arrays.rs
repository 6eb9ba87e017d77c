//! Java arrays on z3's array theory. A reference is a 32-bit id (0 is null; arrays the method
//! allocates have negative ids). The memory of one array type is two z3 arrays: contents
//! (id → index → element) and lengths (id → int). Lengths are never negative.

use jreach_ir::{ArrTy, Ty};
use z3::ast::{Array, Bool, Dynamic, BV};
use z3::Sort;

use crate::sorts::{contents_sort, ref_sort, sort_of};

/// The names of the memory on entry (so models can be read back).
pub fn init_names(t: ArrTy) -> (String, String) {
    (format!("mem!{}", t.java_name()), format!("lens!{}", t.java_name()))
}

/// The memory of arrays of type `t` on entry.
pub fn init(t: ArrTy, elem_sort: &Sort) -> (Array, Array) {
    let _ = contents_sort(elem_sort);
    let (c, l) = init_names(t);
    (
        Array::new_const(c, &ref_sort(), &Sort::array(&Sort::bitvector(32), elem_sort)),
        Array::new_const(l, &ref_sort(), &Sort::bitvector(32)),
    )
}

/// A fresh memory (any contents and lengths).
pub fn fresh(t: ArrTy, elem_sort: &Sort) -> (Array, Array) {
    let _ = t;
    (
        Array::fresh_const("mem", &ref_sort(), &Sort::array(&Sort::bitvector(32), elem_sort)),
        Array::fresh_const("lens", &ref_sort(), &Sort::bitvector(32)),
    )
}

fn row(contents: &Array, r: &BV) -> Array {
    contents.select(r).as_array().expect("a row of an array memory")
}

/// A new array at `r` of `len` elements, all `zero`.
pub fn new(contents: &Array, lens: &Array, r: &BV, len: &BV, zero: &Dynamic) -> (Array, Array) {
    let empty = Array::const_array(&Sort::bitvector(32), zero);
    (contents.store(r, &empty), lens.store(r, len))
}

/// `a[i]`.
pub fn load(contents: &Array, r: &BV, i: &BV) -> Dynamic {
    row(contents, r).select(i)
}

/// `a[i] = v`.
pub fn store(contents: &Array, r: &BV, i: &BV, v: &Dynamic) -> Array {
    contents.store(r, &row(contents, r).store(i, v))
}

/// `a.length`, and the fact that it is not negative.
pub fn len(lens: &Array, r: &BV) -> (BV, Bool) {
    let l = lens.select(r).as_bv().expect("a length");
    let nonneg = l.bvsge(&BV::from_i64(0, 32));
    (l, nonneg)
}

/// The element type's sort and the value a new array holds.
pub fn elem_default(elem: Ty) -> Dynamic {
    match elem {
        Ty::Bool => Dynamic::from_ast(&Bool::from_bool(false)),
        Ty::Float => Dynamic::from_ast(&z3::ast::Float::from_f32(0.0)),
        Ty::Double => Dynamic::from_ast(&z3::ast::Float::from_f64(0.0)),
        Ty::Str => Dynamic::from_ast(&crate::strings::null()),
        Ty::Arr(_) => Dynamic::from_ast(&BV::from_i64(0, 32)),
        // Untracked references are any value, null included.
        Ty::Ref => Dynamic::fresh_const("ref", &sort_of(Ty::Ref)),
        t => Dynamic::from_ast(&BV::from_i64(0, t.bits().unwrap_or(32))),
    }
}

/// Equality of two memories' terms, for φs: `ite` on both parts.
pub fn ite(c: &Bool, a: &(Array, Array), b: &(Array, Array)) -> (Array, Array) {
    (c.ite(&a.0, &b.0), c.ite(&a.1, &b.1))
}

/// The name of field `i` of class `c` on entry (so models can be read back).
pub fn field_init_name(c: u16, i: u16) -> String {
    format!("field!{c}.{i}")
}

/// Field `i` of class `c` of every object, on entry.
pub fn field_init(c: u16, i: u16, value_sort: &Sort) -> Array {
    Array::new_const(field_init_name(c, i), &ref_sort(), value_sort)
}
