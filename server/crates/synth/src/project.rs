//! What the project around a source file expects: where its tests live and which JUnit it uses.
//!
//! Both walk up from the source file looking for a build file (`pom.xml`, `build.gradle`,
//! `build.gradle.kts`). The walk stops after a folder holding `.git`, so a stray build file above
//! the repository is never mistaken for the project's.

use std::collections::HashMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::JUnit;

const BUILD_FILES: [&str; 3] = ["pom.xml", "build.gradle", "build.gradle.kts"];
/// Most test files [`detect_junit`] reads when it has to look at existing tests.
const MAX_TEST_FILES: usize = 200;
/// Most directory entries it looks at on the way.
const MAX_ENTRIES: usize = 20_000;

/// The folders from `start` upwards, ending with the first one that holds `.git`.
fn project_ancestors(start: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in start.ancestors() {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        out.push(dir.to_path_buf());
        if dir.join(".git").exists() {
            break;
        }
    }
    out
}

fn source_dir(source_file: &Path) -> PathBuf {
    match source_file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The nearest folder at or above `dir` that holds a build file.
fn build_dir(dir: &Path) -> Option<PathBuf> {
    project_ancestors(dir).into_iter().find(|d| BUILD_FILES.iter().any(|b| d.join(b).is_file()))
}

/// The root of the test sources for `source_file` (whose package is `package`); the test file goes
/// in that root's package folders. In order:
///
/// 1. a Maven/Gradle layout: the source path contains `src/main/java` → the sibling `src/test/java`
///    (`/p/src/main/java/a/B.java` → `/p/src/test/java`);
/// 2. a build file (`pom.xml`, `build.gradle`, `build.gradle.kts`) in a folder above the source →
///    `<that folder>/src/test/java`, where the build tool looks for tests by default;
/// 3. otherwise a folder next to the package root (the source folder minus its package folders):
///    `test` when the package root is called `src` (the plain IDE layout `src/` + `test/`), else
///    `test-jreach` (`/w/corpus/seed/Concolic.java` in package `seed` → `/w/test-jreach`). A
///    sibling rather than a subfolder, so that compiling the sources never picks up the tests.
pub fn test_root_for(source_file: &Path, package: Option<&str>) -> PathBuf {
    let comps: Vec<Component<'_>> = source_file.components().collect();
    let is = |c: &Component<'_>, s: &str| c.as_os_str() == s;
    if let Some(i) = (0..comps.len().saturating_sub(2))
        .rev()
        .find(|&i| is(&comps[i], "src") && is(&comps[i + 1], "main") && is(&comps[i + 2], "java"))
    {
        let mut root: PathBuf = comps[..i].iter().collect();
        root.push("src/test/java");
        return root;
    }
    let dir = source_dir(source_file);
    if let Some(build) = build_dir(&dir) {
        return build.join("src/test/java");
    }
    let package_root = package_root(&dir, package);
    let name = if package_root.file_name().is_some_and(|n| n == "src") { "test" } else { "test-jreach" };
    match package_root.parent() {
        Some(parent) if package_root.file_name().is_some() => parent.join(name),
        _ => package_root.join("..").join(name),
    }
}

/// `dir` without the trailing folders that spell `package`; `dir` itself when they do not match.
fn package_root(dir: &Path, package: Option<&str>) -> PathBuf {
    let parts: Vec<&str> = package.unwrap_or("").split('.').map(str::trim).filter(|p| !p.is_empty()).collect();
    let mut root = dir.to_path_buf();
    for part in parts.iter().rev() {
        if root.file_name().is_some_and(|n| n == *part) {
            root.pop();
        } else {
            return dir.to_path_buf();
        }
    }
    if root.as_os_str().is_empty() {
        root.push(".");
    }
    root
}

/// The JUnit generation the project of `source_file` uses, if it says:
///
/// 1. the nearest build file that mentions JUnit, walking up: Maven `junit-jupiter` → 5,
///    `<artifactId>junit</artifactId>` → 4; Gradle `junit-jupiter` or `useJUnitPlatform` → 5,
///    `junit:junit` → 4;
/// 2. else the existing `*Test.java` / `*Tests.java` files under the project's test root
///    ([`test_root_for`]): imports of `org.junit.jupiter` against `org.junit.Test`/`Assert`, the
///    majority wins (ties go to 5);
/// 3. else `None`; callers default to JUnit 5.
pub fn detect_junit(source_file: &Path) -> Option<JUnit> {
    let dir = source_dir(source_file);
    for d in project_ancestors(&dir) {
        for build in BUILD_FILES {
            let Ok(text) = crate::read_source(&d.join(build)) else { continue };
            if let Some(j) = junit_of_build_file(build, &text) {
                return Some(j);
            }
        }
    }
    let package = crate::read_source(source_file).ok().and_then(|t| jreach_syntax::SourceFile::parse(t).package());
    junit_of_tests(&test_root_for(source_file, package.as_deref()))
}

fn junit_of_build_file(name: &str, text: &str) -> Option<JUnit> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if name == "pom.xml" {
        if compact.contains("<artifactId>junit-jupiter") {
            return Some(JUnit::V5);
        }
        if compact.contains("<artifactId>junit</artifactId>") {
            return Some(JUnit::V4);
        }
        return None;
    }
    if compact.contains("junit-jupiter") || compact.contains("useJUnitPlatform") {
        return Some(JUnit::V5);
    }
    if compact.contains("junit:junit") {
        return Some(JUnit::V4);
    }
    None
}

