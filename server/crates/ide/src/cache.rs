//! The per-method cache behind incremental `check`: an edit re-analyses only the methods whose
//! text changed.
//!
//! Entries are keyed by method identity ([`MethodKey`]: file, class chain, name, parameter types)
//! and validated by a hash of everything the method's verdict depends on: its own text, the texts
//! of the same-file methods and constructors it may inline (transitively, by name: lowering
//! inlines same-class callees, and which one it picks depends on all methods of that name), the
//! file outside its methods (the fields, constants and classes every lowering reads), and the
//! time limit. A
//! method that moved without changing (lines inserted above it) is a hit: findings are stored
//! relative to the method's start and rebased on the way out.
//!
//! The verdict logic itself is [`check_method`]'s; this module only decides when to call it.

use std::collections::{BTreeSet, HashMap};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use dashmap::DashMap;
use jreach_syntax::{MethodInfo, Node, SourceFile};

use crate::check::{check_method, CheckReport, Finding, MethodVerdict};
use crate::class_invariants::ClassInvariants;
use jreach_ir::lower::FileContext;

/// Who a method is, independent of where it sits in the file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MethodKey {
    /// The file (an URI or a path: whatever names it for the caller).
    pub file: String,
    /// Enclosing classes, outermost first.
    pub classes: Vec<String>,
    pub name: String,
    /// Parameter types as written.
    pub params: Vec<String>,
}

impl MethodKey {
    pub fn of(file: &str, m: &MethodInfo) -> MethodKey {
        MethodKey {
            file: file.to_string(),
            classes: m.classes.clone(),
            name: m.name.clone(),
            params: m.params.iter().map(|p| p.ty.clone()).collect(),
        }
    }
}

#[derive(Clone, Debug)]
struct Entry {
    hash: u64,
    verdict: MethodVerdict,
    /// Findings as computed (byte ranges of the file at the time).
    findings: Vec<Finding>,
    /// Byte offset of the method's start when the findings were computed.
    start: usize,
    /// Whether a finding or related place lies outside the method.
    points_outside: bool,
    /// Where the same-file methods it may inline started.
    dep_starts: Vec<usize>,
}

/// Hits and misses since the cache was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
}

/// How often [`MethodCache::check_file_streaming`] tells what it knows while it works.
pub const PARTIAL_EVERY: Duration = Duration::from_millis(250);

/// What a check knows while it goes on.
#[derive(Clone, Debug)]
pub struct PartialReport {
    /// The findings of the methods decided so far, in source order.
    pub findings: Vec<Finding>,
    /// Methods decided so far, of `methods`.
    pub decided: usize,
    pub methods: usize,
}

