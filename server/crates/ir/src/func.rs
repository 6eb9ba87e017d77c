//! The IR data model: a function is an arena of blocks and values with typed ids.

use std::fmt;
use std::ops::Range;

use crate::types::{Const, Ty};

/// Index of a value in [`Function::values`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

/// Index of a block in [`Function::blocks`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

impl ValueId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl BlockId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ValueId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

impl fmt::Display for BlockId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b{}", self.0)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Arithmetic negation (wrapping for integers, IEEE for floating point).
    Neg,
    /// Bitwise complement `~` (integral types).
    BitNot,
    /// Logical `!` (boolean).
    Not,
}

/// Binary operators. Both operands have the same type, except shifts, whose right operand is
/// always `int` (the distance is masked by the left operand's width, JLS 15.19). Comparisons yield
/// `boolean`; everything else yields the operand type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Integral division truncates toward zero; the lowering has already branched away when the
    /// divisor is zero. Floating division is IEEE.
    Div,
    /// Integral remainder takes the sign of the dividend; floating remainder is Java's `%` (fmod).
    Rem,
    Shl,
    Shr,
    Ushr,
    /// `&`, `|`, `^` on integral types or on booleans (non-short-circuit).
    And,
    Or,
    Xor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinOp {
    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
    }

    pub fn is_shift(self) -> bool {
        matches!(self, BinOp::Shl | BinOp::Shr | BinOp::Ushr)
    }

    /// The Java spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Ushr => ">>>",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
        }
    }
}

/// Operations on strings (`Ty::Str` values). The lowering has already branched away where Java
/// throws (null receivers, indices out of range, unparsable numbers), so every operation here is
/// total on the inputs it can meet.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StrOp {
    /// The null string (no operands).
    Null,
    /// `s == null`.
    IsNull,
    /// `a + b` on non-null strings.
    Concat,
    /// `String.valueOf(s)`: `"null"` for null, else `s`.
    ToStr,
    /// `s.length()` (int).
    Length,
    /// `s.charAt(i)` with `0 <= i < length` (char).
    CharAt,
    /// `s.substring(b, e)` with `0 <= b <= e <= length`.
    Substring,
    /// `a.equals(b)`; `b` may be null.
    Equals,
    EqualsIgnoreCase,
    StartsWith,
    EndsWith,
    Contains,
    /// `s.indexOf(t)` (int, -1 when absent).
    IndexOf,
    LastIndexOf,
    /// `s.trim()`: without leading and trailing characters `<= ' '`.
    Trim,
    /// ASCII case mapping (other characters unchanged).
    ToLowerCase,
    ToUpperCase,
    /// The sign of `a.compareTo(b)` as -1, 0 or 1 is exact; the magnitude is not modelled.
    CompareTo,
    /// `String.valueOf(char)`.
    FromChar,
    /// `String.valueOf(int or long)`.
    FromInt,
    /// `String.valueOf(boolean)`.
    FromBool,
    /// Whether `Integer.parseInt(s)` succeeds (bool).
    ParsesAsInt,
    /// `Integer.parseInt(s)` when it succeeds (int).
    ParseInt,
    /// `new StringBuilder(s).reverse().toString()`.
    Reverse,
    /// `new StringBuilder(s).insert(i, t).toString()` with `0 <= i <= length`.
    Insert,
}

impl StrOp {
    /// The Java-ish name used in dumps.
    pub fn name(self) -> &'static str {
        match self {
            StrOp::Null => "str.null",
            StrOp::IsNull => "str.isnull",
            StrOp::Concat => "str.concat",
            StrOp::ToStr => "str.valueof",
            StrOp::Length => "str.length",
            StrOp::CharAt => "str.charat",
            StrOp::Substring => "str.substring",
            StrOp::Equals => "str.equals",
            StrOp::EqualsIgnoreCase => "str.equalsignorecase",
            StrOp::StartsWith => "str.startswith",
            StrOp::EndsWith => "str.endswith",
            StrOp::Contains => "str.contains",
            StrOp::IndexOf => "str.indexof",
            StrOp::LastIndexOf => "str.lastindexof",
            StrOp::Trim => "str.trim",
            StrOp::ToLowerCase => "str.tolower",
            StrOp::ToUpperCase => "str.toupper",
            StrOp::CompareTo => "str.compareto",
            StrOp::FromChar => "str.fromchar",
            StrOp::FromInt => "str.fromint",
            StrOp::FromBool => "str.frombool",
            StrOp::ParsesAsInt => "str.parsesasint",
            StrOp::ParseInt => "str.parseint",
            StrOp::Reverse => "str.reverse",
            StrOp::Insert => "str.insert",
        }
    }

    /// The number of operands.
    pub fn arity(self) -> usize {
        match self {
            StrOp::Null => 0,
            StrOp::Substring | StrOp::Insert => 3,
            StrOp::Concat
            | StrOp::CharAt
            | StrOp::Equals
            | StrOp::EqualsIgnoreCase
            | StrOp::StartsWith
            | StrOp::EndsWith
            | StrOp::Contains
            | StrOp::IndexOf
            | StrOp::LastIndexOf
            | StrOp::CompareTo => 2,
            _ => 1,
        }
    }

    /// The type of the result.
    pub fn result_ty(self) -> Ty {
        match self {
            StrOp::IsNull
            | StrOp::Equals
            | StrOp::EqualsIgnoreCase
            | StrOp::StartsWith
            | StrOp::EndsWith
            | StrOp::Contains
            | StrOp::ParsesAsInt => Ty::Bool,
            StrOp::Length | StrOp::IndexOf | StrOp::LastIndexOf | StrOp::CompareTo | StrOp::ParseInt => Ty::Int,
            StrOp::CharAt => Ty::Char,
            _ => Ty::Str,
        }
    }
}