/// Majority vote of the test files under `root`, read in a fixed (sorted) order with bounds.
fn junit_of_tests(root: &Path) -> Option<JUnit> {
    let (mut v4, mut v5) = (0usize, 0usize);
    let (mut files, mut entries) = (0usize, 0usize);
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(read) = fs::read_dir(&dir) else { continue };
        let mut children: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
        children.sort();
        entries += children.len();
        for child in children.iter().rev() {
            if child.is_dir() {
                stack.push(child.clone());
                continue;
            }
            let name = child.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if !(name.ends_with("Test.java") || name.ends_with("Tests.java")) {
                continue;
            }
            let Ok(text) = crate::read_source(child) else { continue };
            files += 1;
            if text.contains("org.junit.jupiter") {
                v5 += 1;
            } else if text.contains("org.junit.Test") || text.contains("org.junit.Assert") {
                v4 += 1;
            }
            if files >= MAX_TEST_FILES {
                break;
            }
        }
        if files >= MAX_TEST_FILES || entries >= MAX_ENTRIES {
            break;
        }
    }
    match (v4, v5) {
        (0, 0) => None,
        (v4, v5) if v4 > v5 => Some(JUnit::V4),
        _ => Some(JUnit::V5),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    /// A temporary project folder that the walk up does not leave (it holds `.git`).
    fn project() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        fs::create_dir(d.path().join(".git")).unwrap();
        d
    }

    #[test]
    fn maven_layout() {
        let p = Path::new("/home/u/proj/src/main/java/com/acme/Bank.java");
        assert_eq!(test_root_for(p, Some("com.acme")), Path::new("/home/u/proj/src/test/java"));
        let rel = Path::new("src/main/java/Bank.java");
        assert_eq!(test_root_for(rel, None), Path::new("src/test/java"));
    }

    #[test]
    fn build_file_above_the_source() {
        let d = project();
        touch(&d.path().join("build.gradle.kts"), "plugins { java }\n");
        let src = d.path().join("java/com/acme/Bank.java");
        touch(&src, "package com.acme; class Bank {}");
        assert_eq!(test_root_for(&src, Some("com.acme")), d.path().join("src/test/java"));
    }

    #[test]
    fn no_build_file() {
        let d = project();
        let corpus = d.path().join("corpus/seed/Concolic.java");
        touch(&corpus, "package seed; class Concolic {}");
        assert_eq!(test_root_for(&corpus, Some("seed")), d.path().join("test-jreach"));
        let ide = d.path().join("app/src/com/acme/Bank.java");
        touch(&ide, "package com.acme; class Bank {}");
        assert_eq!(test_root_for(&ide, Some("com.acme")), d.path().join("app/test"));
        // A file whose folders do not spell its package: its own folder is the package root.
        let odd = d.path().join("misc/Bank.java");
        touch(&odd, "package com.acme; class Bank {}");
        assert_eq!(test_root_for(&odd, Some("com.acme")), d.path().join("test-jreach"));
        assert_eq!(package_root(Path::new("seed"), Some("seed")), Path::new("."));
    }

    #[test]
    fn junit_from_maven() {
        let d = project();
        let src = d.path().join("src/main/java/a/A.java");
        touch(&src, "package a; class A {}");
        assert_eq!(detect_junit(&src), None);
        touch(&d.path().join("pom.xml"), "<project><dependencies><dependency>\n<groupId>junit</groupId>\n<artifactId>junit</artifactId>\n</dependency></dependencies></project>");
        assert_eq!(detect_junit(&src), Some(JUnit::V4));
        touch(
            &d.path().join("pom.xml"),
            "<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter-api</artifactId></dependency>",
        );
        assert_eq!(detect_junit(&src), Some(JUnit::V5));
    }

    #[test]
    fn junit_from_gradle_and_parent_poms() {
        let d = project();
        let src = d.path().join("module/src/main/java/a/A.java");
        touch(&src, "package a; class A {}");
        // The module's build file says nothing; its parent's does.
        touch(&d.path().join("module/pom.xml"), "<project><artifactId>module</artifactId></project>");
        touch(&d.path().join("pom.xml"), "<artifactId>junit</artifactId>");
        assert_eq!(detect_junit(&src), Some(JUnit::V4));
        touch(&d.path().join("module/build.gradle"), "dependencies { testImplementation 'junit:junit:4.13.2' }");
        fs::remove_file(d.path().join("module/pom.xml")).unwrap();
        assert_eq!(detect_junit(&src), Some(JUnit::V4));
        touch(
            &d.path().join("module/build.gradle"),
            "dependencies { testImplementation(\"org.junit.jupiter:junit-jupiter:5.10.0\") }",
        );
        assert_eq!(detect_junit(&src), Some(JUnit::V5));
    }

    #[test]
    fn junit_from_existing_tests() {
        let d = project();
        let src = d.path().join("src/main/java/a/A.java");
        touch(&src, "package a; class A {}");
        let tests = d.path().join("src/test/java/a");
        touch(&tests.join("OldTest.java"), "import org.junit.Test;\npublic class OldTest {}");
        assert_eq!(detect_junit(&src), Some(JUnit::V4));
        touch(&tests.join("NewTest.java"), "import org.junit.jupiter.api.Test;\nclass NewTest {}");
        assert_eq!(detect_junit(&src), Some(JUnit::V5), "a tie goes to JUnit 5");
        touch(&tests.join("b/OtherTests.java"), "import static org.junit.Assert.assertEquals;\nclass OtherTests {}");
        assert_eq!(detect_junit(&src), Some(JUnit::V4));
        touch(&tests.join("Helper.java"), "import org.junit.jupiter.api.Test;");
        touch(&tests.join("c/ThirdTest.java"), "import org.junit.jupiter.api.Test;");
        touch(&tests.join("c/FourthTest.java"), "import org.junit.jupiter.api.Test;");
        assert_eq!(detect_junit(&src), Some(JUnit::V5));
    }
}