/// Verdicts of methods, shared between threads (the values are plain data, never solver terms).
#[derive(Debug, Default)]
pub struct MethodCache {
    map: DashMap<MethodKey, Entry>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl MethodCache {
    pub fn new() -> MethodCache {
        MethodCache::default()
    }

    /// `check_file` for `file` (named `file_id`), re-checking only methods whose dependencies
    /// changed since the last call. `cancelled` is asked between methods; when it says yes the
    /// check stops and returns `None` (what was computed so far stays cached).
    pub fn check_file(
        &self,
        file_id: &str,
        file: &SourceFile,
        timeout: Duration,
        cancelled: &dyn Fn() -> bool,
    ) -> Option<CheckReport> {
        self.check_file_streaming(file_id, file, timeout, cancelled, &|_| {})
    }

    /// [`MethodCache::check_file`], telling `partial` what is known while the work goes on: the
    /// cached methods come first, then the others, smallest first, and `partial` hears of the
    /// findings of every method decided so far once the cached ones are in, then after each
    /// method with findings and at least every [`PARTIAL_EVERY`] between methods (never about a
    /// method still being checked).
    pub fn check_file_streaming(
        &self,
        file_id: &str,
        file: &SourceFile,
        timeout: Duration,
        cancelled: &dyn Fn() -> bool,
        partial: &dyn Fn(&PartialReport),
    ) -> Option<CheckReport> {
        let methods = MethodInfo::all(file);
        let hashes = dependency_hashes(file, &methods, timeout);
        let keys: Vec<MethodKey> = methods.iter().map(|m| MethodKey::of(file_id, m)).collect();
        let mut done: Vec<Option<Entry>> = vec![None; methods.len()];
        // Findings that point outside their method (at an inlined callee) stay valid only while
        // neither the method nor its callees move.
        for (i, (m, (hash, dep_starts))) in methods.iter().zip(&hashes).enumerate() {
            done[i] = self
                .map
                .get(&keys[i])
                .filter(|e| {
                    e.hash == *hash && (!e.points_outside || (e.start == m.range.start && e.dep_starts == *dep_starts))
                })
                .map(|e| e.clone());
        }
        let hits = done.iter().filter(|e| e.is_some()).count();
        self.hits.fetch_add(hits as u64, Ordering::Relaxed);
        let mut todo: Vec<usize> = (0..methods.len()).filter(|&i| done[i].is_none()).collect();
        todo.sort_by_key(|&i| (methods[i].range.len(), i));
        let tell = |done: &[Option<Entry>]| {
            let mut findings: Vec<Finding> = Vec::new();
            for (m, e) in methods.iter().zip(done) {
                if let Some(e) = e {
                    findings.extend(e.findings.iter().map(|f| rebase(f, e.start, m.range.start)));
                }
            }
            let decided = done.iter().filter(|e| e.is_some()).count();
            partial(&PartialReport { findings, decided, methods: methods.len() });
        };
        if !todo.is_empty() {
            tell(&done);
        }
        let mut told = std::time::Instant::now();
        // Built once, on the first method that is not cached.
        let ctx = std::cell::OnceCell::new();
        let invariants = ClassInvariants::new();
        for (n, &i) in todo.iter().enumerate() {
            if cancelled() {
                return None;
            }
            let m = &methods[i];
            let (hash, dep_starts) = hashes[i].clone();
            self.misses.fetch_add(1, Ordering::Relaxed);
            let ctx = ctx.get_or_init(|| FileContext::new(file, None, None));
            let (verdict, findings) = check_method(ctx, &invariants, m, timeout);
            let inside = |r: &std::ops::Range<usize>| m.range.start <= r.start && r.end <= m.range.end;
            let points_outside =
                findings.iter().any(|f| !inside(&f.range) || f.related.iter().any(|r| !inside(&r.range)));
            let e = Entry { hash, verdict, findings, start: m.range.start, points_outside, dep_starts };
            let found = !e.findings.is_empty();
            self.map.insert(keys[i].clone(), e.clone());
            done[i] = Some(e);
            if n + 1 < todo.len() && (found || told.elapsed() >= PARTIAL_EVERY) {
                tell(&done);
                told = std::time::Instant::now();
            }
        }
        let mut report = CheckReport::default();
        for (m, e) in methods.iter().zip(done) {
            let e = e.expect("every method decided");
            report.findings.extend(e.findings.iter().map(|f| rebase(f, e.start, m.range.start)));
            report.methods.push((m.signature(), e.verdict));
        }
        // Methods that are gone (renamed, deleted) leave the cache.
        let keep: std::collections::HashSet<MethodKey> = keys.into_iter().collect();
        self.map.retain(|k, _| k.file != file_id || keep.contains(k));
        Some(report)
    }

    /// Forgets every method of `file_id` (a closed document).
    pub fn forget_file(&self, file_id: &str) {
        self.map.retain(|k, _| k.file != file_id);
    }

    /// Forgets everything.
    pub fn clear(&self) {
        self.map.clear();
    }

    /// Number of cached methods.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats { hits: self.hits.load(Ordering::Relaxed), misses: self.misses.load(Ordering::Relaxed) }
    }
}

