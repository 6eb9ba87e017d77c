//! Java primitive types and constants as the IR sees them.

use std::fmt;

/// The type of an IR value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Bool,
    Byte,
    Short,
    Char,
    Int,
    Long,
    Float,
    Double,
    /// `java.lang.String` (and the contents of a `StringBuilder`): a string or null.
    Str,
    /// Any other reference (objects): not modelled yet beyond constants and null.
    Ref,
    /// A reference to an array (an id; 0 is null).
    Arr(ArrTy),
    /// The contents and lengths of every array of one type (a state threaded through the code).
    Mem(ArrTy),
    /// A reference to an object of the class with this index in [`crate::Function::classes`]
    /// (an id; 0 is null).
    Obj(u16),
    /// One field (class index, field index) of every object of a class: id → value.
    Fields(u16, u16),
    Void,
}

/// The element type at the bottom of an array type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Leaf {
    Bool,
    Byte,
    Short,
    Char,
    Int,
    Long,
    Float,
    Double,
    Str,
    /// Objects of the class with this index in [`crate::Function::classes`].
    Obj(u16),
    /// References jreach does not track (`Object`, types it cannot see): any value each.
    Ref,
}

/// An array type: `dims` levels of `[]` over a leaf type (`int[][]` is `{Int, 2}`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrTy {
    pub leaf: Leaf,
    pub dims: u8,
}

impl Leaf {
    pub fn ty(self) -> Ty {
        match self {
            Leaf::Bool => Ty::Bool,
            Leaf::Byte => Ty::Byte,
            Leaf::Short => Ty::Short,
            Leaf::Char => Ty::Char,
            Leaf::Int => Ty::Int,
            Leaf::Long => Ty::Long,
            Leaf::Float => Ty::Float,
            Leaf::Double => Ty::Double,
            Leaf::Str => Ty::Str,
            Leaf::Obj(c) => Ty::Obj(c),
            Leaf::Ref => Ty::Ref,
        }
    }

    pub fn of(ty: Ty) -> Option<Leaf> {
        Some(match ty {
            Ty::Bool => Leaf::Bool,
            Ty::Byte => Leaf::Byte,
            Ty::Short => Leaf::Short,
            Ty::Char => Leaf::Char,
            Ty::Int => Leaf::Int,
            Ty::Long => Leaf::Long,
            Ty::Float => Leaf::Float,
            Ty::Double => Leaf::Double,
            Ty::Str => Leaf::Str,
            Ty::Obj(c) => Leaf::Obj(c),
            Ty::Ref => Leaf::Ref,
            _ => return None,
        })
    }
}

impl ArrTy {
    /// The type of an element.
    pub fn elem(self) -> Ty {
        if self.dims <= 1 {
            self.leaf.ty()
        } else {
            Ty::Arr(ArrTy { leaf: self.leaf, dims: self.dims - 1 })
        }
    }

    /// The Java spelling (`int[][]`); arrays of objects name their class by its index
    /// (`obj3[]`), see [`ArrTy::java_name_with`].
    pub fn java_name(self) -> String {
        self.java_name_with(|c| format!("obj{c}"))
    }

    /// The Java spelling, with `class` naming the class of an object leaf (`Point[][]`).
    pub fn java_name_with(self, class: impl Fn(u16) -> String) -> String {
        let leaf = match self.leaf {
            Leaf::Obj(c) => class(c),
            l => l.ty().java_name().to_string(),
        };
        format!("{leaf}{}", "[]".repeat(self.dims as usize))
    }

    /// The array type of a Java type as written (`int[]`, `char[][]`), with `extra` more
    /// dimensions from a declarator (`int a[]`); leaves of primitive and String types only.
    pub fn of_java(name: &str, extra: usize) -> Option<ArrTy> {
        ArrTy::of_java_with(name, extra, Ty::of_java)
    }

    /// [`ArrTy::of_java`] with `leaf` giving the type of the element type's name (so that arrays
    /// of a file's classes are arrays of objects).
    pub fn of_java_with(name: &str, extra: usize, leaf: impl Fn(&str) -> Ty) -> Option<ArrTy> {
        let name: String = name.chars().filter(|c| !c.is_whitespace()).collect();
        let mut base = name.as_str();
        let mut dims = extra;
        while let Some(b) = base.strip_suffix("[]") {
            base = b;
            dims += 1;
        }
        if let Some(b) = base.strip_suffix("...") {
            base = b;
            dims += 1;
        }
        if dims == 0 || dims > 8 {
            return None;
        }
        let leaf = Leaf::of(leaf(base))?;
        Some(ArrTy { leaf, dims: dims as u8 })
    }
}

impl Ty {
    /// Bit width of integral types (char is 16-bit unsigned).
    pub fn bits(self) -> Option<u32> {
        match self {
            Ty::Byte => Some(8),
            Ty::Short | Ty::Char => Some(16),
            Ty::Int => Some(32),
            Ty::Long => Some(64),
            _ => None,
        }
    }

    pub fn is_integral(self) -> bool {
        self.bits().is_some()
    }

    pub fn is_floating(self) -> bool {
        matches!(self, Ty::Float | Ty::Double)
    }

    pub fn is_numeric(self) -> bool {
        self.is_integral() || self.is_floating()
    }

    /// Whether the type is signed (every integral type except char).
    pub fn is_signed(self) -> bool {
        self != Ty::Char
    }

    /// The Java primitive type named `name`, if any.
    pub fn from_java(name: &str) -> Option<Ty> {
        Some(match name.trim() {
            "boolean" => Ty::Bool,
            "byte" => Ty::Byte,
            "short" => Ty::Short,
            "char" => Ty::Char,
            "int" => Ty::Int,
            "long" => Ty::Long,
            "float" => Ty::Float,
            "double" => Ty::Double,
            "void" => Ty::Void,
            _ => return None,
        })
    }