/// Operations on arrays. References are ids (0 is null; arrays the method allocates get negative
/// ids); `Mem(T)` values hold the contents and lengths of all arrays of type `T`. The lowering has
/// already branched away where Java throws (null, index out of range, negative size).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArrOp {
    /// The array memory of a type on entry: the contents of the arrays the inputs refer to.
    Init,
    /// The reference with this id (0: null).
    Ref(i32),
    /// `[mem, ref, len]`: a new zero-filled array of `len` elements at `ref` → memory.
    New,
    /// `[mem, ref, index]` → element.
    Load,
    /// `[mem, ref, index, value]` → memory.
    Store,
    /// `[mem, ref]` → int.
    Len,
}

impl ArrOp {
    pub fn name(self) -> String {
        match self {
            ArrOp::Init => "arr.init".into(),
            ArrOp::Ref(id) => format!("arr.ref {id}"),
            ArrOp::New => "arr.new".into(),
            ArrOp::Load => "arr.load".into(),
            ArrOp::Store => "arr.store".into(),
            ArrOp::Len => "arr.len".into(),
        }
    }

    pub fn arity(self) -> usize {
        match self {
            ArrOp::Init | ArrOp::Ref(_) => 0,
            ArrOp::Len => 2,
            ArrOp::New | ArrOp::Load => 3,
            ArrOp::Store => 4,
        }
    }
}

/// Operations on objects of the file's own classes. References are ids (0 is null; objects the
/// method creates get negative ids); a `Fields(c, f)` value holds field `f` of every object of class
/// `c`. The lowering has already branched away on null receivers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObjOp {
    /// The field memory on entry: the field values of the objects the inputs refer to.
    Init,
    /// The reference with this id (0: null).
    Ref(i32),
    /// `[fields, ref]` → the field's value.
    Get,
    /// `[fields, ref, value]` → fields.
    Put,
}

impl ObjOp {
    pub fn name(self) -> String {
        match self {
            ObjOp::Init => "obj.init".into(),
            ObjOp::Ref(id) => format!("obj.ref {id}"),
            ObjOp::Get => "obj.get".into(),
            ObjOp::Put => "obj.put".into(),
        }
    }

    pub fn arity(self) -> usize {
        match self {
            ObjOp::Init | ObjOp::Ref(_) => 0,
            ObjOp::Get => 2,
            ObjOp::Put => 3,
        }
    }
}

/// A class of the file whose objects jreach models.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassDesc {
    /// As Java code outside the class names it (`Concolic.SimpleList`).
    pub name: String,
    /// Instance fields.
    pub fields: Vec<FieldDesc>,
    /// Whether a test can create one with `new C()` and then set every field directly.
    pub buildable: bool,
    /// Whether a test can make one only by reflection (synthesis only): a concrete class the
    /// test can name that has no constructor, static factory or builder a test may call. The
    /// test allocates it without running a constructor and sets every field, as for `buildable`.
    pub reflective: bool,
    /// For an enum: its constants in order (a reference to constant `k` has id `k + 1`).
    pub constants: Vec<String>,
    /// For `Integer`, `Long`, ...: the primitive type it boxes (its one field is the value).
    pub boxes: Option<Ty>,
    /// For an interface with a single abstract method: that method, which a lambda implements.
    pub lambda: Option<LambdaDesc>,
    /// For an interface with several abstract methods whose parameter and return types a test
    /// can write: those methods, which an anonymous class implements (empty otherwise). For an
    /// abstract class a test subclasses ([`ClassDesc::subclassed`]): its abstract methods.
    pub stub: Vec<StubMethod>,
    /// Whether a test makes one as an anonymous subclass (`new Shape(2) { ... }`, or
    /// `new Style() {}` when nothing is abstract): an abstract class whose abstract methods are
    /// all in `stub` and that implements no interface but markers (`Serializable`).
    pub subclassed: bool,
}

/// An abstract method of an interface that a test implements in an anonymous class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StubMethod {
    pub name: String,
    /// Its parameters: type as the test writes it, and name.
    pub params: Vec<(String, String)>,
    /// `Ty::Void` for `void`.
    pub ret: Ty,
    /// The return type as the test writes it.
    pub ret_java: String,
}

/// The single abstract method of a functional interface of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LambdaDesc {
    pub method: String,
    pub arity: usize,
    /// `Ty::Void` for `void`.
    pub ret: Ty,
    /// The return type as written.
    pub ret_java: String,
    /// The first parameter's type when it is an integral primitive (`int`, `char`, ...): a test's
    /// lambda may answer one value for one argument and another for the rest.
    pub first_param: Option<Ty>,
}

