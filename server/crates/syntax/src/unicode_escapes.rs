//! Unicode escapes that change how javac reads a file. Java translates `\uXXXX` escapes before it
//! splits the text into tokens (JLS 3.3), so `// \u000a x = 1;` ends the comment and makes
//! `x = 1;` code, and `/* \u002a/ ... */` ends a block comment early. tree-sitter reads the text as
//! written. Rather than analyse a different program than javac compiles, jreach finds such escapes
//! in comments and literals (the one place they can hide; in code they are syntax errors for
//! tree-sitter) and gives the file no verdict and no test.

use crate::SourceFile;

/// The first comment or literal of `file` whose Unicode escapes end it early or turn part of it
/// into code: its byte offset and what it is.
pub fn unicode_escape_hazard(file: &SourceFile) -> Option<(usize, &'static str)> {
    if !file.text.contains("\\u") {
        return None;
    }
    let mut found: Option<(usize, &'static str)> = None;
    let mut stack = vec![file.tree.root_node()];
    while let Some(n) = stack.pop() {
        let raw = &file.text[n.byte_range()];
        let what = match n.kind() {
            "line_comment" => {
                let t = translate(raw);
                t.contains(['\n', '\r']).then_some("a line comment")
            }
            "block_comment" => {
                let t = translate(raw);
                let inner = t.strip_prefix("/*").and_then(|t| t.strip_suffix("*/"));
                inner.is_none_or(|i| i.contains("*/")).then_some("a block comment")
            }
            "string_literal" | "character_literal" => {
                let t = translate(raw);
                let quote = if n.kind() == "string_literal" { '"' } else { '\'' };
                let block = t.starts_with("\"\"\"");
                let body =
                    if block { t.get(3..t.len().saturating_sub(3)) } else { t.get(1..t.len().saturating_sub(1)) };
                body.is_none_or(|b| ends_early(b, quote, block)).then_some("a literal")
            }
            _ => {
                let mut c = n.walk();
                stack.extend(n.children(&mut c));
                None
            }
        };
        if let Some(what) = what.filter(|_| raw.contains("\\u")) {
            if found.is_none_or(|(at, _)| n.start_byte() < at) {
                found = Some((n.start_byte(), what));
            }
        }
    }
    found
}

/// Whether a literal body (after translation) holds an unescaped closing quote or, outside a text
/// block, a line terminator: javac's literal would end there.
fn ends_early(body: &str, quote: char, text_block: bool) -> bool {
    let chars: Vec<char> = body.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '\n' | '\r' if !text_block => return true,
            c if c == quote && (!text_block || chars[i..].starts_with(&[quote, quote, quote])) => return true,
            _ => i += 1,
        }
    }
    false
}

/// `raw` with its Unicode escapes translated (JLS 3.3); a malformed escape is kept as written.
fn translate(raw: &str) -> String {
    let chars: Vec<char> = raw.chars().collect();
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    let mut backslashes = 0usize;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && backslashes % 2 == 0 && chars.get(i + 1) == Some(&'u') {
            let mut j = i + 1;
            while chars.get(j) == Some(&'u') {
                j += 1;
            }
            let hex: String = chars.get(j..j + 4).map(|h| h.iter().collect()).unwrap_or_default();
            if let Some(ch) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                out.push(ch);
                i = j + 4;
                backslashes = 0;
                continue;
            }
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
        out.push(c);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hazard(src: &str) -> Option<&'static str> {
        unicode_escape_hazard(&SourceFile::parse(src)).map(|(_, what)| what)
    }

    #[test]
    fn escapes_that_end_comments_and_literals_are_found() {
        assert_eq!(hazard("class A { void f() { int y = 0; // \\u000a y = 1;\n } }"), Some("a line comment"));
        assert_eq!(hazard("class A { void f() { /* \\u002a/ int y = 2; /* */ } }"), Some("a block comment"));
        assert_eq!(hazard("class A { String s = \"\\u0022 + x + \\u0022\"; }"), Some("a literal"));
    }

    #[test]
    fn harmless_escapes_are_not() {
        assert_eq!(hazard("class A { void f() { // Andr\\u00e9\n } }"), None);
        assert_eq!(hazard("class A { String s = \"caf\\u00e9 \\u005cn\"; char c = '\\u0041'; }"), None);
        assert_eq!(hazard("class A { /* \\u0041 */ }"), None);
        // An escaped backslash does not begin an escape.
        assert_eq!(hazard("class A { void f() { // \\\\u000a\n } }"), None);
    }
}
