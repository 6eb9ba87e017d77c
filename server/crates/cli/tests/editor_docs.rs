//! The VS Code extension's README lists every setting of its `package.json` with the same
//! default (the README once said the unroll default was 64 while it was 1024).

use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").canonicalize().unwrap()
}

#[test]
fn the_vscode_readme_lists_each_setting_with_its_default() {
    let root = repo_root();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("editors/vscode/package.json")).unwrap()).unwrap();
    let readme = std::fs::read_to_string(root.join("editors/vscode/README.md")).unwrap();
    let props = manifest["contributes"]["configuration"]["properties"].as_object().expect("settings");
    assert!(!props.is_empty());
    for (key, schema) in props {
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{key}` |")))
            .unwrap_or_else(|| panic!("editors/vscode/README.md has no row for `{key}`"));
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let default = cells.get(1).map(|c| c.trim_matches('`')).unwrap_or("");
        let want = serde_json::to_string(&schema["default"]).unwrap();
        assert_eq!(default, want, "the README's default of `{key}`");
    }
}
