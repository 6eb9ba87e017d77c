//! Byte offset ⇄ (0-based line, byte column) conversion.

/// Start offsets of every line of a text.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts, len: text.len() }
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

    /// Byte range of 0-based `line`, without its newline; `None` past the end.
    pub fn line_range(&self, line: usize) -> Option<std::ops::Range<usize>> {
        let start = *self.starts.get(line)?;
        let end = self.starts.get(line + 1).map(|s| s - 1).unwrap_or(self.len);
        Some(start..end.max(start))
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
}
