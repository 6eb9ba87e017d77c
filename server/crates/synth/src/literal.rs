//! Java literals: exact (javac reads back the very value the solver found) and readable (named
//! constants for the edges of a type, escapes only where needed).
//!
//! Doubles and floats use Rust's shortest round-trip formatting (`{:?}`), which always carries a `.`
//! or an exponent and which Java parses back to the same value. Characters that are not printable
//! ASCII become `\uXXXX`, except line terminators, quotes and backslashes, which get their short
//! escapes: `'\u000a'` would not even compile, because javac translates unicode escapes before it
//! reads literals.

use crate::{JavaValue, SlotKind, NEST};

/// The Java literal (or constant expression) of `v`, typed as `v` is: `(byte) -1`, `5L`, `1.5f`.
///
/// ```
/// use jreach_synth::{literal, JavaValue};
/// assert_eq!(literal(&JavaValue::Int(i32::MIN)), "Integer.MIN_VALUE");
/// assert_eq!(literal(&JavaValue::Char(b'\n' as u16)), r"'\n'");
/// assert_eq!(literal(&JavaValue::Double(0.1)), "0.1");
/// ```
pub fn literal(v: &JavaValue) -> String {
    match v {
        JavaValue::Bool(b) => b.to_string(),
        JavaValue::Byte(b) => match *b {
            i8::MIN => "Byte.MIN_VALUE".into(),
            i8::MAX => "Byte.MAX_VALUE".into(),
            b => format!("(byte) {b}"),
        },
        JavaValue::Short(s) => match *s {
            i16::MIN => "Short.MIN_VALUE".into(),
            i16::MAX => "Short.MAX_VALUE".into(),
            s => format!("(short) {s}"),
        },
        JavaValue::Char(c) => char_literal(*c),
        JavaValue::Int(i) => match *i {
            i32::MIN => "Integer.MIN_VALUE".into(),
            i32::MAX => "Integer.MAX_VALUE".into(),
            i => i.to_string(),
        },
        JavaValue::Long(l) => match *l {
            i64::MIN => "Long.MIN_VALUE".into(),
            i64::MAX => "Long.MAX_VALUE".into(),
            l => format!("{l}L"),
        },
        JavaValue::Float(f) => float_literal(*f),
        JavaValue::Double(d) => double_literal(*d),
        JavaValue::Str(s) => string_literal(s),
        JavaValue::Null => "null".into(),
        JavaValue::Slot(k, kind) => format!("jreach.runner.Inputs.{}({k})", kind.accessor()),
        JavaValue::Object { class, .. } => format!("new {class}()"),
        JavaValue::ObjectRef(_) | JavaValue::SameAs(_) | JavaValue::SameItem(_) => "null".into(),
        JavaValue::Constructed { class, args, body, factory, builder, calls, cast_args, .. } => {
            let args: Vec<String> = args
                .iter()
                // (A string for a `String` picks its overload as it is.)
                .map(|(ty, v)| {
                    match *cast_args
                        && Prim::of(ty).is_none_or(|(_, boxed)| boxed)
                        && !(ty == "String" && matches!(v, JavaValue::Str(_)))
                    {
                        true => format!("({ty}) {}", literal_as(ty, v)),
                        false => literal_as(ty, v),
                    }
                })
                .collect();
            let start = match (factory, builder) {
                (Some(f), _) => format!("{f}({})", args.join(", ")),
                (None, Some((b, _))) => format!("new {b}({})", args.join(", ")),
                (None, None) => format!("new {class}({})", args.join(", ")),
            };
            if let Some((_, build)) = builder {
                let chain: String = calls
                    .iter()
                    .map(|c| {
                        let a: Vec<String> = c.args.iter().map(|(ty, v)| literal_as(ty, v)).collect();
                        format!(".{}({})", c.method, a.join(", "))
                    })
                    .collect();
                return format!("{start}{chain}.{build}()");
            }
            if factory.is_some() {
                return start;
            }
            let new = start;
            match body {
                Some(methods) => anonymous_class(&new, methods),
                None => new,
            }
        }
        JavaValue::EnumConstant { class, name } => format!("{class}.{name}"),
        JavaValue::Expr(code) => code.clone(),
        JavaValue::Choice { slot: None, options } => options.first().map_or_else(|| "null".into(), literal),
        JavaValue::Choice { slot: Some(k), options } => {
            // A switch expression: each option is built only when it is picked.
            let arms: Vec<String> = options
                .iter()
                .enumerate()
                .map(|(i, o)| match i + 1 == options.len() {
                    true => format!("default -> {};", literal(o)),
                    false => format!("case {i} -> {};", literal(o)),
                })
                .collect();
            format!(
                "switch (Math.floorMod(jreach.runner.Inputs.i({k}), {})) {{ {} }}",
                options.len().max(1),
                arms.join(" ")
            )
        }
        JavaValue::Chosen { index, .. } => index.to_string(),
        JavaValue::List { elem_ty, items, mutable } => {
            let mut list: Vec<String> = items.iter().map(|i| literal_as(elem_ty, i)).collect();
            // Nothing but nulls would make `Arrays.asList` a `List<Object>` (and a lone null its
            // array): the first is cast to the element type.
            if items.iter().all(|i| *i == JavaValue::Null) && !elem_ty.is_empty() {
                if let Some(first) = list.first_mut() {
                    *first = format!("({elem_ty}) null");
                }
            }
            // `List.of` rejects null elements.
            let list = if items.contains(&JavaValue::Null) {
                format!("Arrays.asList({})", list.join(", "))
            } else {
                format!("List.of({})", list.join(", "))
            };
            if *mutable {
                format!("new ArrayList<>({list})")
            } else {
                list
            }
        }
        JavaValue::Optional { elem_ty, item } => match item {
            Some(item) => format!("Optional.of({})", literal_as(elem_ty, item)),
            None => "Optional.empty()".into(),
        },
        JavaValue::Map { key_ty, value_ty, entries, mutable } => {
            let items: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}, {}", literal_as(key_ty, k), literal_as(value_ty, v)))
                .collect();
            let map = format!("Map.of({})", items.join(", "));
            if *mutable {
                format!("new HashMap<>({map})")
            } else {
                map
            }
        }
        JavaValue::Lambda { arity, returns, special, .. } => {
            let first = if special.is_empty() { "ignored1" } else { "x" };
            let params = match arity {
                0 => "()".to_string(),
                1 if !special.is_empty() => "x".to_string(),
                1 => "ignored".to_string(),
                n => format!("({first}, {})", (2..=*n).map(|i| format!("ignored{i}")).collect::<Vec<_>>().join(", ")),
            };
            match returns {
                Some(r) => {
                    let cases: String = special
                        .iter()
                        .map(|((key_ty, key), other)| {
                            format!("x == {} ? {} : ", literal_as(key_ty, key), literal_as(&r.0, other))
                        })
                        .collect();
                    format!("{params} -> {cases}{}", literal_as(&r.0, &r.1))
                }
                None => format!("{params} -> {{ }}"),
            }
        }
        JavaValue::Stub { interface, methods } => anonymous_class(&format!("new {interface}()"), methods),
        JavaValue::Array { elem_ty, items, .. } => {
            if items.is_empty() {
                // `new int[0]`, `new int[0][]`.
                let (base, dims) = split_array_type(elem_ty);
                format!("new {base}[0]{}", "[]".repeat(dims))
            } else if let Some(a) = crate::long_array::LongArray::of(elem_ty, items).filter(|a| {
                a.fill.is_none() && a.stores.is_empty() && !items.iter().any(crate::long_array::refers_elsewhere)
            }) {
                // A long array of defaults: `new int[3072]`.
                a.created
            } else {
                let items: Vec<String> = items.iter().map(|i| literal_as(elem_ty, i)).collect();
                format!("new {elem_ty}[] {{{}}}", items.join(", "))
            }
        }
    }
}

