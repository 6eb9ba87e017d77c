//! From report lines to statements: the statement a line of code belongs to (a call's
//! arguments on the lines below it, a block's closing brace), the text a test's comment quotes
//! of it, and the lines jreach's earlier tests already cover, read back from their comments
//! ([`jreach_synth::markers_in`]).

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use jreach_syntax::{find_target, SourceFile};
use jreach_synth as synth;

/// The 1-based line of the statement that 1-based `line` belongs to: the line itself when a
/// statement starts there, else the start of the innermost statement spanning it (a call's
/// arguments on the lines below it); `None` for lines outside statements (declarations).
pub fn statement_line(file: &SourceFile, line: usize) -> Option<usize> {
    let line0 = line.checked_sub(1)?;
    match find_target(file, line0) {
        Ok(_) => return Some(line),
        Err(e) if e.not_yet() => return Some(line),
        Err(_) => {}
    }
    let range = file.lines.line_range(line0)?;
    // The node at the line's first non-blank byte.
    let first = file.text[range.clone()].find(|c: char| !c.is_whitespace()).map(|i| range.start + i)?;
    let mut up = file.tree.root_node().descendant_for_byte_range(first, first);
    while let Some(n) = up {
        if jreach_syntax::is_statement_kind(n.kind()) {
            let start = file.lines.line_of(n.start_byte());
            return (start < line0 && find_target(file, start).is_ok()).then_some(start + 1);
        }
        if matches!(n.kind(), "method_declaration" | "constructor_declaration" | "class_body") {
            return None;
        }
        up = n.parent();
    }
    None
}

/// The statement's first line, as a test's comment quotes it.
pub fn statement_text(file: &SourceFile, line: usize) -> String {
    match find_target(file, line - 1) {
        Ok(t) => t.first_line(file).to_string(),
        Err(_) => file.lines.line_range(line - 1).map(|r| file.text[r].trim().to_string()).unwrap_or_default(),
    }
}

/// Where the statement a jreach test's comment names is in `file` now: the line the comment
/// names while that line still holds the statement it quotes in the member it names, else the
/// one line of that member that holds it (the statement moved), else, when the member is gone
/// (renamed) or the comment names none, the one line of the file that holds it. `None` when no
/// line or several do.
pub fn target_of_marker(file: &SourceFile, m: &synth::Marker) -> Option<usize> {
    let count = file.lines.line_count();
    let quoted_at = |l: usize| synth::quoted_target(&statement_text(file, l)) == m.quoted;
    let in_member = |l: usize| match &m.member {
        Some(name) => jreach_syntax::member_at(file, l - 1).is_some_and(|at| &at.name == name),
        None => true,
    };
    if m.target_line >= 1 && m.target_line <= count && quoted_at(m.target_line) && in_member(m.target_line) {
        return Some(m.target_line);
    }
    if m.quoted.is_empty() {
        return None;
    }
    let first_word = m.quoted.split_whitespace().next().unwrap_or("");
    let holding: Vec<usize> = (1..=count)
        .filter(|&l| file.lines.line_range(l - 1).is_some_and(|r| file.text[r].contains(first_word)) && quoted_at(l))
        .collect();
    let in_it: Vec<usize> = holding.iter().copied().filter(|&l| in_member(l)).collect();
    let member_gone = m.member.is_some() && in_it.is_empty() && !(1..=count).any(in_member);
    match (in_it.as_slice(), member_gone, holding.as_slice()) {
        ([one], _, _) => Some(*one),
        ([], true, [one]) => Some(*one),
        _ => None,
    }
}

/// Reads a test file as the caller sees it (an editor's buffer, the disk): `None` when there is
/// no such file.
pub type ReadTest<'a> = &'a dyn Fn(&Path) -> io::Result<Option<String>>;

