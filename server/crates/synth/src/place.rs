//! Where a test goes and how it gets there without losing anybody's work.
//!
//! [`place`] reads the test file (if there is one) and computes its new full content: a new class,
//! or the existing class with the new method appended before its final closing brace, the missing
//! imports added, a method name that is not taken yet (`_2`, `_3`...), the file's own JUnit
//! generation, indentation and line endings. A test method of the class that already does what
//! the new one would (the same statements, whatever its name and comments) is reported instead
//! ([`Placement::duplicate_of`]), and the file left as it is. [`place_replacing`] may instead
//! replace an earlier jreach test for the same statement (the caller says which comments name it,
//! as only it has the code under test to tell): its method is rewritten where it stands
//! ([`Placement::replaced`]). It writes nothing.
//!
//! [`write()`] then puts that content on disk atomically (a temporary file in the same directory,
//! renamed over the target) and only if the file is still exactly as [`place`] read it: a file that
//! appeared, disappeared or changed in between is never replaced; the error is a [`ConflictError`]
//! ([`is_conflict`]).

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use jreach_syntax::{text_of, Node, SourceFile};

use crate::render::{
    format_method, identifier, method_parts, reflection_helpers, render_class, test_class_name, ALLOCATE_HELPER,
};
use crate::{markers_in, test_method_name, JUnit, Marker, TestRequest};

/// A test ready to be written: where, what, and what the file looked like before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The test file: `<test root>/<package folders>/<TopClass>Test.java`.
    pub path: PathBuf,
    /// The file's full new content.
    pub content: String,
    /// Whether the file is new (it did not exist when [`place`] looked).
    pub created: bool,
    /// The name of the new test method.
    pub method_name: String,
    /// The file's content when [`place`] read it; `None` for a new file. [`write()`] refuses to write
    /// unless the file still has exactly this content (or still does not exist).
    pub original: Option<String>,
    /// The JUnit generation the test is written for: the existing file's, else the request's.
    pub junit: JUnit,
    /// When the test class already has a test method with the same statements (asked for the
    /// same line again, say): its name. `content` is then the file unchanged and `method_name`
    /// that method's name; there is nothing to write.
    pub duplicate_of: Option<String>,
    /// The earlier test the new one replaces in the file ([`place_replacing`]): its name.
    pub replaced: Option<String>,
}

/// [`write()`] found the file changed since [`place`] read it (or created, or deleted), and left it
/// alone.
#[derive(Debug, thiserror::Error)]
#[error("{}: {reason}; not overwriting it", path.display())]
pub struct ConflictError {
    pub path: PathBuf,
    pub reason: String,
}

/// Whether `err` is [`write()`]'s refusal to replace a file that changed under it.
pub fn is_conflict(err: &io::Error) -> bool {
    err.get_ref().is_some_and(|e| e.is::<ConflictError>())
}

fn conflict(path: &Path, kind: io::ErrorKind, reason: &str) -> io::Error {
    io::Error::new(kind, ConflictError { path: path.to_path_buf(), reason: reason.to_string() })
}

/// The test file for `req` under `test_root`: `<test_root>/<package folders>/<TopClass>Test.java`.
///
/// The one place a test's path is made, so the one place that keeps it under `test_root`: a
/// package or class name that is not made of Java identifiers (`package a/../b;` in broken code)
/// is refused with [`io::ErrorKind::InvalidInput`] instead of becoming a path outside the root.
pub fn test_path(test_root: &Path, req: &TestRequest) -> io::Result<PathBuf> {
    test_file(test_root, req.package.as_deref(), &test_class_name(req))
}

/// The test file of the tests for top-level class `top` of package `package` under `test_root`
/// (where [`test_path`] puts them).
pub fn test_path_of_class(test_root: &Path, package: Option<&str>, top: &str) -> io::Result<PathBuf> {
    test_file(test_root, package, &format!("{}Test", crate::render::identifier(top)))
}

fn test_file(test_root: &Path, package: Option<&str>, class: &str) -> io::Result<PathBuf> {
    let refuse = |what: String| {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{what}: no test is written for it, as its path would not lie under {}", test_root.display()),
        ))
    };
    let mut path = test_root.to_path_buf();
    if let Some(pkg) = package {
        if !jreach_syntax::is_package_name(pkg) {
            return refuse(format!("`{pkg}` is not a Java package name"));
        }
        path.extend(pkg.split('.'));
    }
    if !jreach_syntax::is_java_identifier(class) {
        return refuse(format!("`{class}` is not a Java class name"));
    }
    path.push(format!("{class}.java"));
    Ok(path)
}

/// Computes where the test for `req` goes under `test_root` and the file's new content. Reads the
/// existing test file, if any; writes nothing.
pub fn place(test_root: &Path, req: &TestRequest) -> io::Result<Placement> {
    let path = test_path(test_root, req)?;
    let existing = match crate::read_source(&path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        // `read_source` names the path in its errors.
        Err(e) => return Err(e),
    };
    place_in(path, existing, req)
}