/// A cached finding moved with its method from byte `old` to `new`. Only findings that lie
/// inside their method are ever moved; the lines its message names are worked out when it is
/// put in words (`Finding::message`), so nothing else changes.
fn rebase(f: &Finding, old: usize, new: usize) -> Finding {
    f.clone().moved(old, new)
}

/// For each method, a hash of its text, of the texts of the same-file methods and constructors it
/// may inline (transitively; all of them for a method that may assume its class's invariants), of the file outside its methods (fields and their initializers,
/// constants, class headers: the class table every lowering reads; as tokens, so white space and
/// comments do not count), and of the time limit; and where those methods start.
fn dependency_hashes(file: &SourceFile, methods: &[MethodInfo], timeout: Duration) -> Vec<(u64, Vec<usize>)> {
    let outside = outside_methods(file, methods);
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, m) in methods.iter().enumerate() {
        by_name.entry(m.name.as_str()).or_default().push(i);
    }
    let calls: Vec<BTreeSet<&str>> = methods.iter().map(|m| called_names(file, m)).collect();
    let invariants = ClassInvariants::new();
    methods
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mut deps = BTreeSet::from([i]);
            if invariants.may_assume(file, m) {
                // Its class's invariants: every method of the file may write or keep them.
                deps.extend(0..methods.len());
            }
            let mut work = vec![i];
            while let Some(j) = work.pop() {
                for name in &calls[j] {
                    for &k in by_name.get(name).map(Vec::as_slice).unwrap_or(&[]) {
                        if deps.insert(k) {
                            work.push(k);
                        }
                    }
                }
            }
            let mut h = DefaultHasher::new();
            timeout.hash(&mut h);
            outside.hash(&mut h);
            m.classes.hash(&mut h);
            file.text[m.range.clone()].hash(&mut h);
            let mut starts = Vec::new();
            for k in deps {
                if k != i {
                    methods[k].classes.hash(&mut h);
                    file.text[methods[k].range.clone()].hash(&mut h);
                    starts.push(methods[k].range.start);
                }
            }
            (h.finish(), starts)
        })
        .collect()
}

/// The tokens of `file` outside its methods, comments left out, one space apart.
fn outside_methods(file: &SourceFile, methods: &[MethodInfo]) -> String {
    let inside = |n: &Node<'_>| methods.iter().any(|m| m.range.start <= n.start_byte() && n.end_byte() <= m.range.end);
    let mut out = String::new();
    let mut stack = vec![file.tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.is_extra() || matches!(n.kind(), "line_comment" | "block_comment") || inside(&n) {
            continue;
        }
        if n.child_count() == 0 {
            out.push_str(&file.text[n.byte_range()]);
            out.push(' ');
            continue;
        }
        let mut c = n.walk();
        let kids: Vec<Node<'_>> = n.children(&mut c).collect();
        stack.extend(kids.into_iter().rev());
    }
    out
}

