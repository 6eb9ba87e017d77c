//! The interpreter's values as Java values a test writes: literals, arrays, objects set field by
//! field, enum constants.

use jreach_ir::interp::Value;
use jreach_ir::{Function, Ty};
use jreach_synth::JavaValue;

/// Whether `v` can be written as one expression (an argument of the receiver's constructor): no
/// locals it refers to, no statements that set it up.
pub(crate) fn writable_inline(v: &JavaValue) -> bool {
    match v {
        JavaValue::SameAs(_) | JavaValue::SameItem(_) | JavaValue::ObjectRef(_) => false,
        JavaValue::Object { fields, by_reflection, .. } => !by_reflection && fields.iter().all(|(_, x)| x.is_default()),
        JavaValue::Constructed { args, calls, builder, .. } => {
            (builder.is_some() || calls.is_empty())
                && args.iter().chain(calls.iter().flat_map(|c| &c.args)).all(|(_, x)| writable_inline(x))
        }
        JavaValue::Array { items, .. } | JavaValue::List { items, .. } => items.iter().all(writable_inline),
        JavaValue::Optional { item, .. } => item.as_deref().is_none_or(writable_inline),
        JavaValue::Map { entries, .. } => entries.iter().all(|(k, x)| writable_inline(k) && writable_inline(x)),
        _ => true,
    }
}

/// Most elements an array written as an initializer (`new int[] {...}`) may have: a test method's
/// code has to stay within the JVM's 64 KB.
const MAX_INITIALIZER: usize = 1_024;

/// Why a test cannot write `v`, an argument (`top`: the value of a parameter itself, which the
/// test holds in a local): an array longer than [`MAX_INITIALIZER`] anywhere but in that local,
/// or whose elements a test cannot store one by one (`jreach_synth::is_stored_element`; such a
/// parameter's array is written by length and stores, see `jreach_synth::LONG_ARRAY`).
pub(crate) fn unwritable_long_array(v: &JavaValue, top: bool) -> Option<String> {
    let stored = |items: &[JavaValue]| top && items.iter().all(jreach_synth::is_stored_element);
    match v {
        JavaValue::Array { items, .. } if items.len() > MAX_INITIALIZER && !stored(items) => {
            let what = if top { "of objects, arrays or collections" } else { "inside another value" };
            Some(format!("an array of {} elements {what}", items.len()))
        }
        JavaValue::Array { items, .. } | JavaValue::List { items, .. } => {
            items.iter().find_map(|x| unwritable_long_array(x, false))
        }
        JavaValue::Object { fields, .. } => fields.iter().find_map(|(_, x)| unwritable_long_array(x, false)),
        JavaValue::Constructed { args, calls, .. } => {
            args.iter().chain(calls.iter().flat_map(|c| &c.args)).find_map(|(_, x)| unwritable_long_array(x, false))
        }
        JavaValue::Map { entries, .. } => entries
            .iter()
            .find_map(|(k, x)| unwritable_long_array(k, false).or_else(|| unwritable_long_array(x, false))),
        JavaValue::Optional { item: Some(x), .. } => unwritable_long_array(x, false),
        _ => None,
    }
}

/// [`java_value`] for a field a test sets, where a default value is left out as the field's
/// own: a boxed field holding `0` or `false` is written `Integer.valueOf(0)`, which is no default
/// (the box's field starts out null).
pub(crate) fn field_java_value(v: &Value, ty: Ty, f: &Function) -> Option<JavaValue> {
    let j = java_value(v, ty, f)?;
    let boxed = match ty {
        Ty::Obj(c) => f.classes[c as usize].boxes.is_some(),
        _ => false,
    };
    if !boxed || !j.is_default() || j == JavaValue::Null {
        return Some(j);
    }
    let Ty::Obj(c) = ty else { return Some(j) };
    let (class, prim) = (&f.classes[c as usize].name, f.classes[c as usize].boxes?);
    Some(JavaValue::Constructed {
        class: class.clone(),
        args: vec![(prim.java_name().to_string(), j)],
        calls: vec![],
        choices: vec![],
        body: None,
        factory: Some(format!("{class}.valueOf")),
        builder: None,
        cast_args: false,
    })
}

