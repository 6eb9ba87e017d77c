//! Java literals as values: integer and floating-point literals, character and string literals
//! and text blocks, decoded as javac does. Unicode escapes (`\u005c`) are translated first, on the
//! raw text (JLS 3.3), so `"\u005cn"` is a newline; then a text block's incidental indentation
//! and trailing spaces are stripped (JLS 3.10.6); then escape sequences are interpreted (JLS
//! 3.10.7), `\s` and the line continuation of text blocks included.

use crate::types::{Const, Ty};

/// Parses a Java integer literal (decimal, hex, octal, binary; `_` separators; `L` suffix).
pub fn parse_int_literal(text: &str) -> Option<Const> {
    let t: String = text.chars().filter(|c| *c != '_').collect();
    let (body, long) = match t.strip_suffix(['l', 'L']) {
        Some(b) => (b.to_string(), true),
        None => (t, false),
    };
    let lower = body.to_ascii_lowercase();
    let v: u64 = if let Some(h) = lower.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()?
    } else if let Some(b) = lower.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()?
    } else if lower.len() > 1 && lower.starts_with('0') {
        u64::from_str_radix(&lower[1..], 8).ok()?
    } else {
        lower.parse::<u64>().ok()?
    };
    Some(if long { Const::int(Ty::Long, v as i64) } else { Const::int(Ty::Int, v as u32 as i32 as i64) })
}

/// Parses a decimal floating-point literal (`f`/`F` float, otherwise double).
pub fn parse_float_literal(text: &str) -> Option<Const> {
    let t: String = text.chars().filter(|c| *c != '_').collect();
    if t.to_ascii_lowercase().starts_with("0x") {
        return None;
    }
    if let Some(b) = t.strip_suffix(['f', 'F']) {
        return b.parse::<f32>().ok().map(Const::f32);
    }
    let b = t.strip_suffix(['d', 'D']).unwrap_or(&t);
    b.parse::<f64>().ok().map(Const::f64)
}

/// Translates the Unicode escapes of raw Java text (JLS 3.3): a backslash preceded by an even
/// number of backslashes, one or more `u`, four hex digits. `None` for a malformed escape.
pub fn translate_unicode_escapes(raw: &str) -> Option<Vec<u16>> {
    let units: Vec<u16> = raw.encode_utf16().collect();
    let mut out = Vec::with_capacity(units.len());
    let mut i = 0;
    // Contiguous raw backslashes before the current position.
    let mut backslashes = 0usize;
    while i < units.len() {
        let c = units[i];
        if c == b'\\' as u16 && backslashes % 2 == 0 && units.get(i + 1) == Some(&(b'u' as u16)) {
            let mut j = i + 1;
            while units.get(j) == Some(&(b'u' as u16)) {
                j += 1;
            }
            let hex = String::from_utf16(units.get(j..j + 4)?).ok()?;
            out.push(u16::from_str_radix(&hex, 16).ok()?);
            i = j + 4;
            // A backslash made by an escape cannot begin another one.
            backslashes = 0;
            continue;
        }
        backslashes = if c == b'\\' as u16 { backslashes + 1 } else { 0 };
        out.push(c);
        i += 1;
    }
    Some(out)
}

/// Interprets the escape sequences of a literal body (after Unicode escapes): `\n`, `\t`, `\b`,
/// `\r`, `\f`, `\s`, `\"`, `\'`, `\\`, octal escapes, and in a text block a backslash before a
/// line terminator, which joins the lines.
fn interpret_escapes(body: &[u16], text_block: bool) -> Option<Vec<u16>> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        i += 1;
        if c != b'\\' as u16 {
            out.push(c);
            continue;
        }
        let e = *body.get(i)?;
        i += 1;
        let v = match char::from_u32(e as u32)? {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'b' => 8,
            'f' => 12,
            's' => 32,
            '"' | '\'' | '\\' => e,
            '\n' if text_block => continue,
            d @ '0'..='7' => {
                // Up to three octal digits, at most \377.
                let mut v = d.to_digit(8)?;
                let max_digits = if d <= '3' { 3 } else { 2 };
                let mut digits = 1;
                while digits < max_digits {
                    match body.get(i).and_then(|u| char::from_u32(*u as u32)).and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            i += 1;
                            digits += 1;
                        }
                        None => break,
                    }
                }
                v as u16
            }
            _ => return None,
        };
        out.push(v);
    }
    Some(out)
}

/// The UTF-16 unit of a character literal such as `'a'`, `'\n'` or `'\uffff'`.
pub fn parse_char_literal(text: &str) -> Option<u16> {
    let units = translate_unicode_escapes(text)?;
    let body = units.strip_prefix(&[b'\'' as u16])?.strip_suffix(&[b'\'' as u16])?;
    let units = interpret_escapes(body, false)?;
    (units.len() == 1).then(|| units[0])
}

/// The value of a string literal or text block, as UTF-16 units; `None` when malformed.
pub fn string_literal_units(text: &str) -> Option<Vec<u16>> {
    let units = translate_unicode_escapes(text)?;
    let quote = b'"' as u16;
    let delim = [quote, quote, quote];
    if let Some(body) = units.strip_prefix(&delim).and_then(|b| b.strip_suffix(&delim)) {
        return interpret_escapes(&strip_text_block(body)?, true);
    }
    let body = units.strip_prefix(&[quote])?.strip_suffix(&[quote])?;
    interpret_escapes(body, false)
}

