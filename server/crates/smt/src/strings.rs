//! Java strings on z3's string theory.
//!
//! A `String` value is a z3 string; null is the one-character string U+10000, which no Java string
//! (UTF-16 code units, all ≤ U+FFFF) can equal. A z3 character is one UTF-16 code unit: codes cross
//! between the theories exactly through `str.to_code` and `str.from_code`. Case mapping is exact
//! for strings of ASCII characters (Java's full Unicode mapping may change a string's length:
//! `"ß".toUpperCase()` is `"SS"`), and unconstrained for others; like reversal, it is exact for the
//! first [`CHAR_BOUND`] characters and unconstrained beyond. Proofs take the default locale to map
//! ASCII letters as the root locale does (a Turkish locale maps `i` to `İ`).

use jreach_ir::{StrOp, Ty};
use z3::ast::{Bool, Dynamic, Int, Regexp, BV};

use crate::ffi::{int_to_str, re_range, seq_index, seq_last_index, str_to_int, string_from_code, string_to_code};

type ZStr = z3::ast::String;

/// Characters handled exactly by case mapping and reversal.
pub const CHAR_BOUND: i64 = 16;

/// The term of Java's `null` string.
pub fn null() -> ZStr {
    ZStr::from("\\u{10000}")
}

/// A string constant, with every character outside printable ASCII escaped for z3.
pub fn literal(s: &str) -> ZStr {
    let mut out = String::new();
    for c in s.encode_utf16() {
        if (0x20..0x7f).contains(&c) && c != b'\\' as u16 {
            out.push(c as u8 as char);
        } else {
            out.push_str(&format!("\\u{{{c:x}}}"));
        }
    }
    ZStr::from(out.as_str())
}

/// Reads a string from a model's text (which escapes non-printable characters); `None` for null.
pub fn from_model(text: &str) -> Option<String> {
    let mut units: Vec<u16> = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut saw_null_char = false;
    while i < chars.len() {
        if chars[i] == '\\' && i + 1 < chars.len() {
            let (code, used) = match chars[i + 1] {
                'u' if chars.get(i + 2) == Some(&'{') => {
                    let end = chars[i + 3..].iter().position(|c| *c == '}').map(|p| p + i + 3);
                    match end {
                        Some(end) => {
                            (u32::from_str_radix(&chars[i + 3..end].iter().collect::<String>(), 16).ok(), end + 1 - i)
                        }
                        None => (None, 1),
                    }
                }
                'u' if i + 6 <= chars.len() => {
                    (u32::from_str_radix(&chars[i + 2..i + 6].iter().collect::<String>(), 16).ok(), 6)
                }
                'x' if i + 4 <= chars.len() => {
                    (u32::from_str_radix(&chars[i + 2..i + 4].iter().collect::<String>(), 16).ok(), 4)
                }
                '\\' => (Some('\\' as u32), 2),
                _ => (None, 1),
            };
            match code {
                Some(c) if c > 0xffff => {
                    saw_null_char = true;
                    i += used;
                    continue;
                }
                Some(c) => {
                    units.push(c as u16);
                    i += used;
                    continue;
                }
                None => {}
            }
        }
        let mut buf = [0u16; 2];
        units.extend_from_slice(chars[i].encode_utf16(&mut buf));
        i += 1;
    }
    if saw_null_char && units.is_empty() {
        None
    } else {
        Some(String::from_utf16_lossy(&units))
    }
}

fn unit(c: u8) -> ZStr {
    literal(&(c as char).to_string())
}

/// The code of a one-character string, as a char (16-bit): a fresh code tied to `str.to_code`
/// where `u` is one character (the tie goes to `side`).
fn code_of(u: &ZStr, side: &mut Vec<Bool>) -> BV {
    let c = BV::fresh_const("char", 16);
    side.push(u.length().eq(Int::from_i64(1)).implies(c.to_int(false).eq(string_to_code(u))));
    c
}

/// The one-character string of a char code.
fn str_of_code(c: &BV) -> ZStr {
    string_from_code(&c.to_int(false))
}

fn bv_to_int(x: &BV) -> Int {
    x.to_int(true)
}

/// A Java int equal to the integer `x`: a fresh bit-vector tied to `x` through `bv2int` (which z3
/// handles far better than `int2bv`). The tie holds when `guard` does.
fn int_to_bv32(x: &Int, guard: Option<Bool>, side: &mut Vec<Bool>) -> BV {
    let v = BV::fresh_const("int", 32);
    let tie = v.to_int(true).eq(x);
    side.push(match guard {
        Some(g) => g.implies(&tie),
        None => tie,
    });
    v
}

fn map_case(u: &ZStr, lower: bool) -> ZStr {
    let mut acc = u.clone();
    for c in b'A'..=b'Z' {
        let (from, to) = if lower { (c, c + 32) } else { (c + 32, c) };
        acc = u.eq(&unit(from)).ite(&unit(to), &acc);
    }
    acc
}

