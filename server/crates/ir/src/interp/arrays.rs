//! Java arrays on concrete values, for the interpreter: the memory of each array type, built
//! from the arguments, and the operations on it. Guarded cases (null, bounds, negative sizes) are
//! errors here because the lowering branches away before them.

use std::rc::Rc;

use imbl::{OrdMap, Vector};

use super::value::Value;
use crate::func::{ArrOp, Function};
use crate::types::{ArrTy, Const, Ty};

/// The longest array the interpreter makes (`new int[n]` with a larger `n` is an unknown).
const MAX_ELEMENTS: usize = 1 << 24;

/// The default value of an element type (what `new T[n]` holds).
pub fn default_value(ty: Ty) -> Value {
    match ty {
        Ty::Bool => Value::Bool(false),
        Ty::Float => Value::Float(0.0),
        Ty::Double => Value::Double(0.0),
        Ty::Str | Ty::Ref => Value::Null,
        Ty::Arr(_) => Value::ArrRef(0),
        Ty::Obj(_) => Value::ObjRef(0),
        t if t.is_integral() => Value::from_const(&Const::int(t, 0)),
        _ => Value::Unknown("an element of an unmodelled type".into()),
    }
}

/// Registers the arrays of `v` (of type `ty`) and returns the runtime value that refers to it.
/// Objects become references, after the arrays their fields hold are registered.
fn register(f: &Function, v: &Value, ty: Ty, want: ArrTy, out: &mut OrdMap<i64, Vector<Value>>) -> Value {
    match (v, ty) {
        (Value::Array { id, items }, Ty::Arr(a)) => {
            let elems: Vector<Value> = items.iter().map(|i| register(f, i, a.elem(), want, out)).collect();
            if a == want {
                out.insert(*id, elems);
            }
            Value::ArrRef(*id)
        }
        (Value::Null, Ty::Arr(_)) => Value::ArrRef(0),
        (Value::Object { id, fields }, Ty::Obj(c)) => {
            for (fv, fd) in fields.iter().zip(&f.classes[c as usize].fields) {
                register(f, fv, fd.ty, want, out);
            }
            Value::ObjRef(*id)
        }
        (Value::Null, Ty::Obj(_)) => Value::ObjRef(0),
        _ => v.clone(),
    }
}

/// The memory of arrays of type `t` that the arguments of `f` refer to.
pub fn initial_memory(f: &Function, args: &[Value], t: ArrTy) -> Value {
    let mut out = OrdMap::new();
    for (p, a) in f.params.iter().zip(args) {
        register(f, a, p.ty, t, &mut out);
    }
    Value::Mem(Rc::new(out))
}

fn index(v: &Value) -> Result<i64, String> {
    match v {
        Value::Int(_, i) => Ok(*i),
        other => Err(format!("index {other}")),
    }
}

fn reference(v: &Value) -> Result<i64, String> {
    match v {
        Value::ArrRef(id) => Ok(*id),
        Value::Null => Ok(0),
        other => Err(format!("array reference {other}")),
    }
}

/// Evaluates an array operation producing a value of type `ty`.
pub fn eval(op: ArrOp, args: &[Value], ty: Ty) -> Result<Value, String> {
    if let Some(Value::Unknown(why)) = args.iter().find(|a| a.is_unknown()) {
        return Ok(Value::Unknown(why.clone()));
    }
    let mem = |i: usize| -> Result<&Rc<OrdMap<i64, Vector<Value>>>, String> {
        match args.get(i) {
            Some(Value::Mem(m)) => Ok(m),
            other => Err(format!("{} expects a memory, got {other:?}", op.name())),
        }
    };
    Ok(match op {
        ArrOp::Init => return Err("arr.init is evaluated by the interpreter".into()),
        ArrOp::Ref(id) => Value::ArrRef(id as i64),
        ArrOp::New => {
            let Ty::Mem(t) = ty else { return Err(format!("arr.new of type {ty}")) };
            let id = reference(&args[1])?;
            let n = index(&args[2])?;
            let n = usize::try_from(n).map_err(|_| "negative array size")?;
            if n > MAX_ELEMENTS {
                // Java may well make it; the interpreter does not hold it in memory.
                return Ok(Value::Unknown(format!("an array of {n} elements, more than jreach runs on its model")));
            }
            let mut m = mem(0)?.as_ref().clone();
            m.insert(id, std::iter::repeat_n(default_value(t.elem()), n).collect());
            Value::Mem(Rc::new(m))
        }
        ArrOp::Load => {
            let id = reference(&args[1])?;
            let i = index(&args[2])?;
            let elems = mem(0)?.get(&id).ok_or_else(|| format!("no array #{id}"))?;
            elems.get(usize::try_from(i).map_err(|_| "negative index")?).cloned().ok_or("index past the end")?
        }
        ArrOp::Store => {
            let id = reference(&args[1])?;
            let i = usize::try_from(index(&args[2])?).map_err(|_| "negative index")?;
            let mut m = mem(0)?.as_ref().clone();
            let elems = m.get_mut(&id).ok_or_else(|| format!("no array #{id}"))?;
            if i >= elems.len() {
                return Err("index past the end".into());
            }
            elems.set(i, args[3].clone());
            Value::Mem(Rc::new(m))
        }
        ArrOp::Len => {
            let id = reference(&args[1])?;
            let elems = mem(0)?.get(&id).ok_or_else(|| format!("no array #{id}"))?;
            Value::int(Ty::Int, elems.len() as i64)
        }
    })
}
