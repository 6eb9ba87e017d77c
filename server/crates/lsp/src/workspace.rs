//! Dead code in files that are not open: the workspace's Java sources, checked in the background
//! after start-up (and a file again when its editor closes), so that the problems list shows the
//! whole project's, as a Java IDE does. Open files are the documents' business (`server`): what
//! is published here is for closed files only, without a version.

use std::path::{Path, PathBuf};
use std::time::Duration;

use jreach_syntax::SourceFile;
use tower_lsp_server::ls_types::{Diagnostic, Uri};

use crate::analysis;
use crate::position::Encoding;

/// Most files one workspace check looks at (a checkout of many projects is not one project).
pub const MAX_FILES: usize = 5_000;

/// Folders that hold no sources of the project: build output, dependencies, tools' state.
const SKIPPED_DIRS: &[&str] = &["target", "build", "out", "bin", "node_modules"];

/// The `.java` files under `root` that are main sources (not tests, not build output, not in
/// hidden folders), sorted, at most [`MAX_FILES`].
pub fn java_sources(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(kind) = e.file_type() else { continue };
            let path = e.path();
            if kind.is_dir() {
                let test_dir = name == "test" && dir.file_name().is_some_and(|d| d == "src");
                if !name.starts_with('.') && !SKIPPED_DIRS.contains(&name.as_str()) && !test_dir {
                    stack.push(path);
                }
            } else if kind.is_file() && name.ends_with(".java") {
                out.push(path);
            }
        }
    }
    out.sort();
    out.truncate(MAX_FILES);
    out
}

/// The diagnostics of the file at `path` as it is on disk, or `None` when it cannot be read
/// (gone, say) or is a test source.
pub fn check_on_disk(uri: &Uri, path: &Path, timeout: Duration, enc: Encoding) -> Option<Vec<Diagnostic>> {
    let text = jreach_synth::read_source(path).ok()?;
    let file = SourceFile::parse(text);
    if analysis::is_test_source(uri, &file) {
        return None;
    }
    let report = jreach_ide::check_file(&file, timeout);
    Some(analysis::diagnostics(uri, &file, &report.findings, enc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_sources_only() {
        let dir = tempfile::tempdir().unwrap();
        for f in [
            "src/main/java/p/A.java",
            "src/main/java/p/B.java",
            "src/test/java/p/ATest.java",
            "target/generated-sources/G.java",
            ".git/x/H.java",
            "lib/src/main/java/q/C.java",
            "README.md",
        ] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "class X {}\n").unwrap();
        }
        let found: Vec<String> = java_sources(dir.path())
            .iter()
            .map(|p| p.strip_prefix(dir.path()).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(found, ["lib/src/main/java/q/C.java", "src/main/java/p/A.java", "src/main/java/p/B.java"]);
    }
}