/// A fresh string `r` with `len(r) == len(s)` whose first [`CHAR_BOUND`] characters are
/// `f(i, s)`; the definition goes to `side`.
fn charwise(s: &ZStr, side: &mut Vec<Bool>, f: impl Fn(i64, &Int) -> ZStr) -> ZStr {
    let r = ZStr::fresh_const("mapped");
    let len = s.length();
    side.push(r.length().eq(&len));
    for i in 0..CHAR_BOUND {
        let ii = Int::from_i64(i);
        side.push(ii.lt(&len).implies(&r.at(ii.clone()).eq(&f(i, &len))));
    }
    r
}

/// The characters from code `lo` to code `hi`.
fn range(lo: u16, hi: u16) -> Regexp {
    re_range(&literal(&String::from_utf16_lossy(&[lo])), &literal(&String::from_utf16_lossy(&[hi])))
}

fn whitespace() -> Regexp {
    range(0, b' ' as u16)
}

/// `s.trim()`, defined through `side`.
fn trim(s: &ZStr, side: &mut Vec<Bool>) -> ZStr {
    let r = ZStr::fresh_const("trimmed");
    let pre = ZStr::fresh_const("lead");
    let post = ZStr::fresh_const("trail");
    let ws = whitespace();
    side.push(s.eq(&ZStr::concat(&[pre.clone(), r.clone(), post.clone()])));
    side.push(pre.regex_matches(&ws.star()));
    side.push(post.regex_matches(&ws.star()));
    let last = r.at(r.length() - Int::from_i64(1));
    let nonblank = |u: &ZStr| u.regex_matches(&ws).not();
    side.push(Bool::or(&[r.eq(&ZStr::from("")), Bool::and(&[nonblank(&r.at(Int::from_i64(0))), nonblank(&last)])]));
    r
}

fn sign_fresh(positive: bool) -> BV {
    let f = BV::fresh_const("cmp", 32);
    let zero = BV::from_i64(0, 32);
    let one = BV::from_i64(if positive { 1 } else { -1 }, 32);
    if positive {
        f.bvsgt(&zero).ite(&f, &one)
    } else {
        f.bvslt(&zero).ite(&f, &one)
    }
}

