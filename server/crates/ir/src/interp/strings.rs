//! Java's string operations on concrete values, for the interpreter. Strings are sequences of
//! UTF-16 code units; the cases the lowering guards (null receivers, bad indices, unparsable
//! numbers) are errors here.

use super::value::Value;
use crate::func::StrOp;
use crate::types::Ty;

fn units(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

fn from_units(u: &[u16]) -> Value {
    Value::Str(String::from_utf16_lossy(u))
}

fn is_trim_space(c: u16) -> bool {
    c <= b' ' as u16
}

fn lower(c: u16) -> u16 {
    if (b'A' as u16..=b'Z' as u16).contains(&c) {
        c + 32
    } else {
        c
    }
}

fn upper(c: u16) -> u16 {
    if (b'a' as u16..=b'z' as u16).contains(&c) {
        c - 32
    } else {
        c
    }
}

/// `Integer.parseInt` (radix 10).
pub fn parse_int(s: &str) -> Option<i32> {
    let b = s.as_bytes();
    if b.is_empty() {
        return None;
    }
    let (neg, digits) = match b[0] {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut v: i64 = 0;
    for d in digits {
        v = v * 10 + (d - b'0') as i64;
        if v > i32::MAX as i64 + 1 {
            return None;
        }
    }
    let v = if neg { -v } else { v };
    i32::try_from(v).ok()
}

fn index_of(hay: &[u16], needle: &[u16]) -> i64 {
    if needle.is_empty() {
        return 0;
    }
    hay.windows(needle.len()).position(|w| w == needle).map(|p| p as i64).unwrap_or(-1)
}

fn last_index_of(hay: &[u16], needle: &[u16]) -> i64 {
    if needle.is_empty() {
        return hay.len() as i64;
    }
    hay.windows(needle.len()).rposition(|w| w == needle).map(|p| p as i64).unwrap_or(-1)
}

/// Evaluates a string operation on concrete operands.
pub fn eval(op: StrOp, args: &[Value]) -> Result<Value, String> {
    if let Some(Value::Unknown(why)) = args.iter().find(|a| a.is_unknown()) {
        return Ok(Value::Unknown(why.clone()));
    }
    let s = |i: usize| -> Result<Vec<u16>, String> {
        match args.get(i) {
            Some(Value::Str(x)) => Ok(units(x)),
            other => Err(format!("{} expects a string operand, got {other:?}", op.name())),
        }
    };
    let int = |i: usize| -> Result<i64, String> {
        match args.get(i) {
            Some(Value::Int(_, x)) => Ok(*x),
            other => Err(format!("{} expects an integral operand, got {other:?}", op.name())),
        }
    };
    Ok(match op {
        StrOp::Null => Value::Null,
        // Java maps case and parses digits by Unicode tables outside ASCII: not computed here.
        StrOp::EqualsIgnoreCase | StrOp::ToLowerCase | StrOp::ToUpperCase | StrOp::ParsesAsInt | StrOp::ParseInt
            if args.iter().any(|a| matches!(a, Value::Str(t) if !t.is_ascii())) =>
        {
            Value::Unknown(format!("{} of a string with characters outside ASCII", op.name()))
        }
        StrOp::IsNull => Value::Bool(matches!(args.first(), Some(Value::Null))),
        StrOp::ToStr => match args.first() {
            Some(Value::Null) => Value::Str("null".into()),
            Some(v @ Value::Str(_)) => v.clone(),
            other => return Err(format!("valueOf of {other:?}")),
        },
        StrOp::Concat => {
            let mut a = s(0)?;
            a.extend(s(1)?);
            from_units(&a)
        }
        StrOp::Length => Value::int(Ty::Int, s(0)?.len() as i64),
        StrOp::CharAt => {
            let a = s(0)?;
            let i = int(1)?;
            let c = a.get(usize::try_from(i).map_err(|_| "negative index")?).ok_or("index past the end")?;
            Value::int(Ty::Char, *c as i64)
        }
        StrOp::Substring => {
            let a = s(0)?;
            let (b, e) = (int(1)?, int(2)?);
            if b < 0 || e > a.len() as i64 || b > e {
                return Err(format!("substring({b}, {e}) of a string of length {}", a.len()));
            }
            from_units(&a[b as usize..e as usize])
        }
        StrOp::Equals => Value::Bool(match args.get(1) {
            Some(Value::Null) => false,
            _ => s(0)? == s(1)?,
        }),
        StrOp::EqualsIgnoreCase => Value::Bool(match args.get(1) {
            Some(Value::Null) => false,
            _ => {
                let (a, b) = (s(0)?, s(1)?);
                a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| upper(*x) == upper(*y) || lower(*x) == lower(*y))
            }
        }),
        StrOp::StartsWith => Value::Bool(s(0)?.starts_with(&s(1)?)),
        StrOp::EndsWith => Value::Bool(s(0)?.ends_with(&s(1)?)),
        StrOp::Contains => Value::Bool(index_of(&s(0)?, &s(1)?) >= 0),
        StrOp::IndexOf => Value::int(Ty::Int, index_of(&s(0)?, &s(1)?)),
        StrOp::LastIndexOf => Value::int(Ty::Int, last_index_of(&s(0)?, &s(1)?)),
        StrOp::Trim => {
            let a = s(0)?;
            let start = a.iter().position(|c| !is_trim_space(*c)).unwrap_or(a.len());
            let end = a.iter().rposition(|c| !is_trim_space(*c)).map(|p| p + 1).unwrap_or(start);
            from_units(&a[start..end.max(start)])
        }
        StrOp::ToLowerCase => from_units(&s(0)?.into_iter().map(lower).collect::<Vec<_>>()),
        StrOp::ToUpperCase => from_units(&s(0)?.into_iter().map(upper).collect::<Vec<_>>()),
        StrOp::CompareTo => {
            let (a, b) = (s(0)?, s(1)?);
            let r = match a.iter().zip(&b).find(|(x, y)| x != y) {
                Some((x, y)) => *x as i64 - *y as i64,
                None => a.len() as i64 - b.len() as i64,
            };
            Value::int(Ty::Int, r)
        }
        StrOp::FromChar => from_units(&[int(0)? as u16]),
        StrOp::FromInt => Value::Str(int(0)?.to_string()),
        StrOp::FromBool => match args.first() {
            Some(Value::Bool(b)) => Value::Str(b.to_string()),
            other => return Err(format!("valueOf(boolean) of {other:?}")),
        },
        StrOp::ParsesAsInt => Value::Bool(parse_int(&String::from_utf16_lossy(&s(0)?)).is_some()),
        StrOp::ParseInt => match parse_int(&String::from_utf16_lossy(&s(0)?)) {
            Some(v) => Value::int(Ty::Int, v as i64),
            None => return Err("parseInt of an unparsable string".into()),
        },
        StrOp::Reverse => {
            // StringBuilder.reverse keeps surrogate pairs in order; the modelled domain is the BMP.
            let mut a = s(0)?;
            a.reverse();
            from_units(&a)
        }
        StrOp::Insert => {
            let mut a = s(0)?;
            let i = int(1)?;
            if i < 0 || i > a.len() as i64 {
                return Err(format!("insert at {i} into a string of length {}", a.len()));
            }
            let t = s(2)?;
            a.splice(i as usize..i as usize, t);
            from_units(&a)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(x: &str) -> Value {
        Value::Str(x.into())
    }

    #[test]
    fn java_string_semantics() {
        assert_eq!(eval(StrOp::Trim, &[st(" \t#5x \n")]).unwrap(), st("#5x"));
        assert_eq!(eval(StrOp::IndexOf, &[st("?!"), st("?")]).unwrap(), Value::int(Ty::Int, 0));
        assert_eq!(eval(StrOp::LastIndexOf, &[st("abab"), st("ab")]).unwrap(), Value::int(Ty::Int, 2));
        assert_eq!(eval(StrOp::EqualsIgnoreCase, &[st("yes"), st("YES")]).unwrap(), Value::Bool(true));
        assert_eq!(eval(StrOp::Equals, &[st("a"), Value::Null]).unwrap(), Value::Bool(false));
        assert_eq!(eval(StrOp::ToStr, &[Value::Null]).unwrap(), st("null"));
        assert_eq!(
            eval(StrOp::Substring, &[st("ABCDtwo"), Value::int(Ty::Int, 4), Value::int(Ty::Int, 7)]).unwrap(),
            st("two")
        );
        assert!(eval(StrOp::Substring, &[st("AB"), Value::int(Ty::Int, 1), Value::int(Ty::Int, 3)]).is_err());
        assert_eq!(eval(StrOp::Insert, &[st("abc"), Value::int(Ty::Int, 0), st("x")]).unwrap(), st("xabc"));
        assert_eq!(eval(StrOp::Reverse, &[st("xabc")]).unwrap(), st("cbax"));
        assert_eq!(eval(StrOp::CompareTo, &[st("ab"), st("b")]).unwrap(), Value::int(Ty::Int, -1));
        assert_eq!(eval(StrOp::FromInt, &[Value::int(Ty::Int, -42)]).unwrap(), st("-42"));
    }

    #[test]
    fn parse_int_matches_java() {
        assert_eq!(parse_int("4096"), Some(4096));
        assert_eq!(parse_int("-2147483648"), Some(i32::MIN));
        assert_eq!(parse_int("2147483648"), None);
        assert_eq!(parse_int("+7"), Some(7));
        assert_eq!(parse_int("x"), None);
        assert_eq!(parse_int(""), None);
        assert_eq!(parse_int("-"), None);
        assert_eq!(parse_int(" 1"), None);
    }
}
