//! Java types as z3 sorts: booleans, bit-vectors of the integral types' widths, IEEE floats,
//! strings, 32-bit references, and the memories of arrays and fields.

use jreach_ir::Ty;
use z3::Sort;

/// The sort of a reference.
pub fn ref_sort() -> Sort {
    Sort::bitvector(32)
}

/// The sort of the contents of arrays of type `t`.
pub fn contents_sort(elem_sort: &Sort) -> Sort {
    Sort::array(&ref_sort(), &Sort::array(&Sort::bitvector(32), elem_sort))
}

/// The sort of a value of Java type `ty` (memories included).
pub fn sort_of(ty: Ty) -> Sort {
    match ty {
        Ty::Bool => Sort::bool(),
        Ty::Float => Sort::float32(),
        Ty::Double => Sort::double(),
        Ty::Str => Sort::string(),
        Ty::Arr(_) | Ty::Obj(_) => ref_sort(),
        Ty::Mem(a) => contents_sort(&sort_of(a.elem())),
        t if t.is_integral() => Sort::bitvector(t.bits().expect("integral")),
        _ => Sort::uninterpreted("Ref".into()),
    }
}
