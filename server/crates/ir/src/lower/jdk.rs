//! The JDK as IR: `Math`, `Integer`, `Character` and kin as their definitions, `String` methods
//! as string operations, `String.valueOf` of every type, string concatenation and comparison.

use super::*;

impl<'t> Lowerer<'t> {
    /// Instance methods of a box (`Integer`, `Character`, `Boolean`...; the classes are final,
    /// so the JDK's code is what runs): `xValue()`, `hashCode()` of an `Integer`, `compareTo`
    /// (-1, 0 or 1 for `Integer`, `Long` and `Boolean`; the difference for `Character`, `Short`
    /// and `Byte`, as the JDK computes it) and `equals` with a box of the same class or a
    /// primitive that boxes to it. Floating boxes
    /// only unbox (their `compareTo` and `equals` order NaN and -0.0 their own way). `None`: not
    /// modelled (an unknown call).
    pub(super) fn box_method(&mut self, r: ValueId, c: u16, name: &str, args: &[ValueId]) -> Option<ValueId> {
        let prim = self.classes.descs[c as usize].boxes?;
        let exact = prim.is_integral() || prim == Ty::Bool;
        let same_box = |lw: &Self, a: ValueId| lw.ty(a) == Ty::Obj(c) || lw.ty(a) == prim;
        Some(match (name, args.len()) {
            ("intValue" | "longValue" | "shortValue" | "byteValue" | "floatValue" | "doubleValue", 0)
                if prim.is_numeric() =>
            {
                let to = match name {
                    "intValue" => Ty::Int,
                    "longValue" => Ty::Long,
                    "shortValue" => Ty::Short,
                    "byteValue" => Ty::Byte,
                    "floatValue" => Ty::Float,
                    _ => Ty::Double,
                };
                self.convert(r, to)
            }
            ("booleanValue", 0) if prim == Ty::Bool => self.convert(r, Ty::Bool),
            ("charValue", 0) if prim == Ty::Char => self.convert(r, Ty::Char),
            ("hashCode", 0) if prim == Ty::Int => self.convert(r, Ty::Int),
            ("compareTo", 1) if exact && same_box(self, args[0]) => {
                // Both unboxed, the receiver first: null either way throws.
                let t = if prim == Ty::Bool { Ty::Bool } else { Ty::promote1(prim) };
                let a = self.convert(r, t);
                let b = self.convert(args[0], t);
                if matches!(prim, Ty::Char | Ty::Short | Ty::Byte) {
                    // `Character`, `Short` and `Byte` compare by difference (`x - y`), not by sign.
                    return Some(self.bin(BinOp::Sub, a, b));
                }
                let eq = self.bin(BinOp::Eq, a, b);
                let zero = self.int(Ty::Int, 0);
                let one = self.int(Ty::Int, 1);
                let minus = self.int(Ty::Int, -1);
                let greater = if prim == Ty::Bool { a } else { self.bin(BinOp::Gt, a, b) };
                let other = self.select(greater, one, minus);
                self.select(eq, zero, other)
            }
            ("equals", 1) if self.is_null_const(args[0]) => {
                // A call on a null box throws; `x.equals(null)` is false.
                self.check_object_not_null(r, self.cur_node());
                self.konst(Const::Bool(false))
            }
            ("equals", 1) if exact && same_box(self, args[0]) => {
                let t = if prim == Ty::Bool { Ty::Bool } else { Ty::promote1(prim) };
                let a = self.convert(r, t);
                if self.ty(args[0]) == prim {
                    let b = self.convert(args[0], t);
                    return Some(self.bin(BinOp::Eq, a, b));
                }
                // `x.equals(null)` is false; otherwise the values are compared.
                let null = self.emit(Op::Obj(ObjOp::Ref(0), vec![]), Ty::Obj(c), None);
                let is_null = self.bin(BinOp::Eq, args[0], null);
                let mem = self.field_mem(c, 0);
                let raw = self.emit(Op::Obj(ObjOp::Get, vec![mem, args[0]]), prim, None);
                let b = self.convert(raw, t);
                let same = self.bin(BinOp::Eq, a, b);
                let no = self.konst(Const::Bool(false));
                self.select(is_null, no, same)
            }
            _ => return None,
        })
    }

