//! LSP positions ⇄ byte offsets, in the encoding negotiated at initialisation.
//!
//! Inside jreach every offset is a byte offset into the text; this module is the only place that
//! knows columns may count UTF-16 code units (the LSP default), UTF-8 bytes or code points. Every
//! conversion clamps: a line past the end maps to the end of the text, a column past the end of
//! its line to the end of the line, a column inside a character to that character's start.

use jreach_syntax::LineIndex;
use tower_lsp_server::ls_types::{Position, PositionEncodingKind, Range};

/// How the `character` of a position counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    #[default]
    Utf16,
    Utf32,
}

impl Encoding {
    /// The encoding to use given what the client offers (`general.positionEncodings`): UTF-8 when
    /// offered (no conversion at all), else UTF-16, which every client supports.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        let offered = offered.unwrap_or(&[]);
        if offered.contains(&PositionEncodingKind::UTF8) {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    fn width(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf32 => 1,
        }
    }
}

/// The line's text without its line terminator (`\n` or `\r\n`).
fn line_text<'t>(text: &'t str, lines: &LineIndex, line: usize) -> Option<(usize, &'t str)> {
    let r = lines.line_range(line)?;
    let s = &text[r.clone()];
    Some((r.start, s.strip_suffix('\r').unwrap_or(s)))
}

/// The byte offset of `pos` in `text`.
pub fn offset(text: &str, lines: &LineIndex, pos: Position, enc: Encoding) -> usize {
    let Some((start, line)) = line_text(text, lines, pos.line as usize) else {
        return text.len();
    };
    let want = pos.character as usize;
    if enc == Encoding::Utf8 {
        let mut at = want.min(line.len());
        while !line.is_char_boundary(at) {
            at -= 1;
        }
        return start + at;
    }
    let mut units = 0;
    for (i, c) in line.char_indices() {
        let next = units + enc.width(c);
        if next > want {
            return start + i;
        }
        units = next;
    }
    start + line.len()
}

/// The position of byte `offset` of `text`.
pub fn position(text: &str, lines: &LineIndex, offset: usize, enc: Encoding) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let (line, col) = lines.position(offset);
    let line_start = offset - col;
    let before = &text[line_start..offset];
    let character = match enc {
        Encoding::Utf8 => before.len(),
        Encoding::Utf16 => before.encode_utf16().count(),
        Encoding::Utf32 => before.chars().count(),
    };
    Position::new(line as u32, character as u32)
}

/// The LSP range of a byte range.
pub fn range(text: &str, lines: &LineIndex, r: std::ops::Range<usize>, enc: Encoding) -> Range {
    Range::new(position(text, lines, r.start, enc), position(text, lines, r.end, enc))
}

/// The byte range of an LSP range (end never before start).
pub fn byte_range(text: &str, lines: &LineIndex, r: Range, enc: Encoding) -> std::ops::Range<usize> {
    let start = offset(text, lines, r.start, enc);
    let end = offset(text, lines, r.end, enc).max(start);
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "ab\r\né𝄞x\n\nz";

    fn idx() -> LineIndex {
        LineIndex::new(TEXT)
    }

    #[test]
    fn utf16_columns_count_surrogate_pairs() {
        let l = idx();
        let e = Encoding::Utf16;
        // é is 2 bytes / 1 unit; 𝄞 is 4 bytes / 2 units.
        assert_eq!(offset(TEXT, &l, Position::new(1, 0), e), 4);
        assert_eq!(offset(TEXT, &l, Position::new(1, 1), e), 6);
        assert_eq!(offset(TEXT, &l, Position::new(1, 3), e), 10);
        assert_eq!(offset(TEXT, &l, Position::new(1, 2), e), 6, "inside the pair: its start");
        assert_eq!(position(TEXT, &l, 10, e), Position::new(1, 3));
        assert_eq!(position(TEXT, &l, 11, e), Position::new(1, 4));
    }

    #[test]
    fn utf8_and_utf32() {
        let l = idx();
        assert_eq!(offset(TEXT, &l, Position::new(1, 6), Encoding::Utf8), 10);
        assert_eq!(offset(TEXT, &l, Position::new(1, 5), Encoding::Utf8), 6, "inside 𝄞: its start");
        assert_eq!(position(TEXT, &l, 10, Encoding::Utf8), Position::new(1, 6));
        assert_eq!(offset(TEXT, &l, Position::new(1, 2), Encoding::Utf32), 10);
        assert_eq!(position(TEXT, &l, 10, Encoding::Utf32), Position::new(1, 2));
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let l = idx();
        let e = Encoding::Utf16;
        assert_eq!(offset(TEXT, &l, Position::new(0, 99), e), 2, "before the \\r\\n");
        assert_eq!(offset(TEXT, &l, Position::new(3, 1), e), TEXT.len());
        assert_eq!(offset(TEXT, &l, Position::new(42, 0), e), TEXT.len());
        assert_eq!(position(TEXT, &l, 999, e), Position::new(3, 1));
        let r = Range::new(Position::new(1, 1), Position::new(0, 0));
        assert_eq!(byte_range(TEXT, &l, r, e), 6..6);
    }

    #[test]
    fn negotiation_prefers_utf8() {
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
        let offered = [PositionEncodingKind::UTF16, PositionEncodingKind::UTF8];
        assert_eq!(Encoding::negotiate(Some(&offered)), Encoding::Utf8);
        assert_eq!(Encoding::negotiate(Some(&[PositionEncodingKind::UTF32])), Encoding::Utf16);
    }
}