impl ClassDesc {
    pub fn is_enum(&self) -> bool {
        !self.constants.is_empty()
    }

    /// Objects whose state no call can change (enum constants, boxed values). Lists and maps
    /// are not: a test passes `new ArrayList<>(...)` when the method changes one, and a call
    /// jreach cannot see could change it too.
    pub fn is_immutable(&self) -> bool {
        self.is_enum() || self.boxes.is_some()
    }

    /// `java.util.Optional`, whose objects synthesis models as lists of at most one element.
    pub fn is_optional(&self) -> bool {
        self.name == OPTIONAL_CLASS
    }

    /// `java.util.Map`, whose objects synthesis models as up to [`MAP_CAPACITY`] entries.
    pub fn is_map(&self) -> bool {
        self.name == MAP_CLASS
    }

    /// `StringBuilder` or `StringBuffer`: one field, the contents (see [`TEXT_BUILDER_CLASSES`]).
    pub fn is_text_builder(&self) -> bool {
        TEXT_BUILDER_CLASSES.iter().any(|(_, q)| self.name == *q)
    }

    /// `java.util.List`, whose objects synthesis models as up to [`LIST_CAPACITY`] elements.
    pub fn is_list(&self) -> bool {
        self.name == LIST_CLASS
    }
}

/// The primitive type a JDK box class holds (`Integer` → `int`).
pub fn boxed_primitive(class: &str) -> Option<Ty> {
    Some(match class.strip_prefix("java.lang.").unwrap_or(class) {
        "Integer" => Ty::Int,
        "Long" => Ty::Long,
        "Short" => Ty::Short,
        "Byte" => Ty::Byte,
        "Character" => Ty::Char,
        "Boolean" => Ty::Bool,
        "Float" => Ty::Float,
        "Double" => Ty::Double,
        _ => return None,
    })
}

/// An instance field of a modelled class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDesc {
    pub name: String,
    pub ty: Ty,
}

/// Why a value is not a function of the parameters that jreach can compute.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NondetKind {
    /// The result of a call jreach cannot see into or has no model for.
    CallResult { callee: String },
    /// State (a local, a memory, a field) that a loop or a call jreach cannot see may have
    /// written; `what` says which and after what.
    Havoc { what: String },
    /// Whether a call jreach cannot see into throws (over-approximation only).
    CallThrows { callee: String },
    /// An expression jreach does not model; its value is unknown but computing it has no effect
    /// on locals.
    Opaque { what: String },
}

impl fmt::Display for NondetKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NondetKind::CallResult { callee } => write!(f, "result of {callee}"),
            NondetKind::Havoc { what } => write!(f, "{what}"),
            NondetKind::CallThrows { callee } => write!(f, "whether {callee} throws"),
            NondetKind::Opaque { what } => write!(f, "{what}"),
        }
    }
}

/// What computes a value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// The i-th parameter of the method.
    Param(u32),
    Const(Const),
    Unary(UnOp, ValueId),
    Binary(BinOp, ValueId, ValueId),
    /// Primitive conversion of the operand to this value's type (JLS 5.1.2/5.1.3; floating to
    /// integral saturates, NaN becomes 0).
    Cast(ValueId),
    /// `cond ? a : b` without control flow (both sides are side-effect free values).
    Select(ValueId, ValueId, ValueId),
    /// SSA φ: the value coming in over the edge from each predecessor.
    Phi(Vec<(BlockId, ValueId)>),
    /// A value the analysis treats as unknown (a fresh solver variable).
    Nondet(NondetKind),
    /// A string operation.
    Str(StrOp, Vec<ValueId>),
    /// An array operation.
    Arr(ArrOp, Vec<ValueId>),
    /// An object operation.
    Obj(ObjOp, Vec<ValueId>),
    /// A function of `java.lang.Math` on `double`s that the solver cannot reason about
    /// (`Math.sin(x)`): an unknown `double` for the solver, computed by the interpreter.
    Math(MathFn, Vec<ValueId>),
}

impl Op {
    /// The values this op reads.
    pub fn operands(&self) -> Vec<ValueId> {
        match self {
            Op::Param(_) | Op::Const(_) | Op::Nondet(_) => vec![],
            Op::Unary(_, a) | Op::Cast(a) => vec![*a],
            Op::Binary(_, a, b) => vec![*a, *b],
            Op::Select(c, a, b) => vec![*c, *a, *b],
            Op::Phi(ins) => ins.iter().map(|(_, v)| *v).collect(),
            Op::Str(_, args) | Op::Arr(_, args) | Op::Obj(_, args) | Op::Math(_, args) => args.clone(),
        }
    }
}

/// The transcendental functions of `java.lang.Math` (and `StrictMath`): `double`s in, a
/// `double` out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Atan2,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Expm1,
    Log,
    Log10,
    Log1p,
    Pow,
    Cbrt,
    Hypot,
}

impl MathFn {
    /// The function `Math.<name>` taking `arity` arguments, if it is one of these.
    pub fn of(name: &str, arity: usize) -> Option<MathFn> {
        use MathFn::*;
        let f = match name {
            "sin" => Sin,
            "cos" => Cos,
            "tan" => Tan,
            "asin" => Asin,
            "acos" => Acos,
            "atan" => Atan,
            "atan2" => Atan2,
            "sinh" => Sinh,
            "cosh" => Cosh,
            "tanh" => Tanh,
            "exp" => Exp,
            "expm1" => Expm1,
            "log" => Log,
            "log10" => Log10,
            "log1p" => Log1p,
            "pow" => Pow,
            "cbrt" => Cbrt,
            "hypot" => Hypot,
            _ => return None,
        };
        (f.arity() == arity).then_some(f)
    }

