//! The comment a jreach test starts with, written and read back.
//!
//! Every test jreach writes begins with `// Reaches line N in <member>: <statement>` (the member
//! as [`jreach_syntax::member_at`] names it: `withdraw(int)`); a test that `jreach fill` wrote
//! also says which other lines of the file its run covered (`// Also runs lines 7-9, 12.`).
//! [`markers_in`] finds these comments in a test file again, so that a second `fill` knows which
//! lines its earlier tests cover without running them, and a second request for the same
//! statement finds the test it replaces; a caller trusts a marker's line only while that line
//! still holds the statement it quotes ([`quoted_target`]) in the member it names, and otherwise
//! looks for the statement in that member. Comments without a member (written before members
//! were named) are still read.

use crate::render::{sanitize_comment, truncate, TARGET_TEXT_MAX};

const REACHES: &str = "// Reaches line ";
const ALSO_RUNS: &str = "// Also runs lines ";

/// `// Reaches line N in <member>: <statement>`, the first line of a jreach test's comment;
/// `member` and `quoted` are left out when empty.
pub(crate) fn reaches_comment(line: usize, member: Option<&str>, quoted: &str) -> String {
    let mut out = format!("{REACHES}{line}");
    if let Some(member) = member.map(sanitize_comment).filter(|m| !m.is_empty() && !m.contains(':')) {
        out.push_str(" in ");
        out.push_str(&member);
    }
    if !quoted.is_empty() {
        out.push_str(": ");
        out.push_str(quoted);
    }
    out
}

/// The target's text as a test's first comment quotes it (`// Reaches line N: <this>`).
pub fn quoted_target(target_text: &str) -> String {
    truncate(&sanitize_comment(target_text), TARGET_TEXT_MAX)
}

/// `// Also runs lines 7-9, 12.` for sorted `lines`.
pub(crate) fn also_runs_comment(lines: &[usize]) -> String {
    format!("{ALSO_RUNS}{}.", line_ranges(lines))
}

/// Sorted `lines` as ranges: `7-9, 12`.
pub fn line_ranges(lines: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let start = lines[i];
        let mut end = start;
        while i + 1 < lines.len() && lines[i + 1] == end + 1 {
            i += 1;
            end = lines[i];
        }
        parts.push(if end == start { start.to_string() } else { format!("{start}-{end}") });
        i += 1;
    }
    parts.join(", ")
}

/// The lines of `7-9, 12` (what [`line_ranges`] writes); `None` if it is not such a list.
pub fn parse_line_ranges(text: &str) -> Option<Vec<usize>> {
    let mut lines = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                // A range wider than any source file is not one jreach wrote.
                if a > b || b - a > 1_000_000 {
                    return None;
                }
                lines.extend(a..=b);
            }
            None => lines.push(part.parse().ok()?),
        }
    }
    Some(lines)
}

/// A jreach test's comment as found in a test file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    /// The test method's 1-based line in the test file where the comment starts.
    pub at: usize,
    /// The target line, 1-based, when the test was written.
    pub target_line: usize,
    /// The member the statement is written in (`withdraw(int)`); `None` in comments written
    /// before members were named.
    pub member: Option<String>,
    /// The statement as quoted (see [`quoted_target`]); empty when the comment quotes none.
    pub quoted: String,
    /// The other lines it says the test runs.
    pub also_runs: Vec<usize>,
}

/// The jreach test comments in the text of a test file, in order.
pub fn markers_in(test_text: &str) -> Vec<Marker> {
    let mut out: Vec<Marker> = Vec::new();
    let mut last_reaches: Option<usize> = None;
    for (i, line) in test_text.lines().enumerate() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix(REACHES) {
            let (num, quoted) = match rest.split_once(':') {
                Some((n, q)) => (n, q.trim()),
                None => (rest, ""),
            };
            last_reaches = None;
            let (num, member) = match num.split_once(" in ") {
                Some((n, m)) => (n, Some(m.trim().to_string()).filter(|m| !m.is_empty())),
                None => (num, None),
            };
            if let Ok(target_line) = num.trim().parse() {
                out.push(Marker { at: i + 1, target_line, member, quoted: quoted.to_string(), also_runs: vec![] });
                last_reaches = Some(out.len() - 1);
            }
        } else if let Some(rest) = line.strip_prefix(ALSO_RUNS) {
            // Only right after its `Reaches line` comment.
            if let (Some(m), Some(lines)) = (last_reaches.take(), parse_line_ranges(rest.trim_end_matches('.'))) {
                out[m].also_runs = lines;
            }
        } else {
            last_reaches = None;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_written_and_read_back() {
        assert_eq!(line_ranges(&[3, 7, 8, 9, 12, 14, 15]), "3, 7-9, 12, 14-15");
        assert_eq!(parse_line_ranges("3, 7-9, 12, 14-15"), Some(vec![3, 7, 8, 9, 12, 14, 15]));
        assert_eq!(parse_line_ranges("3, x"), None);
        assert_eq!(parse_line_ranges("9-7"), None);
    }

    #[test]
    fn markers_are_found_with_what_the_tests_also_run() {
        let text = "class ATest {\n    @Test\n    void f_returnsA() {\n        // Reaches line 14 in f(int, List): return a;\n        // Also runs lines 9-11, 13.\n        // Path: a > 0\n    }\n    void g() {\n        // Reaches line 20\n        int x = 1;\n        // Also runs lines 1-2.\n    }\n}\n";
        let found = markers_in(text);
        assert_eq!(
            found,
            [
                Marker {
                    at: 4,
                    target_line: 14,
                    member: Some("f(int, List)".into()),
                    quoted: "return a;".into(),
                    also_runs: vec![9, 10, 11, 13]
                },
                // The `Also runs` comment does not follow its `Reaches` line: not this test's. A
                // comment written before members were named.
                Marker { at: 9, target_line: 20, member: None, quoted: String::new(), also_runs: vec![] },
            ]
        );
    }

    #[test]
    fn the_first_line_is_read_back_as_written() {
        for (member, quoted) in
            [(Some("put(Map, String...)"), "m.put(k, v); // a: b"), (None, "return x;"), (Some("f()"), "")]
        {
            let line = reaches_comment(7, member, quoted);
            let m = &markers_in(&line)[0];
            assert_eq!((m.target_line, m.member.as_deref(), m.quoted.as_str()), (7, member, quoted), "{line}");
        }
        // A member that would not read back is left out.
        assert_eq!(reaches_comment(7, Some("a:b"), "x;"), "// Reaches line 7: x;");
    }
}