/// `new_expr` (`new Shape()`, `new Base(2)`) followed by the body of an anonymous class with
/// `methods`, over several lines (see [`NEST`]).
pub(crate) fn anonymous_class(new_expr: &str, methods: &[crate::StubMethodValue]) -> String {
    if methods.is_empty() {
        return format!("{new_expr} {{}}");
    }
    let mut lines = vec![format!("{new_expr} {{")];
    for (k, m) in methods.iter().enumerate() {
        if k > 0 {
            lines.push(String::new());
        }
        let params: Vec<String> = m.params.iter().map(|(t, n)| format!("{t} {n}")).collect();
        lines.push(format!("{NEST}@Override"));
        lines.push(format!("{NEST}public {} {}({}) {{", m.ret_java, m.name, params.join(", ")));
        if let Some(v) = &m.returns {
            lines.push(format!("{NEST}{NEST}return {};", literal_as(&m.ret_java, v)));
        }
        lines.push(format!("{NEST}}}"));
    }
    lines.push("}".to_string());
    lines.join("\n")
}

/// `int[][]` → (`int`, 2).
pub(crate) fn split_array_type(ty: &str) -> (&str, usize) {
    let mut base = ty.trim();
    let mut dims = 0;
    while let Some(b) = base.strip_suffix("[]") {
        base = b.trim_end();
        dims += 1;
    }
    (base, dims)
}