/// Most bytes of same-package sources [`package_sources`] returns.
const MAX_PACKAGE_BYTES: usize = 4 << 20;

/// The texts of the other files of `source_file`'s package (the `.java` files beside it that
/// declare the same package) whose file name `text` mentions as a word: the classes a test of
/// `source_file` may have to create. Unreadable files are skipped.
pub fn package_sources(source_file: &Path, text: &str) -> Vec<String> {
    let package = package_of(text);
    let Some(dir) = source_file.parent() else { return vec![] };
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let Ok(entries) = fs::read_dir(dir) else { return vec![] };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .filter(|p| p.file_name() != source_file.file_name())
        .filter(|p| p.file_stem().and_then(|s| s.to_str()).is_some_and(|stem| mentions_word(text, stem)))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    let mut bytes = 0;
    for p in paths {
        let Ok(other) = crate::read_source(&p) else { continue };
        if package_of(&other) != package || bytes + other.len() > MAX_PACKAGE_BYTES {
            continue;
        }
        bytes += other.len();
        out.push(other);
    }
    out
}

/// The source of a class from another package of the source root, which a file imports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedSource {
    /// The class's qualified name (`com.acme.model.Money`), for the test's import.
    pub qualified: String,
    pub text: String,
}

/// The sources of the classes of other packages that `text` (the text of `source_file`)
/// imports and that live under the same source root: `import a.b.C;` reads `<root>/a/b/C.java`,
/// `import a.b.*;` the files of `<root>/a/b` whose name `text` mentions as a word; for an
/// imported interface or abstract class, also up to [`IMPLEMENTORS_MAX`] public classes and
/// enums of its folder that mention it and implement or extend something (a textual test: at
/// worst a class more for synthesis to see). Each file must declare the package its folder
/// spells. Unreadable files are skipped; at most [`MAX_PACKAGE_BYTES`] in all.
pub fn imported_sources(source_file: &Path, text: &str) -> Vec<ImportedSource> {
    let package = package_of(text);
    let root = package_root(&source_dir(source_file), package.as_deref());
    let mut candidates: Vec<(String, PathBuf)> = Vec::new();
    for line in text.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix("import ").and_then(|r| r.strip_suffix(';')) else { continue };
        let name: String = rest.chars().filter(|c| !c.is_whitespace()).collect();
        if name.starts_with("static") || name.starts_with("java.") || name.starts_with("javax.") {
            continue;
        }
        // Only names can become folders under the root (broken code may import `a/../../b`).
        if !jreach_syntax::is_package_name(name.strip_suffix(".*").unwrap_or(&name)) {
            continue;
        }
        match name.strip_suffix(".*") {
            Some(pkg) => {
                let dir = root.join(pkg.replace('.', "/"));
                let found = java_files(&dir).into_iter().filter(|(stem, _)| mentions_word(text, stem));
                candidates.extend(found.map(|(stem, p)| (format!("{pkg}.{stem}"), p)));
            }
            None => candidates.push((name.clone(), root.join(format!("{}.java", name.replace('.', "/"))))),
        }
    }
    // Each file is read once, though several imports may look at the files of one folder.
    let mut texts: HashMap<PathBuf, Option<String>> = HashMap::new();
    let mut read = |p: &Path| texts.entry(p.to_path_buf()).or_insert_with(|| crate::read_source(p).ok()).clone();
    // An imported interface or abstract class: also the public classes and enums of its package
    // that implement or extend it (a `FieldNamingStrategy` parameter may get a
    // `FieldNamingPolicy` constant), after the imports.
    let mut implementors = Vec::new();
    for (qualified, path) in &candidates {
        let (Some((pkg, simple)), Some(dir)) = (qualified.rsplit_once('.'), path.parent()) else { continue };
        let Some(text) = read(path) else { continue };
        let abstract_type = [format!("interface {simple}"), format!("abstract class {simple}")];
        if !abstract_type.iter().any(|decl| text.contains(decl.as_str())) {
            continue;
        }
        let found = java_files(dir).into_iter().filter(|(_, p)| p != path).filter(|(stem, p)| {
            let Some(other) = read(p) else { return false };
            let declares =
                [format!("public class {stem}"), format!("public enum {stem}"), format!("public final class {stem}")];
            let extends = other.contains("implements") || other.contains("extends");
            declares.iter().any(|d| other.contains(d.as_str())) && extends && mentions_word(&other, simple)
        });
        let found: Vec<(String, PathBuf)> = found.take(IMPLEMENTORS_MAX).collect();
        implementors.extend(found.into_iter().map(|(stem, p)| (format!("{pkg}.{stem}"), p)));
    }
    candidates.extend(implementors);
    let mut out = Vec::new();
    let mut bytes = 0;
    for (qualified, path) in candidates {
        let Some((pkg, _)) = qualified.rsplit_once('.') else { continue };
        if Some(pkg) == package.as_deref() || out.iter().any(|o: &ImportedSource| o.qualified == qualified) {
            continue;
        }
        let Some(other) = read(&path) else { continue };
        if package_of(&other).as_deref() != Some(pkg) || bytes + other.len() > MAX_PACKAGE_BYTES {
            continue;
        }
        bytes += other.len();
        out.push(ImportedSource { qualified, text: other });
    }
    out
}