    /// How many arguments it takes.
    pub fn arity(self) -> usize {
        match self {
            MathFn::Atan2 | MathFn::Pow | MathFn::Hypot => 2,
            _ => 1,
        }
    }

    /// Its name in `java.lang.Math`.
    pub fn name(self) -> &'static str {
        use MathFn::*;
        match self {
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Asin => "asin",
            Acos => "acos",
            Atan => "atan",
            Atan2 => "atan2",
            Sinh => "sinh",
            Cosh => "cosh",
            Tanh => "tanh",
            Exp => "exp",
            Expm1 => "expm1",
            Log => "log",
            Log10 => "log10",
            Log1p => "log1p",
            Pow => "pow",
            Cbrt => "cbrt",
            Hypot => "hypot",
        }
    }
}

/// A value: its op, its type, the block that defines it, and the source it comes from.
#[derive(Clone, Debug)]
pub struct ValueData {
    pub op: Op,
    pub ty: Ty,
    pub block: BlockId,
    /// Byte range of the source expression, when there is one.
    pub span: Option<Range<usize>>,
}

/// Where a branch condition comes from in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CondOrigin {
    /// Byte range of the condition expression (for `&&`/`||`, of the single operand).
    pub span: Range<usize>,
    /// The condition's text as written.
    pub text: String,
    /// Why it holds, for a condition the lowering assumes rather than the code tests (a class
    /// invariant: "holds whenever code outside `Pool` calls one of its methods ...").
    pub note: Option<String>,
}

/// Why a lowering is no ground for a proof of unreachability: what it left out.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Blocker {
    /// Paths were cut off where a bound ran out: [`CutoffKind::UnrollBound`],
    /// [`CutoffKind::InlineDepth`] or [`CutoffKind::SizeLimit`].
    Bound(CutoffKind),
    /// Synthesis looks at fewer inputs or behaviours than Java allows (printable strings,
    /// receivers as their constructor leaves them, short lists, calls that change nothing, ...).
    Narrowing(String),
    /// Something jreach does not model.
    Unsupported(String),
    /// Proofs only: loops were unrolled instead of abstracted ([`LowerOptions::proof_unroll`]),
    /// and paths needing more iterations end in [`CutoffKind::Unwinding`] blocks. The lowering is
    /// exact for its loops once no input reaches such a block; only that proof
    /// (`jreach_smt::discharge_unwinding`) removes this blocker ([`Function::unwinding_proved`]).
    ///
    /// [`LowerOptions::proof_unroll`]: crate::lower::LowerOptions::proof_unroll
    Unwinding,
    /// Proofs only: candidate loop invariants were checked at loop entries and ends
    /// ([`CutoffKind::InvariantBroken`]) and assumed at loop heads
    /// ([`LowerOptions::loop_invariants`]). Sound once no input reaches a check that fails; only
    /// that proof (`jreach_smt::discharge_invariants`) removes this blocker
    /// ([`Function::invariants_proved`]).
    ///
    /// [`LowerOptions::loop_invariants`]: crate::lower::LowerOptions::loop_invariants
    Invariant,
    /// Proofs only: candidate invariants of the receiver's class were checked where the method
    /// ends, throws out or calls what jreach cannot see ([`CutoffKind::ClassInvariantBroken`]) and
    /// assumed on entry and after such calls ([`LowerOptions::class_invariants`]). Sound once no
    /// input reaches a failing check in *every* constructor and instance method of the class
    /// with the same candidates; only that proof (`jreach_ide::class_invariants`) removes this
    /// blocker ([`Function::class_invariants_proved`]).
    ///
    /// [`LowerOptions::class_invariants`]: crate::lower::LowerOptions::class_invariants
    ClassInvariant,
}

impl Blocker {
    /// Whether a larger unroll bound could remove this blocker.
    pub fn is_unroll_bound(&self) -> bool {
        matches!(self, Blocker::Bound(CutoffKind::UnrollBound))
    }

    /// Whether calls nested past the inlining bound (a recursion inlined as far as allowed).
    pub fn is_inline_depth(&self) -> bool {
        matches!(self, Blocker::Bound(CutoffKind::InlineDepth))
    }

    /// Whether the lowering outgrew its size limit (a larger bound cannot help).
    pub fn is_size_limit(&self) -> bool {
        matches!(self, Blocker::Bound(CutoffKind::SizeLimit))
    }
}

impl fmt::Display for Blocker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Blocker::Bound(kind) => write!(f, "{kind}"),
            Blocker::Narrowing(why) | Blocker::Unsupported(why) => f.write_str(why),
            Blocker::Unwinding => f.write_str("a loop may run more often than the proof unrolled it"),
            Blocker::Invariant => f.write_str("a candidate loop invariant is not proved"),
            Blocker::ClassInvariant => f.write_str("a candidate class invariant is not proved"),
        }
    }
}