/// The literal of `v` converted to the Java type `ty` (as written: `long`, `Integer`, `double[]`...)
/// the way a Java cast converts it, so that the literal has the type the code expects: `5` for a
/// `long` parameter becomes `5L`, `3` for a `double` becomes `3.0`. Values that do not convert
/// (strings, `null`, anything for a reference type that is not a boxed primitive) come out as
/// [`literal`] gives them.
pub fn literal_as(ty: &str, v: &JavaValue) -> String {
    match Prim::of(ty) {
        Some((p, _)) => literal(&convert(v, p).unwrap_or_else(|| v.clone())),
        None => literal(v),
    }
}

/// Java's primitive types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prim {
    Boolean,
    Byte,
    Short,
    Char,
    Int,
    Long,
    Float,
    Double,
}

impl Prim {
    /// The primitive `ty` names, and whether it names the boxed class (`Integer`, `java.lang.Long`).
    pub(crate) fn of(ty: &str) -> Option<(Prim, bool)> {
        let ty = ty.trim();
        let prim = match ty {
            "boolean" => Prim::Boolean,
            "byte" => Prim::Byte,
            "short" => Prim::Short,
            "char" => Prim::Char,
            "int" => Prim::Int,
            "long" => Prim::Long,
            "float" => Prim::Float,
            "double" => Prim::Double,
            _ => {
                let boxed = match ty.strip_prefix("java.lang.").unwrap_or(ty) {
                    "Boolean" => Prim::Boolean,
                    "Byte" => Prim::Byte,
                    "Short" => Prim::Short,
                    "Character" => Prim::Char,
                    "Integer" => Prim::Int,
                    "Long" => Prim::Long,
                    "Float" => Prim::Float,
                    "Double" => Prim::Double,
                    _ => return None,
                };
                return Some((boxed, true));
            }
        };
        Some((prim, false))
    }

    /// The primitive type of a value, if it has one.
    pub(crate) fn of_value(v: &JavaValue) -> Option<Prim> {
        Some(match v {
            JavaValue::Bool(_) => Prim::Boolean,
            JavaValue::Byte(_) => Prim::Byte,
            JavaValue::Short(_) => Prim::Short,
            JavaValue::Char(_) => Prim::Char,
            JavaValue::Int(_) => Prim::Int,
            JavaValue::Long(_) => Prim::Long,
            JavaValue::Float(_) => Prim::Float,
            JavaValue::Double(_) => Prim::Double,
            JavaValue::Slot(_, kind) => match kind {
                SlotKind::Bool => Prim::Boolean,
                SlotKind::Byte => Prim::Byte,
                SlotKind::Short => Prim::Short,
                SlotKind::Char => Prim::Char,
                SlotKind::Int => Prim::Int,
                SlotKind::Long => Prim::Long,
                SlotKind::Float => Prim::Float,
                SlotKind::Double => Prim::Double,
                SlotKind::Str | SlotKind::Array(_) | SlotKind::Matrix(_) => return None,
            },
            JavaValue::Str(_)
            | JavaValue::Null
            | JavaValue::Array { .. }
            | JavaValue::Object { .. }
            | JavaValue::ObjectRef(_)
            | JavaValue::Constructed { .. }
            | JavaValue::SameAs(_)
            | JavaValue::SameItem(_)
            | JavaValue::Lambda { .. }
            | JavaValue::Stub { .. }
            | JavaValue::List { .. }
            | JavaValue::Optional { .. }
            | JavaValue::Map { .. }
            | JavaValue::EnumConstant { .. }
            | JavaValue::Expr(_)
            | JavaValue::Choice { .. }
            | JavaValue::Chosen { .. } => return None,
        })
    }