/// [`place`] for a file whose current text the caller already has (an editor buffer, say):
/// `existing` is `None` when the file does not exist.
pub fn place_in(path: PathBuf, existing: Option<String>, req: &TestRequest) -> io::Result<Placement> {
    place_replacing(path, existing, req, &|_| false)
}

/// [`place_in`] that replaces an earlier jreach test of the class for the same statement: the
/// one test method whose `// Reaches line N: <statement>` comment `same_target` accepts (none
/// when several do). Its method is rewritten where it stands, under the new test's name.
pub fn place_replacing(
    path: PathBuf,
    existing: Option<String>,
    req: &TestRequest,
    same_target: &dyn Fn(&Marker) -> bool,
) -> io::Result<Placement> {
    match existing {
        None => Ok(Placement {
            path,
            content: render_class(req),
            created: true,
            method_name: test_method_name(req),
            original: None,
            junit: req.junit,
            duplicate_of: None,
            replaced: None,
        }),
        Some(text) => {
            let a = append(&text, req, same_target)
                .map_err(|msg| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {msg}", path.display())))?;
            let duplicate_of = a.duplicate.then(|| a.name.clone());
            Ok(Placement {
                path,
                content: a.content,
                created: false,
                method_name: a.name,
                original: Some(text),
                junit: a.junit,
                duplicate_of,
                replaced: a.replaced,
            })
        }
    }
}

/// What [`append`] made of a test file.
struct Appended {
    content: String,
    /// The new method's name (the existing one's when it is a duplicate).
    name: String,
    junit: JUnit,
    /// The class has the same test already: `content` is the file unchanged.
    duplicate: bool,
    /// The earlier test the new one replaces.
    replaced: Option<String>,
}

/// The one test method of `class` whose jreach comment `same_target` accepts.
fn earlier_test<'t>(class: Node<'t>, src: &str, same_target: &dyn Fn(&Marker) -> bool) -> Option<Node<'t>> {
    let body = class.child_by_field_name("body")?;
    let mut c = body.walk();
    let mut found = body.named_children(&mut c).filter(|m| m.kind() == "method_declaration").filter(|m| {
        // The method's own first comment: its text, read as a test file of its own.
        let first = markers_in(text_of(*m, src)).into_iter().next();
        first.is_some_and(|mk| same_target(&mk))
    });
    let one = found.next()?;
    found.next().is_none().then_some(one)
}