/// Why a path stops inside the bounds of the lowering.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CutoffKind {
    /// A loop would need more iterations than the unroll bound.
    UnrollBound,
    /// A call chain deeper than the inlining depth (or recursion past its bound).
    InlineDepth,
    /// The body grew past the size limit.
    SizeLimit,
    /// A statement or expression jreach does not model yet; the reason says which.
    Unsupported(String),
    /// The rest of a path where an abstracted loop's body has finished one arbitrary iteration:
    /// its effect on later code is covered by the havoc at the loop head.
    LoopIteration,
    /// Synthesis only: a call that never returns normally and ends the JVM (`System.exit`,
    /// `Runtime.getRuntime().halt(...)`); the string names it. A test whose run comes here would
    /// end the test run's JVM, so no test is written from such a run. Proofs keep the call as one
    /// jreach cannot see (it would make the statements javac requires after it dead).
    EndsJvm(String),
    /// Proofs with unrolled loops: the start of an iteration past the unrolled ones (CBMC's
    /// unwinding assertion). Records [`Blocker::Unwinding`].
    Unwinding,
    /// Proofs with candidate loop invariants: candidate `n` does not hold here (at a loop's entry,
    /// or at the end of an iteration). Records [`Blocker::Invariant`].
    InvariantBroken(u32),
    /// Proofs with candidate class invariants: candidate `n` does not hold here (where a
    /// constructor or method ends or throws out, or before a call jreach cannot see into).
    /// Records [`Blocker::ClassInvariant`].
    ClassInvariantBroken(u32),
    /// Proofs with loop or class invariants: the states at a loop head (or where a method
    /// starts or an unseen call returns) that the invariants exclude.
    /// Sound only together with the proof that no [`CutoffKind::InvariantBroken`] block runs
    /// (kept under [`Blocker::Invariant`] until then).
    Assumed,
}

impl fmt::Display for CutoffKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CutoffKind::UnrollBound => f.write_str("a loop needs more iterations than the unroll bound"),
            CutoffKind::InlineDepth => f.write_str("calls nest deeper than the inlining bound"),
            CutoffKind::SizeLimit => f.write_str("the method grows past the size limit when unrolled"),
            CutoffKind::Unsupported(why) => write!(f, "{why}"),
            CutoffKind::LoopIteration => f.write_str("end of an abstracted loop iteration"),
            CutoffKind::EndsJvm(call) => write!(f, "{call} ends the JVM"),
            CutoffKind::Unwinding => f.write_str("a loop iteration past the unrolled ones"),
            CutoffKind::InvariantBroken(n) => write!(f, "candidate loop invariant {n} does not hold"),
            CutoffKind::ClassInvariantBroken(n) => write!(f, "candidate class invariant {n} does not hold"),
            CutoffKind::Assumed => f.write_str("a state the loop or class invariants exclude"),
        }
    }
}

/// How a block ends.
#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    Jump(BlockId),
    Branch {
        cond: ValueId,
        then_to: BlockId,
        else_to: BlockId,
        origin: Option<CondOrigin>,
    },
    /// Normal completion of the method (the value is absent for `void`).
    Return(Option<ValueId>),
    /// The method completes abruptly with an exception of this class (simple name, e.g.
    /// `ArithmeticException`).
    Throw {
        class: String,
        span: Option<Range<usize>>,
    },
    /// Execution continues beyond what was lowered: no path through here is considered.
    Cutoff(CutoffKind),
    /// Placeholder while the builder is still filling the block; the verifier rejects it.
    Unterminated,
}

impl Terminator {
    /// Successor blocks, in order.
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Terminator::Jump(b) => vec![*b],
            Terminator::Branch { then_to, else_to, .. } => vec![*then_to, *else_to],
            _ => vec![],
        }
    }
}

/// A basic block.
#[derive(Clone, Debug)]
pub struct Block {
    /// φs first, then the other values in evaluation order.
    pub insts: Vec<ValueId>,
    pub term: Terminator,
    /// Predecessors, in the order their edges were added (φ operands follow the same blocks).
    pub preds: Vec<BlockId>,
    /// Start byte offsets of the source statements whose execution begins in this block.
    pub stmts: Vec<usize>,
}

/// A formal parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    pub name: String,
    pub ty: Ty,
    /// The type as written in the source.
    pub java_ty: String,
}

/// How a body was lowered.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LowerMode {
    /// Under-approximation for test synthesis: loops unrolled `unroll` times (more iterations are
    /// cut off), calls we cannot see return unknowns and never throw.
    Synthesis { unroll: u32 },
    /// Over-approximation for unreachability: loops abstracted by havoc, calls we cannot see may
    /// throw. A target that is unsatisfiable here cannot run.
    OverApprox,
}

/// One lowered method body.
#[derive(Clone, Debug)]
pub struct Function {
    /// `Class.method` for messages.
    pub name: String,
    pub params: Vec<ParamInfo>,
    pub return_ty: Ty,
    pub blocks: Vec<Block>,
    pub values: Vec<ValueData>,
    pub entry: BlockId,
    pub mode: LowerMode,
    /// Reasons this lowering is not a faithful model of the method for a proof of
    /// unreachability (unsupported constructs, cut-off loops, calls whose exceptions were
    /// ignored). Empty means: UNSAT here proves the target cannot run.
    pub proof_blockers: Vec<Blocker>,
    /// The classes that `Ty::Obj` and `Ty::Fields` index.
    pub classes: Vec<ClassDesc>,
    /// How a test sets up inputs that are not plain values (synthesis only).
    pub setup: Setup,
}

