//! Incremental edits as an editor sends them, lone carriage returns included: after every random
//! sequence of LSP changes the server's text is the editor's, and its tree and lines are those of
//! a fresh parse.

use jreach_lsp::position::Encoding;
use jreach_lsp::server::apply_changes;
use jreach_syntax::SourceFile;
use proptest::prelude::*;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};

/// The editor's side: lines ended by `\r\n`, `\n` or `\r` (LSP's definition), columns in UTF-16.
fn editor_offset(text: &str, pos: Position) -> usize {
    let mut line = 0u32;
    let mut start = 0usize;
    let b = text.as_bytes();
    let mut i = 0;
    while line < pos.line {
        if i >= b.len() {
            return text.len();
        }
        match b[i] {
            b'\n' => {
                line += 1;
                start = i + 1;
            }
            b'\r' => {
                line += 1;
                if b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let rest = &text[start..];
    let end = rest.find(['\r', '\n']).unwrap_or(rest.len());
    let mut units = 0u32;
    for (k, c) in rest[..end].char_indices() {
        if units >= pos.character {
            return start + k;
        }
        units += c.len_utf16() as u32;
    }
    start + end
}

const START: &str =
    "package p;\nclass A {\n    int f(int x) {\n        if (x > 0) { return 1; }\n        return 0; // é\n    }\n}\n";

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("\r".to_string()),
        Just("\r\n".to_string()),
        Just("\n".to_string()),
        Just("x\r".to_string()),
        Just("int y = 1;".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("é".to_string()),
        Just("if (x < 2) return 3;\r".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_edits_keep_the_editors_text(edits in prop::collection::vec((0u32..9, 0u32..12, 0u32..3, 0u32..6, piece()), 1..12)) {
        let mut file = SourceFile::parse(START);
        let mut editor = START.to_string();
        for (l1, c1, dl, c2, text) in edits {
            let start = Position::new(l1, c1);
            let end = if dl == 0 { Position::new(l1, c1 + c2) } else { Position::new(l1 + dl, c2) };
            let a = editor_offset(&editor, start);
            let b = editor_offset(&editor, end).max(a);
            editor.replace_range(a..b, &text);
            let change = TextDocumentContentChangeEvent { range: Some(Range::new(start, end)), range_length: None, text };
            apply_changes(&mut file, vec![change], Encoding::Utf16);
            prop_assert_eq!(&file.text, &editor);
        }
        let fresh = SourceFile::parse(editor.clone());
        prop_assert_eq!(file.tree.root_node().to_sexp(), fresh.tree.root_node().to_sexp());
        prop_assert_eq!(file.lines.line_count(), fresh.lines.line_count());
    }
}

#[test]
fn a_lone_carriage_return_is_a_line_break() {
    // Insert "x\r" at the start, then delete from (0,0) to (1,0): the original text again.
    let mut file = SourceFile::parse(START);
    let insert = TextDocumentContentChangeEvent {
        range: Some(Range::new(Position::new(0, 0), Position::new(0, 0))),
        range_length: None,
        text: "x\r".into(),
    };
    let delete = TextDocumentContentChangeEvent {
        range: Some(Range::new(Position::new(0, 0), Position::new(1, 0))),
        range_length: None,
        text: String::new(),
    };
    apply_changes(&mut file, vec![insert], Encoding::Utf16);
    apply_changes(&mut file, vec![delete], Encoding::Utf16);
    assert_eq!(file.text, START);
}