    /// The wrapper class: `Integer` for `int`.
    pub(crate) fn boxed_name(self) -> &'static str {
        match self {
            Prim::Boolean => "Boolean",
            Prim::Byte => "Byte",
            Prim::Short => "Short",
            Prim::Char => "Character",
            Prim::Int => "Integer",
            Prim::Long => "Long",
            Prim::Float => "Float",
            Prim::Double => "Double",
        }
    }
}

/// `v` converted to `p` as a Java cast converts it (Rust's `as` has the same semantics for these
/// conversions: truncation between integers, saturation and NaN → 0 from floating point to integer,
/// round-to-nearest into floating point). `None` when `v` is not a value of a primitive type or when
/// booleans and numbers would have to mix.
pub(crate) fn convert(v: &JavaValue, p: Prim) -> Option<JavaValue> {
    enum Num {
        I(i64),
        F(f64),
    }
    let n = match *v {
        JavaValue::Bool(b) => return (p == Prim::Boolean).then_some(JavaValue::Bool(b)),
        // A hole is read with the accessor of the type it is written as.
        JavaValue::Slot(k, kind) => {
            let to = match p {
                Prim::Boolean => SlotKind::Bool,
                Prim::Byte => SlotKind::Byte,
                Prim::Short => SlotKind::Short,
                Prim::Char => SlotKind::Char,
                Prim::Int => SlotKind::Int,
                Prim::Long => SlotKind::Long,
                Prim::Float => SlotKind::Float,
                Prim::Double => SlotKind::Double,
            };
            let mixes = (kind == SlotKind::Bool) != (to == SlotKind::Bool)
                || matches!(kind, SlotKind::Str | SlotKind::Array(_) | SlotKind::Matrix(_));
            return (!mixes).then_some(JavaValue::Slot(k, to));
        }
        JavaValue::Byte(b) => Num::I(b.into()),
        JavaValue::Short(s) => Num::I(s.into()),
        JavaValue::Char(c) => Num::I(c.into()),
        JavaValue::Int(i) => Num::I(i.into()),
        JavaValue::Long(l) => Num::I(l),
        JavaValue::Float(f) => {
            if p == Prim::Float {
                return Some(JavaValue::Float(f));
            }
            Num::F(f.into())
        }
        JavaValue::Double(d) => Num::F(d),
        JavaValue::Str(_)
        | JavaValue::Null
        | JavaValue::Array { .. }
        | JavaValue::Object { .. }
        | JavaValue::ObjectRef(_)
        | JavaValue::Constructed { .. }
        | JavaValue::SameAs(_)
        | JavaValue::SameItem(_)
        | JavaValue::Lambda { .. }
        | JavaValue::Stub { .. }
        | JavaValue::List { .. }
        | JavaValue::Optional { .. }
        | JavaValue::Map { .. }
        | JavaValue::EnumConstant { .. }
        | JavaValue::Expr(_)
        | JavaValue::Choice { .. }
        | JavaValue::Chosen { .. } => return None,
    };
    // Java narrows floating point to byte, short and char through int.
    let as_int = |n: &Num| match *n {
        Num::I(i) => i as i32,
        Num::F(f) => f as i32,
    };
    Some(match p {
        Prim::Boolean => return None,
        Prim::Byte => JavaValue::Byte(as_int(&n) as i8),
        Prim::Short => JavaValue::Short(as_int(&n) as i16),
        Prim::Char => JavaValue::Char(as_int(&n) as u16),
        Prim::Int => JavaValue::Int(as_int(&n)),
        Prim::Long => JavaValue::Long(match n {
            Num::I(i) => i,
            Num::F(f) => f as i64,
        }),
        Prim::Float => JavaValue::Float(match n {
            Num::I(i) => i as f32,
            Num::F(f) => f as f32,
        }),
        Prim::Double => JavaValue::Double(match n {
            Num::I(i) => i as f64,
            Num::F(f) => f,
        }),
    })
}