/// Inputs a test creates through calls rather than literals: which parameters of the function
/// drive those calls.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    pub built_params: Vec<BuiltParam>,
    pub receiver_calls: Vec<SetupCall>,
    pub lambda_params: Vec<LambdaParam>,
    pub stub_params: Vec<StubParam>,
    pub list_params: Vec<ListParam>,
    pub map_params: Vec<MapParam>,
    pub array_params: Vec<ArrayParam>,
    /// Static fields a test assigns before the call (and restores after).
    pub static_inputs: Vec<StaticInput>,
    /// For an instance method of an abstract class, whose receiver is an anonymous subclass:
    /// per method of the class's `stub`, the index of the parameter holding what it returns
    /// (`None` for `void`). Empty otherwise.
    pub receiver_returns: Vec<Option<usize>>,
    /// Whether the receiver is an anonymous subclass of the method's abstract class
    /// ([`ClassDesc::subclassed`]), whose methods `receiver_returns` answer (possibly none).
    pub receiver_subclassed: bool,
    /// Whether lowering again with `setup_calls` would let the test call methods on the
    /// objects it creates (there are candidates, and this lowering did not offer them).
    pub calls_possible: bool,
    /// For a receiver made by reflection: the parameters holding its fields, with the fields'
    /// names (`None`: the receiver is constructed).
    pub receiver_fields: Option<Vec<(usize, String)>>,
    /// The parameters that are the arguments of the receiver's constructor, which a test writes
    /// inside `new C(...)` (empty when it has none), with their names in the constructor.
    pub receiver_ctor_args: Vec<(usize, String)>,
    /// Parameters of JDK types jreach does not model but a test writes a value of
    /// ([`crate::opaque_jdk`]): whether each is null.
    pub opaque_params: Vec<OpaqueParam>,
}

/// A parameter of a JDK type a test writes a value of without jreach modelling it
/// (`new StringWriter()`): the model knows only whether it is null, which decides `x == null`
/// and whether a call on it throws NullPointerException.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpaqueParam {
    pub param: usize,
    /// The index of the `Bool` parameter: an object (true) or null.
    pub present: usize,
}

impl Setup {
    /// Whether the test creates parameter `i` through this setup (a constructor, a lambda, a
    /// list, map or array of inputs) rather than passing the solver's value for it.
    pub fn creates(&self, i: usize) -> bool {
        self.built_params.iter().any(|b| b.param == i)
            || self.lambda_params.iter().any(|l| l.param == i)
            || self.stub_params.iter().any(|l| l.param == i)
            || self.list_params.iter().any(|l| l.param == i)
            || self.map_params.iter().any(|m| m.param == i)
            || self.array_params.iter().any(|a| a.param == i)
            || self.static_inputs.iter().any(|s| s.param == i)
            || self.receiver_returns.contains(&Some(i))
            || self.receiver_fields.iter().flatten().any(|(p, _)| *p == i)
    }
}

/// The class descriptions of `StringBuilder` and `StringBuffer` (simple name, qualified name):
/// objects with one `String` field, the builder's contents, in the field memories like any
/// object, so that aliases, callees and the abstractions of loops and unseen calls see every
/// change.
pub const TEXT_BUILDER_CLASSES: [(&str, &str); 2] =
    [("StringBuilder", "java.lang.StringBuilder"), ("StringBuffer", "java.lang.StringBuffer")];

/// The name of the class description of `java.util.List`.
pub const LIST_CLASS: &str = "java.util.List";

/// The name of the modelled `java.util.Optional` class.
pub const OPTIONAL_CLASS: &str = "java.util.Optional";

/// The most elements of a list synthesis creates.
pub const LIST_CAPACITY: usize = 4;

/// The most elements a list parameter may hold after the method added to it.
pub const LIST_GROWN_CAPACITY: usize = 8;

/// The name of the class description of `java.util.Map`.
pub const MAP_CLASS: &str = "java.util.Map";

/// The most entries of a map synthesis creates.
pub const MAP_CAPACITY: usize = 3;

/// The most entries a map parameter may hold after the method put more into it.
pub const MAP_GROWN_CAPACITY: usize = 6;

/// A static field a test assigns before the call under test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticInput {
    /// The declaring class as Java code in its package names it (`Config`, `Outer.Inner`).
    pub class: String,
    pub field: String,
    /// The index of the parameter holding the value (its Java type is the field's).
    pub param: usize,
}

/// The most elements of an array of objects synthesis creates.
pub const OBJECT_ARRAY_CAPACITY: usize = 4;

/// The most rows, and elements per row, of a two-dimensional array of objects synthesis creates.
pub const OBJECT_GRID_CAPACITY: usize = 2;