    /// Models of JDK methods, as IR. `None`: not modelled (an unknown call).
    pub(super) fn intrinsic(&mut self, cls: &str, name: &str, args: &[ValueId], e: Node<'t>) -> Option<ValueId> {
        // `java.util.Objects.requireNonNull(...)` as written out in full.
        let cls = without_jdk_package(cls);
        let tys: Vec<Ty> = args.iter().map(|a| self.ty(*a)).collect();
        let numeric = |i: usize| tys.get(i).is_some_and(|t| t.is_numeric());
        Some(match (cls, name, args.len()) {
            ("Math" | "StrictMath", "abs", 1) if numeric(0) => {
                let t = Ty::promote1(tys[0]);
                let x = self.convert(args[0], t);
                let zero = self.zero(t);
                let neg = self.emit(Op::Unary(UnOp::Neg, x), t, None);
                let c = if t.is_floating() { self.bin(BinOp::Le, x, zero) } else { self.bin(BinOp::Lt, x, zero) };
                if t.is_floating() {
                    let sub = self.bin(BinOp::Sub, zero, x);
                    self.select(c, sub, x)
                } else {
                    self.select(c, neg, x)
                }
            }
            ("Math" | "StrictMath" | "Integer" | "Long", "max" | "min", 2)
                if numeric(0) && numeric(1) && Ty::promote2(tys[0], tys[1]).is_integral() =>
            {
                let t = Ty::promote2(tys[0], tys[1]);
                let a = self.convert(args[0], t);
                let b = self.convert(args[1], t);
                let c = self.bin(if name == "max" { BinOp::Ge } else { BinOp::Le }, a, b);
                self.select(c, a, b)
            }
            ("Math" | "StrictMath", "floorMod" | "floorDiv", 2) if numeric(0) && numeric(1) => {
                let t = Ty::promote2(tys[0], tys[1]);
                if !t.is_integral() {
                    return None;
                }
                let a = self.convert(args[0], t);
                let b = self.convert(args[1], t);
                self.check_nonzero(b, e);
                let zero = self.zero(t);
                let r = self.bin(BinOp::Rem, a, b);
                let r_nz = self.bin(BinOp::Ne, r, zero);
                let x = if name == "floorMod" { self.bin(BinOp::Xor, r, b) } else { self.bin(BinOp::Xor, a, b) };
                let signs_differ = self.bin(BinOp::Lt, x, zero);
                let adjust = self.bin(BinOp::And, r_nz, signs_differ);
                if name == "floorMod" {
                    let rb = self.bin(BinOp::Add, r, b);
                    self.select(adjust, rb, r)
                } else {
                    let q = self.bin(BinOp::Div, a, b);
                    let one = self.int(t, 1);
                    let q1 = self.bin(BinOp::Sub, q, one);
                    self.select(adjust, q1, q)
                }
            }
            ("Math" | "StrictMath", _, n) if MathFn::of(name, n).is_some() && (0..n).all(numeric) => {
                let op = MathFn::of(name, n).expect("matched above");
                let xs = args.iter().map(|a| self.convert(*a, Ty::Double)).collect();
                self.emit(Op::Math(op, xs), Ty::Double, Some(e))
            }
            ("Integer" | "Long", "compare", 2) if numeric(0) && numeric(1) => {
                let t = if cls == "Long" { Ty::Long } else { Ty::Int };
                let a = self.convert(args[0], t);
                let b = self.convert(args[1], t);
                self.three_way(a, b)
            }
            ("Integer" | "Long", "signum", 1) if numeric(0) => {
                let t = if cls == "Long" { Ty::Long } else { Ty::Int };
                let x = self.convert(args[0], t);
                let zero = self.zero(t);
                self.three_way(x, zero)
            }
            ("Integer" | "Long", "bitCount", 1) if numeric(0) => {
                let t = if cls == "Long" { Ty::Long } else { Ty::Int };
                let x = self.convert(args[0], t);
                let c = self.popcount(x, t);
                self.convert(c, Ty::Int)
            }
            ("String", "valueOf", 1) | ("Integer" | "Long", "toString", 1) => self.to_str_value(args[0]),
            ("Integer", "parseInt", 1) if tys[0] == Ty::Str => {
                let s = args[0];
                let is_null = self.emit(Op::Str(StrOp::IsNull, vec![s]), Ty::Bool, None);
                self.raise_if(is_null, "NumberFormatException", e);
                let ok = self.emit(Op::Str(StrOp::ParsesAsInt, vec![s]), Ty::Bool, None);
                let bad = self.emit(Op::Unary(UnOp::Not, ok), Ty::Bool, None);
                self.raise_if(bad, "NumberFormatException", e);
                self.emit(Op::Str(StrOp::ParseInt, vec![s]), Ty::Int, Some(e))
            }
            ("System", "arraycopy", 5) => return self.array_copy(args, e),
            ("Objects", "requireNonNull", 1 | 2) => {
                // The message or its supplier matters only for the exception's text.
                self.check_reference_not_null(args[0], e);
                args[0]
            }
            ("Objects", "isNull" | "nonNull", 1) if matches!(tys[0], Ty::Str | Ty::Obj(_) | Ty::Arr(_)) => {
                let is_null = self.is_null(args[0]);
                if name == "isNull" {
                    is_null
                } else {
                    self.emit(Op::Unary(UnOp::Not, is_null), Ty::Bool, None)
                }
            }
            ("Double" | "Float", "isNaN" | "isInfinite" | "isFinite", 1) if numeric(0) => {
                let t = if cls == "Double" { Ty::Double } else { Ty::Float };
                let x = self.convert(args[0], t);
                let (inf, max) = if t == Ty::Double {
                    (Const::f64(f64::INFINITY), Const::f64(f64::MAX))
                } else {
                    (Const::f32(f32::INFINITY), Const::f32(f32::MAX))
                };
                match name {
                    "isNaN" => self.bin(BinOp::Ne, x, x),
                    "isInfinite" => {
                        let inf = self.konst(inf);
                        let neg_inf = self.emit(Op::Unary(UnOp::Neg, inf), t, None);
                        let pos = self.bin(BinOp::Eq, x, inf);
                        let neg = self.bin(BinOp::Eq, x, neg_inf);
                        self.bin(BinOp::Or, pos, neg)
                    }
                    _ => {
                        // NaN compares false with both bounds.
                        let max = self.konst(max);
                        let min = self.emit(Op::Unary(UnOp::Neg, max), t, None);
                        let above = self.bin(BinOp::Ge, x, min);
                        let below = self.bin(BinOp::Le, x, max);
                        self.bin(BinOp::And, above, below)
                    }
                }
            }
            ("Math" | "StrictMath", "max" | "min", 2)
                if numeric(0) && numeric(1) && Ty::promote2(tys[0], tys[1]).is_floating() =>
            {
                self.floating_min_max(name == "max", Ty::promote2(tys[0], tys[1]), args[0], args[1])
            }
            (
                "Math" | "StrictMath",
                "addExact" | "subtractExact" | "multiplyExact" | "negateExact" | "incrementExact" | "decrementExact"
                | "toIntExact",
                _,
            ) if (0..args.len()).all(numeric) => self.exact_arithmetic(name, args, &tys, e)?,
            ("Character", "charCount", 1) if numeric(0) => {
                let cp = self.convert(args[0], Ty::Int);
                let supplementary = self.int(Ty::Int, 0x10000);
                let two = self.bin(BinOp::Ge, cp, supplementary);
                let (a, b) = (self.int(Ty::Int, 2), self.int(Ty::Int, 1));
                self.select(two, a, b)
            }
            ("Character", "isHighSurrogate" | "isLowSurrogate" | "isSurrogate", 1) if numeric(0) => {
                let c = self.convert(args[0], Ty::Int);
                let (lo, hi) = match name {
                    "isHighSurrogate" => (0xD800, 0xDBFF),
                    "isLowSurrogate" => (0xDC00, 0xDFFF),
                    _ => (0xD800, 0xDFFF),
                };
                self.int_within(c, lo, hi)
            }
            ("Character", "toUpperCase" | "toLowerCase", 1) if matches!(tys[0], Ty::Char | Ty::Int) => {
                self.ascii_case(name == "toUpperCase", args[0], tys[0], e)
            }
            ("Boolean", "parseBoolean", 1) if tys[0] == Ty::Str => {
                // `"true".equalsIgnoreCase(s)`: false for null.
                let t = self.konst(Const::Str("true".into()));
                self.emit(Op::Str(StrOp::EqualsIgnoreCase, vec![t, args[0]]), Ty::Bool, Some(e))
            }
            ("Character" | "Short" | "Byte", "compare", 2) if numeric(0) && numeric(1) => {
                // `x - y` on the promoted values, as the JDK computes it.
                let a = self.convert(args[0], Ty::Int);
                let b = self.convert(args[1], Ty::Int);
                self.bin(BinOp::Sub, a, b)
            }
            ("Boolean", "compare", 2) if tys[0] == Ty::Bool && tys[1] == Ty::Bool => {
                // (x == y) ? 0 : (x ? 1 : -1)
                let same = self.bin(BinOp::Eq, args[0], args[1]);
                let (z, p1, m1) = (self.int(Ty::Int, 0), self.int(Ty::Int, 1), self.int(Ty::Int, -1));
                let by_x = self.select(args[0], p1, m1);
                self.select(same, z, by_x)
            }
            ("Character", "digit", 2) if numeric(0) && numeric(1) => {
                let c = self.convert(args[0], Ty::Int);
                let radix = self.convert(args[1], Ty::Int);
                self.char_digit(c, radix, e)
            }
            ("Character", "forDigit", 2) if numeric(0) && numeric(1) => {
                let d = self.convert(args[0], Ty::Int);
                let radix = self.convert(args[1], Ty::Int);
                self.char_for_digit(d, radix)
            }
            (
                "Character",
                "isDigit" | "isLetter" | "isLetterOrDigit" | "isUpperCase" | "isLowerCase" | "isWhitespace",
                1,
            ) if numeric(0) => {
                let c = self.convert(args[0], Ty::Int);
                let ascii_test = self.ascii_class(name, c);
                let lim = self.int(Ty::Int, 128);
                let lo = self.int(Ty::Int, 0);
                let ge0 = self.bin(BinOp::Ge, c, lo);
                let lt = self.bin(BinOp::Lt, c, lim);
                let is_ascii = self.bin(BinOp::And, ge0, lt);
                let other = self.opaque(format!("Character.{name} of a non-ASCII character"), Ty::Bool, Some(e));
                self.select(is_ascii, ascii_test, other)
            }
            _ => return None,
        })
    }