/// The `.java` files of `dir` (none when it cannot be read), as (class name, path), sorted.
fn java_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = fs::read_dir(dir) else { return vec![] };
    let mut found: Vec<(String, PathBuf)> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .filter_map(|p| Some((p.file_stem()?.to_str()?.to_string(), p)))
        .collect();
    found.sort();
    found
}

/// At most this many implementations of each imported interface or abstract class are read
/// (see [`imported_sources`]).
const IMPLEMENTORS_MAX: usize = 3;

/// The package a Java source declares (`None`: the default package).
fn package_of(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with("package ") && l.ends_with(';'))
        .map(|l| l["package ".len()..l.len() - 1].trim().to_string())
}

/// Whether `word` occurs in `text` as a whole Java identifier.
fn mentions_word(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

#[cfg(test)]
mod package_tests {
    use super::*;

    #[test]
    fn reads_the_mentioned_files_of_the_same_package() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| fs::write(dir.path().join(name), text).unwrap();
        write("A.java", "package p;\nclass A { int f(Token t) { return 0; } }\n");
        write("Token.java", "package p;\nclass Token {}\n");
        write("Tokens.java", "package p;\nclass Tokens {}\n");
        write("Other.java", "package q;\nclass Other {}\n");
        let a = fs::read_to_string(dir.path().join("A.java")).unwrap();
        let a = a.replace("Token t", "Token t, Other o");
        let got = package_sources(&dir.path().join("A.java"), &a);
        assert_eq!(got, vec!["package p;\nclass Token {}\n".to_string()]);
        assert_eq!(package_of("// x\npackage a.b ;\n"), Some("a.b".into()));
        assert!(mentions_word("new Token()", "Token") && !mentions_word("Tokens", "Token"));
    }

    #[test]
    fn reads_imported_classes_of_the_source_root() {
        let dir = tempfile::tempdir().unwrap();
        let write = |rel: &str, text: &str| {
            let p = dir.path().join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        };
        write("src/main/java/app/A.java", "package app;\nimport lib.Money;\nimport util.*;\nimport java.util.List;\nclass A { int f(Money m, Clock c) { return 0; } }\n");
        write("src/main/java/lib/Money.java", "package lib;\npublic class Money {}\n");
        write("src/main/java/util/Clock.java", "package util;\npublic class Clock {}\n");
        write("src/main/java/util/Unused.java", "package util;\npublic class Unused {}\n");
        let a = dir.path().join("src/main/java/app/A.java");
        let got = imported_sources(&a, &fs::read_to_string(&a).unwrap());
        let names: Vec<&str> = got.iter().map(|s| s.qualified.as_str()).collect();
        assert_eq!(names, vec!["lib.Money", "util.Clock"]);
        assert_eq!(got[0].text, "package lib;\npublic class Money {}\n");
        // A file whose package does not match its folder is not the imported class.
        write("src/main/java/lib/Money.java", "package other;\npublic class Money {}\n");
        let got = imported_sources(&a, &fs::read_to_string(&a).unwrap());
        assert_eq!(got.iter().map(|s| s.qualified.as_str()).collect::<Vec<_>>(), vec!["util.Clock"]);
    }

    #[test]
    fn reads_the_public_implementations_of_an_imported_interface_in_its_package() {
        let dir = tempfile::tempdir().unwrap();
        let write = |rel: &str, text: &str| {
            let p = dir.path().join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        };
        write("app/A.java", "package app;\nimport lib.Naming;\nclass A { A(Naming n) {} }\n");
        write("lib/Naming.java", "package lib;\npublic interface Naming { String name(String s); }\n");
        write(
            "lib/Policy.java",
            "package lib;\npublic enum Policy implements Naming { SAME; public String name(String s) { return s; } }\n",
        );
        write(
            "lib/Hidden.java",
            "package lib;\nclass Hidden implements Naming { public String name(String s) { return s; } }\n",
        );
        write("lib/Other.java", "package lib;\npublic class Other extends Thread {}\n");
        let a = dir.path().join("app/A.java");
        let got = imported_sources(&a, &fs::read_to_string(&a).unwrap());
        let names: Vec<&str> = got.iter().map(|s| s.qualified.as_str()).collect();
        assert_eq!(names, vec!["lib.Naming", "lib.Policy"]);
    }
}
