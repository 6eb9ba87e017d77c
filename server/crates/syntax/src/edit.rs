//! Incremental edits of a [`SourceFile`]: replace a byte range, shift the tree with
//! [`Tree::edit`](tree_sitter::Tree::edit), and reparse reusing the old tree.
//!
//! An editor sends a batch of changes, each relative to the text left by the previous one. Apply
//! them in order with [`SourceFile::edit`] (text, line index and tree positions are updated at
//! once, so the next change can be located) and call [`SourceFile::reparse`] once at the end, or use
//! [`SourceFile::apply_edits`] for both. The result is the same tree a full parse of the new text
//! gives; only the unchanged subtrees are reused.

use std::ops::Range;

use tree_sitter::{InputEdit, Parser, Point};

use crate::{source::language, LineIndex, SourceFile};

impl Clone for SourceFile {
    fn clone(&self) -> SourceFile {
        SourceFile { text: self.text.clone(), tree: self.tree.clone(), lines: self.lines.clone() }
    }
}

/// The largest char boundary of `text` at or below `at` (and at most its length).
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The tree-sitter point of byte `offset` (row, byte column). tree-sitter counts rows by `\n`
/// alone, unlike [`LineIndex`] (which counts a lone `\r` too, as javac and LSP do).
fn point_of(text: &str, offset: usize) -> Point {
    let before = &text.as_bytes()[..offset];
    let row = before.iter().filter(|b| **b == b'\n').count();
    let column = before.iter().rposition(|b| *b == b'\n').map_or(offset, |i| offset - i - 1);
    Point { row, column }
}

/// Where `text` ends when inserted at `start`.
fn end_point(start: Point, text: &str) -> Point {
    match text.rfind('\n') {
        Some(i) => Point { row: start.row + text.matches('\n').count(), column: text.len() - i - 1 },
        None => Point { row: start.row, column: start.column + text.len() },
    }
}

impl SourceFile {
    /// Replaces the bytes `range` of the text by `new_text`. The text and the line index are
    /// updated; the tree's positions are shifted but it is not reparsed: call [`Self::reparse`]
    /// after the last edit of a batch. A range past the end or inside a character is clamped to
    /// the nearest character boundary below (an edit never panics).
    pub fn edit(&mut self, range: Range<usize>, new_text: &str) {
        let start = floor_boundary(&self.text, range.start);
        let end = floor_boundary(&self.text, range.end).max(start);
        let start_position = point_of(&self.text, start);
        let old_end_position = point_of(&self.text, end);
        let new_end_position = end_point(start_position, new_text);
        self.text.replace_range(start..end, new_text);
        self.lines = LineIndex::new(&self.text);
        self.tree.edit(&InputEdit {
            start_byte: start,
            old_end_byte: end,
            new_end_byte: start + new_text.len(),
            start_position,
            old_end_position,
            new_end_position,
        });
    }

    /// Reparses the text, reusing the unchanged parts of the (edited) tree. When the result has
    /// syntax errors the text is parsed afresh: tree-sitter's error recovery may read broken code
    /// differently when it reuses a tree, and the same text must always give the same answers.
    pub fn reparse(&mut self) {
        let mut parser = Parser::new();
        parser.set_language(&language()).expect("tree-sitter-java matches the tree-sitter version");
        let tree = parser
            .parse(&self.text, Some(&self.tree))
            .expect("parsing without a timeout or cancellation flag always yields a tree");
        self.tree = if tree.root_node().has_error() {
            parser.parse(&self.text, None).expect("parsing without a timeout or cancellation flag always yields a tree")
        } else {
            tree
        };
    }

    /// Applies `edits` in order (each relative to the text the previous one left), then reparses.
    pub fn apply_edits<'a>(&mut self, edits: impl IntoIterator<Item = (Range<usize>, &'a str)>) {
        for (range, text) in edits {
            self.edit(range, text);
        }
        self.reparse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "package p;\nclass A {\n    int f(int x) {\n        if (x > 0) { return 1; }\n        return 0; // é\n    }\n}\n";

    fn same_as_full_parse(f: &SourceFile) {
        let full = SourceFile::parse(f.text.clone());
        assert_eq!(f.tree.root_node().to_sexp(), full.tree.root_node().to_sexp(), "text: {:?}", f.text);
        assert_eq!(f.lines.line_count(), full.lines.line_count());
        let mut a = f.tree.walk();
        let mut b = full.tree.walk();
        // Same byte ranges and points for every node.
        loop {
            assert_eq!(a.node().byte_range(), b.node().byte_range());
            assert_eq!(a.node().start_position(), b.node().start_position());
            assert_eq!(a.node().end_position(), b.node().end_position());
            if a.goto_first_child() {
                assert!(b.goto_first_child());
                continue;
            }
            loop {
                if a.goto_next_sibling() {
                    assert!(b.goto_next_sibling());
                    break;
                }
                if !a.goto_parent() {
                    return;
                }
                assert!(b.goto_parent());
            }
        }
    }

    #[test]
    fn single_edits_match_a_full_parse() {
        let mut f = SourceFile::parse(SRC);
        let at = SRC.find("x > 0").unwrap();
        f.apply_edits([(at + 4..at + 5, "7")]);
        assert!(f.text.contains("x > 7"));
        same_as_full_parse(&f);
        // A line break inside the method, then one that breaks the syntax, then its repair.
        let at = f.text.find("return 0;").unwrap();
        f.apply_edits([(at..at, "int y = 2;\n        ")]);
        same_as_full_parse(&f);
        let at = f.text.find("int y").unwrap();
        f.apply_edits([(at + 9..at + 10, "")]);
        assert!(f.has_errors());
        same_as_full_parse(&f);
        f.apply_edits([(at + 9..at + 9, ";")]);
        assert!(!f.has_errors());
        same_as_full_parse(&f);
    }

    #[test]
    fn batches_are_applied_in_order() {
        let mut f = SourceFile::parse(SRC);
        f.apply_edits([(0..0, "// head\n"), (8..8, "import x.Y;\n"), (0..2, "/*"), (5..5, "*/")]);
        assert!(f.text.starts_with("/* he*/ad\nimport x.Y;\npackage p;"), "{}", f.text);
        same_as_full_parse(&f);
    }

    #[test]
    fn pseudo_random_edits_match_a_full_parse() {
        let pieces =
            ["", "x", "1", " ", "\n", "{", "}", ";", "if (x < 3) ", "return 2;", "é", "\r\n", "(", "int z = x;"];
        let mut f = SourceFile::parse(SRC);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..300 {
            let len = f.text.len();
            let a = next(len + 1);
            let b = (a + next(4)).min(len);
            let text = pieces[next(pieces.len())];
            f.edit(a..b, text);
            if next(3) == 0 {
                f.reparse();
                same_as_full_parse(&f);
            }
        }
        f.reparse();
        same_as_full_parse(&f);
    }

    #[test]
    fn out_of_range_edits_are_clamped() {
        let mut f = SourceFile::parse("class A { char c = 'é'; }");
        let e = f.text.find('é').unwrap();
        f.apply_edits([(e + 1..e + 1, "x")]);
        assert_eq!(f.text, "class A { char c = 'xé'; }");
        f.apply_edits([(1000..2000, " // end")]);
        assert!(f.text.ends_with("} // end"));
        same_as_full_parse(&f);
    }
}
