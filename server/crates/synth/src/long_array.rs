//! How a test writes an array too long to list: created by its length, filled with its most
//! common element when that is not the element type's default, then the elements that differ
//! stored one by one:
//!
//! ```text
//! int[] counts = new int[3072];
//! Arrays.fill(counts, 7);
//! counts[2049] = -1;
//! ```
//!
//! Only an array held in a local of the test can be written this way; one inside another value
//! keeps its initializer (see [`LongArray::of`]).

use crate::literal::{literal_as, split_array_type};
use crate::render::default_value;
use crate::JavaValue;

/// Arrays with more elements than this are written by length and stores, not by an initializer.
pub const LONG_ARRAY: usize = 64;

/// The statements that give a local its long array's elements.
#[derive(Debug, PartialEq)]
pub(crate) struct LongArray {
    /// `new int[3072]`, `new int[3072][]`: what the local is declared with.
    pub created: String,
    /// The value `Arrays.fill` gives every element, when the most common one is not the default.
    pub fill: Option<String>,
    /// Index and literal of each element that differs from the fill (or the default).
    pub stores: Vec<(usize, String)>,
}

impl LongArray {
    /// How the array `elem_ty[]` of `items` is written in a local, when it is long and each element
    /// is a literal (a number, a character, a string, `null`); None for a short array or one whose
    /// elements are objects or arrays (their initializer stands). Elements that refer to another
    /// element or argument (`SameItem`, `SameAs`) are the renderer's to store and are left out.
    pub(crate) fn of(elem_ty: &str, items: &[JavaValue]) -> Option<LongArray> {
        if items.len() <= LONG_ARRAY {
            return None;
        }
        if !items.iter().all(is_stored_element) {
            return None;
        }
        let default = literal_as(elem_ty, &default_value(elem_ty));
        let literals: Vec<Option<String>> =
            items.iter().map(|v| (!refers_elsewhere(v)).then(|| literal_as(elem_ty, v))).collect();
        // The most common element, the default winning a tie (no `fill` then).
        let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for l in literals.iter().flatten() {
            *counts.entry(l.as_str()).or_default() += 1;
        }
        let default_count = counts.get(default.as_str()).copied().unwrap_or(0);
        let common = counts
            .iter()
            .filter(|(l, n)| **n > default_count && **l != default.as_str())
            .max_by(|(la, na), (lb, nb)| na.cmp(nb).then_with(|| lb.cmp(la)))
            .map(|(l, _)| l.to_string());
        let base = common.as_deref().unwrap_or(&default);
        let stores = literals
            .iter()
            .enumerate()
            .filter_map(|(k, l)| l.as_ref().filter(|l| l.as_str() != base).map(|l| (k, l.clone())))
            .collect();
        let (leaf, dims) = split_array_type(elem_ty);
        Some(LongArray { created: format!("new {leaf}[{}]{}", items.len(), "[]".repeat(dims)), fill: common, stores })
    }
}

/// Whether a long array with the element `v` can be written by length and stores
/// ([`LongArray::of`]): a number, a character, a boolean, a string, `null`, or another element or
/// argument (`SameItem`, `SameAs`, which the renderer stores).
pub fn is_stored_element(v: &JavaValue) -> bool {
    refers_elsewhere(v)
        || matches!(
            v,
            JavaValue::Bool(_)
                | JavaValue::Byte(_)
                | JavaValue::Short(_)
                | JavaValue::Char(_)
                | JavaValue::Int(_)
                | JavaValue::Long(_)
                | JavaValue::Float(_)
                | JavaValue::Double(_)
                | JavaValue::Str(_)
                | JavaValue::Null
        )
}

/// An element standing for another element or argument, which the renderer stores.
pub(crate) fn refers_elsewhere(v: &JavaValue) -> bool {
    matches!(v, JavaValue::SameItem(_) | JavaValue::SameAs(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(n: usize, base: i32, special: &[(usize, i32)]) -> Vec<JavaValue> {
        let mut v = vec![JavaValue::Int(base); n];
        for (k, x) in special {
            v[*k] = JavaValue::Int(*x);
        }
        v
    }

    #[test]
    fn a_short_array_keeps_its_initializer() {
        assert_eq!(LongArray::of("int", &ints(LONG_ARRAY, 0, &[])), None);
    }

    #[test]
    fn a_long_array_of_defaults_is_created_by_length_and_stores_what_differs() {
        let a = LongArray::of("int", &ints(3072, 0, &[(2049, -1), (7, 5)])).expect("long");
        assert_eq!(a.created, "new int[3072]");
        assert_eq!(a.fill, None);
        assert_eq!(a.stores, vec![(7, "5".to_string()), (2049, "-1".to_string())]);
    }

    #[test]
    fn the_most_common_element_fills_the_array() {
        let a = LongArray::of("long", &ints(100, 7, &[(0, 0), (99, 3)])).expect("long");
        assert_eq!(a.fill.as_deref(), Some("7L"));
        assert_eq!(a.stores, vec![(0, "0L".to_string()), (99, "3L".to_string())]);
        let strings: Vec<JavaValue> =
            (0..70).map(|k| if k == 3 { JavaValue::Str("x".into()) } else { JavaValue::Null }).collect();
        let s = LongArray::of("String", &strings).expect("long");
        assert_eq!((s.created.as_str(), s.fill.as_deref()), ("new String[70]", None));
        assert_eq!(s.stores, vec![(3, "\"x\"".to_string())]);
    }

    #[test]
    fn elements_that_are_objects_or_rows_keep_the_initializer() {
        let rows = vec![JavaValue::Array { elem_ty: "int".into(), id: 2, items: vec![] }; 70];
        assert_eq!(LongArray::of("int[]", &rows), None);
        let nulls = vec![JavaValue::Null; 70];
        assert_eq!(LongArray::of("int[]", &nulls).expect("rows all null").created, "new int[70][]");
    }

    #[test]
    fn references_to_other_elements_are_left_to_the_renderer() {
        let mut v = ints(80, 0, &[(1, 4)]);
        v[5] = JavaValue::SameItem(1);
        let a = LongArray::of("int", &v).expect("long");
        assert_eq!(a.stores, vec![(1, "4".to_string())]);
    }
}