    /// `Character.digit(c, radix)` of an `int` `c`: the value of an ASCII digit or letter below
    /// `radix` (2 to 36), else -1; an unknown for a non-ASCII character (Unicode has other
    /// digits, and full-width letters).
    fn char_digit(&mut self, c: ValueId, radix: ValueId, e: Node<'t>) -> ValueId {
        let minus = |lw: &mut Self, k: i64| {
            let k = lw.int(Ty::Int, k);
            lw.bin(BinOp::Sub, c, k)
        };
        let digit = self.int_within(c, '0' as i64, '9' as i64);
        let lower = self.int_within(c, 'a' as i64, 'z' as i64);
        let upper = self.int_within(c, 'A' as i64, 'Z' as i64);
        let (of_digit, of_lower, of_upper) =
            (minus(self, '0' as i64), minus(self, 'a' as i64 - 10), minus(self, 'A' as i64 - 10));
        // 36 is not below any radix: the other ASCII characters are no digit.
        let none = self.int(Ty::Int, 36);
        let by_upper = self.select(upper, of_upper, none);
        let by_lower = self.select(lower, of_lower, by_upper);
        let value = self.select(digit, of_digit, by_lower);
        let radix_ok = self.int_within(radix, 2, 36);
        let below = self.bin(BinOp::Lt, value, radix);
        let ok = self.bin(BinOp::And, radix_ok, below);
        let minus_one = self.int(Ty::Int, -1);
        let ascii_result = self.select(ok, value, minus_one);
        let is_ascii = self.int_within(c, 0, 127);
        let other = self.opaque("Character.digit of a non-ASCII character".into(), Ty::Int, Some(e));
        self.select(is_ascii, ascii_result, other)
    }

