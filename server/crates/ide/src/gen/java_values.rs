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
                && args.iter().chain(calls.iter().flat_map(|(_, a)| a)).all(|(_, x)| writable_inline(x))
        }
        JavaValue::Array { items, .. } | JavaValue::List { items, .. } => items.iter().all(writable_inline),
        JavaValue::Optional { item, .. } => item.as_deref().is_none_or(writable_inline),
        JavaValue::Map { entries, .. } => entries.iter().all(|(k, x)| writable_inline(k) && writable_inline(x)),
        _ => true,
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