/// Names of the methods `m` calls, and of the classes it makes (their constructors' names).
fn called_names<'f>(file: &'f SourceFile, m: &MethodInfo) -> BTreeSet<&'f str> {
    let mut out = BTreeSet::new();
    let mut stack: Vec<Node<'f>> = vec![m.node(file)];
    while let Some(n) = stack.pop() {
        if n.kind() == "method_invocation" {
            if let Some(name) = n.child_by_field_name("name") {
                out.insert(&file.text[name.byte_range()]);
            }
        }
        if n.kind() == "object_creation_expression" {
            if let Some(t) = n.child_by_field_name("type") {
                let t = &file.text[t.byte_range()];
                let simple = t.split('<').next().unwrap_or(t);
                out.insert(simple.rsplit('.').next().unwrap_or(simple).trim());
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_file;

    const SRC: &str = r#"class A {
    static int f(int x) {
        if (x > 5 && x < 3) {
            return 1;
        }
        return 0;
    }
    static int g(int y) {
        if (h(y) > 10) {
            return 2;
        }
        return 0;
    }
    private static int h(int y) {
        return 1;
    }
}
"#;

    const T: Duration = Duration::from_secs(10);

    fn dead(r: &CheckReport) -> usize {
        r.findings.iter().filter(|f| f.code() == crate::UNREACHABLE_CODE).count()
    }

    fn same_as_check_file(cache: &MethodCache, file: &SourceFile) {
        let got = cache.check_file("a", file, T, &|| false).unwrap();
        let want = check_file(file, T);
        assert_eq!(got.findings, want.findings);
        assert_eq!(got.methods, want.methods);
    }

    #[test]
    fn only_changed_methods_are_checked_again() {
        let cache = MethodCache::new();
        let mut file = SourceFile::parse(SRC);
        same_as_check_file(&cache, &file);
        assert_eq!(cache.stats(), CacheStats { hits: 0, misses: 3 });
        assert_eq!(cache.len(), 3);
        // Nothing changed.
        cache.check_file("a", &file, T, &|| false).unwrap();
        assert_eq!(cache.stats(), CacheStats { hits: 3, misses: 3 });
        // A line inserted at the top of f: f is checked again, g moves (and its message line with it).
        let at = file.text.find("        if (x > 5").unwrap();
        file.apply_edits([(at..at, "        int z = 1;\n")]);
        let before = cache.stats();
        same_as_check_file(&cache, &file);
        assert_eq!(cache.stats().misses - before.misses, 1, "only f");
    }

    #[test]
    fn a_moved_method_keeps_its_verdict_with_rebased_ranges() {
        let cache = MethodCache::new();
        let mut file = SourceFile::parse(SRC);
        let first = cache.check_file("a", &file, T, &|| false).unwrap();
        assert_eq!(dead(&first), 2);
        let text = first.findings[0].message(&file.lines);
        assert!(text.contains("(line 3)"), "{text}");
        file.apply_edits([(0..0, "// one\n// two\n")]);
        let before = cache.stats();
        let moved = cache.check_file("a", &file, T, &|| false).unwrap();
        assert_eq!(cache.stats().misses, before.misses, "no method changed");
        assert_eq!(moved.findings, check_file(&file, T).findings);
        let text = moved.findings[0].message(&file.lines);
        assert!(text.contains("(line 5)"), "{text}");
    }

    #[test]
    fn editing_an_inlined_callee_invalidates_its_callers() {
        let cache = MethodCache::new();
        let mut file = SourceFile::parse(SRC);
        let first = cache.check_file("a", &file, T, &|| false).unwrap();
        assert_eq!(dead(&first), 2, "h returns 1, so g's branch is dead too: {:?}", first.findings);
        let at = file.text.find("return 1;\n    }\n}").unwrap();
        file.apply_edits([(at + 7..at + 8, "11")]);
        let before = cache.stats();
        same_as_check_file(&cache, &file);
        assert_eq!(cache.stats().misses - before.misses, 2, "g and h, not f");
        // Now g's `return 0;` is the dead one.
        let last = cache.check_file("a", &file, T, &|| false).unwrap();
        assert!(last.findings.iter().any(|f| f.code() == crate::CONDITION_ALWAYS_TRUE), "{:?}", last.findings);
    }

    #[test]
    fn editing_a_field_or_a_constructor_invalidates_the_methods_that_read_it() {
        // `f` reads the constant; `g` makes an `A`, whose constructor sets the field it reads.
        let src = "class A {\n    static final int L = 5;\n    int v;\n    A() { v = 1; }\n    static int f(int x) {\n        if (x > L && x < 3) {\n            return 1;\n        }\n        return 0;\n    }\n    static int g() {\n        if (new A().v == 2) {\n            return 1;\n        }\n        return 0;\n    }\n}\n";
        let cache = MethodCache::new();
        let mut file = SourceFile::parse(src);
        let first = cache.check_file("a", &file, T, &|| false).unwrap();
        assert_eq!(first.findings, check_file(&file, T).findings);
        let at = file.text.find("L = 5").unwrap();
        file.apply_edits([(at + 4..at + 5, "1")]);
        same_as_check_file(&cache, &file);
        let at = file.text.find("v = 1").unwrap();
        file.apply_edits([(at + 4..at + 5, "2")]);
        same_as_check_file(&cache, &file);
        // White space between members changes nothing.
        let at = file.text.find("    int v;").unwrap();
        file.apply_edits([(at..at, "\n\n")]);
        let before = cache.stats();
        same_as_check_file(&cache, &file);
        assert_eq!(cache.stats().misses, before.misses);
    }

    #[test]
    fn editing_any_method_of_a_class_invalidates_what_its_invariants_proved() {
        // `free` is dead only while `release` keeps `used >= 0`.
        let src = "class P {\n    private int used;\n    void acquire() { used++; if (used < 0) used = 0; }\n    void release() {\n        if (used > 0) {\n            used--;\n        }\n    }\n    int free() {\n        if (used < 0) {\n            return -1;\n        }\n        return used;\n    }\n}\n";
        let cache = MethodCache::new();
        let mut file = SourceFile::parse(src);
        let first = cache.check_file("p", &file, T, &|| false).unwrap();
        assert_eq!(first.findings, check_file(&file, T).findings);
        assert_eq!(dead(&first), 1, "{:#?}", first.findings);
        // `release` now lets `used` go below zero: `free`'s finding must go.
        let at = file.text.find("used > 0").unwrap();
        file.apply_edits([(at..at + "used > 0".len(), "used > -5")]);
        let second = cache.check_file("p", &file, T, &|| false).unwrap();
        assert_eq!(dead(&second), 0, "{:#?}", second.findings);
        same_as_check_file(&cache, &file);
    }

    #[test]
    fn partial_reports_come_cached_methods_first() {
        let cache = MethodCache::new();
        let mut file = SourceFile::parse(SRC);
        let seen = std::sync::Mutex::new(Vec::new());
        let record = |p: &PartialReport| seen.lock().unwrap().push((p.decided, p.methods, p.findings.len()));
        cache.check_file_streaming("a", &file, T, &|| false, &record).unwrap();
        // Nothing cached yet: told once that nothing is decided (the methods are quick).
        assert_eq!(seen.lock().unwrap()[0], (0, 3, 0));
        // f changes; g and h come from the cache, with g's finding, before f is checked.
        let at = file.text.find("        if (x > 5").unwrap();
        file.apply_edits([(at..at, "        int z = 1;\n")]);
        seen.lock().unwrap().clear();
        let second = cache.check_file_streaming("a", &file, T, &|| false, &record).unwrap();
        assert_eq!(second.findings, check_file(&file, T).findings);
        let not_f = second.findings.iter().filter(|x| x.method != "f(int)").count();
        assert!(not_f > 0 && not_f < second.findings.len(), "{:?}", second.findings);
        assert_eq!(seen.lock().unwrap()[0], (2, 3, not_f));
        // All cached: nothing to tell before the answer.
        seen.lock().unwrap().clear();
        cache.check_file_streaming("a", &file, T, &|| false, &record).unwrap();
        assert!(seen.lock().unwrap().is_empty());
    }

    #[test]
    fn cancelled_checks_stop_and_deleted_methods_leave() {
        let cache = MethodCache::new();
        let file = SourceFile::parse(SRC);
        assert!(cache.check_file("a", &file, T, &|| true).is_none());
        cache.check_file("a", &file, T, &|| false).unwrap();
        cache.check_file("b", &file, T, &|| false).unwrap();
        assert_eq!(cache.len(), 6);
        let at = SRC.find("    static int g").unwrap();
        let end = SRC.find("    private static").unwrap();
        let smaller = SourceFile::parse(format!("{}{}", &SRC[..at], &SRC[end..]));
        cache.check_file("a", &smaller, T, &|| false).unwrap();
        assert_eq!(cache.len(), 5);
        cache.forget_file("b");
        assert_eq!(cache.len(), 2);
    }
}