fn double_literal(d: f64) -> String {
    if d.is_nan() {
        return "Double.NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 { "Double.POSITIVE_INFINITY" } else { "Double.NEGATIVE_INFINITY" }.into();
    }
    let sign = if d.is_sign_negative() { "-" } else { "" };
    let a = d.abs();
    if a == f64::MAX {
        return format!("{sign}Double.MAX_VALUE");
    }
    if a == f64::from_bits(1) {
        return format!("{sign}Double.MIN_VALUE");
    }
    format!("{d:?}")
}

fn float_literal(f: f32) -> String {
    if f.is_nan() {
        return "Float.NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Float.POSITIVE_INFINITY" } else { "Float.NEGATIVE_INFINITY" }.into();
    }
    let sign = if f.is_sign_negative() { "-" } else { "" };
    let a = f.abs();
    if a == f32::MAX {
        return format!("{sign}Float.MAX_VALUE");
    }
    if a == f32::from_bits(1) {
        return format!("{sign}Float.MIN_VALUE");
    }
    format!("{f:?}f")
}

/// The escape of one UTF-16 unit inside a Java char or string literal; `quote` is the delimiter
/// that must be escaped.
fn push_escaped(out: &mut String, unit: u16, quote: char) {
    match unit {
        0x08 => out.push_str("\\b"),
        0x09 => out.push_str("\\t"),
        0x0a => out.push_str("\\n"),
        0x0c => out.push_str("\\f"),
        0x0d => out.push_str("\\r"),
        0x5c => out.push_str("\\\\"),
        u if u == quote as u16 => {
            out.push('\\');
            out.push(quote);
        }
        0x20..=0x7e => out.push(char::from(unit as u8)),
        u => out.push_str(&format!("\\u{u:04x}")),
    }
}

fn char_literal(c: u16) -> String {
    let mut out = String::from("'");
    push_escaped(&mut out, c, '\'');
    out.push('\'');
    out
}