    /// `lo <= x && x <= hi` for an `int` `x`.
    fn int_within(&mut self, x: ValueId, lo: i64, hi: i64) -> ValueId {
        let l = self.int(Ty::Int, lo);
        let h = self.int(Ty::Int, hi);
        let a = self.bin(BinOp::Ge, x, l);
        let b = self.bin(BinOp::Le, x, h);
        self.bin(BinOp::And, a, b)
    }

    /// `Character.forDigit(d, radix)`: `'0'`..`'9'`, then `'a'`..`'z'`, for a digit below a
    /// radix from 2 to 36; else `'\0'`.
    fn char_for_digit(&mut self, d: ValueId, radix: ValueId) -> ValueId {
        let radix_ok = self.int_within(radix, 2, 36);
        let zero = self.int(Ty::Int, 0);
        let d_low = self.bin(BinOp::Ge, d, zero);
        let d_high = self.bin(BinOp::Lt, d, radix);
        let d_ok = self.bin(BinOp::And, d_low, d_high);
        let ok = self.bin(BinOp::And, radix_ok, d_ok);
        let ten = self.int(Ty::Int, 10);
        let decimal = self.bin(BinOp::Lt, d, ten);
        let (k_digit, k_letter) = (self.int(Ty::Int, '0' as i64), self.int(Ty::Int, 'a' as i64 - 10));
        let as_digit = self.bin(BinOp::Add, d, k_digit);
        let as_letter = self.bin(BinOp::Add, d, k_letter);
        let code = self.select(decimal, as_digit, as_letter);
        let code = self.select(ok, code, zero);
        self.convert(code, Ty::Char)
    }

    /// -1, 0 or 1 (an int) as `a` is below, equal to or above `b`.
    pub(super) fn three_way(&mut self, a: ValueId, b: ValueId) -> ValueId {
        let lt = self.bin(BinOp::Lt, a, b);
        let eq = self.bin(BinOp::Eq, a, b);
        let m1 = self.int(Ty::Int, -1);
        let z = self.int(Ty::Int, 0);
        let p1 = self.int(Ty::Int, 1);
        let inner = self.select(eq, z, p1);
        self.select(lt, m1, inner)
    }

    /// `Math.max`/`Math.min` of two `float`s or `double`s (`t`), as the JDK computes them: NaN
    /// if either is NaN, and -0.0 below 0.0 (no division: it makes the solver's terms large).
    fn floating_min_max(&mut self, max: bool, t: Ty, a: ValueId, b: ValueId) -> ValueId {
        let a = self.convert(a, t);
        let b = self.convert(b, t);
        let a_nan = self.bin(BinOp::Ne, a, a);
        let b_nan = self.bin(BinOp::Ne, b, b);
        let zero = self.zero(t);
        // Both zero: the IEEE sum of two zeros is -0.0 only for -0.0 + -0.0, so it is the
        // larger of the two; the smaller is its mirror, -((-a) + (-b)).
        let a_zero = self.bin(BinOp::Eq, a, zero);
        let b_zero = self.bin(BinOp::Eq, b, zero);
        let both_zero = self.bin(BinOp::And, a_zero, b_zero);
        let signed_zero = if max {
            self.bin(BinOp::Add, a, b)
        } else {
            let na = self.emit(Op::Unary(UnOp::Neg, a), t, None);
            let nb = self.emit(Op::Unary(UnOp::Neg, b), t, None);
            let sum = self.bin(BinOp::Add, na, nb);
            self.emit(Op::Unary(UnOp::Neg, sum), t, None)
        };
        let a_wins = self.bin(if max { BinOp::Gt } else { BinOp::Lt }, a, b);
        let ordered = self.select(a_wins, a, b);
        let not_nan = self.select(both_zero, signed_zero, ordered);
        let b_or = self.select(b_nan, b, not_nan);
        self.select(a_nan, a, b_or)
    }