fn int_regex() -> Regexp {
    let digit = Regexp::range(&'0', &'9');
    let sign = Regexp::union(&[Regexp::literal("-"), Regexp::literal("+")]);
    Regexp::concat(&[sign.r#loop(0, 1), digit.plus()])
}

/// `Integer.parseInt` as an unbounded integer, with whether it succeeds.
fn parse_int(s: &ZStr) -> (Bool, Int) {
    let neg = ZStr::from("-").prefix(s);
    let signed = Bool::or(&[neg.clone(), ZStr::from("+").prefix(s)]);
    let digits = signed.ite(&s.substr(Int::from_i64(1), s.length() - Int::from_i64(1)), s);
    let n = str_to_int(&digits);
    let v = neg.ite(&(Int::from_i64(0) - &n), &n);
    let in_range = Bool::and(&[v.ge(&Int::from_i64(i32::MIN as i64)), v.le(&Int::from_i64(i32::MAX as i64))]);
    let exact = Bool::and(&[s.regex_matches(&int_regex()), in_range]);
    // Java also takes the other Unicode decimal digits (`"٣"` is 3): for a string with a
    // character outside ASCII, whether it parses and to what are unknown.
    let ascii = s.regex_matches(&Regexp::star(&range(0, 0x7f)));
    let other = Int::fresh_const("parsed");
    let other_ok = Bool::and(&[
        Bool::fresh_const("parses"),
        other.ge(&Int::from_i64(i32::MIN as i64)),
        other.le(&Int::from_i64(i32::MAX as i64)),
    ]);
    (ascii.ite(&exact, &other_ok), ascii.ite(&v, &other))
}

fn s(d: &Dynamic) -> ZStr {
    d.as_string().expect("a string term")
}

fn b(d: &Dynamic) -> BV {
    d.as_bv().expect("a bit-vector term")
}

/// Encodes a string operation; definitions of fresh terms go to `side`.
pub fn encode(op: StrOp, args: &[Dynamic], arg_tys: &[Ty], side: &mut Vec<Bool>) -> Dynamic {
    let d = Dynamic::from_ast;
    match op {
        StrOp::Null => d(&null()),
        StrOp::IsNull => d(&s(&args[0]).eq(&null())),
        StrOp::Concat => d(&ZStr::concat(&[s(&args[0]), s(&args[1])])),
        StrOp::ToStr => {
            let x = s(&args[0]);
            d(&x.eq(&null()).ite(&ZStr::from("null"), &x))
        }
        StrOp::Length => d(&int_to_bv32(&s(&args[0]).length(), None, side)),
        StrOp::CharAt => d(&code_of(&s(&args[0]).at(bv_to_int(&b(&args[1]))), side)),
        StrOp::Substring => {
            let (bi, ei) = (bv_to_int(&b(&args[1])), bv_to_int(&b(&args[2])));
            d(&s(&args[0]).substr(bi.clone(), ei - bi))
        }
        StrOp::Equals => d(&s(&args[0]).eq(&s(&args[1]))),
        StrOp::EqualsIgnoreCase => {
            let lo0 = charwise(&s(&args[0]), side, |i, _| map_case(&s(&args[0]).at(Int::from_i64(i)), true));
            let lo1 = charwise(&s(&args[1]), side, |i, _| map_case(&s(&args[1]).at(Int::from_i64(i)), true));
            // Outside ASCII, Java compares characters by their Unicode case mappings.
            let all_ascii = Regexp::star(&range(0, 0x7f));
            let ascii = Bool::and(&[s(&args[0]).regex_matches(&all_ascii), s(&args[1]).regex_matches(&all_ascii)]);
            let exact = Bool::and(&[s(&args[1]).eq(&null()).not(), lo0.eq(&lo1)]);
            d(&ascii
                .ite(&exact, &Bool::and(&[s(&args[1]).eq(&null()).not(), Bool::fresh_const("equal_ignoring_case")])))
        }
        StrOp::StartsWith => d(&s(&args[1]).prefix(&s(&args[0]))),
        StrOp::EndsWith => d(&s(&args[1]).suffix(&s(&args[0]))),
        StrOp::Contains => d(&s(&args[0]).contains(&s(&args[1]))),
        StrOp::IndexOf => d(&int_to_bv32(&seq_index(&s(&args[0]), &s(&args[1])), None, side)),
        StrOp::LastIndexOf => d(&int_to_bv32(&seq_last_index(&s(&args[0]), &s(&args[1])), None, side)),
        StrOp::Trim => d(&trim(&s(&args[0]), side)),
        StrOp::ToLowerCase | StrOp::ToUpperCase => {
            let x = s(&args[0]);
            let lower = op == StrOp::ToLowerCase;
            let mapped = charwise(&x, side, |i, _| map_case(&x.at(Int::from_i64(i)), lower));
            // Outside ASCII, Java's mapping may change characters and the length.
            let ascii = x.regex_matches(&Regexp::star(&range(0, 0x7f)));
            d(&ascii.ite(&mapped, &ZStr::fresh_const("case_mapped")))
        }
        StrOp::CompareTo => {
            let (x, y) = (s(&args[0]), s(&args[1]));
            let r = x.eq(&y).ite(&BV::from_i64(0, 32), &x.str_lt(&y).ite(&sign_fresh(false), &sign_fresh(true)));
            d(&r)
        }
        StrOp::FromChar => d(&str_of_code(&b(&args[0]))),
        StrOp::FromInt => {
            let x = b(&args[0]);
            let n = bv_to_int(&x);
            let _ = arg_tys;
            let zero = Int::from_i64(0);
            let digits_neg = int_to_str(&(zero.clone() - &n));
            let r = n.lt(&zero).ite(&ZStr::concat(&[ZStr::from("-"), digits_neg]), &int_to_str(&n));
            d(&r)
        }
        StrOp::FromBool => d(&args[0].as_bool().expect("a boolean").ite(&ZStr::from("true"), &ZStr::from("false"))),
        StrOp::ParsesAsInt => d(&parse_int(&s(&args[0])).0),
        StrOp::ParseInt => {
            let (ok, v) = parse_int(&s(&args[0]));
            d(&int_to_bv32(&v, Some(ok), side))
        }
        StrOp::Reverse => {
            let x = s(&args[0]);
            d(&charwise(&x, side, |i, len| x.at(len.clone() - Int::from_i64(1 + i))))
        }
        StrOp::Insert => {
            let x = s(&args[0]);
            let i = bv_to_int(&b(&args[1]));
            let len = x.length();
            let head = x.substr(Int::from_i64(0), i.clone());
            let tail = x.substr(i.clone(), len - i);
            d(&ZStr::concat(&[head, s(&args[2]), tail]))
        }
    }
}

/// The domain of a string input: null, or printable ASCII (synthesis) / any BMP text (proofs).
pub fn input_domain(p: &ZStr, synthesis: bool) -> Bool {
    let chars = if synthesis { range(b' ' as u16, b'~' as u16) } else { range(0, 0xffff) };
    Bool::or(&[p.eq(&null()), p.regex_matches(&chars.star())])
}

/// Ranges of human-looking strings, narrowest first.
pub fn small_ranges(p: &ZStr) -> Vec<Bool> {
    let word = |lo: char, hi: char, max: u32| p.regex_matches(&Regexp::range(&lo, &hi).r#loop(0, max));
    let alnum = Regexp::union(&[Regexp::range(&'a', &'z'), Regexp::range(&'A', &'Z'), Regexp::range(&'0', &'9')]);
    vec![word('a', 'z', 6), p.regex_matches(&alnum.r#loop(0, 8)), word(' ', '~', 12), p.eq(&null()).not()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_text_round_trips() {
        assert_eq!(from_model("ab"), Some("ab".into()));
        assert_eq!(from_model("\\u{e9}x"), Some("\u{e9}x".into()));
        assert_eq!(from_model("\\u{10000}"), None);
        assert_eq!(from_model("a\\\\b"), Some("a\\b".into()));
    }
}