/// The Java value of an interpreter value (None when unknown).
pub(crate) fn java_value(v: &Value, ty: Ty, f: &Function) -> Option<JavaValue> {
    Some(match v {
        Value::Object { id, fields } => {
            let Ty::Obj(c) = ty else { return None };
            let desc = &f.classes[c as usize];
            if let Some(prim) = desc.boxes {
                // Autoboxing writes a box as its value.
                return java_value(fields.first()?, prim, f);
            }
            if !desc.buildable && !desc.reflective {
                return None;
            }
            let fields = desc
                .fields
                .iter()
                .zip(fields)
                .map(|(fd, fv)| Some((fd.name.clone(), field_java_value(fv, fd.ty, f)?)))
                .collect::<Option<Vec<_>>>()?;
            JavaValue::Object { class: desc.name.clone(), id: *id, fields, by_reflection: desc.reflective }
        }
        Value::ObjRef(id) => match ty {
            Ty::Obj(c) if f.classes[c as usize].is_enum() => {
                let desc = &f.classes[c as usize];
                match usize::try_from(*id - 1).ok().and_then(|k| desc.constants.get(k)) {
                    Some(name) => JavaValue::EnumConstant { class: desc.name.clone(), name: name.clone() },
                    None if *id == 0 => JavaValue::Null,
                    None => return None,
                }
            }
            _ => JavaValue::ObjectRef(*id),
        },
        Value::Fields(_) => return None,
        Value::Array { id, items } => {
            // Arrays of references jreach does not track: their Java type is not known here.
            let Ty::Arr(a) = ty else { return None };
            if a.leaf == jreach_ir::Leaf::Ref {
                return None;
            }
            let elem = a.elem();
            let elem_ty = f.java_type_name(elem);
            let items = items.iter().map(|i| java_value(i, elem, f)).collect::<Option<Vec<_>>>()?;
            JavaValue::Array { elem_ty, id: *id, items }
        }
        Value::ArrRef(_) | Value::Mem(_) => return None,
        Value::Bool(b) => JavaValue::Bool(*b),
        Value::Int(Ty::Byte, x) => JavaValue::Byte(*x as i8),
        Value::Int(Ty::Short, x) => JavaValue::Short(*x as i16),
        Value::Int(Ty::Char, x) => JavaValue::Char(*x as u16),
        Value::Int(Ty::Long, x) => JavaValue::Long(*x),
        Value::Int(_, x) => JavaValue::Int(*x as i32),
        Value::Float(x) => JavaValue::Float(*x),
        Value::Double(x) => JavaValue::Double(*x),
        Value::Str(s) => JavaValue::Str(s.clone()),
        Value::Null => JavaValue::Null,
        Value::Unknown(_) => return None,
    })
}

/// The element type of an array parameter as written (`Type...`, `final String[]`): `Type`,
/// `String`.
pub(crate) fn array_elem(java_ty: &str) -> Option<&str> {
    let ty = java_ty.trim();
    let elem = ty.strip_suffix("...").or_else(|| ty.strip_suffix("[]"))?.trim();
    Some(elem.strip_prefix("final ").unwrap_or(elem).trim())
}

/// An empty array of references the model does not track (`Type... typeArguments` with no
/// arguments), when a test can name its element type: a JDK type a test writes values of
/// (`new Type[0]`); its elements' values would be the model's guesses, so only empty ones.
pub(crate) fn empty_array_of_named_elements(a: &Value, p: &jreach_ir::ParamInfo) -> Option<JavaValue> {
    let Value::Array { id, items } = a else { return None };
    if !items.is_empty() {
        return None;
    }
    let elem = array_elem(&p.java_ty)?;
    jreach_ir::opaque_jdk::test_writes_value_of(elem).then(|| JavaValue::Array {
        elem_ty: elem.to_string(),
        id: *id,
        items: vec![],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(n: usize) -> JavaValue {
        JavaValue::Array { elem_ty: "int".into(), id: 1, items: vec![JavaValue::Int(1); n] }
    }

    #[test]
    fn a_long_array_is_written_only_as_a_parameter_of_plain_elements() {
        // A parameter's long array of numbers: by length and stores.
        assert_eq!(unwritable_long_array(&ints(5_000), true), None);
        // Inside another value only an initializer can write it, and a long one does not fit.
        let nested = JavaValue::Array { elem_ty: "int[]".into(), id: 2, items: vec![ints(5_000)] };
        assert_eq!(
            unwritable_long_array(&nested, true).as_deref(),
            Some("an array of 5000 elements inside another value")
        );
        assert_eq!(unwritable_long_array(&ints(MAX_INITIALIZER), false), None);
        // Rows of a long two-dimensional array are arrays: written by the initializer.
        let rows = JavaValue::Array { elem_ty: "int[]".into(), id: 3, items: vec![ints(1); 2_000] };
        assert_eq!(
            unwritable_long_array(&rows, true).as_deref(),
            Some("an array of 2000 elements of objects, arrays or collections")
        );
        let list = JavaValue::List { elem_ty: "int[]".into(), items: vec![ints(2_000)], mutable: false };
        assert!(unwritable_long_array(&list, true).is_some());
    }
}