/// The value of a string literal or text block (lossy for lone surrogates; the raw text if it is
/// malformed).
pub fn parse_string_literal(text: &str) -> String {
    match string_literal_units(text) {
        Some(u) => String::from_utf16_lossy(&u),
        None => text.to_string(),
    }
}

/// The content of a text block as javac leaves it before escapes (JLS 3.10.6): from after the
/// line terminator that follows the opening delimiter; line terminators as `\n`; the indentation
/// common to the non-blank lines and to the closing delimiter's line removed; trailing white
/// space removed from every line.
fn strip_text_block(body: &[u16]) -> Option<Vec<u16>> {
    // Normalize line terminators.
    let mut text = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] == b'\r' as u16 {
            text.push(b'\n' as u16);
            if body.get(i + 1) == Some(&(b'\n' as u16)) {
                i += 1;
            }
        } else {
            text.push(body[i]);
        }
        i += 1;
    }
    // The opening delimiter is followed by white space and a line terminator.
    let first_nl = text.iter().position(|c| *c == b'\n' as u16)?;
    if !text[..first_nl].iter().all(|c| is_java_whitespace(*c)) {
        return None;
    }
    let content = &text[first_nl + 1..];
    let lines: Vec<&[u16]> = content.split(|c| *c == b'\n' as u16).collect();
    let last = lines.len() - 1;
    let blank = |l: &[u16]| l.iter().all(|c| is_java_whitespace(*c));
    let indent = |l: &[u16]| l.iter().take_while(|c| is_java_whitespace(**c)).count();
    let min =
        lines.iter().enumerate().filter(|(k, l)| *k == last || !blank(l)).map(|(_, l)| indent(l)).min().unwrap_or(0);
    let mut out = Vec::with_capacity(content.len());
    for (k, l) in lines.iter().enumerate() {
        if !blank(l) {
            let kept = &l[min.min(l.len())..];
            let end = kept.iter().rposition(|c| !is_java_whitespace(*c)).map_or(0, |p| p + 1);
            out.extend_from_slice(&kept[..end]);
        }
        if k < last {
            out.push(b'\n' as u16);
        }
    }
    Some(out)
}

/// `Character.isWhitespace` for a UTF-16 unit: Unicode space separators but the no-break
/// spaces, and the ASCII control characters tab to carriage return and 0x1C to 0x1F.
fn is_java_whitespace(c: u16) -> bool {
    match c {
        0x09..=0x0d | 0x1c..=0x1f | 0x20 => true,
        0xa0 | 0x2007 | 0x202f => false,
        _ => char::from_u32(c as u32).is_some_and(|ch| ch.is_whitespace() && c != 0x85),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(parse_int_literal("0xFFFFFFFF"), Some(Const::int(Ty::Int, -1)));
        assert_eq!(parse_int_literal("2147483648"), Some(Const::int(Ty::Int, i32::MIN as i64)));
        assert_eq!(parse_int_literal("3_000_000_000L"), Some(Const::int(Ty::Long, 3_000_000_000)));
        assert_eq!(parse_int_literal("010"), Some(Const::int(Ty::Int, 8)));
        assert_eq!(parse_int_literal("0b101"), Some(Const::int(Ty::Int, 5)));
        assert_eq!(parse_float_literal("1e31f"), Some(Const::f32(1e31)));
        assert_eq!(parse_float_literal("2.5"), Some(Const::f64(2.5)));
        assert_eq!(parse_char_literal("'\\uffff'"), Some(0xffff));
        assert_eq!(parse_char_literal("'\\n'"), Some(10));
        assert_eq!(parse_char_literal("'A'"), Some(65));
        assert_eq!(parse_char_literal("'\\''"), Some(39));
        assert_eq!(parse_string_literal("\"a\\tb\""), "a\tb");
    }

    #[test]
    fn unicode_escapes_come_first() {
        // `\u005c` is a backslash, which then begins the escape `\n`.
        assert_eq!(parse_string_literal("\"\\u005cn\""), "\n");
        // An escaped backslash does not begin a Unicode escape.
        assert_eq!(parse_string_literal("\"\\\\u0041\""), "\\u0041");
        assert_eq!(parse_string_literal("\"\\uuu0041\""), "A");
        assert_eq!(parse_char_literal("'\\u0041'"), Some(65));
        assert_eq!(parse_string_literal("\"\\101\\0\\377\""), "A\u{0}\u{ff}");
    }

    #[test]
    fn text_blocks_strip_incidental_white_space() {
        // The closing delimiter on its own line: a trailing newline; its indentation counts.
        assert_eq!(parse_string_literal("\"\"\"\n    abc\n    \"\"\""), "abc\n");
        assert_eq!(parse_string_literal("\"\"\"\n      a\n    b  \n    \"\"\""), "  a\nb\n");
        // The closing delimiter after the text: no trailing newline.
        assert_eq!(parse_string_literal("\"\"\"\n    a\n    b\"\"\""), "a\nb");
        // A delimiter less indented than the text keeps the text's indentation.
        assert_eq!(parse_string_literal("\"\"\"\n    a\n  \"\"\""), "  a\n");
        // `\` at a line's end joins it with the next; `\s` is a space that is not stripped.
        assert_eq!(parse_string_literal("\"\"\"\n    a \\\n    b\\s\n    \"\"\""), "a b \n");
        // Blank lines become empty; CRLF is a newline.
        assert_eq!(parse_string_literal("\"\"\"\r\n  a\r\n   \r\n  b\"\"\""), "a\n\nb");
    }
}