    /// `Math.addExact` and its kin on `int`s or `long`s: the result, after an
    /// `ArithmeticException` where it overflows. `None` for operands of other types.
    fn exact_arithmetic(&mut self, name: &str, args: &[ValueId], tys: &[Ty], e: Node<'t>) -> Option<ValueId> {
        let binary = matches!(name, "addExact" | "subtractExact" | "multiplyExact");
        if args.len() != if binary { 2 } else { 1 } {
            return None;
        }
        let t = match (name, tys) {
            ("toIntExact", [Ty::Long]) => Ty::Long,
            ("toIntExact", _) => return None,
            (_, [x]) => Ty::promote1(*x),
            (_, [x, y]) => Ty::promote2(*x, *y),
            _ => return None,
        };
        if !matches!(t, Ty::Int | Ty::Long) {
            return None;
        }
        let xs: Vec<ValueId> = args.iter().map(|a| self.convert(*a, t)).collect();
        let zero = self.zero(t);
        let (min, max) = if t == Ty::Int {
            (self.int(t, i32::MIN as i64), self.int(t, i32::MAX as i64))
        } else {
            (self.int(t, i64::MIN), self.int(t, i64::MAX))
        };
        let one = self.int(t, 1);
        let (result, overflow) = match (name, xs.as_slice()) {
            ("addExact", [a, b]) => {
                let r = self.bin(BinOp::Add, *a, *b);
                // Both operands' signs differ from the result's.
                let ar = self.bin(BinOp::Xor, *a, r);
                let br = self.bin(BinOp::Xor, *b, r);
                let both = self.bin(BinOp::And, ar, br);
                (r, self.bin(BinOp::Lt, both, zero))
            }
            ("subtractExact", [a, b]) => {
                let r = self.bin(BinOp::Sub, *a, *b);
                let ab = self.bin(BinOp::Xor, *a, *b);
                let ar = self.bin(BinOp::Xor, *a, r);
                let both = self.bin(BinOp::And, ab, ar);
                (r, self.bin(BinOp::Lt, both, zero))
            }
            ("multiplyExact", [a, b]) => {
                let r = self.bin(BinOp::Mul, *a, *b);
                // r / a == b unless it overflowed (a divisor of 1 where a is 0, which cannot).
                let a_zero = self.bin(BinOp::Eq, *a, zero);
                let d = self.select(a_zero, one, *a);
                let q = self.bin(BinOp::Div, r, d);
                let differs = self.bin(BinOp::Ne, q, *b);
                let a_nonzero = self.emit(Op::Unary(UnOp::Not, a_zero), Ty::Bool, None);
                let wrong = self.bin(BinOp::And, a_nonzero, differs);
                // MIN * -1 wraps to MIN, and MIN / -1 is MIN again.
                let minus_one = self.int(t, -1);
                let a_m1 = self.bin(BinOp::Eq, *a, minus_one);
                let b_min = self.bin(BinOp::Eq, *b, min);
                let b_m1 = self.bin(BinOp::Eq, *b, minus_one);
                let a_min = self.bin(BinOp::Eq, *a, min);
                let x = self.bin(BinOp::And, a_m1, b_min);
                let y = self.bin(BinOp::And, b_m1, a_min);
                let xy = self.bin(BinOp::Or, x, y);
                (r, self.bin(BinOp::Or, wrong, xy))
            }
            ("negateExact", [a]) => (self.emit(Op::Unary(UnOp::Neg, *a), t, None), self.bin(BinOp::Eq, *a, min)),
            ("incrementExact", [a]) => (self.bin(BinOp::Add, *a, one), self.bin(BinOp::Eq, *a, max)),
            ("decrementExact", [a]) => (self.bin(BinOp::Sub, *a, one), self.bin(BinOp::Eq, *a, min)),
            ("toIntExact", [a]) => {
                let r = self.convert(*a, Ty::Int);
                let back = self.convert(r, Ty::Long);
                (r, self.bin(BinOp::Ne, back, *a))
            }
            _ => return None,
        };
        self.raise_if(overflow, "ArithmeticException", e);
        Some(result)
    }

