//! Where a file's code comes from when it runs: its source root (the folder its package path
//! starts in) and the project's class path: `--classpath` / the `jreach.classpath` setting first,
//! then what the build says (Maven, offline, when the project has a `pom.xml`), then jars in
//! `lib/`, `libs/` and `target/dependency/`. Classes compiled from the source root are kept in a
//! cache directory per source root.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// What a run of a test for a file needs from its project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Project {
    /// The folder the file's package path starts in (`…/src/main/java`).
    pub source_root: PathBuf,
    /// The file relative to the source root, with `/` (`shop/Checkout.java`).
    pub relative: String,
    /// Jars and class folders of the project's dependencies.
    pub classpath: Vec<PathBuf>,
    /// Where the classes compiled from the source root are kept.
    pub cache_dir: PathBuf,
    /// What went wrong finding the class path (a failed Maven run), for the user.
    pub notes: Vec<String>,
}

impl Project {
    /// The project of `file` (whose package is `package`), with `extra` class path entries
    /// first. `None` when the file's folder does not end with its package's path.
    pub fn for_file(file: &Path, package: Option<&str>, extra: &[PathBuf], cache_root: &Path) -> Option<Project> {
        let file = std::fs::canonicalize(file).ok()?;
        let name = file.file_name()?.to_str()?.to_string();
        let mut root = file.parent()?.to_path_buf();
        let mut relative = vec![name];
        if let Some(pkg) = package {
            for seg in pkg.split('.').rev() {
                if root.file_name()?.to_str()? != seg {
                    return None;
                }
                relative.insert(0, seg.to_string());
                root = root.parent()?.to_path_buf();
            }
        }
        let mut classpath: Vec<PathBuf> = extra.to_vec();
        let mut notes = Vec::new();
        let base = project_dir(&root);
        if let Some(base) = &base {
            if base.join("pom.xml").is_file() {
                match maven_classpath(base, cache_root) {
                    Ok(cp) => classpath.extend(cp),
                    Err(why) => notes.push(why),
                }
            }
            for dir in ["lib", "libs", "target/dependency"] {
                classpath.extend(jars_in(&base.join(dir)));
            }
        }
        let mut h = DefaultHasher::new();
        root.hash(&mut h);
        let cache_dir = cache_root.join("classes").join(format!("{:016x}", h.finish()));
        Some(Project { source_root: root, relative: relative.join("/"), classpath, cache_dir, notes })
    }
}

/// The folder of the build that `root` belongs to: the nearest ancestor (the root itself
/// included) with a `pom.xml`, a Gradle build or jars in `lib/`, at most four levels up.
fn project_dir(root: &Path) -> Option<PathBuf> {
    root.ancestors()
        .take(5)
        .filter(|d| d.parent().is_some())
        .find(|d| {
            ["pom.xml", "build.gradle", "build.gradle.kts"].iter().any(|f| d.join(f).is_file())
                || !jars_in(&d.join("lib")).is_empty()
        })
        .map(Path::to_path_buf)
}

fn jars_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return vec![] };
    let mut jars: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jar"))
        .collect();
    jars.sort();
    jars
}

/// `mvn -o -q dependency:build-classpath`, cached while `pom.xml` is unchanged.
fn maven_classpath(base: &Path, cache_root: &Path) -> Result<Vec<PathBuf>, String> {
    let pom = base.join("pom.xml");
    let stamp = std::fs::metadata(&pom).and_then(|m| m.modified()).map_err(|e| format!("{}: {e}", pom.display()))?;
    let mut h = DefaultHasher::new();
    base.hash(&mut h);
    stamp.hash(&mut h);
    let cached = cache_root.join("maven").join(format!("{:016x}.classpath", h.finish()));
    if let Ok(text) = std::fs::read_to_string(&cached) {
        return Ok(split(&text));
    }
    // A failure is remembered too, so that every run does not pay for Maven's start.
    let failed = cached.with_extension("failed");
    if let Ok(why) = std::fs::read_to_string(&failed) {
        return Err(why);
    }
    let _ = std::fs::create_dir_all(cached.parent().unwrap());
    let result = run_maven(base, &pom, &cached);
    if let Err(why) = &result {
        let _ = std::fs::write(&failed, why);
    }
    result
}

fn run_maven(base: &Path, pom: &Path, cached: &Path) -> Result<Vec<PathBuf>, String> {
    let mut child = Command::new("mvn")
        .current_dir(base)
        .args(["-o", "-q", "-B", "dependency:build-classpath", "-Dmdep.includeScope=test"])
        .arg(format!("-Dmdep.outputFile={}", cached.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("Maven could not be started to read the class path ({e}); pass --classpath"))?;
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => break,
            Ok(Some(_)) => {
                let _ = std::fs::remove_file(cached);
                return Err(format!(
                    "Maven could not resolve {}'s dependencies offline; pass --classpath",
                    pom.display()
                ));
            }
            Ok(None) if std::time::Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            _ => {
                let _ = child.kill();
                let _ = std::fs::remove_file(cached);
                return Err("Maven took more than 120 s to list the class path; pass --classpath".into());
            }
        }
    }
    Ok(split(&std::fs::read_to_string(cached).unwrap_or_default()))
}

fn split(classpath: &str) -> Vec<PathBuf> {
    std::env::split_paths(classpath.trim()).filter(|p| !p.as_os_str().is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_root_is_where_the_package_path_starts() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("src/main/java/shop/Checkout.java");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "package shop; class Checkout {}").unwrap();
        std::fs::create_dir_all(dir.path().join("lib")).unwrap();
        std::fs::write(dir.path().join("lib/coupons.jar"), "").unwrap();
        let p = Project::for_file(&file, Some("shop"), &[], dir.path()).unwrap();
        assert_eq!(p.source_root, std::fs::canonicalize(dir.path().join("src/main/java")).unwrap());
        assert_eq!(p.relative, "shop/Checkout.java");
        assert_eq!(p.classpath, vec![std::fs::canonicalize(dir.path()).unwrap().join("lib/coupons.jar")]);
        assert!(
            Project::for_file(&file, Some("other"), &[], dir.path()).is_none(),
            "a package its folder does not match"
        );
    }
}
