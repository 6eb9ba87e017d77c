//! JaCoCo's XML report (`mvn jacoco:report`'s `jacoco.xml`, Gradle's `jacocoTestReport.xml`):
//! which lines of which source files no test ran, and where such reports usually are.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// What one or more reports say of the project's lines, per source file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Per source file, by its path below a source root (`org/acme/Cart.java`): the lines with
    /// code and whether any test ran them.
    pub files: BTreeMap<String, BTreeMap<usize, bool>>,
}

impl Coverage {
    /// The lines of `relative` that hold code no test ran, ascending.
    pub fn uncovered(&self, relative: &str) -> Vec<usize> {
        self.files
            .get(relative)
            .map(|ls| ls.iter().filter(|(_, ran)| !**ran).map(|(l, _)| *l).collect())
            .unwrap_or_default()
    }

    /// Lines with code and lines run, over all files.
    pub fn line_counts(&self) -> (usize, usize) {
        let all = self.files.values().map(|ls| ls.len()).sum();
        let ran = self.files.values().map(|ls| ls.values().filter(|r| **r).count()).sum();
        (all, ran)
    }

    /// This report with `other`'s: a line ran if either says so.
    pub fn merge(&mut self, other: Coverage) {
        for (file, lines) in other.files {
            let mine = self.files.entry(file).or_default();
            for (line, ran) in lines {
                *mine.entry(line).or_insert(false) |= ran;
            }
        }
    }
}

/// Reads the report at `path`.
pub fn read(path: &Path) -> Result<Coverage, String> {
    let text = std::fs::read_to_string(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{}: no such JaCoCo report", path.display()),
        _ => format!("{}: cannot read: {e}", path.display()),
    })?;
    parse(&text).map_err(|e| format!("{}: not a JaCoCo XML report: {e}", path.display()))
}