    /// `Character.toUpperCase`/`toLowerCase` of a `char` or a code point (`t`): the ASCII letters
    /// mapped, other ASCII characters kept, and what the JDK's tables say for the rest an unknown
    /// value of `t`.
    fn ascii_case(&mut self, upper: bool, c: ValueId, t: Ty, e: Node<'t>) -> ValueId {
        let x = self.convert(c, Ty::Int);
        let (lo, hi) = if upper { ('a', 'z') } else { ('A', 'Z') };
        let (l, h) = (self.int(Ty::Int, lo as i64), self.int(Ty::Int, hi as i64));
        let ge = self.bin(BinOp::Ge, x, l);
        let le = self.bin(BinOp::Le, x, h);
        let letter = self.bin(BinOp::And, ge, le);
        let delta = self.int(Ty::Int, 32);
        let moved = self.bin(if upper { BinOp::Sub } else { BinOp::Add }, x, delta);
        let ascii_result = self.select(letter, moved, x);
        let (zero, lim) = (self.int(Ty::Int, 0), self.int(Ty::Int, 128));
        let ge0 = self.bin(BinOp::Ge, x, zero);
        let lt = self.bin(BinOp::Lt, x, lim);
        let is_ascii = self.bin(BinOp::And, ge0, lt);
        let what = format!("Character.{} of a non-ASCII character", if upper { "toUpperCase" } else { "toLowerCase" });
        let other = self.opaque(what, Ty::Int, Some(e));
        let r = self.select(is_ascii, ascii_result, other);
        self.convert(r, t)
    }

    /// Population count by the SWAR method.
    pub(super) fn popcount(&mut self, x: ValueId, t: Ty) -> ValueId {
        let bits = t.bits().unwrap_or(32);
        let masks: [(i64, i32); 6] = [
            (0x5555555555555555, 1),
            (0x3333333333333333, 2),
            (0x0f0f0f0f0f0f0f0f, 4),
            (0x00ff00ff00ff00ff, 8),
            (0x0000ffff0000ffff, 16),
            (0x00000000ffffffff, 32),
        ];
        let mut v = x;
        for (mask, shift) in masks {
            if shift as u32 >= bits {
                break;
            }
            let m = self.int(t, normalize(t, mask));
            let s = self.int(Ty::Int, shift as i64);
            let lo = self.bin(BinOp::And, v, m);
            let sh = self.emit(Op::Binary(BinOp::Ushr, v, s), t, None);
            let hi = self.bin(BinOp::And, sh, m);
            v = self.bin(BinOp::Add, lo, hi);
        }
        v
    }

    pub(super) fn ascii_class(&mut self, name: &str, c: ValueId) -> ValueId {
        match name {
            "isDigit" => self.int_within(c, '0' as i64, '9' as i64),
            "isUpperCase" => self.int_within(c, 'A' as i64, 'Z' as i64),
            "isLowerCase" => self.int_within(c, 'a' as i64, 'z' as i64),
            "isLetter" | "isLetterOrDigit" => {
                let u = self.int_within(c, 'A' as i64, 'Z' as i64);
                let l = self.int_within(c, 'a' as i64, 'z' as i64);
                let letter = self.bin(BinOp::Or, u, l);
                if name == "isLetter" {
                    letter
                } else {
                    let d = self.int_within(c, '0' as i64, '9' as i64);
                    self.bin(BinOp::Or, letter, d)
                }
            }
            _ => {
                // isWhitespace: \t \n \u000B \f \r, \u001C-\u001F and space.
                let a = self.int_within(c, '\t' as i64, '\r' as i64);
                let b = self.int_within(c, 0x1c, ' ' as i64);
                self.bin(BinOp::Or, a, b)
            }
        }
    }

    /// `String.valueOf(v)` for any operand type.
    pub(super) fn to_str_value(&mut self, v: ValueId) -> ValueId {
        let ty = self.ty(v);
        let op = match ty {
            Ty::Str => StrOp::ToStr,
            Ty::Char => StrOp::FromChar,
            Ty::Bool => StrOp::FromBool,
            t if t.is_integral() => StrOp::FromInt,
            _ if self.is_null_const(v) => return self.konst(Const::Str("null".into())),
            Ty::Obj(c) if self.classes.descs[c as usize].is_text_builder() => return self.text_builder_text(v, c),
            _ => {
                if ty == Ty::Ref {
                    self.may_throw_here("toString of an object");
                }
                return self.opaque(format!("the text of a {ty}"), Ty::Str, None);
            }
        };
        if let Op::Const(Const::Str(_)) = self.b.func().value(v).op {
            return v;
        }
        self.emit(Op::Str(op, vec![v]), Ty::Str, None)
    }

    /// `+`, `==` and `!=` with a string operand.
    pub(super) fn string_binop(&mut self, bin: BinOp, a: ValueId, b: ValueId, e: Node<'t>) -> ValueId {
        match bin {
            BinOp::Add => {
                let sa = self.to_str_value(a);
                let sb = self.to_str_value(b);
                self.emit(Op::Str(StrOp::Concat, vec![sa, sb]), Ty::Str, Some(e))
            }
            BinOp::Eq | BinOp::Ne if self.is_null_const(a) || self.is_null_const(b) => {
                let s = if self.is_null_const(a) { b } else { a };
                let is_null = if self.ty(s) == Ty::Str {
                    self.emit(Op::Str(StrOp::IsNull, vec![s]), Ty::Bool, Some(e))
                } else {
                    self.konst(Const::Bool(self.is_null_const(s)))
                };
                if bin == BinOp::Eq {
                    is_null
                } else {
                    self.emit(Op::Unary(UnOp::Not, is_null), Ty::Bool, Some(e))
                }
            }
            // Reference comparison of strings: identity is not modelled.
            _ if bin.is_comparison() => self.opaque(format!("`{}`", self.text(e)), Ty::Bool, Some(e)),
            _ => self.opaque(format!("`{}`", self.text(e)), Ty::Int, Some(e)),
        }
    }

