//! The values the interpreter computes: primitives, strings, arrays and objects (as arguments
//! and as references into memories), memories, and the unknown.

use std::fmt;

use crate::types::{normalize, Const, Ty};

/// A runtime value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    /// An integral value of the given type, normalised with [`normalize`].
    Int(Ty, i64),
    Float(f32),
    Double(f64),
    Str(String),
    Null,
    /// An array argument: its identity (equal ids are the same array) and its elements.
    Array {
        id: i64,
        items: Vec<Value>,
    },
    /// An array reference at run time (0 is null).
    ArrRef(i64),
    /// The arrays of one type at run time: id → elements. Persistent: every store makes a new
    /// memory (the old one stays a value of its own) in time logarithmic in the array's length.
    Mem(std::rc::Rc<imbl::OrdMap<i64, imbl::Vector<Value>>>),
    /// An object argument: its identity (equal ids are the same object) and its fields in the
    /// class's order. A field that refers back to an object already described is an `ObjRef`.
    Object {
        id: i64,
        fields: Vec<Value>,
    },
    /// An object reference at run time (0 is null).
    ObjRef(i64),
    /// One field of every object of a class at run time: id → value.
    Fields(std::rc::Rc<std::collections::BTreeMap<i64, Value>>),
    /// A value the interpreter cannot compute; the string says why.
    Unknown(String),
}

impl Value {
    pub fn from_const(c: &Const) -> Value {
        match c {
            Const::Bool(b) => Value::Bool(*b),
            Const::Int(t, v) => Value::Int(*t, normalize(*t, *v)),
            Const::Float(bits) => Value::Float(f32::from_bits(*bits)),
            Const::Double(bits) => Value::Double(f64::from_bits(*bits)),
            Const::Str(s) => Value::Str(s.clone()),
            Const::Null => Value::Null,
        }
    }

    /// An integral value of type `ty`, wrapped to the type's width.
    pub fn int(ty: Ty, v: i64) -> Value {
        Value::Int(ty, normalize(ty, v))
    }

    /// The IR type of the value (`None` for unknowns).
    pub fn ty(&self) -> Option<Ty> {
        Some(match self {
            Value::Bool(_) => Ty::Bool,
            Value::Int(t, _) => *t,
            Value::Float(_) => Ty::Float,
            Value::Double(_) => Ty::Double,
            Value::Str(_) => Ty::Str,
            Value::Null => Ty::Ref,
            Value::Array { .. }
            | Value::ArrRef(_)
            | Value::Mem(_)
            | Value::Object { .. }
            | Value::ObjRef(_)
            | Value::Fields(_)
            | Value::Unknown(_) => return None,
        })
    }

    pub fn is_unknown(&self) -> bool {
        matches!(self, Value::Unknown(_))
    }
}

/// Java source syntax where there is one (`-5`, `7L`, `(byte) 3`, `'a'`, `1.5f`, `Double.NaN`,
/// `"a\n"`, `null`); unknowns print as `unknown (why)`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(Ty::Long, v) => write!(f, "{v}L"),
            Value::Int(Ty::Char, v) => write!(f, "'{}'", escape_char(*v as u32, '\'')),
            Value::Int(Ty::Int, v) => write!(f, "{v}"),
            Value::Int(t, v) => write!(f, "({t}) {v}"),
            Value::Float(x) => {
                if x.is_nan() {
                    f.write_str("Float.NaN")
                } else if x.is_infinite() {
                    f.write_str(if *x > 0.0 { "Float.POSITIVE_INFINITY" } else { "Float.NEGATIVE_INFINITY" })
                } else {
                    write!(f, "{x:?}f")
                }
            }
            Value::Double(x) => {
                if x.is_nan() {
                    f.write_str("Double.NaN")
                } else if x.is_infinite() {
                    f.write_str(if *x > 0.0 { "Double.POSITIVE_INFINITY" } else { "Double.NEGATIVE_INFINITY" })
                } else {
                    write!(f, "{x:?}")
                }
            }
            Value::Str(s) => {
                f.write_str("\"")?;
                for unit in s.encode_utf16() {
                    f.write_str(&escape_char(unit as u32, '"'))?;
                }
                f.write_str("\"")
            }
            Value::Null => f.write_str("null"),
            Value::Array { items, .. } => {
                let items: Vec<String> = items.iter().map(|i| i.to_string()).collect();
                write!(f, "{{{}}}", items.join(", "))
            }
            Value::ArrRef(id) => write!(f, "array#{id}"),
            Value::Mem(m) => write!(f, "memory of {} arrays", m.len()),
            Value::Object { id, fields } => {
                let fields: Vec<String> = fields.iter().map(|i| i.to_string()).collect();
                write!(f, "object#{id}{{{}}}", fields.join(", "))
            }
            Value::ObjRef(id) => write!(f, "object#{id}"),
            Value::Fields(m) => write!(f, "a field of {} objects", m.len()),
            Value::Unknown(why) => write!(f, "unknown ({why})"),
        }
    }
}

/// One UTF-16 code unit as it would appear inside a Java literal delimited by `quote`.
fn escape_char(unit: u32, quote: char) -> String {
    match unit {
        0x08 => "\\b".into(),
        0x09 => "\\t".into(),
        0x0a => "\\n".into(),
        0x0c => "\\f".into(),
        0x0d => "\\r".into(),
        0x5c => "\\\\".into(),
        u if u == quote as u32 => format!("\\{quote}"),
        0x20..=0x7e => char::from_u32(unit).map(String::from).unwrap_or_default(),
        u => format!("\\u{u:04x}"),
    }
}
