//! Objects of the file's own classes on concrete values, for the interpreter: the field memories
//! built from the arguments, and field reads and writes.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::value::Value;
use crate::func::{Function, ObjOp};
use crate::types::Ty;

/// Records the value of field `field` of class `class` of every object `v` (of type `ty`) reaches.
fn register(f: &Function, v: &Value, ty: Ty, class: u16, field: u16, out: &mut BTreeMap<i64, Value>) {
    if let (Value::Array { items, .. }, Ty::Arr(a)) = (v, ty) {
        for item in items {
            register(f, item, a.elem(), class, field, out);
        }
        return;
    }
    let (Value::Object { id, fields }, Ty::Obj(c)) = (v, ty) else { return };
    if out.contains_key(id) && c == class {
        return;
    }
    let desc = &f.classes[c as usize];
    for (k, (fv, fd)) in fields.iter().zip(&desc.fields).enumerate() {
        if c == class && k == field as usize {
            let runtime = match fv {
                Value::Object { id, .. } | Value::ObjRef(id) => Value::ObjRef(*id),
                Value::Null if matches!(fd.ty, Ty::Obj(_)) => Value::ObjRef(0),
                other => other.clone(),
            };
            out.insert(*id, runtime);
        }
    }
    for (fv, fd) in fields.iter().zip(&desc.fields) {
        register(f, fv, fd.ty, class, field, out);
    }
}

/// Field `field` of class `class` of the objects the arguments of `f` refer to.
pub fn initial_fields(f: &Function, args: &[Value], class: u16, field: u16) -> Value {
    let mut out = BTreeMap::new();
    for (p, a) in f.params.iter().zip(args) {
        register(f, a, p.ty, class, field, &mut out);
    }
    Value::Fields(Rc::new(out))
}

fn reference(v: &Value) -> Result<i64, String> {
    match v {
        Value::ObjRef(id) => Ok(*id),
        Value::Null => Ok(0),
        other => Err(format!("object reference {other}")),
    }
}

/// Evaluates an object operation.
pub fn eval(op: ObjOp, args: &[Value]) -> Result<Value, String> {
    if let Some(Value::Unknown(why)) = args.iter().find(|a| a.is_unknown()) {
        return Ok(Value::Unknown(why.clone()));
    }
    let fields = |i: usize| -> Result<&Rc<BTreeMap<i64, Value>>, String> {
        match args.get(i) {
            Some(Value::Fields(m)) => Ok(m),
            other => Err(format!("{} expects a field memory, got {other:?}", op.name())),
        }
    };
    Ok(match op {
        ObjOp::Init => return Err("obj.init is evaluated by the interpreter".into()),
        ObjOp::Ref(id) => Value::ObjRef(id as i64),
        ObjOp::Get => {
            let id = reference(&args[1])?;
            fields(0)?.get(&id).cloned().ok_or_else(|| format!("no object #{id}"))?
        }
        ObjOp::Put => {
            let id = reference(&args[1])?;
            let mut m = fields(0)?.as_ref().clone();
            m.insert(id, args[2].clone());
            Value::Fields(Rc::new(m))
        }
    })
}