/// A test file's text on disk, `None` when it does not exist.
pub fn read_from_disk(path: &Path) -> io::Result<Option<String>> {
    match synth::read_source(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// The lines jreach's tests in `file`'s test files already cover, with the test that does,
/// from their comments: a comment counts only while its line still holds the statement it
/// quotes.
pub fn covered_by_earlier_tests(file: &SourceFile, test_root: &Path, read: ReadTest<'_>) -> BTreeMap<usize, String> {
    let mut covered = BTreeMap::new();
    let package = file.package();
    for test_file in test_files(file, test_root, package.as_deref()) {
        let Ok(Some(text)) = read(&test_file) else { continue };
        let name = test_file.file_name().unwrap_or_default().to_string_lossy().into_owned();
        for m in synth::markers_in(&text) {
            if m.target_line == 0 || synth::quoted_target(&statement_text(file, m.target_line)) != m.quoted {
                continue;
            }
            let by = format!("{name}:{}", m.at);
            for l in std::iter::once(m.target_line).chain(m.also_runs) {
                covered.entry(l).or_insert_with(|| by.clone());
            }
        }
    }
    covered
}

/// The test files of the file's top-level types under `test_root`.
fn test_files(file: &SourceFile, test_root: &Path, package: Option<&str>) -> Vec<PathBuf> {
    let root = file.tree.root_node();
    let mut c = root.walk();
    root.named_children(&mut c)
        .filter(|n| {
            n.kind().ends_with("_declaration") && n.kind() != "package_declaration" && n.kind() != "import_declaration"
        })
        .filter_map(|n| n.child_by_field_name("name"))
        .filter_map(|n| synth::test_path_of_class(test_root, package, jreach_syntax::text_of(n, &file.text)).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "package p;\nclass A {\n    A() {\n        super();\n    }\n    int f(int a) {\n        int x = g(a,\n              a + 1);\n        if (x > 0) {\n            return 1;\n        }\n        return 0;\n    }\n    int g(int a, int b) { return a + b; }\n}\n";

    #[test]
    fn lines_map_to_the_statements_they_belong_to() {
        let f = SourceFile::parse(SRC);
        let got: Vec<(usize, Option<usize>)> = (1..=15).map(|l| (l, statement_line(&f, l))).collect();
        assert_eq!(
            got,
            [
                (1, None),
                (2, None),
                (3, None),
                (4, Some(4)),
                (5, None),
                (6, None),
                (7, Some(7)),
                // A call's argument on the next line: its statement.
                (8, Some(7)),
                (9, Some(9)),
                (10, Some(10)),
                // A block's closing brace: the statement the block belongs to.
                (11, Some(9)),
                (12, Some(12)),
                (13, None),
                (14, Some(14)),
                (15, None),
            ]
        );
    }

    #[test]
    fn a_test_finds_its_statement_in_the_member_it_names() {
        let src = "class A {\n    int f(int a) {\n        return 0;\n    }\n    int g(int a) {\n        return 0;\n    }\n}\n";
        let marker = |line: usize, member: Option<&str>| synth::Marker {
            at: 1,
            target_line: line,
            member: member.map(String::from),
            quoted: "return 0;".into(),
            also_runs: vec![],
        };
        let at = |src: &str, m: &synth::Marker| target_of_marker(&SourceFile::parse(src), m);
        assert_eq!(at(src, &marker(6, Some("g(int)"))), Some(6));
        // Lines inserted above: the statement is found again in its member, though another
        // member quotes the same text.
        let moved = src.replace("class A {\n", "class A {\n    // one\n    // two\n");
        assert_eq!(at(&moved, &marker(6, Some("g(int)"))), Some(8));
        assert_eq!(at(&moved, &marker(3, Some("f(int)"))), Some(5));
        // Without a member (an older comment), two lines hold it: no answer rather than a guess.
        assert_eq!(at(&moved, &marker(6, None)), None);
        // The line still holds the statement, but of another member: the member decides.
        let swapped = src.replace("int f(int a)", "int h(int a)").replace("int g(int a)", "int f(int a)");
        assert_eq!(at(&swapped, &marker(3, Some("f(int)"))), Some(6));
        // The member renamed: the one line of the file that holds it, if there is one.
        let renamed = "class A {\n    int k(int a) {\n        return 0;\n    }\n}\n";
        assert_eq!(at(renamed, &marker(6, Some("g(int)"))), Some(3));
        assert_eq!(at(&swapped, &marker(6, Some("g(int)"))), None);
    }

    #[test]
    fn earlier_tests_count_while_their_line_still_holds_the_statement() {
        let dir = tempfile::tempdir().unwrap();
        let test = dir.path().join("p/ATest.java");
        std::fs::create_dir_all(test.parent().unwrap()).unwrap();
        let text = "class ATest {\n  void f_reachesLine10() {\n    // Reaches line 10: return 1;\n    // Also runs lines 7-9.\n  }\n  void stale() {\n    // Reaches line 12: return 2;\n    // Also runs lines 14.\n  }\n}\n";
        std::fs::write(&test, text).unwrap();
        let f = SourceFile::parse(SRC);
        let covered = covered_by_earlier_tests(&f, dir.path(), &read_from_disk);
        assert_eq!(covered.keys().copied().collect::<Vec<_>>(), [7, 8, 9, 10]);
        assert_eq!(covered[&10], "ATest.java:3");
        // An editor's buffer is read instead of the disk when the caller says so.
        let unsaved = |_: &Path| Ok(Some(text.replace("Reaches line 10: return 1;", "Reaches line 12: return 0;")));
        let covered = covered_by_earlier_tests(&f, dir.path(), &unsaved);
        assert_eq!(covered.keys().copied().collect::<Vec<_>>(), [7, 8, 9, 12]);
    }
}