/// `text` with the test for `req` appended to its test class; the method's name and JUnit
/// version; and whether it was there already (`text` unchanged and the existing method's name).
fn append(text: &str, req: &TestRequest, same_target: &dyn Fn(&Marker) -> bool) -> Result<Appended, String> {
    let file = SourceFile::parse(text);
    let src = file.text.as_str();
    let root = file.tree.root_node();

    let mut cursor = root.walk();
    let top: Vec<Node<'_>> = root.named_children(&mut cursor).collect();
    let classes: Vec<Node<'_>> = top.iter().copied().filter(|n| n.kind() == "class_declaration").collect();
    let wanted = test_class_name(req);
    let class = classes
        .iter()
        .find(|c| c.child_by_field_name("name").is_some_and(|n| text_of(n, src) == wanted))
        .or(classes.first())
        .ok_or_else(|| format!("no class to add the test to (expected `class {wanted}`)"))?;
    let body = class.child_by_field_name("body").ok_or("the test class has no body")?;
    let close = body
        .child(body.child_count().saturating_sub(1) as _)
        .filter(|c| c.kind() == "}" && !c.is_missing())
        .ok_or("the test class's closing brace is missing; fix the file first")?;

    let imports: Vec<Node<'_>> = top.iter().copied().filter(|n| n.kind() == "import_declaration").collect();
    let junit = file_junit(src, &imports).unwrap_or(req.junit);

    // The earlier test for the same statement, if the new one replaces it.
    let earlier = earlier_test(*class, src, same_target);
    let replaced = earlier.and_then(|m| m.child_by_field_name("name")).map(|n| text_of(n, src).to_string());

    // A method name nobody else uses yet.
    let mut taken = method_names(*class, src);
    if let Some(old) = &replaced {
        if let Some(i) = taken.iter().position(|n| n == old) {
            taken.remove(i);
        }
    }
    let base = test_method_name(req);
    let name = if taken.contains(&base) {
        (2..).map(|i| format!("{base}_{i}")).find(|n| !taken.contains(n)).expect("a free suffix")
    } else {
        base
    };

    let parts = method_parts(req, junit);
    let indent = member_indent(body, src).unwrap_or_else(|| "    ".to_string());
    let mut method = format_method(&name, &parts, junit, &indent);
    if let Some(same) = same_test(*class, src, &method) {
        return Ok(Appended { content: text.to_string(), name: same, junit, duplicate: true, replaced: None });
    }
    // The reflection helpers, unless an earlier test brought them.
    if parts.reflection && !taken.iter().any(|m| m == ALLOCATE_HELPER) {
        method.push_str(&reflection_helpers(&indent));
    }

    // (offset, order among edits at one offset, text); the method edit also replaces the blanks
    // before an inline closing brace.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut replace_from = None;

    // The method, where the test it replaces stood (its lines, from the one of its first
    // annotation to the one of its closing brace), else before the class's final brace.
    let brace = close.start_byte();
    let line_start = src[..brace].rfind('\n').map_or(0, |i| i + 1);
    let has_members = body.named_child_count() > 0;
    if let Some(old) = earlier {
        let from = src[..old.start_byte()].rfind('\n').map_or(0, |i| i + 1);
        let to = src[old.end_byte()..].find('\n').map_or(src.len(), |i| old.end_byte() + i + 1);
        edits.push((to, 0, method.trim_end_matches('\n').to_string() + if to == src.len() { "" } else { "\n" }));
        replace_from = Some(from);
    } else if src[line_start..brace].trim().is_empty() {
        let before = src[..line_start].trim_end_matches([' ', '\t', '\r']);
        let blank_before = before.ends_with("\n\n") || before.ends_with('{') || line_start == 0;
        let sep = if has_members && !blank_before { "\n" } else { "" };
        edits.push((line_start, 0, format!("{sep}{method}")));
    } else {
        let sep = if has_members { "\n\n" } else { "\n" };
        edits.push((brace, 0, format!("{sep}{method}")));
        replace_from = Some(src[..brace].trim_end().len());
    }

    // The imports the method needs and the file lacks, in order among their kind when the file's
    // imports are sorted.
    let present: Vec<Import> = imports.iter().map(|n| Import::of(*n, src)).collect();
    let missing = |wanted: &std::collections::BTreeSet<String>, is_static: bool| -> Vec<String> {
        wanted
            .iter()
            .filter(|name| {
                let owner = name.rsplit_once('.').map_or("", |(o, _)| o);
                !present
                    .iter()
                    .any(|i| i.is_static == is_static && (i.name == **name || i.name == format!("{owner}.*")))
            })
            .cloned()
            .collect()
    };
    let statics = missing(&parts.static_imports, true);
    let plain = missing(&parts.imports, false);
    let line = |is_static: bool, name: &str| format!("import {}{name};", if is_static { "static " } else { "" });
    let first_import = present.first().map(|i| i.start);
    let last_static = present.iter().rfind(|i| i.is_static).map(|i| i.end);
    let package_end = top.iter().find(|n| n.kind() == "package_declaration").map(|n| n.end_byte());
    let mut seq = 1usize;
    match first_import {
        None => {
            let groups: Vec<String> = [(true, &statics), (false, &plain)]
                .into_iter()
                .filter(|(_, names)| !names.is_empty())
                .map(|(st, names)| names.iter().map(|n| line(st, n)).collect::<Vec<_>>().join("\n"))
                .collect();
            if !groups.is_empty() {
                let block = groups.join("\n\n");
                match package_end {
                    Some(end) => edits.push((end, seq, format!("\n\n{block}"))),
                    None => edits.push((0, seq, format!("{block}\n\n"))),
                }
            }
        }
        Some(first) => {
            for (is_static, names) in [(true, &statics), (false, &plain)] {
                let same: Vec<&Import> = present.iter().filter(|i| i.is_static == is_static).collect();
                if same.is_empty() && !names.is_empty() {
                    let group = names.iter().map(|n| line(is_static, n)).collect::<Vec<_>>().join("\n");
                    // Static imports go first; others after them, a blank line between.
                    match (is_static, last_static) {
                        (true, _) => edits.push((first, seq, format!("{group}\n\n"))),
                        (false, Some(end)) => edits.push((end, seq, format!("\n\n{group}"))),
                        (false, None) => unreachable!("the first import is static or not"),
                    }
                    seq += 1;
                    continue;
                }
                for name in names {
                    match same.iter().find(|i| i.name.as_str() > name.as_str()) {
                        Some(next) => edits.push((next.start, seq, format!("{}\n", line(is_static, name)))),
                        None => {
                            let end = same.last().expect("imports of this kind").end;
                            edits.push((end, seq, format!("\n{}", line(is_static, name))));
                        }
                    }
                    seq += 1;
                }
            }
        }
    }

    let crlf = src.contains("\r\n");
    // From the end backwards; at one offset, later edits first so that earlier ones end up first.
    edits.sort_by_key(|(at, seq, _)| std::cmp::Reverse((*at, *seq)));
    let mut out = src.to_string();
    for (at, seq, text) in edits {
        let text = if crlf { text.replace('\n', "\r\n") } else { text };
        let from = if seq == 0 { replace_from.unwrap_or(at) } else { at };
        out.replace_range(from..at, &text);
    }
    Ok(Appended { content: out, name, junit, duplicate: false, replaced })
}

/// An import declaration of the file.
struct Import {
    is_static: bool,
    /// What is imported, without spaces: `org.junit.Assert.*`.
    name: String,
    start: usize,
    end: usize,
}

