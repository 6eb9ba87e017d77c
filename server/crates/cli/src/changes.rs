//! The lines a change touches (`git diff REV`'s hunks) or a user names (`--lines FILE:A-B`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Lines per file (canonical paths), 1-based.
pub type Lines = BTreeMap<PathBuf, BTreeSet<usize>>;

/// The lines of `.java` files that the working tree adds or changes compared with `rev`, as
/// `git diff` sees it from `dir` (files git does not track are not part of a diff).
pub fn changed_since(rev: &str, dir: &Path) -> Result<Lines, String> {
    if rev.starts_with('-') {
        return Err(format!("--diff {rev}: not a revision"));
    }
    let git = |args: &[&str]| -> Result<String, String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .map_err(|e| format!("cannot run git (needed by --diff): {e}"))?;
        if !out.status.success() {
            return Err(format!("git {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()));
        }
        String::from_utf8(out.stdout).map_err(|_| format!("git {}: output is not UTF-8", args.join(" ")))
    };
    let top = PathBuf::from(git(&["rev-parse", "--show-toplevel"])?.trim());
    git(&["rev-parse", "--verify", "--quiet", &format!("{rev}^{{commit}}")])
        .map_err(|_| format!("--diff {rev}: no such revision in {}", top.display()))?;
    let diff = git(&[
        "diff",
        "--unified=0",
        "--no-color",
        "--no-ext-diff",
        "--no-renames",
        "--diff-filter=AM",
        rev,
        "--",
        "*.java",
    ])?;
    Ok(parse_diff(&diff)
        .into_iter()
        .map(|(rel, lines)| {
            let path = top.join(rel);
            (std::fs::canonicalize(&path).unwrap_or(path), lines)
        })
        .collect())
}

/// The new-side lines of each file in a unified diff with no context (`--unified=0`), by the
/// path the diff names (relative to the repository's top).
pub fn parse_diff(diff: &str) -> BTreeMap<String, BTreeSet<usize>> {
    let mut out: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    let mut file: Option<String> = None;
    for line in diff.lines() {
        if let Some(path) = line.strip_prefix("+++ ") {
            file = path.strip_prefix("b/").map(|p| unquote(p).to_string());
        } else if let (Some(hunk), Some(f)) = (line.strip_prefix("@@ "), &file) {
            // `@@ -a,b +c,d @@`: d lines from c on the new side (d omitted: 1).
            let Some(new) = hunk.split_whitespace().find_map(|w| w.strip_prefix('+')) else { continue };
            let (start, count) = match new.split_once(',') {
                Some((s, c)) => (s.parse::<usize>(), c.parse::<usize>()),
                None => (new.parse::<usize>(), Ok(1)),
            };
            if let (Ok(start), Ok(count)) = (start, count) {
                out.entry(f.clone()).or_default().extend(start..start + count);
            }
        }
    }
    out
}

/// A path as `git diff` writes it, without the quotes it puts around unusual names.
fn unquote(p: &str) -> &str {
    p.trim_end_matches('\t').trim_matches('"')
}

/// `FILE:A-B` or `FILE:N`: the file and its lines.
pub fn parse_lines_arg(arg: &str) -> Result<(PathBuf, BTreeSet<usize>), String> {
    let bad = || format!("--lines {arg}: expected FILE:A-B or FILE:N (1-based lines)");
    let (file, range) = arg.rsplit_once(':').ok_or_else(bad)?;
    let (a, b) = match range.split_once('-') {
        Some((a, b)) => (a.trim().parse::<usize>().map_err(|_| bad())?, b.trim().parse::<usize>().map_err(|_| bad())?),
        None => {
            let n = range.trim().parse::<usize>().map_err(|_| bad())?;
            (n, n)
        }
    };
    if a == 0 || b < a {
        return Err(bad());
    }
    let path = PathBuf::from(file);
    if !path.is_file() {
        return Err(format!("--lines {arg}: {file}: no such file"));
    }
    Ok((std::fs::canonicalize(&path).unwrap_or(path), (a..=b).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_gives_the_lines_it_adds_or_changes() {
        let diff = "diff --git a/src/A.java b/src/A.java\nindex 1..2 100644\n--- a/src/A.java\n+++ b/src/A.java\n@@ -3 +3 @@ class A {\n-x\n+y\n@@ -10,0 +11,2 @@\n+a\n+b\n@@ -20,3 +22,0 @@\n-gone\ndiff --git a/B.java b/B.java\nnew file mode 100644\n--- /dev/null\n+++ b/B.java\n@@ -0,0 +1,3 @@\n+1\n+2\n+3\n";
        let lines = parse_diff(diff);
        assert_eq!(lines["src/A.java"], BTreeSet::from([3, 11, 12]));
        assert_eq!(lines["B.java"], BTreeSet::from([1, 2, 3]));
        assert_eq!(lines.len(), 2);
    }

    #[test]
    fn lines_arguments_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("A.java");
        std::fs::write(&f, "class A {}\n").unwrap();
        let (_, lines) = parse_lines_arg(&format!("{}:3-5", f.display())).unwrap();
        assert_eq!(lines, BTreeSet::from([3, 4, 5]));
        assert_eq!(parse_lines_arg(&format!("{}:7", f.display())).unwrap().1, BTreeSet::from([7]));
        assert!(parse_lines_arg(&format!("{}:5-3", f.display())).unwrap_err().contains("expected FILE:A-B"));
        assert!(parse_lines_arg(&format!("{}:0", f.display())).is_err());
        assert!(parse_lines_arg("Missing.java:3").unwrap_err().contains("no such file"));
    }
}