/// A parameter of type `E[]` (`E` a class of the file, an enum or a boxed type) that a test
/// passes as `new E[] {...}`, each element null or created on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayParam {
    pub param: usize,
    /// The index of the `Bool` parameter: an array (true) or null.
    pub present: usize,
    /// The index of the `Int` parameter holding the length.
    pub length: usize,
    /// The indices of the parameters holding the elements ([`OBJECT_ARRAY_CAPACITY`] of them);
    /// empty for a two-dimensional array.
    pub elems: Vec<usize>,
    /// For a two-dimensional array (`Point[][]`): its rows ([`OBJECT_GRID_CAPACITY`] of them,
    /// each an array of its own or null), with `length` the number of rows.
    pub rows: Vec<ArrayRow>,
    /// The element type as Java code outside the class names it (`Shapes.Point`).
    pub elem_java: String,
}

/// A row of a two-dimensional array parameter of objects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayRow {
    /// The index of the `Bool` parameter: an array (true) or null.
    pub present: usize,
    /// The index of the `Int` parameter holding the row's length.
    pub length: usize,
    /// The indices of the parameters holding the elements ([`OBJECT_GRID_CAPACITY`] of them).
    pub elems: Vec<usize>,
}

/// A parameter of type `Map<K, V>` that a test passes as `Map.of(...)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapParam {
    pub param: usize,
    /// The index of the `Bool` parameter: a map (true) or null.
    pub present: usize,
    /// The index of the `Int` parameter holding the number of entries.
    pub size: usize,
    /// The indices of the parameters holding the keys and the values ([`MAP_CAPACITY`] each).
    pub keys: Vec<usize>,
    pub values: Vec<usize>,
    /// The key and value types as Java code outside the class names them.
    pub key_java: String,
    pub value_java: String,
    /// Whether the method may change the map (`put`): the test then passes a `new HashMap<>(...)`.
    pub mutated: bool,
    /// As for lists ([`ListParam::same_as`]): the `Int` parameter choosing whether it is a map of
    /// its own (0) or the same map as map parameter `earlier[k]` (`k + 1`).
    pub same_as: Option<usize>,
    /// The earlier map parameters (parameter indices) of the same key and value types.
    pub earlier: Vec<usize>,
}

/// A parameter of type `List<E>` that a test passes as `List.of(...)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListParam {
    pub param: usize,
    /// The index of the `Bool` parameter: a list (true) or null.
    pub present: usize,
    /// The index of the `Int` parameter holding the size.
    pub size: usize,
    /// The indices of the parameters holding the elements ([`LIST_CAPACITY`] of them).
    pub elems: Vec<usize>,
    /// The element type as Java code outside the class names it (`Objects.Point`, `String`).
    pub elem_java: String,
    /// Whether the method may change the list (`add`, `set`, `clear`): the test then passes a
    /// `new ArrayList<>(...)` of the elements.
    pub mutated: bool,
    /// An `Optional<E>` instead: at most one element, passed as `Optional.of(...)` or
    /// `Optional.empty()`.
    pub optional: bool,
    /// The index of the `Int` parameter choosing whether it is a list of its own (0) or the same
    /// list as list parameter `earlier[k]` (`k + 1`), when there are such earlier parameters.
    pub same_as: Option<usize>,
    /// The earlier list parameters (parameter indices) of the same element type.
    pub earlier: Vec<usize>,
}

/// A parameter of a functional interface that a test passes as a lambda returning one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LambdaParam {
    pub param: usize,
    pub class: u16,
    /// The index of the `Bool` parameter: a lambda (true) or null.
    pub present: usize,
    /// The index of the parameter holding what the lambda returns (`None` for `void`).
    pub returns: Option<usize>,
    /// For a lambda whose first parameter is integral: up to [`LAMBDA_SPECIALS`] pairs of indices
    /// of the parameters holding an argument and what the lambda returns for it instead, the
    /// first matching pair winning (`x -> x == 5 ? 10 : x == 6 ? 11 : 3`).
    pub specials: Vec<(usize, usize)>,
}

/// The most arguments a test's lambda answers differently from the rest.
pub const LAMBDA_SPECIALS: usize = 2;

/// A parameter of an interface with several abstract methods that a test passes as an
/// anonymous class whose methods each return one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StubParam {
    pub param: usize,
    pub class: u16,
    /// The index of the `Bool` parameter: an object (true) or null.
    pub present: usize,
    /// Per method of the class's `stub`: the index of the parameter holding what it returns
    /// (`None` for `void`).
    pub returns: Vec<Option<usize>>,
}

/// A parameter of a class that a test creates with one of its constructors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltParam {
    /// The parameter's index.
    pub param: usize,
    pub class: u16,
    /// The index of the `Int` parameter choosing how: 0 null, 1 `new C(args)`, `2 + k` the same
    /// object as parameter `aliases[k]`.
    pub how: usize,
    /// The indices of the constructor's arguments, with their Java types.
    pub args: Vec<(usize, String)>,
    pub aliases: Vec<usize>,
    /// Methods the test may call on the new object before the call under test.
    pub calls: Vec<SetupCall>,
    /// For an abstract class, whose object is an anonymous subclass: per method of the class's
    /// `stub`, the index of the parameter holding what it returns (`None` for `void`).
    pub returns: Vec<Option<usize>>,
    /// The static method creating it, with its class (`Money.of`), when the test calls that
    /// rather than a constructor. With `builder`, the static method creating the builder.
    pub factory: Option<String>,
    /// When the test creates it through a builder: the builder's class and the method that
    /// builds the object (`new Money.Builder().cents(5).build()`). The constructor (or
    /// `factory`) and `calls` are then the builder's.
    pub builder: Option<(u16, String)>,
}