    /// A method of `String` on receiver `s`.
    pub(super) fn string_method(
        &mut self,
        s: ValueId,
        name: &str,
        args: &[ValueId],
        e: Node<'t>,
        hint: Option<Ty>,
    ) -> ValueId {
        self.check_not_null(s, e);
        let tys: Vec<Ty> = args.iter().map(|a| self.ty(*a)).collect();
        let str_arg = |lw: &mut Self, i: usize| -> Option<ValueId> {
            let a = *args.get(i)?;
            match lw.ty(a) {
                Ty::Str => {
                    lw.check_not_null(a, e);
                    Some(a)
                }
                // A `CharSequence` argument that is a string builder: its contents.
                Ty::Obj(c) if lw.classes.descs[c as usize].is_text_builder() => {
                    lw.check_object_not_null(a, e);
                    Some(lw.text_builder_contents(a, c))
                }
                Ty::Char => Some(lw.emit(Op::Str(StrOp::FromChar, vec![a]), Ty::Str, None)),
                _ if lw.is_null_const(a) => {
                    lw.raise("NullPointerException", Some(e));
                    Some(lw.emit(Op::Str(StrOp::Null, vec![]), Ty::Str, None))
                }
                _ => None,
            }
        };
        let op = |lw: &mut Self, op: StrOp, xs: Vec<ValueId>| lw.emit(Op::Str(op, xs), op.result_ty(), Some(e));
        let result = match (name, args.len()) {
            ("length", 0) => match &self.b.func().value(s).op {
                // A constant's length is a number (the solver ties string lengths to ints otherwise).
                Op::Const(Const::Str(units)) => {
                    let n = units.encode_utf16().count() as i64;
                    Some(self.int(Ty::Int, n))
                }
                _ => Some(op(self, StrOp::Length, vec![s])),
            },
            ("isEmpty", 0) => {
                let len = op(self, StrOp::Length, vec![s]);
                let zero = self.int(Ty::Int, 0);
                Some(self.bin(BinOp::Eq, len, zero))
            }
            ("charAt", 1) if tys[0].is_integral() => {
                let i = self.convert(args[0], Ty::Int);
                let len = op(self, StrOp::Length, vec![s]);
                self.check_index(i, len, false, e);
                Some(op(self, StrOp::CharAt, vec![s, i]))
            }
            ("equals", 1) if matches!(tys[0], Ty::Obj(c) if self.classes.descs[c as usize].is_text_builder()) => {
                // A string never equals a builder.
                Some(self.konst(Const::Bool(false)))
            }
            ("contentEquals", 1) if matches!(tys[0], Ty::Obj(c) if self.classes.descs[c as usize].is_text_builder()) => {
                let t = str_arg(self, 0).expect("a builder argument");
                Some(op(self, StrOp::Equals, vec![s, t]))
            }
            ("equals", 1) | ("contentEquals", 1) => {
                if tys[0] == Ty::Str || self.is_null_const(args[0]) {
                    let o = self.convert(args[0], Ty::Str);
                    Some(op(self, StrOp::Equals, vec![s, o]))
                } else {
                    None
                }
            }
            ("equalsIgnoreCase", 1) if tys[0] == Ty::Str || self.is_null_const(args[0]) => {
                let o = self.convert(args[0], Ty::Str);
                Some(op(self, StrOp::EqualsIgnoreCase, vec![s, o]))
            }
            ("startsWith" | "endsWith" | "contains" | "indexOf" | "lastIndexOf" | "concat" | "compareTo", 1) => {
                match str_arg(self, 0) {
                    Some(t) => {
                        let o = match name {
                            "startsWith" => StrOp::StartsWith,
                            "endsWith" => StrOp::EndsWith,
                            "contains" => StrOp::Contains,
                            "indexOf" => StrOp::IndexOf,
                            "lastIndexOf" => StrOp::LastIndexOf,
                            "concat" => StrOp::Concat,
                            _ => StrOp::CompareTo,
                        };
                        Some(op(self, o, vec![s, t]))
                    }
                    None if matches!(name, "indexOf" | "lastIndexOf") && tys[0].is_integral() => {
                        // indexOf(int ch) for a char code of the BMP.
                        let c = self.convert(args[0], Ty::Char);
                        let t = op(self, StrOp::FromChar, vec![c]);
                        let o = if name == "indexOf" { StrOp::IndexOf } else { StrOp::LastIndexOf };
                        Some(op(self, o, vec![s, t]))
                    }
                    None => None,
                }
            }
            ("substring", 1 | 2) if tys.iter().all(|t| t.is_integral()) => {
                let len = op(self, StrOp::Length, vec![s]);
                let b = self.convert(args[0], Ty::Int);
                let end = if args.len() == 2 { self.convert(args[1], Ty::Int) } else { len };
                let zero = self.int(Ty::Int, 0);
                let neg = self.bin(BinOp::Lt, b, zero);
                let past = self.bin(BinOp::Gt, end, len);
                let crossed = self.bin(BinOp::Gt, b, end);
                let bad1 = self.bin(BinOp::Or, neg, past);
                let bad = self.bin(BinOp::Or, bad1, crossed);
                self.raise_if(bad, "StringIndexOutOfBoundsException", e);
                Some(op(self, StrOp::Substring, vec![s, b, end]))
            }
            ("trim", 0) => Some(op(self, StrOp::Trim, vec![s])),
            ("toLowerCase", 0) => Some(op(self, StrOp::ToLowerCase, vec![s])),
            ("toUpperCase", 0) => Some(op(self, StrOp::ToUpperCase, vec![s])),
            ("toString" | "intern", 0) => Some(s),
            _ => None,
        };
        if let Some(v) = result {
            return v;
        }
        // Not modelled: an unknown result.
        let callee = format!("String.{name}");
        self.unknown_call_throws(&callee);
        let ty = string_method_return_type(name).or(hint).unwrap_or(Ty::Ref);
        self.nondet(NondetKind::CallResult { callee }, ty, Some(e))
    }
}

