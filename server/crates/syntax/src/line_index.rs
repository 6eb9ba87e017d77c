//! Byte offset ⇄ (0-based line, byte column) conversion.

/// Start offsets of every line of a text.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
    /// Where each line's text ends (its terminator excluded).
    ends: Vec<usize>,
}

impl LineIndex {
    /// The lines of `text`, ended by `\n`, `\r\n` or a lone `\r`, as javac (JLS 3.4) and LSP count
    /// them.
    pub fn new(text: &str) -> LineIndex {
        let b = text.as_bytes();
        let mut starts = vec![0];
        let mut ends = Vec::new();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\n' => {
                    ends.push(i);
                    starts.push(i + 1);
                }
                b'\r' => {
                    ends.push(i);
                    if b.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    starts.push(i + 1);
                }
                _ => {}
            }
            i += 1;
        }
        ends.push(text.len());
        LineIndex { starts, ends }
    }

    /// Number of lines (a trailing newline starts an empty last line).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// 0-based line containing `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// Byte range of 0-based `line`, without its line terminator; `None` past the end.
    pub fn line_range(&self, line: usize) -> Option<std::ops::Range<usize>> {
        Some(*self.starts.get(line)?..*self.ends.get(line)?)
    }

    /// (0-based line, byte column) of `offset`.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let line = self.line_of(offset);
        (line, offset - self.starts[line])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_positions() {
        let idx = LineIndex::new("ab\ncd\n\nx");
        assert_eq!(idx.line_count(), 4);
        assert_eq!(idx.position(0), (0, 0));
        assert_eq!(idx.position(4), (1, 1));
        assert_eq!(idx.position(7), (3, 0));
        assert_eq!(idx.line_range(1), Some(3..5));
        assert_eq!(idx.line_range(2), Some(6..6));
        assert_eq!(idx.line_range(9), None);
    }

    #[test]
    fn carriage_returns_end_lines_alone_or_before_a_newline() {
        let idx = LineIndex::new("a\r\nbc\rd\n\r\re");
        assert_eq!(idx.line_count(), 6);
        assert_eq!(idx.line_range(0), Some(0..1));
        assert_eq!(idx.line_range(1), Some(3..5));
        assert_eq!(idx.line_range(2), Some(6..7));
        assert_eq!(idx.line_range(3), Some(8..8));
        assert_eq!(idx.line_range(4), Some(9..9));
        assert_eq!(idx.line_range(5), Some(10..11));
        assert_eq!(idx.position(6), (2, 0));
        assert_eq!(idx.position(10), (5, 0));
        assert_eq!(LineIndex::new("x\r").line_count(), 2);
    }
}