    /// The IR type of a Java type as written: primitives, `String`, arrays of those, everything
    /// else a plain reference (the string builders are objects of the class table: see
    /// `func::TEXT_BUILDER_CLASSES`).
    pub fn of_java(name: &str) -> Ty {
        let name = name.trim();
        if let Some(t) = Ty::from_java(name) {
            return t;
        }
        if let Some(a) = ArrTy::of_java(name, 0) {
            return Ty::Arr(a);
        }
        if is_string_type(name) {
            Ty::Str
        } else {
            Ty::Ref
        }
    }

    /// The Java spelling.
    pub fn java_name(self) -> &'static str {
        match self {
            Ty::Bool => "boolean",
            Ty::Byte => "byte",
            Ty::Short => "short",
            Ty::Char => "char",
            Ty::Int => "int",
            Ty::Long => "long",
            Ty::Float => "float",
            Ty::Double => "double",
            Ty::Str => "String",
            Ty::Ref => "Object",
            Ty::Arr(_) => "array",
            Ty::Mem(_) => "memory",
            Ty::Obj(_) => "object",
            Ty::Fields(..) => "fields",
            Ty::Void => "void",
        }
    }

    /// Binary numeric promotion (JLS 5.6.2) of two numeric types.
    pub fn promote2(a: Ty, b: Ty) -> Ty {
        if a == Ty::Double || b == Ty::Double {
            Ty::Double
        } else if a == Ty::Float || b == Ty::Float {
            Ty::Float
        } else if a == Ty::Long || b == Ty::Long {
            Ty::Long
        } else {
            Ty::Int
        }
    }

    /// Unary numeric promotion (JLS 5.6.1).
    pub fn promote1(a: Ty) -> Ty {
        match a {
            Ty::Byte | Ty::Short | Ty::Char => Ty::Int,
            t => t,
        }
    }
}

impl Ty {
    /// The element type of an array type (the type itself otherwise).
    pub fn elem_or_self(self) -> Ty {
        match self {
            Ty::Arr(a) => a.elem(),
            t => t,
        }
    }
}

/// `String` as written in a declaration.
pub fn is_string_type(name: &str) -> bool {
    matches!(name.trim(), "String" | "java.lang.String")
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Arr(a) => f.write_str(&a.java_name()),
            Ty::Mem(a) => write!(f, "memory of {}", a.java_name()),
            Ty::Obj(c) => write!(f, "object of class #{c}"),
            Ty::Fields(c, i) => write!(f, "field #{i} of class #{c}"),
            t => f.write_str(t.java_name()),
        }
    }
}

/// A constant. Integral values are stored normalised to their type: sign-extended for signed types,
/// zero-extended for char. Floating values are stored as their IEEE bits so constants can be hashed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Const {
    Bool(bool),
    Int(Ty, i64),
    Float(u32),
    Double(u64),
    Str(String),
    Null,
}

impl Const {
    /// An integral constant of type `ty`, wrapped to the type's width.
    pub fn int(ty: Ty, v: i64) -> Const {
        Const::Int(ty, normalize(ty, v))
    }

    pub fn f32(v: f32) -> Const {
        Const::Float(v.to_bits())
    }

    pub fn f64(v: f64) -> Const {
        Const::Double(v.to_bits())
    }

    pub fn ty(&self) -> Ty {
        match self {
            Const::Bool(_) => Ty::Bool,
            Const::Int(t, _) => *t,
            Const::Float(_) => Ty::Float,
            Const::Double(_) => Ty::Double,
            Const::Str(_) => Ty::Str,
            Const::Null => Ty::Ref,
        }
    }
}

/// Wraps `v` to the width and signedness of integral type `ty`.
pub fn normalize(ty: Ty, v: i64) -> i64 {
    match ty {
        Ty::Byte => v as i8 as i64,
        Ty::Short => v as i16 as i64,
        Ty::Char => v as u16 as i64,
        Ty::Int => v as i32 as i64,
        _ => v,
    }
}

impl fmt::Display for Const {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Const::Bool(b) => write!(f, "{b}"),
            Const::Int(Ty::Long, v) => write!(f, "{v}L"),
            Const::Int(Ty::Char, v) => write!(f, "(char) {v}"),
            Const::Int(Ty::Int, v) => write!(f, "{v}"),
            Const::Int(t, v) => write!(f, "({t}) {v}"),
            Const::Float(b) => write!(f, "{:?}f", f32::from_bits(*b)),
            Const::Double(b) => write!(f, "{:?}", f64::from_bits(*b)),
            Const::Str(s) => write!(f, "{s:?}"),
            Const::Null => f.write_str("null"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_wrap_to_their_type() {
        assert_eq!(Const::int(Ty::Byte, 200), Const::Int(Ty::Byte, -56));
        assert_eq!(Const::int(Ty::Char, -1), Const::Int(Ty::Char, 65535));
        assert_eq!(Const::int(Ty::Int, 1 << 31), Const::Int(Ty::Int, i32::MIN as i64));
    }

    #[test]
    fn promotion() {
        assert_eq!(Ty::promote2(Ty::Byte, Ty::Char), Ty::Int);
        assert_eq!(Ty::promote2(Ty::Int, Ty::Long), Ty::Long);
        assert_eq!(Ty::promote2(Ty::Long, Ty::Float), Ty::Float);
        assert_eq!(Ty::promote1(Ty::Short), Ty::Int);
    }
}