impl Import {
    fn of(node: Node<'_>, src: &str) -> Import {
        let text: String = text_of(node, src).split_whitespace().collect::<Vec<_>>().join(" ");
        let rest = text.strip_prefix("import").unwrap_or(&text).trim_start();
        let (is_static, rest) = match rest.strip_prefix("static ") {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let name = rest.trim_end_matches(';').chars().filter(|c| !c.is_whitespace()).collect();
        Import { is_static, name, start: node.start_byte(), end: node.end_byte() }
    }
}

/// The JUnit generation an existing test file uses, from its imports (or fully qualified
/// annotations).
fn file_junit(src: &str, imports: &[Node<'_>]) -> Option<JUnit> {
    let texts: Vec<&str> = imports.iter().map(|n| text_of(*n, src)).collect();
    if texts.iter().any(|t| t.contains("org.junit.jupiter")) {
        return Some(JUnit::V5);
    }
    if texts.iter().any(|t| t.contains("org.junit.")) {
        return Some(JUnit::V4);
    }
    if src.contains("@org.junit.jupiter.") {
        return Some(JUnit::V5);
    }
    if src.contains("@org.junit.Test") {
        return Some(JUnit::V4);
    }
    None
}

/// Names of the methods declared in `class`, nested classes included.
/// The name of a method of `class` whose body has the same tokens (comments aside) as the one
/// of `method`, a method's text.
fn same_test(class: Node<'_>, src: &str, method: &str) -> Option<String> {
    let new = SourceFile::parse(format!("class T {{\n{method}\n}}\n"));
    let new_body = first_method(new.tree.root_node()).and_then(|m| m.child_by_field_name("body"))?;
    let want = tokens(new_body, &new.text);
    let body = class.child_by_field_name("body")?;
    let mut c = body.walk();
    let found = body
        .named_children(&mut c)
        .filter(|m| m.kind() == "method_declaration")
        .find(|m| m.child_by_field_name("body").is_some_and(|b| tokens(b, src) == want));
    found.and_then(|m| m.child_by_field_name("name")).map(|n| text_of(n, src).to_string())
}

fn first_method(n: Node<'_>) -> Option<Node<'_>> {
    if n.kind() == "method_declaration" {
        return Some(n);
    }
    let mut c = n.walk();
    let children: Vec<Node<'_>> = n.named_children(&mut c).collect();
    children.into_iter().find_map(first_method)
}

/// The leaf tokens of `n`, comments left out.
fn tokens<'s>(n: Node<'_>, src: &'s str) -> Vec<&'s str> {
    let mut out = Vec::new();
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        if matches!(x.kind(), "line_comment" | "block_comment") {
            continue;
        }
        if x.child_count() == 0 {
            out.push(text_of(x, src));
            continue;
        }
        let mut c = x.walk();
        let children: Vec<Node<'_>> = x.children(&mut c).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

fn method_names(class: Node<'_>, src: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack = vec![class];
    while let Some(n) = stack.pop() {
        if n.kind() == "method_declaration" {
            if let Some(name) = n.child_by_field_name("name") {
                names.push(identifier(text_of(name, src)));
            }
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    names
}

/// The indentation of the class's first member, if it starts its own line.
fn member_indent(body: Node<'_>, src: &str) -> Option<String> {
    let first = body.named_child(0)?;
    let start = first.start_byte();
    let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent = &src[line_start..start];
    (!indent.is_empty() && indent.chars().all(|c| c == ' ' || c == '\t')).then(|| indent.to_string())
}

/// Writes `p.content` to `p.path`, creating folders as needed, atomically, and only if the file is
/// still as [`place`] found it: absent for a new file, byte for byte `p.original` otherwise. A
/// symbolic link is followed, not replaced; a file with other hard links is written through in
/// place (a rename would split it from them); a read-only file is refused.
pub fn write(p: &Placement) -> io::Result<()> {
    match &p.original {
        None => write_new(&p.path, &p.content),
        Some(original) => replace(&p.path, original, &p.content),
    }
}

fn write_new(path: &Path, content: &str) -> io::Result<()> {
    let dir = parent_dir(path);
    fs::create_dir_all(&dir)?;
    if fs::symlink_metadata(path).is_ok() {
        return Err(conflict(path, io::ErrorKind::AlreadyExists, "the file was created after the test was prepared"));
    }
    let tmp = write_temp(&dir, path, content, None)?;
    // A hard link fails if the target exists, so a file created meanwhile is never replaced.
    let linked = fs::hard_link(&tmp, path);
    let _ = fs::remove_file(&tmp);
    match linked {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            Err(conflict(path, io::ErrorKind::AlreadyExists, "the file was created after the test was prepared"))
        }
        // File systems without hard links: exclusive creation instead.
        Err(_) => {
            let mut f = fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| {
                if e.kind() == io::ErrorKind::AlreadyExists {
                    conflict(path, io::ErrorKind::AlreadyExists, "the file was created after the test was prepared")
                } else {
                    e
                }
            })?;
            f.write_all(content.as_bytes())?;
            f.sync_all()
        }
    }
}

fn replace(path: &Path, original: &str, content: &str) -> io::Result<()> {
    let unchanged = |target: &Path| -> io::Result<()> {
        match fs::read(target) {
            Ok(now) if now == original.as_bytes() => Ok(()),
            Ok(_) => Err(conflict(path, io::ErrorKind::Other, "the file changed after the test was prepared")),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Err(conflict(path, io::ErrorKind::NotFound, "the file was deleted after the test was prepared"))
            }
            Err(e) => Err(e),
        }
    };
    unchanged(path)?;
    let target = fs::canonicalize(path)?;
    let meta = fs::metadata(&target)?;
    if meta.permissions().readonly() {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} is read-only; jreach does not change it (make it writable to add the test)", path.display()),
        ));
    }
    if hard_links(&meta) > 1 {
        // Replacing the file by a rename would split it from its other names: write through it.
        let mut f = fs::OpenOptions::new().write(true).open(&target)?;
        unchanged(&target)?;
        f.set_len(0)?;
        f.write_all(content.as_bytes())?;
        return f.sync_all();
    }
    let dir = parent_dir(&target);
    let tmp = write_temp(&dir, &target, content, Some(meta.permissions()))?;
    let result = unchanged(&target).and_then(|()| fs::rename(&tmp, &target));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// How many names the file has (1 where the platform does not say).
fn hard_links(meta: &fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        std::os::unix::fs::MetadataExt::nlink(meta)
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A new temporary file next to `path` holding `content`.
fn write_temp(dir: &Path, path: &Path, content: &str, perms: Option<fs::Permissions>) -> io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let stem = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{stem}.{}.{n}.jreach-tmp", std::process::id()));
        let mut f = match fs::OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        };
        let written = f.write_all(content.as_bytes()).and_then(|()| f.sync_all()).and_then(|()| match &perms {
            Some(p) => fs::set_permissions(&tmp, p.clone()),
            None => Ok(()),
        });
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
        return Ok(tmp);
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::{JavaValue, Outcome};