/// A JaCoCo XML report's text as [`Coverage`]: a `<line>` counts as run when its covered
/// instructions (`ci`) are more than zero.
pub fn parse(text: &str) -> Result<Coverage, String> {
    let mut reader = Reader::from_str(text);
    let mut cov = Coverage::default();
    let mut saw_report = false;
    let mut package: Option<String> = None;
    let mut file: Option<String> = None;
    loop {
        let event = reader.read_event().map_err(|e| format!("at byte {}: {e}", reader.error_position()))?;
        match event {
            Event::Start(e) | Event::Empty(e) if e.name().as_ref() == "report" => saw_report = true,
            Event::Start(e) if e.name().as_ref() == "package" => package = Some(attr(&e, "name")?),
            Event::End(e) if e.name().as_ref() == "package" => package = None,
            Event::Start(e) if e.name().as_ref() == "sourcefile" => {
                let pkg = package.as_deref().ok_or("a <sourcefile> outside a <package>")?;
                let name = attr(&e, "name")?;
                let relative = if pkg.is_empty() { name } else { format!("{pkg}/{name}") };
                cov.files.entry(relative.clone()).or_default();
                file = Some(relative);
            }
            Event::End(e) if e.name().as_ref() == "sourcefile" => file = None,
            Event::Start(e) | Event::Empty(e) if e.name().as_ref() == "line" => {
                let Some(f) = &file else { continue };
                let nr: usize = number(&e, "nr")?;
                let (mi, ci): (u64, u64) = (number(&e, "mi")?, number(&e, "ci")?);
                if mi + ci > 0 {
                    *cov.files.get_mut(f).expect("entered above").entry(nr).or_insert(false) |= ci > 0;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !saw_report {
        return Err("no <report> element".into());
    }
    Ok(cov)
}

fn attr(e: &BytesStart<'_>, name: &str) -> Result<String, String> {
    for a in e.attributes() {
        let a = a.map_err(|err| err.to_string())?;
        if a.key.as_ref() == name {
            return a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .map_err(|err| err.to_string());
        }
    }
    Err(format!("<{}> without `{name}`", e.name().as_ref()))
}

fn number<T: std::str::FromStr>(e: &BytesStart<'_>, name: &str) -> Result<T, String> {
    let v = attr(e, name)?;
    v.parse().map_err(|_| format!("`{name}=\"{v}\"` is not a number"))
}

/// Where builds put their JaCoCo XML report, relative to a module's folder.
const USUAL_REPORTS: [&str; 4] = [
    "target/site/jacoco/jacoco.xml",
    "target/site/jacoco-aggregate/jacoco.xml",
    "build/reports/jacoco/test/jacocoTestReport.xml",
    "build/reports/jacoco/jacocoTestReport/jacocoTestReport.xml",
];

/// The reports found at the usual places of `dir` and of its direct subfolders (the modules of
/// a multi-module build).
pub fn find_reports(dir: &Path) -> Vec<PathBuf> {
    let mut modules = vec![dir.to_path_buf()];
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut subs: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir() && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
            .collect();
        subs.sort();
        modules.extend(subs);
    }
    modules.iter().flat_map(|m| USUAL_REPORTS.iter().map(move |r| m.join(r))).filter(|p| p.is_file()).collect()
}

/// The source root of the module a report at one of the usual places belongs to
/// (`<module>/src/main/java`), if it exists.
pub fn source_root_of(report: &Path) -> Option<PathBuf> {
    let report = std::fs::canonicalize(report).ok()?;
    let module = USUAL_REPORTS
        .iter()
        .find_map(|usual| {
            let depth = Path::new(usual).components().count();
            report.ends_with(usual).then(|| report.ancestors().nth(depth).map(Path::to_path_buf))?
        })
        .or_else(|| report.parent().map(Path::to_path_buf))?;
    let root = module.join("src/main/java");
    root.is_dir().then_some(root)
}

/// Where the files of `reports` are: each report's module's `src/main/java`, then `base`'s,
/// those that exist, each once.
pub fn source_roots(reports: &[PathBuf], base: &Path) -> Vec<PathBuf> {
    let plain = std::fs::canonicalize(base.join("src/main/java")).ok().filter(|p| p.is_dir());
    let mut roots: Vec<PathBuf> = Vec::new();
    for root in reports.iter().filter_map(|r| source_root_of(r)).chain(plain) {
        if !roots.contains(&root) {
            roots.push(root);
        }
    }
    roots
}

/// The lines of `cov` that hold code no test ran, as files below one of `roots`; the report's
/// files found under none of them are returned second.
pub fn locate(cov: &Coverage, roots: &[PathBuf]) -> (BTreeMap<PathBuf, BTreeSet<usize>>, Vec<String>) {
    let mut found = BTreeMap::new();
    let mut missing = Vec::new();
    for relative in cov.files.keys() {
        let lines: BTreeSet<usize> = cov.uncovered(relative).into_iter().collect();
        match roots.iter().map(|r| r.join(relative)).find(|p| p.is_file()) {
            Some(path) => {
                if !lines.is_empty() {
                    let path = std::fs::canonicalize(&path).unwrap_or(path);
                    found.entry(path).or_insert_with(BTreeSet::new).extend(lines);
                }
            }
            None => missing.push(relative.clone()),
        }
    }
    (found, missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><!DOCTYPE report PUBLIC "-//JACOCO//DTD Report 1.1//EN" "report.dtd"><report name="shop"><sessioninfo id="a" start="1" dump="2"/><package name="shop"><class name="shop/Cart" sourcefilename="Cart.java"><method name="add" desc="(I)V" line="7"><counter type="LINE" missed="1" covered="1"/></method></class><sourcefile name="Cart.java"><line nr="7" mi="0" ci="3" mb="0" cb="0"/><line nr="8" mi="4" ci="0" mb="2" cb="0"/><line nr="9" mi="2" ci="2" mb="1" cb="1"/><line nr="10" mi="0" ci="0" mb="0" cb="0"/><counter type="LINE" missed="1" covered="2"/></sourcefile></package><package name=""><sourcefile name="Top.java"><line nr="3" mi="5" ci="0" mb="0" cb="0"/></sourcefile></package></report>"#;

    #[test]
    fn lines_without_covered_instructions_are_uncovered() {
        let cov = parse(REPORT).unwrap();
        assert_eq!(cov.uncovered("shop/Cart.java"), [8]);
        assert_eq!(cov.uncovered("Top.java"), [3]);
        // Line 10 holds no instruction; line 9 ran in part, which counts as run.
        assert_eq!(cov.line_counts(), (4, 2));
    }

    #[test]
    fn merged_reports_count_a_line_run_in_either() {
        let mut a = parse(REPORT).unwrap();
        let b = parse(&REPORT.replace(r#"nr="8" mi="4" ci="0""#, r#"nr="8" mi="0" ci="4""#)).unwrap();
        a.merge(b);
        assert!(a.uncovered("shop/Cart.java").is_empty());
    }

    #[test]
    fn what_is_not_a_report_is_refused_with_a_reason() {
        assert!(parse("<coverage/>").unwrap_err().contains("no <report>"));
        assert!(parse(r#"<report><package name="p"><sourcefile name="A.java"><line nr="x" mi="0" ci="1"/>"#)
            .unwrap_err()
            .contains("not a number"));
        assert!(parse("<report><package").is_err());
    }

    #[test]
    fn reports_are_found_at_the_usual_places_with_their_source_roots() {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("core/target/site/jacoco/jacoco.xml");
        std::fs::create_dir_all(report.parent().unwrap()).unwrap();
        std::fs::write(&report, REPORT).unwrap();
        std::fs::create_dir_all(dir.path().join("core/src/main/java/shop")).unwrap();
        std::fs::write(dir.path().join("core/src/main/java/shop/Cart.java"), "class Cart {}").unwrap();
        assert_eq!(find_reports(dir.path()), std::slice::from_ref(&report));
        let root = source_root_of(&report).expect("a source root");
        assert!(root.ends_with("core/src/main/java"), "{}", root.display());
        let (found, missing) = locate(&parse(REPORT).unwrap(), std::slice::from_ref(&root));
        assert_eq!(
            found.into_iter().map(|(p, ls)| (p.ends_with("shop/Cart.java"), ls)).collect::<Vec<_>>(),
            [(true, BTreeSet::from([8]))]
        );
        assert_eq!(missing, ["Top.java"]);
    }

    #[test]
    fn a_gradle_report_belongs_to_its_module() {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("app/build/reports/jacoco/test/jacocoTestReport.xml");
        std::fs::create_dir_all(report.parent().unwrap()).unwrap();
        std::fs::write(&report, REPORT).unwrap();
        std::fs::create_dir_all(dir.path().join("app/src/main/java")).unwrap();
        assert_eq!(find_reports(dir.path()), std::slice::from_ref(&report));
        let root = source_root_of(&report).expect("a source root");
        assert_eq!(root, std::fs::canonicalize(dir.path().join("app/src/main/java")).unwrap());
    }
}
