//! ARCHITECTURE.md's crate table must stay true: every crate of the workspace has a row, and
//! the row's "knows about" column names exactly the jreach crates its `Cargo.toml` depends on
//! (external crates it names must be dependencies too).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").canonicalize().unwrap()
}

/// `(crate, knows-about names)` for each row of the table under "## Layers".
fn table_rows(architecture: &str) -> Vec<(String, BTreeSet<String>)> {
    let layers = architecture.split("## Layers").nth(1).expect("ARCHITECTURE.md has a '## Layers' section");
    let mut rows = Vec::new();
    for line in layers.lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() != 3 || !cells[0].starts_with('`') {
            continue; // the header and the separator
        }
        let name = cells[0].trim_matches('`').to_string();
        let knows = cells[2].split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
        rows.push((name, knows));
    }
    rows
}

/// The names of the `[dependencies]` of a Cargo.toml (not dev- or build-dependencies).
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let mut deps = BTreeSet::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.']).next().unwrap().trim();
            deps.insert(name.to_string());
        }
    }
    deps
}

#[test]
fn crate_table_matches_the_manifests() {
    let root = repo_root();
    let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let rows = table_rows(&architecture);
    let crates_dir = root.join("server/crates");
    let on_disk: BTreeSet<String> = std::fs::read_dir(&crates_dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("Cargo.toml").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let in_table: BTreeSet<String> = rows.iter().map(|(n, _)| n.clone()).collect();
    assert_eq!(in_table, on_disk, "ARCHITECTURE.md's crate table and server/crates/ list different crates");
    for (name, knows) in rows {
        let manifest = std::fs::read_to_string(crates_dir.join(&name).join("Cargo.toml")).unwrap();
        let deps = dependencies(&manifest);
        let internal: BTreeSet<String> =
            deps.iter().filter_map(|d| d.strip_prefix("jreach-")).map(str::to_string).collect();
        let named_internal: BTreeSet<String> = knows.iter().filter(|k| on_disk.contains(*k)).cloned().collect();
        assert_eq!(
            named_internal, internal,
            "ARCHITECTURE.md says `{name}` knows about {named_internal:?}, its Cargo.toml depends on {internal:?}"
        );
        for external in knows.iter().filter(|k| !on_disk.contains(*k)) {
            assert!(
                deps.contains(external),
                "ARCHITECTURE.md says `{name}` knows about {external}, which is not a dependency"
            );
        }
    }
}