/// Return types of `String` methods jreach does not model.
pub(super) fn string_method_return_type(name: &str) -> Option<Ty> {
    Some(match name {
        "length"
        | "size"
        | "indexOf"
        | "lastIndexOf"
        | "compareTo"
        | "compareToIgnoreCase"
        | "hashCode"
        | "intValue"
        | "ordinal"
        | "parseInt" => Ty::Int,
        "equals" | "isEmpty" | "contains" | "startsWith" | "endsWith" | "hasNext" | "equalsIgnoreCase"
        | "booleanValue" | "containsKey" | "isBlank" | "matches" => Ty::Bool,
        "charAt" => Ty::Char,
        "toString" | "substring" | "trim" | "strip" | "toLowerCase" | "toUpperCase" | "replace" | "name" | "concat"
        | "repeat" | "format" | "join" => Ty::Str,
        "longValue" | "parseLong" | "currentTimeMillis" | "nanoTime" => Ty::Long,
        "doubleValue" | "parseDouble" => Ty::Double,
        _ => return None,
    })
}

/// `Integer.MAX_VALUE` and friends.
pub(super) fn jdk_constant(obj: &str, field: &str) -> Option<Const> {
    Some(match (obj, field) {
        ("Integer", "MAX_VALUE") => Const::int(Ty::Int, i32::MAX as i64),
        ("Integer", "MIN_VALUE") => Const::int(Ty::Int, i32::MIN as i64),
        ("Integer", "SIZE") => Const::int(Ty::Int, 32),
        ("Long", "MAX_VALUE") => Const::int(Ty::Long, i64::MAX),
        ("Long", "MIN_VALUE") => Const::int(Ty::Long, i64::MIN),
        ("Long", "SIZE") => Const::int(Ty::Int, 64),
        ("Short", "MAX_VALUE") => Const::int(Ty::Short, i16::MAX as i64),
        ("Short", "MIN_VALUE") => Const::int(Ty::Short, i16::MIN as i64),
        ("Byte", "MAX_VALUE") => Const::int(Ty::Byte, i8::MAX as i64),
        ("Byte", "MIN_VALUE") => Const::int(Ty::Byte, i8::MIN as i64),
        ("Character", "MAX_VALUE") => Const::int(Ty::Char, 0xffff),
        ("Character", "MIN_VALUE") => Const::int(Ty::Char, 0),
        ("Double", "NaN") => Const::f64(f64::NAN),
        ("Double", "POSITIVE_INFINITY") => Const::f64(f64::INFINITY),
        ("Double", "NEGATIVE_INFINITY") => Const::f64(f64::NEG_INFINITY),
        ("Double", "MAX_VALUE") => Const::f64(f64::MAX),
        ("Double", "MIN_VALUE") => Const::f64(f64::from_bits(1)),
        ("Float", "NaN") => Const::f32(f32::NAN),
        ("Float", "POSITIVE_INFINITY") => Const::f32(f32::INFINITY),
        ("Float", "NEGATIVE_INFINITY") => Const::f32(f32::NEG_INFINITY),
        ("Float", "MAX_VALUE") => Const::f32(f32::MAX),
        ("Float", "MIN_VALUE") => Const::f32(f32::from_bits(1)),
        _ => return None,
    })
}

/// A class of `java.lang` or `java.util` by its simple name, as a call may write it out in full
/// (`java.util.Objects`).
pub(super) fn without_jdk_package(class: &str) -> &str {
    class.strip_prefix("java.lang.").or_else(|| class.strip_prefix("java.util.")).unwrap_or(class)
}
