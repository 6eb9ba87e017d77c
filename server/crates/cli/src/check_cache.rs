//! `jreach check`'s results on disk, so that a second run, or a CI run on a changed branch,
//! checks again only the files whose text changed.
//!
//! One entry per file result, named by a hash of what the result depends on: the file's text (a
//! check reads nothing else: ARCHITECTURE.md, invariant 4), the solver time limit and the jreach
//! binary itself (its size and modification time, so a rebuilt engine never reads an older
//! one's answers). Entries are JSON, written to a temporary file and renamed into place, so a
//! run that is stopped half-way leaves no broken entry; an entry that cannot be read is a miss.
//! A result that depended on the clock (the file's budget ran out, or a method was left undecided
//! because a query or its budget ran out of time: `MethodProfile::ran_out_of_time`) or on an
//! error is not stored: a less busy machine may decide more. An entry read is touched; entries no run has read or written for
//! [`KEEP_UNUSED`] are removed when a run opens the cache, so the folder does not grow forever.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How long an entry no run has used is kept.
pub(crate) const KEEP_UNUSED: Duration = Duration::from_secs(30 * 24 * 3600);

/// Where the entries go unless `--cache-dir` says otherwise: `$XDG_CACHE_HOME/jreach/check`, or
/// `~/.cache/jreach/check`.
pub(crate) fn default_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("jreach").join("check"))
}

/// A 0-based (line, UTF-16 column) position, as `check` prints and stores it.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct Pos {
    pub(crate) line: usize,
    pub(crate) character: usize,
}

/// A finding as stored (the file it is in is the entry's).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct StoredDiag {
    pub(crate) start: Pos,
    pub(crate) end: Pos,
    pub(crate) code: String,
    pub(crate) message: String,
    pub(crate) related: Vec<(Pos, Pos, String)>,
}

/// One file's result as stored: its findings and, per method, `None` for a verdict or the reason
/// there is none.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub(crate) struct StoredResult {
    pub(crate) diags: Vec<StoredDiag>,
    pub(crate) verdicts: Vec<Option<String>>,
}

/// The cache of one run: its folder and what every key shares.
pub(crate) struct CheckCache {
    dir: PathBuf,
    /// The engine and the limits every entry of this run depends on.
    salt: u64,
}

impl CheckCache {
    /// The cache in `dir` for a run with query time limit `timeout`. `None` when the folder
    /// cannot be made (the run then goes on without a cache, and says so).
    pub(crate) fn open(dir: &Path, timeout: Duration) -> Result<CheckCache, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot use the cache folder {}: {e}", dir.display()))?;
        let mut h = DefaultHasher::new();
        env!("CARGO_PKG_VERSION").hash(&mut h);
        if let Some(meta) = std::env::current_exe().ok().and_then(|exe| std::fs::metadata(exe).ok()) {
            meta.len().hash(&mut h);
            meta.modified().ok().hash(&mut h);
        }
        timeout.hash(&mut h);
        let cache = CheckCache { dir: dir.to_path_buf(), salt: h.finish() };
        cache.prune(KEEP_UNUSED);
        Ok(cache)
    }

    /// Removes the entries (and left-over temporary files) not used for `unused`.
    fn prune(&self, unused: Duration) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        let now = std::time::SystemTime::now();
        for e in entries.flatten() {
            let old = e
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| now.duration_since(t).ok())
                .is_some_and(|age| age > unused);
            let ours = e.file_name().to_str().is_some_and(|n| n.len() >= 32 && n.contains(".json"));
            if old && ours {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }

    fn entry(&self, text: &str) -> PathBuf {
        let mut h = DefaultHasher::new();
        self.salt.hash(&mut h);
        text.hash(&mut h);
        // A second hash of the text with another start: 128 bits in the name.
        let mut h2 = DefaultHasher::new();
        text.len().hash(&mut h2);
        text.hash(&mut h2);
        self.salt.hash(&mut h2);
        self.dir.join(format!("{:016x}{:016x}.json", h.finish(), h2.finish()))
    }

    /// The stored result for a file with this text, if any.
    pub(crate) fn get(&self, text: &str) -> Option<StoredResult> {
        let path = self.entry(text);
        let bytes = std::fs::read(&path).ok()?;
        let result = serde_json::from_slice(&bytes).ok()?;
        // Used: kept for another while.
        if let Ok(f) = std::fs::File::options().append(true).open(&path) {
            let _ = f.set_modified(std::time::SystemTime::now());
        }
        Some(result)
    }

    /// Stores the result for a file with this text. Failing to write only costs the next run
    /// its hit.
    pub(crate) fn put(&self, text: &str, result: &StoredResult) {
        let path = self.entry(text);
        let Ok(json) = serde_json::to_vec(result) else { return };
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, json).is_ok() && std::fs::rename(&tmp, &path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result() -> StoredResult {
        let p = |line, character| Pos { line, character };
        StoredResult {
            diags: vec![StoredDiag {
                start: p(1, 4),
                end: p(1, 9),
                code: "unreachable-code".into(),
                message: "unreachable code".into(),
                related: vec![(p(0, 1), p(0, 2), "why".into())],
            }],
            verdicts: vec![None, Some("no model".into())],
        }
    }

    #[test]
    fn entries_are_found_by_text_and_limit() {
        let dir = tempfile::tempdir().unwrap();
        let cache = CheckCache::open(dir.path(), Duration::from_secs(10)).unwrap();
        assert_eq!(cache.get("class A {}"), None);
        cache.put("class A {}", &result());
        assert_eq!(cache.get("class A {}"), Some(result()));
        assert_eq!(cache.get("class A { }"), None, "another text");
        let other = CheckCache::open(dir.path(), Duration::from_secs(2)).unwrap();
        assert_eq!(other.get("class A {}"), None, "another time limit");
        // A broken entry is a miss.
        std::fs::write(cache.entry("class B {}"), "{").unwrap();
        assert_eq!(cache.get("class B {}"), None);
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
    }

    #[test]
    fn entries_unused_for_long_are_removed_and_used_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let cache = CheckCache::open(dir.path(), Duration::from_secs(10)).unwrap();
        cache.put("class A {}", &result());
        cache.put("class B {}", &result());
        let long_ago = std::time::SystemTime::now() - KEEP_UNUSED - Duration::from_secs(3600);
        for text in ["class A {}", "class B {}"] {
            let f = std::fs::File::options().append(true).open(cache.entry(text)).unwrap();
            f.set_modified(long_ago).unwrap();
        }
        // A is read (and so touched); B is not.
        assert_eq!(cache.get("class A {}"), Some(result()));
        std::fs::write(dir.path().join("notes.txt"), "not an entry").unwrap();
        let cache = CheckCache::open(dir.path(), Duration::from_secs(10)).unwrap();
        assert_eq!(cache.get("class A {}"), Some(result()));
        assert_eq!(cache.get("class B {}"), None);
        assert!(dir.path().join("notes.txt").exists(), "only entries are removed");
    }
}