/// `s` as a Java string literal.
pub(crate) fn string_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for unit in s.encode_utf16() {
        push_escaped(&mut out, unit, '"');
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use JavaValue::*;

    fn lit(v: JavaValue) -> String {
        literal(&v)
    }

    #[test]
    fn booleans_and_null() {
        assert_eq!(lit(Bool(true)), "true");
        assert_eq!(lit(Bool(false)), "false");
        assert_eq!(lit(Null), "null");
        let made = |cast_args| JavaValue::Constructed {
            class: "Prim".into(),
            args: vec![("Number".into(), Null), ("int".into(), Int(2)), ("Integer".into(), Int(3))],
            calls: vec![],
            choices: vec![],
            body: None,
            factory: None,
            builder: None,
            cast_args,
        };
        assert_eq!(lit(made(true)), "new Prim((Number) null, 2, (Integer) 3)");
        assert_eq!(lit(made(false)), "new Prim(null, 2, 3)");
    }

    #[test]
    fn a_list_of_nulls_has_its_element_type() {
        let list = |items| List { elem_ty: "Integer".into(), items, mutable: false };
        // Not `Arrays.asList(null, null)`, a `List<Object>` no `List<T>` parameter takes, nor
        // `Arrays.asList(null)`, which throws.
        assert_eq!(lit(list(vec![Null, Null])), "Arrays.asList((Integer) null, null)");
        assert_eq!(lit(list(vec![Null])), "Arrays.asList((Integer) null)");
        assert_eq!(lit(list(vec![Int(1), Null])), "Arrays.asList(1, null)");
        assert_eq!(lit(list(vec![])), "List.of()");
    }

    #[test]
    fn ints() {
        assert_eq!(lit(Int(0)), "0");
        assert_eq!(lit(Int(42)), "42");
        assert_eq!(lit(Int(-5)), "-5");
        assert_eq!(lit(Int(i32::MIN)), "Integer.MIN_VALUE");
        assert_eq!(lit(Int(i32::MAX)), "Integer.MAX_VALUE");
        assert_eq!(lit(Int(i32::MIN + 1)), "-2147483647");
    }

    #[test]
    fn longs() {
        assert_eq!(lit(Long(0)), "0L");
        assert_eq!(lit(Long(-7)), "-7L");
        assert_eq!(lit(Long(i64::MIN)), "Long.MIN_VALUE");
        assert_eq!(lit(Long(i64::MAX)), "Long.MAX_VALUE");
        assert_eq!(lit(Long(i32::MIN as i64)), "-2147483648L");
        assert_eq!(lit(Long(1 << 40)), "1099511627776L");
    }

    #[test]
    fn bytes_and_shorts() {
        assert_eq!(lit(Byte(-1)), "(byte) -1");
        assert_eq!(lit(Byte(0)), "(byte) 0");
        assert_eq!(lit(Byte(i8::MIN)), "Byte.MIN_VALUE");
        assert_eq!(lit(Byte(i8::MAX)), "Byte.MAX_VALUE");
        assert_eq!(lit(Short(300)), "(short) 300");
        assert_eq!(lit(Short(-300)), "(short) -300");
        assert_eq!(lit(Short(i16::MIN)), "Short.MIN_VALUE");
        assert_eq!(lit(Short(i16::MAX)), "Short.MAX_VALUE");
    }

    #[test]
    fn chars() {
        let c = |ch: char| lit(Char(ch as u16));
        assert_eq!(c('a'), "'a'");
        assert_eq!(c(' '), "' '");
        assert_eq!(c('"'), "'\"'");
        assert_eq!(c('\n'), r"'\n'");
        assert_eq!(c('\r'), r"'\r'");
        assert_eq!(c('\t'), r"'\t'");
        assert_eq!(c('\u{8}'), r"'\b'");
        assert_eq!(c('\u{c}'), r"'\f'");
        assert_eq!(c('\''), r"'\''");
        assert_eq!(c('\\'), r"'\\'");
        assert_eq!(c('\0'), r"'\u0000'");
        assert_eq!(c('\u{7f}'), r"'\u007f'");
        assert_eq!(c('é'), r"'\u00e9'");
        assert_eq!(lit(Char(0xffff)), r"'\uffff'");
        assert_eq!(lit(Char(0xd800)), r"'\ud800'");
    }

    #[test]
    fn strings() {
        let s = |t: &str| lit(Str(t.into()));
        assert_eq!(s(""), r#""""#);
        assert_eq!(s("BA"), r#""BA""#);
        assert_eq!(s("say \"hi\"\n"), r#""say \"hi\"\n""#);
        assert_eq!(s("it's"), r#""it's""#);
        assert_eq!(s(r"a\b"), r#""a\\b""#);
        assert_eq!(s(r"\u0041"), r#""\\u0041""#);
        assert_eq!(s("\t\r\u{8}\u{c}\0"), r#""\t\r\b\f\u0000""#);
        assert_eq!(s("é€"), r#""\u00e9\u20ac""#);
        // Outside the BMP: a surrogate pair, as Java stores it.
        assert_eq!(s("😀"), r#""\ud83d\ude00""#);
    }

    #[test]
    fn doubles() {
        assert_eq!(lit(Double(0.0)), "0.0");
        assert_eq!(lit(Double(-0.0)), "-0.0");
        assert_eq!(lit(Double(1.0)), "1.0");
        assert_eq!(lit(Double(-2.5)), "-2.5");
        assert_eq!(lit(Double(0.1)), "0.1");
        assert_eq!(lit(Double(0.1 + 0.2)), "0.30000000000000004");
        assert_eq!(lit(Double(1e16)), "1e16");
        assert_eq!(lit(Double(1e-7)), "1e-7");
        assert_eq!(lit(Double(f64::MIN_POSITIVE)), "2.2250738585072014e-308");
        assert_eq!(lit(Double(f64::NAN)), "Double.NaN");
        assert_eq!(lit(Double(f64::INFINITY)), "Double.POSITIVE_INFINITY");
        assert_eq!(lit(Double(f64::NEG_INFINITY)), "Double.NEGATIVE_INFINITY");
        assert_eq!(lit(Double(f64::MAX)), "Double.MAX_VALUE");
        assert_eq!(lit(Double(f64::MIN)), "-Double.MAX_VALUE");
        assert_eq!(lit(Double(f64::from_bits(1))), "Double.MIN_VALUE");
        assert_eq!(lit(Double(-f64::from_bits(1))), "-Double.MIN_VALUE");
        assert_eq!(lit(Double(2147483648.0)), "2147483648.0");
    }

    #[test]
    fn doubles_round_trip_and_look_like_doubles() {
        for d in [0.1, 1.0 / 3.0, 123456789.125, 1e300, 5e-320, -7.25e-12, 9007199254740993.0, 1e22, 1e23] {
            let text = lit(Double(d));
            assert!(text.contains('.') || text.contains('e'), "{text}");
            assert_eq!(text.parse::<f64>().unwrap().to_bits(), d.to_bits(), "{text}");
        }
    }

    #[test]
    fn floats() {
        assert_eq!(lit(Float(0.0)), "0.0f");
        assert_eq!(lit(Float(-0.0)), "-0.0f");
        assert_eq!(lit(Float(1.5)), "1.5f");
        assert_eq!(lit(Float(0.1)), "0.1f");
        assert_eq!(lit(Float(1e10)), "10000000000.0f");
        assert_eq!(lit(Float(1e20)), "1e20f");
        assert_eq!(lit(Float(f32::NAN)), "Float.NaN");
        assert_eq!(lit(Float(f32::INFINITY)), "Float.POSITIVE_INFINITY");
        assert_eq!(lit(Float(f32::NEG_INFINITY)), "Float.NEGATIVE_INFINITY");
        assert_eq!(lit(Float(f32::MAX)), "Float.MAX_VALUE");
        assert_eq!(lit(Float(f32::MIN)), "-Float.MAX_VALUE");
        assert_eq!(lit(Float(f32::from_bits(1))), "Float.MIN_VALUE");
        for f in [0.1f32, 1.0 / 3.0, 16777217.0, 3.4e38, 1e-40, -2.5e-3] {
            let text = lit(Float(f));
            let body = text.strip_suffix('f').unwrap();
            assert!(body.contains('.') || body.contains('e'), "{text}");
            assert_eq!(body.parse::<f32>().unwrap().to_bits(), f.to_bits(), "{text}");
        }
    }

    #[test]
    fn typed_literals_follow_the_declared_type() {
        assert_eq!(literal_as("long", &Int(5)), "5L");
        assert_eq!(literal_as("Long", &Int(-5)), "-5L");
        assert_eq!(literal_as("double", &Int(3)), "3.0");
        assert_eq!(literal_as("float", &Int(3)), "3.0f");
        assert_eq!(literal_as("double", &Float(0.1)), "0.10000000149011612");
        assert_eq!(literal_as("byte", &Int(-1)), "(byte) -1");
        assert_eq!(literal_as("byte", &Int(200)), "(byte) -56");
        assert_eq!(literal_as("short", &Int(300)), "(short) 300");
        assert_eq!(literal_as("char", &Int(97)), "'a'");
        assert_eq!(literal_as("int", &Char(b'a' as u16)), "97");
        assert_eq!(literal_as("int", &Double(f64::NAN)), "0");
        assert_eq!(literal_as("int", &Double(1e20)), "Integer.MAX_VALUE");
        assert_eq!(literal_as("long", &Double(-3.9)), "-3L");
        assert_eq!(literal_as("java.lang.Integer", &Long(7)), "7");
        assert_eq!(literal_as("boolean", &Bool(true)), "true");
        assert_eq!(literal_as("boolean", &Int(1)), "1");
        assert_eq!(literal_as("String", &Str("x".into())), "\"x\"");
        assert_eq!(literal_as("int[]", &Null), "null");
        assert_eq!(literal_as("Object", &Int(3)), "3");
    }
}
