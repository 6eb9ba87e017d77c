//! Quick fixes on jreach's own diagnostics: "Remove dead `if`" where that is safe
//! ([`crate::remove_dead`]), and "Suppress jreach warnings in `f(int)`", which adds `"jreach"` to
//! the method's `@SuppressWarnings` (or the annotation itself); see [`jreach_syntax::suppress`].
//! A suppressed method is not checked, so its warnings go with the next check of the file.

use std::collections::HashMap;

use jreach_syntax::{suppress, MethodInfo, SourceFile};
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic, NumberOrString, TextEdit, Uri, WorkspaceEdit,
};

use crate::analysis::{self, SOURCE};
use crate::position::{self, Encoding};

/// The title of the fix for the method `signature`.
pub fn title(signature: &str) -> String {
    format!("Suppress jreach warnings in {signature}")
}

/// The quick fixes for the `diagnostics` the client sent with a code action request (those at
/// the cursor): the removals of dead `if`s that are safe, then one suppression per method that
/// one of jreach's warnings is in. None when `only` asks for other kinds. `findings` are the
/// document's, of the version the diagnostics are of.
pub fn quick_fixes(
    uri: &Uri,
    file: &SourceFile,
    diagnostics: &[Diagnostic],
    findings: &[jreach_ide::Finding],
    only: Option<&[CodeActionKind]>,
    enc: Encoding,
) -> Vec<CodeActionOrCommand> {
    let kind = CodeActionKind::QUICKFIX;
    if !analysis::wanted(&kind, only) {
        return vec![];
    }
    let ours: Vec<&Diagnostic> = ours(diagnostics).collect();
    if ours.is_empty() {
        return vec![];
    }
    let methods = MethodInfo::all(file);
    let mut out = crate::remove_dead::remove_dead_fixes(uri, file, &ours, findings, enc);
    let mut seen = Vec::new();
    for d in ours {
        let at = position::offset(&file.text, &file.lines, d.range.start, enc);
        // The innermost method around the warning (a method of a local class is inside another).
        let Some(m) = methods.iter().filter(|m| m.range.contains(&at)).min_by_key(|m| m.range.len()) else {
            continue;
        };
        if seen.contains(&m.range.start) {
            continue;
        }
        seen.push(m.range.start);
        let (r, new_text) = suppress::suppression_edit(m.node(file), &file.text);
        let edit = TextEdit { range: position::range(&file.text, &file.lines, r, enc), new_text };
        out.push(action(title(&m.signature()), uri, d, edit));
    }
    out
}

/// jreach's own diagnostics among `diagnostics` (those the client sent with a request).
pub(crate) fn ours(diagnostics: &[Diagnostic]) -> impl Iterator<Item = &Diagnostic> {
    diagnostics
        .iter()
        .filter(|d| d.source.as_deref() == Some(SOURCE) && matches!(d.code, Some(NumberOrString::String(_))))
}

/// A quick fix of diagnostic `d` titled `title` that makes `edit` in `uri`.
pub(crate) fn action(title: String, uri: &Uri, d: &Diagnostic, edit: TextEdit) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![d.clone()]),
        edit: Some(WorkspaceEdit { changes: Some(HashMap::from([(uri.clone(), vec![edit])])), ..Default::default() }),
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use tower_lsp_server::ls_types::{Position, Range};

    use super::*;

    const SRC: &str = "package p;\n\nclass A {\n    int f(int x) {\n        if (x > 3) { if (x < 2) { return 7; } }\n        return 0;\n    }\n}\n";

    fn diag(line: u32, source: &str) -> Diagnostic {
        Diagnostic {
            range: Range::new(Position::new(line, 34), Position::new(line, 44)),
            source: Some(source.into()),
            code: Some(NumberOrString::String("unreachable-code".into())),
            message: "unreachable code".into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_warning_of_jreach_gets_a_fix_that_suppresses_its_method() {
        let file = SourceFile::parse(SRC);
        let uri = Uri::from_file_path("/tmp/p/A.java").unwrap();
        let fixes = quick_fixes(&uri, &file, &[diag(4, "jreach"), diag(4, "jreach")], &[], None, Encoding::Utf16);
        assert_eq!(fixes.len(), 1, "one per method");
        let CodeActionOrCommand::CodeAction(a) = &fixes[0] else { panic!("{fixes:?}") };
        assert_eq!(a.title, "Suppress jreach warnings in f(int)");
        assert_eq!(a.kind, Some(CodeActionKind::QUICKFIX));
        let edits = &a.edit.as_ref().unwrap().changes.as_ref().unwrap()[&uri];
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].range, Range::new(Position::new(3, 4), Position::new(3, 4)));
        assert_eq!(edits[0].new_text, "@SuppressWarnings(\"jreach\")\n    ");
        // Other tools' diagnostics, and requests for other kinds, get nothing.
        assert!(quick_fixes(&uri, &file, &[diag(4, "javac")], &[], None, Encoding::Utf16).is_empty());
        let only = [CodeActionKind::REFACTOR];
        assert!(quick_fixes(&uri, &file, &[diag(4, "jreach")], &[], Some(&only), Encoding::Utf16).is_empty());
        let only = [CodeActionKind::QUICKFIX];
        assert_eq!(quick_fixes(&uri, &file, &[diag(4, "jreach")], &[], Some(&only), Encoding::Utf16).len(), 1);
    }
}