    fn req() -> TestRequest {
        TestRequest {
            package: Some("com.acme".into()),
            classes: vec!["Bank".into(), "Account".into()],
            method: "withdraw".into(),
            is_static: false,
            is_constructor: false,
            params: vec![("amount".into(), "int".into())],
            args: vec![JavaValue::Int(101)],
            return_ty: "int".into(),
            outcome: Outcome::Returns(Some(JavaValue::Int(-1))),
            target_line: 21,
            target_text: "return -1;".into(),
            target_member: Some("withdraw(int)".into()),
            target_action: jreach_syntax::Action::Returns(Some(jreach_syntax::Term::Number("-1".into()))),
            path_condition: vec!["amount > balance".into()],
            junit: JUnit::V5,
            receiver_args: vec![],
            receiver_calls: vec![],
            imports: vec![],
            unmodelled_before_target: None,
            declares_checked: false,
            receiver_call_choices: vec![],
            receiver_factory: None,
            receiver_from: None,
            then_call: None,
            null_casts: Default::default(),
            named_classes: vec![],
            held_by: None,
            initializes_class: false,
            outer: None,
            also_runs: vec![],
            statics: vec![],
            receiver_body: None,
            receiver_fields: None,
            receiver_class: None,
        }
    }

    fn dir_listing(root: &Path) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    out.push(p.strip_prefix(root).unwrap().to_string_lossy().into_owned());
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn new_file() {
        let root = tempfile::tempdir().unwrap();
        let p = place(root.path(), &req()).unwrap();
        assert!(p.created);
        assert_eq!(p.path, root.path().join("com/acme/BankTest.java"));
        assert_eq!(p.method_name, "withdraw_returnsMinus1");
        assert!(!p.path.exists(), "place writes nothing");
        write(&p).unwrap();
        assert_eq!(fs::read_to_string(&p.path).unwrap(), p.content);
        assert_eq!(dir_listing(root.path()), ["com/acme/BankTest.java"], "no temporary file left behind");
        expect![[r#"
            package com.acme;

            import static org.junit.jupiter.api.Assertions.assertEquals;

            import org.junit.jupiter.api.Test;
            import org.junit.jupiter.api.Timeout;

            class BankTest {
                @Test
                @Timeout(30)
                void withdraw_returnsMinus1() {
                    // Reaches line 21 in withdraw(int): return -1;
                    // Path: amount > balance
                    Bank.Account obj = new Bank.Account();
                    assertEquals(-1, obj.withdraw(101));
                }
            }
        "#]]
        .assert_eq(&p.content);
    }

    #[test]
    fn append_to_existing_and_pick_a_free_name() {
        let root = tempfile::tempdir().unwrap();
        let first = place(root.path(), &req()).unwrap();
        write(&first).unwrap();

        // The same test again: reported as there already, the file unchanged.
        let again = place(root.path(), &req()).unwrap();
        assert_eq!(again.duplicate_of.as_deref(), Some("withdraw_returnsMinus1"));
        assert_eq!(Some(&again.content), again.original.as_ref());
        // The same target with other inputs, then one that throws: `_2`, new import, file
        // order kept.
        let other = TestRequest { args: vec![JavaValue::Int(102)], ..req() };
        let second = place(root.path(), &other).unwrap();
        assert!(!second.created);
        assert_eq!((second.method_name.as_str(), second.duplicate_of.as_deref()), ("withdraw_returnsMinus1_2", None));
        write(&second).unwrap();
        let throws = TestRequest { outcome: Outcome::Throws("NoSuchElementException".into()), ..req() };
        let third = place(root.path(), &throws).unwrap();
        assert_eq!(third.method_name, "withdraw_returnsMinus1_3");
        write(&third).unwrap();
        expect![[r#"
            package com.acme;

            import static org.junit.jupiter.api.Assertions.assertEquals;
            import static org.junit.jupiter.api.Assertions.assertThrows;

            import java.util.NoSuchElementException;
            import org.junit.jupiter.api.Test;
            import org.junit.jupiter.api.Timeout;

            class BankTest {
                @Test
                @Timeout(30)
                void withdraw_returnsMinus1() {
                    // Reaches line 21 in withdraw(int): return -1;
                    // Path: amount > balance
                    Bank.Account obj = new Bank.Account();
                    assertEquals(-1, obj.withdraw(101));
                }

                @Test
                @Timeout(30)
                void withdraw_returnsMinus1_2() {
                    // Reaches line 21 in withdraw(int): return -1;
                    // Path: amount > balance
                    Bank.Account obj = new Bank.Account();
                    assertEquals(-1, obj.withdraw(102));
                }

                @Test
                @Timeout(30)
                void withdraw_returnsMinus1_3() {
                    // Reaches line 21 in withdraw(int): return -1;
                    // Path: amount > balance
                    Bank.Account obj = new Bank.Account();
                    assertThrows(NoSuchElementException.class, () -> obj.withdraw(101));
                }
            }
        "#]]
        .assert_eq(&fs::read_to_string(&third.path).unwrap());
    }

    #[test]
    fn an_earlier_test_for_the_same_statement_is_replaced_where_it_stands() {
        let existing = "package com.acme;\n\nimport org.junit.jupiter.api.Test;\n\nclass BankTest {\n    @Test\n    void mine() {\n    }\n\n    @Test\n    void withdraw_reachesLine21() {\n        // Reaches line 21: return -1;\n        int edited = 1;\n    }\n\n    @Test\n    void other_reachesLine30() {\n        // Reaches line 30: return 0;\n    }\n}\n";
        // The statement moved from line 21 to line 23: the caller, who has the code, says the
        // comment of line 21 is that statement. The earlier test, named as tests were before
        // names said what the statement does, is replaced under the new name.
        let moved = TestRequest { target_line: 23, ..req() };
        let same = |m: &Marker| m.target_line == 21 && m.quoted == "return -1;";
        let p = place_replacing("BankTest.java".into(), Some(existing.into()), &moved, &same).unwrap();
        assert_eq!(p.replaced.as_deref(), Some("withdraw_reachesLine21"));
        assert_eq!(p.method_name, "withdraw_returnsMinus1");
        expect![[r#"
            package com.acme;

            import static org.junit.jupiter.api.Assertions.assertEquals;

            import org.junit.jupiter.api.Test;
            import org.junit.jupiter.api.Timeout;

            class BankTest {
                @Test
                void mine() {
                }

                @Test
                @Timeout(30)
                void withdraw_returnsMinus1() {
                    // Reaches line 23 in withdraw(int): return -1;
                    // Path: amount > balance
                    Bank.Account obj = new Bank.Account();
                    assertEquals(-1, obj.withdraw(101));
                }

                @Test
                void other_reachesLine30() {
                    // Reaches line 30: return 0;
                }
            }
        "#]]
        .assert_eq(&p.content);
        // Two tests the caller takes for the target: neither is replaced.
        let any = |m: &Marker| m.target_line != 0;
        let p = place_replacing("BankTest.java".into(), Some(existing.into()), &moved, &any).unwrap();
        assert_eq!(p.replaced, None);
        assert!(
            p.content.contains("void withdraw_reachesLine21()") && p.content.contains("void withdraw_returnsMinus1()")
        );
        // A replacement of a test named the same keeps the name (no `_2`), and nothing else is
        // renamed.
        let named = existing.replace("withdraw_reachesLine21", "withdraw_returnsMinus1");
        let p = place_replacing("BankTest.java".into(), Some(named), &req(), &same).unwrap();
        assert_eq!(
            (p.replaced.as_deref(), p.method_name.as_str()),
            (Some("withdraw_returnsMinus1"), "withdraw_returnsMinus1")
        );
        assert_eq!(p.content.matches("void withdraw_returnsMinus1()").count(), 1, "{}", p.content);
        assert!(p.content.contains("void other_reachesLine30()"), "{}", p.content);
    }

    #[test]
    fn reflection_helpers_are_added_once() {
        let root = tempfile::tempdir().unwrap();
        let reflected = TestRequest { receiver_fields: Some(vec![("balance".into(), JavaValue::Int(5))]), ..req() };
        write(&place(root.path(), &reflected).unwrap()).unwrap();
        let second = TestRequest { receiver_fields: Some(vec![("balance".into(), JavaValue::Int(6))]), ..req() };
        let second = place(root.path(), &second).unwrap();
        write(&second).unwrap();
        let text = fs::read_to_string(&second.path).unwrap();
        assert_eq!(text.matches("private static <T> T allocateByReflection(").count(), 1, "{text}");
        assert_eq!(text.matches("private static void setFieldByReflection(").count(), 1, "{text}");
        assert_eq!(text.matches("setFieldByReflection(obj, \"balance\", 5);").count(), 1, "{text}");
        assert_eq!(text.matches("setFieldByReflection(obj, \"balance\", 6);").count(), 1, "{text}");
        // A test without reflection added to a file that has none brings no helpers.
        let plain = tempfile::tempdir().unwrap();
        write(&place(plain.path(), &req()).unwrap()).unwrap();
        let again = place(plain.path(), &TestRequest { args: vec![JavaValue::Int(102)], ..req() }).unwrap();
        write(&again).unwrap();
        assert!(!fs::read_to_string(&again.path).unwrap().contains("Reflection"));
    }

    #[test]
    fn existing_junit4_file_is_followed_in_its_style() {
        let existing = "package com.acme;\r\n\r\nimport org.junit.Test;\r\nimport static org.junit.Assert.*;\r\n\r\npublic class BankTest {\r\n\t@Test\r\n\tpublic void withdraw_returnsMinus1() {\r\n\t}\r\n}\r\n";
        let p = place_in("BankTest.java".into(), Some(existing.into()), &req()).unwrap();
        assert_eq!(p.junit, JUnit::V4);
        assert_eq!(p.method_name, "withdraw_returnsMinus1_2");
        assert!(!p.content.replace("\r\n", "").contains('\n'), "line endings follow the file");
        expect![[r#"
            package com.acme;

            import org.junit.Test;
            import static org.junit.Assert.*;

            public class BankTest {
            	@Test
            	public void withdraw_returnsMinus1() {
            	}

            	@Test(timeout = 30000L)
            	public void withdraw_returnsMinus1_2() {
            		// Reaches line 21 in withdraw(int): return -1;
            		// Path: amount > balance
            		Bank.Account obj = new Bank.Account();
            		assertEquals(-1, obj.withdraw(101));
            	}
            }
        "#]]
        .assert_eq(&p.content.replace("\r\n", "\n"));
    }

    #[test]
    fn imports_are_added_where_they_belong() {
        let bare = "class BankTest {}\n";
        let p = place_in("BankTest.java".into(), Some(bare.into()), &req()).unwrap();
        expect![[r#"
            import static org.junit.jupiter.api.Assertions.assertEquals;

            import org.junit.jupiter.api.Test;
            import org.junit.jupiter.api.Timeout;

            class BankTest {
                @Test
                @Timeout(30)
                void withdraw_returnsMinus1() {
                    // Reaches line 21 in withdraw(int): return -1;
                    // Path: amount > balance
                    Bank.Account obj = new Bank.Account();
                    assertEquals(-1, obj.withdraw(101));
                }
            }
        "#]]
        .assert_eq(&p.content);

        let only_plain =
            "package com.acme;\n\nimport java.util.List;\n\nclass BankTest {\n    int helper() { return 0; }\n}\n";
        let p = place_in("BankTest.java".into(), Some(only_plain.into()), &req()).unwrap();
        expect![[r#"
            package com.acme;

            import static org.junit.jupiter.api.Assertions.assertEquals;

            import java.util.List;
            import org.junit.jupiter.api.Test;
            import org.junit.jupiter.api.Timeout;

            class BankTest {
                int helper() { return 0; }

                @Test
                @Timeout(30)
                void withdraw_returnsMinus1() {
                    // Reaches line 21 in withdraw(int): return -1;
                    // Path: amount > balance
                    Bank.Account obj = new Bank.Account();
                    assertEquals(-1, obj.withdraw(101));
                }
            }
        "#]]
        .assert_eq(&p.content);

        let package_only = "package com.acme;\n\nclass Helper {}\nclass BankTest { void a() {} }\n";
        let p = place_in("BankTest.java".into(), Some(package_only.into()), &req()).unwrap();
        expect![[r#"
            package com.acme;

            import static org.junit.jupiter.api.Assertions.assertEquals;

            import org.junit.jupiter.api.Test;
            import org.junit.jupiter.api.Timeout;

            class Helper {}
            class BankTest { void a() {}

                @Test
                @Timeout(30)
                void withdraw_returnsMinus1() {
                    // Reaches line 21 in withdraw(int): return -1;
                    // Path: amount > balance
                    Bank.Account obj = new Bank.Account();
                    assertEquals(-1, obj.withdraw(101));
                }
            }
        "#]]
        .assert_eq(&p.content);
    }

    #[test]
    fn broken_test_file_is_refused() {
        let err = place_in("T.java".into(), Some("class BankTest {\n void f() {\n".into()), &req()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("closing brace"), "{err}");
        let err = place_in("T.java".into(), Some("interface Nope {}".into()), &req()).unwrap_err();
        assert!(err.to_string().contains("no class"), "{err}");
    }

    #[test]
    fn refuses_to_clobber_a_concurrently_changed_file() {
        let root = tempfile::tempdir().unwrap();
        write(&place(root.path(), &req()).unwrap()).unwrap();
        let p = place(root.path(), &req()).unwrap();
        // Someone edits the file between `place` and `write`.
        let edited = format!("{}// edited\n", p.original.as_deref().unwrap());
        fs::write(&p.path, &edited).unwrap();
        let err = write(&p).unwrap_err();
        assert!(is_conflict(&err), "{err}");
        assert!(err.to_string().contains("changed"), "{err}");
        assert_eq!(fs::read_to_string(&p.path).unwrap(), edited, "the edit survives");

        // Deleted meanwhile: not resurrected with stale content.
        fs::remove_file(&p.path).unwrap();
        let err = write(&p).unwrap_err();
        assert!(is_conflict(&err), "{err}");
        assert!(!p.path.exists());
        assert_eq!(dir_listing(root.path()), Vec::<String>::new(), "no temporary file left behind");
    }

    #[test]
    fn refuses_to_clobber_a_file_created_meanwhile() {
        let root = tempfile::tempdir().unwrap();
        let p = place(root.path(), &req()).unwrap();
        assert!(p.created);
        fs::create_dir_all(p.path.parent().unwrap()).unwrap();
        fs::write(&p.path, "// someone else's test\n").unwrap();
        let err = write(&p).unwrap_err();
        assert!(is_conflict(&err), "{err}");
        assert_eq!(fs::read_to_string(&p.path).unwrap(), "// someone else's test\n");
        assert_eq!(dir_listing(root.path()), ["com/acme/BankTest.java"]);
    }

    #[cfg(unix)]
    #[test]
    fn symlinked_test_file_stays_a_symlink() {
        let root = tempfile::tempdir().unwrap();
        let real = root.path().join("real.java");
        fs::write(&real, "class BankTest {\n}\n").unwrap();
        let link_dir = root.path().join("t/com/acme");
        fs::create_dir_all(&link_dir).unwrap();
        std::os::unix::fs::symlink(&real, link_dir.join("BankTest.java")).unwrap();
        let p = place(&root.path().join("t"), &req()).unwrap();
        write(&p).unwrap();
        assert!(fs::symlink_metadata(link_dir.join("BankTest.java")).unwrap().file_type().is_symlink());
        assert!(fs::read_to_string(&real).unwrap().contains("withdraw_returnsMinus1"));
    }

    #[test]
    fn a_read_only_test_file_is_refused_and_kept() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("com/acme/BankTest.java");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, "class BankTest {\n}\n").unwrap();
        let mut perms = fs::metadata(&path).unwrap().permissions();
        perms.set_readonly(true);
        fs::set_permissions(&path, perms).unwrap();
        let p = place(root.path(), &req()).unwrap();
        let err = write(&p).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::PermissionDenied);
        assert!(err.to_string().contains("is read-only"), "{err}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "class BankTest {\n}\n");
        assert!(fs::metadata(&path).unwrap().permissions().readonly());
        assert_eq!(dir_listing(root.path()), ["com/acme/BankTest.java"], "no temporary file left behind");
    }

    #[test]
    fn a_hard_linked_test_file_is_written_through() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("t/com/acme/BankTest.java");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, "class BankTest {\n}\n").unwrap();
        let other = root.path().join("copy.java");
        fs::hard_link(&path, &other).unwrap();
        let p = place(&root.path().join("t"), &req()).unwrap();
        write(&p).unwrap();
        assert!(fs::read_to_string(&path).unwrap().contains("withdraw_returnsMinus1"));
        assert_eq!(fs::read_to_string(&other).unwrap(), fs::read_to_string(&path).unwrap(), "still one file");
    }

    #[test]
    fn default_package_goes_to_the_root() {
        let r = TestRequest { package: None, ..req() };
        assert_eq!(test_path(Path::new("/t"), &r).unwrap(), Path::new("/t/BankTest.java"));
    }

    #[test]
    fn a_package_that_is_no_name_is_refused_and_nothing_is_created() {
        let root = tempfile::tempdir().unwrap();
        let tests = root.path().join("a/b/t");
        for pkg in ["a/../../../x", "..", "a..b", "/abs", "a.b/c"] {
            let r = TestRequest { package: Some(pkg.into()), ..req() };
            let err = place(&tests, &r).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{pkg}");
            assert!(err.to_string().contains("is not a Java package name"), "{err}");
        }
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 0, "nothing was created");
        let r = TestRequest { package: Some("com.acme".into()), classes: vec!["Ba/../../nk".into()], ..req() };
        assert!(test_path(&tests, &r).unwrap().starts_with(tests.join("com/acme")));
    }
}
