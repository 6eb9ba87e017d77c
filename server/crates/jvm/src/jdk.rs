//! Finding what running Java needs on this machine: a JDK (`JAVA_HOME`, else `java` and `javac`
//! on `PATH`), ASM for the runner's line probes and JUnit for the tests, in Debian's
//! `/usr/share/java` or a local Maven repository. `JREACH_ASM_JAR` and `JREACH_JUNIT_CLASSPATH`
//! override the search.

use std::path::{Path, PathBuf};

use crate::RunnerError;

/// The tools of one JDK and the libraries the runner and the tests need.
#[derive(Clone, Debug)]
pub struct Jdk {
    pub java: PathBuf,
    pub javac: PathBuf,
    pub asm_jar: PathBuf,
    /// JUnit 5's API (with opentest4j and apiguardian) and JUnit 4 with Hamcrest, those found.
    pub junit: Vec<PathBuf>,
}

const SHARE: &str = "/usr/share/java";

impl Jdk {
    /// Looks for a JDK and the libraries; the error says what to install.
    pub fn find() -> Result<Jdk, RunnerError> {
        let (java, javac) = tools()?;
        let asm_jar = match std::env::var_os("JREACH_ASM_JAR") {
            Some(p) => PathBuf::from(p),
            None => library(&["asm.jar"], "org/ow2/asm/asm").ok_or_else(|| {
                RunnerError::Missing("ASM, for the runner's line probes (Debian: apt-get install libasm-java)".into())
            })?,
        };
        let junit = match std::env::var_os("JREACH_JUNIT_CLASSPATH") {
            Some(cp) => std::env::split_paths(&cp).collect(),
            None => {
                let wanted: &[(&str, &str)] = &[
                    ("junit-jupiter-api.jar", "org/junit/jupiter/junit-jupiter-api"),
                    ("opentest4j.jar", "org/opentest4j/opentest4j"),
                    ("apiguardian-api.jar", "org/apiguardian/apiguardian-api"),
                    ("junit-platform-commons.jar", "org/junit/platform/junit-platform-commons"),
                    ("junit4.jar", "junit/junit"),
                    ("hamcrest-core.jar", "org/hamcrest/hamcrest-core"),
                ];
                wanted.iter().filter_map(|(jar, maven)| library(&[jar], maven)).collect::<Vec<_>>()
            }
        };
        if junit.is_empty() {
            return Err(RunnerError::Missing(
                "JUnit, to run the tests (Debian: apt-get install junit5 junit4; or set JREACH_JUNIT_CLASSPATH)".into(),
            ));
        }
        Ok(Jdk { java, javac, asm_jar, junit })
    }
}

fn tools() -> Result<(PathBuf, PathBuf), RunnerError> {
    if let Some(home) = std::env::var_os("JAVA_HOME") {
        let bin = Path::new(&home).join("bin");
        let (java, javac) = (bin.join("java"), bin.join("javac"));
        if javac.is_file() && java.is_file() {
            return Ok((java, javac));
        }
    }
    // Looked up on PATH without starting them (each would be a JVM start on every `gen`), and
    // followed to the JDK's own folder, where `java` and `jar` of the same JDK sit beside it.
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        let javac = dir.join("javac");
        if !javac.is_file() {
            continue;
        }
        let javac = std::fs::canonicalize(&javac).unwrap_or(javac);
        let java = javac.with_file_name("java");
        if java.is_file() {
            return Ok((java, javac));
        }
        if dir.join("java").is_file() {
            return Ok((dir.join("java"), javac));
        }
    }
    Err(RunnerError::Missing(
        "a JDK (java and javac on PATH or in $JAVA_HOME/bin; Debian: apt-get install default-jdk-headless)".into(),
    ))
}

/// A jar in `/usr/share/java` by one of `names`, else the newest version of the Maven artifact
/// `maven` (group path / artifact) in Debian's `/usr/share/maven-repo` or `~/.m2/repository`.
fn library(names: &[&str], maven: &str) -> Option<PathBuf> {
    for name in names {
        let p = Path::new(SHARE).join(name);
        if p.is_file() {
            return Some(p);
        }
    }
    let artifact = maven.rsplit('/').next()?;
    let mut repos = vec![PathBuf::from("/usr/share/maven-repo")];
    if let Some(home) = std::env::var_os("HOME") {
        repos.push(Path::new(&home).join(".m2/repository"));
    }
    for repo in repos {
        let Ok(versions) = std::fs::read_dir(repo.join(maven)) else { continue };
        let mut jars: Vec<PathBuf> = versions
            .filter_map(|v| v.ok())
            .map(|v| v.path().join(format!("{artifact}-{}.jar", v.file_name().to_string_lossy())))
            .filter(|j| j.is_file())
            .collect();
        jars.sort();
        if let Some(j) = jars.pop() {
            return Some(j);
        }
    }
    None
}