/// A method a test may call on an object it created (the receiver, or a parameter), before the
/// call under test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupCall {
    pub method: String,
    /// The index of the `Bool` parameter saying whether the call is made.
    pub flag: usize,
    /// The indices of its arguments, with their Java types.
    pub args: Vec<(usize, String)>,
}

impl Function {
    /// The Java spelling of `ty`, with the file's classes by name (`Point[]`).
    pub fn java_type_name(&self, ty: Ty) -> String {
        let class = |c: u16| self.classes[c as usize].name.clone();
        match ty {
            Ty::Obj(c) => class(c),
            Ty::Arr(a) => a.java_name_with(class),
            t => t.java_name().to_string(),
        }
    }

    /// The type of field `field` of class `class`.
    pub fn field_ty(&self, class: u16, field: u16) -> Ty {
        self.classes[class as usize].fields[field as usize].ty
    }

    pub fn value(&self, v: ValueId) -> &ValueData {
        &self.values[v.index()]
    }

    pub fn block(&self, b: BlockId) -> &Block {
        &self.blocks[b.index()]
    }

    pub fn block_ids(&self) -> impl Iterator<Item = BlockId> {
        (0..self.blocks.len() as u32).map(BlockId)
    }

    /// Blocks in which a statement starting at byte `stmt_start` begins to execute.
    pub fn blocks_of_stmt(&self, stmt_start: usize) -> Vec<BlockId> {
        self.block_ids().filter(|b| self.block(*b).stmts.contains(&stmt_start)).collect()
    }

    /// Whether an UNSAT answer on this lowering proves unreachability.
    pub fn sound_for_proofs(&self) -> bool {
        self.proof_blockers.is_empty()
    }

    /// Whether the lowering abstracts a loop (havoc at its head, [`CutoffKind::LoopIteration`]).
    pub fn abstracts_loops(&self) -> bool {
        self.block_ids().any(|b| matches!(self.block(b).term, Terminator::Cutoff(CutoffKind::LoopIteration)))
    }

    /// The blocks that start a loop iteration past the unrolled ones ([`CutoffKind::Unwinding`]).
    pub fn unwinding_blocks(&self) -> Vec<BlockId> {
        self.block_ids().filter(|b| matches!(self.block(*b).term, Terminator::Cutoff(CutoffKind::Unwinding))).collect()
    }

    /// The blocks where candidate loop invariant `n` is found broken
    /// ([`CutoffKind::InvariantBroken`]), per candidate.
    pub fn invariant_blocks(&self) -> std::collections::BTreeMap<u32, Vec<BlockId>> {
        self.cutoffs_per_candidate(|k| match k {
            CutoffKind::InvariantBroken(n) => Some(*n),
            _ => None,
        })
    }

    /// The blocks ending in a cutoff that `candidate` numbers, per number.
    fn cutoffs_per_candidate(
        &self,
        candidate: impl Fn(&CutoffKind) -> Option<u32>,
    ) -> std::collections::BTreeMap<u32, Vec<BlockId>> {
        let mut out: std::collections::BTreeMap<u32, Vec<BlockId>> = Default::default();
        for b in self.block_ids() {
            if let Some(n) = match &self.block(b).term {
                Terminator::Cutoff(k) => candidate(k),
                _ => None,
            } {
                out.entry(n).or_default().push(b);
            }
        }
        out
    }

    /// Removes [`Blocker::Invariant`]: to be called only when no input reaches any of
    /// [`Function::invariant_blocks`] (`jreach_smt::discharge_invariants` proves it), so the
    /// candidates hold at every loop head where they are assumed.
    pub fn invariants_proved(&mut self) {
        self.proof_blockers.retain(|b| *b != Blocker::Invariant);
    }

    /// The blocks where candidate class invariant `n` is found broken
    /// ([`CutoffKind::ClassInvariantBroken`]), per candidate.
    pub fn class_invariant_blocks(&self) -> std::collections::BTreeMap<u32, Vec<BlockId>> {
        self.cutoffs_per_candidate(|k| match k {
            CutoffKind::ClassInvariantBroken(n) => Some(*n),
            _ => None,
        })
    }

    /// Removes [`Blocker::ClassInvariant`]: to be called only when no input reaches any of
    /// [`Function::class_invariant_blocks`] in this lowering *and* in the lowering of every
    /// constructor and instance method of the class with the same candidates (what
    /// `jreach_ide::class_invariants` proves), so the candidates hold whenever a method starts.
    pub fn class_invariants_proved(&mut self) {
        self.proof_blockers.retain(|b| *b != Blocker::ClassInvariant);
    }

    /// Removes [`Blocker::Unwinding`]: to be called only when no input reaches any of
    /// [`Function::unwinding_blocks`] (`jreach_smt::discharge_unwinding` proves it), so the
    /// unrolled loops are exact.
    pub fn unwinding_proved(&mut self) {
        self.proof_blockers.retain(|b| *b != Blocker::Unwinding);
    }
}
