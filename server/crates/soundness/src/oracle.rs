//! The execution oracle: confronts every `unreachable-code` finding of `jreach check` on a real
//! Java source tree with the real JVM. The method around each finding is driven with many
//! generated inputs by `tests/support/ExecutionOracle.java` under the JaCoCo agent, and every line
//! reported dead that the JVM executed is a violation. The oracle shares nothing with the engine
//! but the parser: it needs no lowering, no solver and no model of Java semantics to be right.
//!
//! The pipeline: [`findings_from_json`] or [`compute_findings`] → [`plan`] (enclosing methods,
//! their literals, the lines to watch) → [`JavaTools::setup`] (javac, the agent) → [`execute`]
//! (batches of methods, one JVM each, then `LineCoverage` on each exec file) → [`Report`].

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs::{self, File};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use jreach_ide::{check_file, UNREACHABLE_CODE};
use jreach_syntax::{text_of, MethodInfo, Node, SourceFile};

/// Debian packages that provide what the oracle needs.
pub const PACKAGES: &str = "default-jdk-headless libjacoco-java";

/// Jars of the coverage side, with the Debian package that ships each.
const JARS: &[(&str, &str)] = &[
    ("org.jacoco.core.jar", "libjacoco-java"),
    ("org.jacoco.agent.jar", "libjacoco-java"),
    ("asm.jar", "libjacoco-java"),
    ("asm-commons.jar", "libjacoco-java"),
    ("asm-tree.jar", "libjacoco-java"),
];

/// Literals passed per method at most (the method's own come first).
const MAX_LITERALS: usize = 200;

/// Options of an oracle run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Root of the Java sources.
    pub src: PathBuf,
    /// Compiled classes of those sources (compiled with `javac -g`, so lines are known).
    pub classes: PathBuf,
    /// Further class path entries the classes need at run time.
    pub classpath: Vec<PathBuf>,
    /// A `jreach check --format json` output; `None` computes the findings in-process.
    pub findings: Option<PathBuf>,
    /// Wall time each method is driven for.
    pub seconds: f64,
    pub seed: u64,
    /// Solver time per query when computing findings.
    pub timeout: Duration,
    /// Folder for spec, exec and log files; `None`: a fresh temporary folder.
    pub work: Option<PathBuf>,
    /// Methods per JVM.
    pub batch: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            src: PathBuf::new(),
            classes: PathBuf::new(),
            classpath: Vec::new(),
            findings: None,
            seconds: 2.0,
            seed: 1,
            timeout: Duration::from_secs(10),
            work: None,
            batch: 50,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Findings

/// A finding located in a file by byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadFinding {
    pub file: PathBuf,
    pub range: Range<usize>,
    pub code: String,
    pub message: String,
}

/// The findings of a `jreach check --format json` output (all codes; positions are LSP's 0-based
/// lines and UTF-16 columns). Relative file paths are resolved against the current folder, then
/// against `src`.
pub fn findings_from_json(json_path: &Path, src: &Path) -> Result<Vec<DeadFinding>, String> {
    let text = fs::read_to_string(json_path).map_err(|e| format!("cannot read {}: {e}", json_path.display()))?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a `jreach check --format json` output: {e}", json_path.display()))?;
    let diags = match &json {
        serde_json::Value::Array(items) => items.clone(),
        other => other
            .get("diagnostics")
            .and_then(|d| d.as_array())
            .cloned()
            .ok_or_else(|| format!("{}: no \"diagnostics\" array", json_path.display()))?,
    };
    let mut texts: HashMap<PathBuf, String> = HashMap::new();
    let mut out = Vec::new();
    for (i, d) in diags.iter().enumerate() {
        let bad = |what: &str| format!("{}: diagnostic {i}: {what}: {d}", json_path.display());
        let file = d.get("file").and_then(|f| f.as_str()).ok_or_else(|| bad("no \"file\""))?;
        let mut path = PathBuf::from(file);
        if !path.is_file() && path.is_relative() && src.join(&path).is_file() {
            path = src.join(&path);
        }
        let pos = |end: &str| -> Option<(usize, usize)> {
            let p = d.pointer(&format!("/range/{end}"))?;
            Some((p.get("line")?.as_u64()? as usize, p.get("character")?.as_u64()? as usize))
        };
        let (Some(start), Some(end)) = (pos("start"), pos("end")) else { return Err(bad("no range")) };
        if !texts.contains_key(&path) {
            let t = fs::read_to_string(&path).map_err(|e| bad(&format!("cannot read {}: {e}", path.display())))?;
            texts.insert(path.clone(), t);
        }
        let text = &texts[&path];
        let index = jreach_syntax::LineIndex::new(text);
        let offset = |(line, ch): (usize, usize)| -> Result<usize, String> {
            let r =
                index.line_range(line).ok_or_else(|| bad(&format!("line {} is past the end of the file", line + 1)))?;
            let mut units = 0;
            for (b, c) in text[r.clone()].char_indices() {
                if units >= ch {
                    return Ok(r.start + b);
                }
                units += c.len_utf16();
            }
            Ok(r.end)
        };
        out.push(DeadFinding {
            range: offset(start)?..offset(end)?,
            file: path,
            code: d.get("code").and_then(|c| c.as_str()).unwrap_or_default().to_string(),
            message: d.get("message").and_then(|c| c.as_str()).unwrap_or_default().to_string(),
        });
    }
    Ok(out)
}

/// Every `.java` file under `dir`, sorted.
pub fn java_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "java") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Runs `jreach check`'s engine on every `.java` file under `src` (two threads) and returns the
/// `unreachable-code` findings. Progress goes to stderr.
pub fn compute_findings(src: &Path, timeout: Duration) -> Result<Vec<DeadFinding>, String> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let files = java_files(src);
    if files.is_empty() {
        return Err(format!("no .java file under {}", src.display()));
    }
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().map_err(|e| e.to_string())?;
    let done = AtomicUsize::new(0);
    let total = files.len();
    let start = Instant::now();
    let per_file: Vec<Result<Vec<DeadFinding>, String>> = pool.install(|| {
        files
            .par_iter()
            .map(|path| {
                let text = fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let file = SourceFile::parse(text);
                let report = check_file(&file, timeout);
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n.is_multiple_of(25) || n == total {
                    eprintln!("oracle: checked {n}/{total} files ({:.0} s)", start.elapsed().as_secs_f64());
                }
                Ok(report
                    .findings
                    .into_iter()
                    .filter(|f| f.code() == UNREACHABLE_CODE)
                    .map(|f| DeadFinding {
                        file: path.clone(),
                        message: f.message(&file.lines),
                        code: f.code().to_string(),
                        range: f.range,
                    })
                    .collect())
            })
            .collect()
    });
    let mut out = Vec::new();
    for r in per_file {
        out.extend(r?);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// The plan: methods to drive and lines to watch

/// A literal of a method, as the JVM sees it (strings and chars in UTF-16).
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Int(i64),
    Float(f64),
    Char(u16),
    Str(Vec<u16>),
}

impl Literal {
    /// The spec form: a tag letter and the escaped value.
    fn spec(&self) -> String {
        match self {
            Literal::Int(v) => format!("i{v}"),
            Literal::Float(v) => format!("f{v:?}"),
            Literal::Char(c) => format!("c{}", escape(&[*c])),
            Literal::Str(s) => format!("s{}", escape(s)),
        }
    }
}

/// `\t`, `\n`, `\r`, `\\`, `\;`, printable ASCII as is, everything else `\uXXXX`.
pub fn escape(units: &[u16]) -> String {
    let mut out = String::new();
    for &u in units {
        match u {
            0x09 => out.push_str("\\t"),
            0x0a => out.push_str("\\n"),
            0x0d => out.push_str("\\r"),
            0x5c => out.push_str("\\\\"),
            0x3b => out.push_str("\\;"),
            0x20..=0x7e => out.push(u as u8 as char),
            _ => {
                let _ = write!(out, "\\u{u:04X}");
            }
        }
    }
    out
}

/// A method to drive on the JVM.
#[derive(Clone, Debug, PartialEq)]
pub struct MethodSpec {
    /// Binary class name, `pkg.Outer$Inner`.
    pub class: String,
    /// `<init>` for a constructor.
    pub name: String,
    /// Parameter types as written.
    pub params: Vec<String>,
    pub literals: Vec<Literal>,
    pub file: PathBuf,
    /// Start of the declaration, to tell overloads apart.
    pub start: usize,
}

impl MethodSpec {
    /// `pkg.Outer$Inner.name(T1, T2)`.
    pub fn display(&self) -> String {
        format!("{}.{}({})", self.class, self.name, self.params.join(", "))
    }

    fn spec_line(&self) -> String {
        let clean = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ").replace(';', "");
        let params: Vec<String> = self.params.iter().map(|p| clean(p)).collect();
        let lits: Vec<String> = self.literals.iter().map(Literal::spec).collect();
        format!("{}\t{}\t{}\t{}", self.class, self.name, params.join(";"), lits.join(";"))
    }
}

/// A finding as the oracle confronts it.
#[derive(Clone, Debug)]
pub struct Confronted {
    pub finding: DeadFinding,
    /// Source path as JaCoCo names it: package folders + file name.
    pub source: String,
    /// 1-based first and last line of the finding.
    pub lines: (u32, u32),
    /// 1-based lines whose whole code lies inside the finding: executing any refutes it.
    pub watched: Vec<u32>,
    /// Index into [`Plan::methods`] of the method driven for it.
    pub method: Option<usize>,
    /// Why no method is driven for it (its lines are still compared with all coverage).
    pub undriven: Option<String>,
}

/// What to run and what to watch.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub methods: Vec<MethodSpec>,
    pub findings: Vec<Confronted>,
    /// Every source with findings (`pkg/File.java`) → its top-level type names, which name its
    /// class files (`Name.class`, `Name$*.class`).
    pub sources: BTreeMap<String, Vec<String>>,
}

/// Locates the enclosing method of every `unreachable-code` finding, its literals and the lines
/// to watch. Other codes are ignored.
pub fn plan(findings: &[DeadFinding]) -> Result<Plan, String> {
    let mut plan = Plan::default();
    let mut by_file: BTreeMap<&Path, Vec<&DeadFinding>> = BTreeMap::new();
    for f in findings.iter().filter(|f| f.code == UNREACHABLE_CODE) {
        by_file.entry(f.file.as_path()).or_default().push(f);
    }
    let mut method_ix: HashMap<(PathBuf, usize), usize> = HashMap::new();
    for (path, fs_) in by_file {
        let text = fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let file = SourceFile::parse(text);
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let source = match file.package() {
            Some(p) => format!("{}/{name}", p.replace('.', "/")),
            None => name,
        };
        plan.sources.insert(source.clone(), top_level_types(&file));
        let comments = comment_ranges(&file);
        let methods = MethodInfo::all(&file);
        for f in fs_ {
            if f.range.end > file.text.len() || f.range.start > f.range.end {
                return Err(format!(
                    "{}: finding range {:?} is outside the file (is the findings file for this tree?)",
                    path.display(),
                    f.range
                ));
            }
            let first = file.lines.line_of(f.range.start);
            let last = file.lines.line_of(f.range.end.saturating_sub(1).max(f.range.start));
            let watched = watched_lines(&file, &comments, &f.range);
            let outer = methods
                .iter()
                .filter(|m| m.range.start <= f.range.start && f.range.end <= m.range.end)
                .max_by_key(|m| m.range.len());
            let mut c = Confronted {
                finding: f.clone(),
                source: source.clone(),
                lines: (first as u32 + 1, last as u32 + 1),
                watched,
                method: None,
                undriven: None,
            };
            match outer {
                None => c.undriven = Some("not inside a method or constructor".into()),
                Some(m) => match binary_class(&file, m) {
                    Err(why) => c.undriven = Some(why),
                    Ok(class) => {
                        let key = (path.to_path_buf(), m.range.start);
                        let ix = *method_ix.entry(key).or_insert_with(|| {
                            plan.methods.push(method_spec(&file, m, class, path));
                            plan.methods.len() - 1
                        });
                        c.method = Some(ix);
                    }
                },
            }
            plan.findings.push(c);
        }
    }
    Ok(plan)
}

fn method_spec(file: &SourceFile, m: &MethodInfo, class: String, path: &Path) -> MethodSpec {
    let node = m.node(file);
    let mut literals = Vec::new();
    collect_literals(node, &file.text, &mut literals);
    // Then the literals of the fields of the enclosing classes (their constants).
    let mut up = node.parent();
    while let Some(n) = up {
        if matches!(n.kind(), "class_body" | "enum_body_declarations" | "interface_body" | "enum_body") {
            let mut cursor = n.walk();
            for child in n.named_children(&mut cursor) {
                if matches!(child.kind(), "field_declaration" | "constant_declaration") {
                    collect_literals(child, &file.text, &mut literals);
                }
            }
        }
        up = n.parent();
    }
    let mut unique = Vec::new();
    for l in literals {
        if !unique.contains(&l) && unique.len() < MAX_LITERALS {
            unique.push(l);
        }
    }
    MethodSpec {
        class,
        name: if m.is_constructor { "<init>".into() } else { m.name.clone() },
        params: m.params.iter().map(|p| p.ty.clone()).collect(),
        literals: unique,
        file: path.to_path_buf(),
        start: m.range.start,
    }
}

/// The class of `m` as the driver names it: the binary name (`pkg.Outer$Inner`) when `m` belongs
/// to a chain of named classes, or `pkg.Enum#CONSTANT` for a method of an enum constant's body.
/// A method of an anonymous or local class elsewhere (a field initializer) has a name only javac
/// knows: an error saying so.
pub fn binary_class(file: &SourceFile, m: &MethodInfo) -> Result<String, String> {
    let mut constant: Option<String> = None;
    let mut first = true;
    let mut up = m.node(file).parent();
    while let Some(n) = up {
        match n.kind() {
            "class_body"
            | "interface_body"
            | "enum_body"
            | "enum_body_declarations"
            | "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "program" => {}
            "enum_constant" if first => {
                constant = n.child_by_field_name("name").map(|id| text_of(id, &file.text).to_string());
            }
            other => {
                return Err(format!(
                    "{} is in an unnamed class (inside a `{other}`), whose binary name only javac knows",
                    m.signature()
                ))
            }
        }
        if n.kind().ends_with("_declaration") || n.kind() == "enum_constant" {
            first = false;
        }
        up = n.parent();
    }
    if m.classes.is_empty() {
        return Err(format!("{} has no enclosing class", m.signature()));
    }
    let mut class = match &m.package {
        Some(p) if !p.is_empty() => format!("{p}.{}", m.classes.join("$")),
        _ => m.classes.join("$"),
    };
    if let Some(k) = constant {
        class = format!("{class}#{k}");
    }
    Ok(class)
}

/// Names of the types declared at the top level of `file`.
fn top_level_types(file: &SourceFile) -> Vec<String> {
    let root = file.tree.root_node();
    let mut cursor = root.walk();
    root.named_children(&mut cursor)
        .filter(|n| {
            n.kind().ends_with("_declaration") && n.kind() != "package_declaration" && n.kind() != "import_declaration"
        })
        .filter_map(|n| n.child_by_field_name("name").map(|id| text_of(id, &file.text).to_string()))
        .collect()
}

/// The class files to analyse for the plan's sources: `Name.class` and `Name$*.class` of each
/// top-level type, in the source's package folder under `classes`. A `classes` that is not a
/// folder (a jar) is analysed whole.
fn class_files(plan: &Plan, classes: &Path) -> Vec<PathBuf> {
    if !classes.is_dir() {
        return vec![classes.to_path_buf()];
    }
    let mut out = Vec::new();
    for (source, types) in &plan.sources {
        let dir = match source.rsplit_once('/') {
            Some((pkg, _)) => classes.join(pkg),
            None => classes.to_path_buf(),
        };
        let Ok(entries) = fs::read_dir(&dir) else { continue };
        let mut names: Vec<String> = entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        for name in names {
            let Some(stem) = name.strip_suffix(".class") else { continue };
            let top = stem.split('$').next().unwrap_or(stem);
            if types.iter().any(|t| t == top) {
                out.push(dir.join(&name));
            }
        }
    }
    out
}

/// Byte ranges of the comments of `file`.
fn comment_ranges(file: &SourceFile) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut stack = vec![file.tree.root_node()];
    while let Some(n) = stack.pop() {
        if matches!(n.kind(), "line_comment" | "block_comment") {
            out.push(n.byte_range());
            continue;
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    out.sort_by_key(|r| r.start);
    out
}

/// The 1-based lines of `range` whose code (the non-blank bytes outside comments) lies wholly
/// inside it: a line shared with live code is not watched.
pub fn watched_lines(file: &SourceFile, comments: &[Range<usize>], range: &Range<usize>) -> Vec<u32> {
    let first = file.lines.line_of(range.start);
    let last = file.lines.line_of(range.end.saturating_sub(1).max(range.start));
    let bytes = file.text.as_bytes();
    let mut out = Vec::new();
    for line in first..=last {
        let Some(lr) = file.lines.line_range(line) else { continue };
        let mut any = false;
        let mut inside = true;
        for b in lr {
            if bytes[b].is_ascii_whitespace() || comments.iter().any(|c| c.contains(&b)) {
                continue;
            }
            any = true;
            if !range.contains(&b) {
                inside = false;
                break;
            }
        }
        if any && inside {
            out.push(line as u32 + 1);
        }
    }
    out
}

/// The literals under `node`, in source order.
pub fn collect_literals(node: Node<'_>, src: &str, out: &mut Vec<Literal>) {
    let mut stack = vec![node];
    let mut found = Vec::new();
    while let Some(n) = stack.pop() {
        let text = text_of(n, src);
        let lit = match n.kind() {
            "decimal_integer_literal" | "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal" => {
                parse_int(text).map(Literal::Int)
            }
            "decimal_floating_point_literal" => parse_float(text).map(Literal::Float),
            "character_literal" => {
                let units = unescape(text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')).unwrap_or(text));
                (units.len() == 1).then(|| Literal::Char(units[0]))
            }
            "string_literal" => Some(Literal::Str(string_value(text))),
            _ => None,
        };
        match lit {
            Some(l) => found.push((n.start_byte(), l)),
            None => {
                let mut cursor = n.walk();
                stack.extend(n.children(&mut cursor));
            }
        }
    }
    found.sort_by_key(|(at, _)| *at);
    out.extend(found.into_iter().map(|(_, l)| l));
}

/// The value of a Java integer literal (`0x1F`, `0b1`, `017`, `1_000L`); an `int` literal keeps
/// Java's 32-bit wrap (`0xFFFFFFFF` is -1).
pub fn parse_int(text: &str) -> Option<i64> {
    let t = text.replace('_', "");
    let (t, long) = match t.strip_suffix(['l', 'L']) {
        Some(rest) => (rest.to_string(), true),
        None => (t, false),
    };
    let lower = t.to_ascii_lowercase();
    let (digits, radix) = if let Some(h) = lower.strip_prefix("0x") {
        (h.to_string(), 16)
    } else if let Some(b) = lower.strip_prefix("0b") {
        (b.to_string(), 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (lower[1..].to_string(), 8)
    } else {
        (lower, 10)
    };
    let v = u64::from_str_radix(&digits, radix).ok()?;
    Some(if long { v as i64 } else { v as u32 as i32 as i64 })
}

fn parse_float(text: &str) -> Option<f64> {
    let t = text.replace('_', "");
    let t = t.trim_end_matches(['f', 'F', 'd', 'D']);
    t.parse::<f64>().ok()
}

/// The value of a string literal or text block, in UTF-16.
pub fn string_value(text: &str) -> Vec<u16> {
    if let Some(body) = text.strip_prefix("\"\"\"").and_then(|t| t.strip_suffix("\"\"\"")) {
        // A text block: content starts after the opening line; strip the common indentation.
        let body = body.split_once('\n').map_or("", |(_, rest)| rest);
        let lines: Vec<&str> = body.split('\n').collect();
        let indent =
            lines.iter().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
        let stripped: Vec<&str> =
            lines.iter().map(|l| if l.len() >= indent { l[indent..].trim_end() } else { l.trim() }).collect();
        return unescape(&stripped.join("\n"));
    }
    unescape(text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text))
}

/// Java escape sequences (`\n`, `\s`, octal, `\uXXXX`, a line continuation) decoded to UTF-16.
pub fn unescape(s: &str) -> Vec<u16> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u16; 2];
            out.extend_from_slice(c.encode_utf16(&mut buf));
            continue;
        }
        match chars.next() {
            Some('b') => out.push(8),
            Some('t') => out.push(9),
            Some('n') => out.push(10),
            Some('f') => out.push(12),
            Some('r') => out.push(13),
            Some('s') => out.push(32),
            Some('\n') => {}
            Some('u') => {
                while chars.peek() == Some(&'u') {
                    chars.next();
                }
                let hex: String = (0..4).filter_map(|_| chars.next()).collect();
                match u16::from_str_radix(&hex, 16) {
                    Ok(u) => out.push(u),
                    Err(_) => out.extend("\\u".encode_utf16().chain(hex.encode_utf16())),
                }
            }
            Some(d @ '0'..='7') => {
                let mut v = d as u16 - b'0' as u16;
                let max_digits = if d <= '3' { 3 } else { 2 };
                for _ in 1..max_digits {
                    match chars.peek() {
                        Some(n @ '0'..='7') => {
                            v = v * 8 + (*n as u16 - b'0' as u16);
                            chars.next();
                        }
                        _ => break,
                    }
                }
                out.push(v);
            }
            Some(other) => {
                let mut buf = [0u16; 2];
                out.extend_from_slice(other.encode_utf16(&mut buf));
            }
            None => out.push(b'\\' as u16),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The Java side

/// The compiled helpers and the agent.
#[derive(Clone, Debug)]
pub struct JavaTools {
    pub jars: PathBuf,
    /// Folder with the compiled `ExecutionOracle`.
    pub oracle_dir: PathBuf,
    /// Folder with the compiled `LineCoverage`.
    pub coverage_dir: PathBuf,
    pub agent: PathBuf,
}

/// The repository's `tests/support` folder (`JREACH_SUPPORT_DIR` overrides it).
pub fn support_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("JREACH_SUPPORT_DIR") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(3).map(|r| r.join("tests/support")).unwrap_or_default()
}

/// The folder of the jars (`JREACH_JAVA_JARS`, default `/usr/share/java`).
pub fn jars_dir() -> PathBuf {
    PathBuf::from(std::env::var_os("JREACH_JAVA_JARS").unwrap_or_else(|| "/usr/share/java".into()))
}

/// What is missing to run the oracle (tools and jars, each with its Debian package); empty when
/// everything is there.
pub fn missing_prerequisites() -> Vec<String> {
    let mut missing = Vec::new();
    for tool in ["javac", "java", "jar"] {
        let found = Command::new(tool)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            missing.push(format!("`{tool}` (Debian package default-jdk-headless)"));
        }
    }
    let jars = jars_dir();
    for (jar, package) in JARS {
        if !jars.join(jar).is_file() {
            missing.push(format!("{} (Debian package {package})", jars.join(jar).display()));
        }
    }
    missing
}

impl JavaTools {
    /// Checks the prerequisites, compiles `ExecutionOracle` and `LineCoverage` into `work` and
    /// unpacks the JaCoCo agent there.
    pub fn setup(work: &Path) -> Result<JavaTools, String> {
        let missing = missing_prerequisites();
        if !missing.is_empty() {
            return Err(format!(
                "the execution oracle needs a JDK and JaCoCo; missing:\n  {}\ninstall with: apt-get install {PACKAGES}",
                missing.join("\n  ")
            ));
        }
        let support = support_dir();
        for f in ["ExecutionOracle.java", "LineCoverage.java"] {
            if !support.join(f).is_file() {
                return Err(format!(
                    "{} not found (set JREACH_SUPPORT_DIR to the repository's tests/support)",
                    support.join(f).display()
                ));
            }
        }
        let jars = jars_dir();
        let tools = JavaTools {
            oracle_dir: work.join("oracle-bin"),
            coverage_dir: work.join("coverage-bin"),
            agent: work.join("jacocoagent.jar"),
            jars,
        };
        fs::create_dir_all(&tools.oracle_dir)
            .map_err(|e| format!("cannot create {}: {e}", tools.oracle_dir.display()))?;
        fs::create_dir_all(&tools.coverage_dir)
            .map_err(|e| format!("cannot create {}: {e}", tools.coverage_dir.display()))?;
        let javac = |out: &Path, cp: Option<OsString>, src: &Path, tag: &str| -> Result<(), String> {
            let mut cmd = Command::new("javac");
            cmd.args(["-nowarn", "-encoding", "UTF-8", "-d"]).arg(out);
            if let Some(cp) = cp {
                cmd.arg("-cp").arg(cp);
            }
            cmd.arg(src);
            let ran = run_limited(&mut cmd, Duration::from_secs(300), work, tag);
            if ran.code != Some(0) {
                return Err(format!("javac {} failed:\n{}", src.display(), tail(&ran.output(), 3000)));
            }
            Ok(())
        };
        javac(&tools.oracle_dir, None, &support.join("ExecutionOracle.java"), "javac-oracle")?;
        javac(
            &tools.coverage_dir,
            Some(tools.coverage_classpath(false)),
            &support.join("LineCoverage.java"),
            "javac-coverage",
        )?;
        let ran = run_limited(
            Command::new("jar")
                .arg("xf")
                .arg(tools.jars.join("org.jacoco.agent.jar"))
                .arg("jacocoagent.jar")
                .current_dir(work),
            Duration::from_secs(120),
            work,
            "jar-agent",
        );
        if ran.code != Some(0) || !tools.agent.is_file() {
            return Err(format!(
                "cannot unpack jacocoagent.jar from {}: {}",
                tools.jars.join("org.jacoco.agent.jar").display(),
                tail(&ran.output(), 1000)
            ));
        }
        Ok(tools)
    }

    fn coverage_classpath(&self, with_helper: bool) -> OsString {
        let mut parts: Vec<PathBuf> = Vec::new();
        if with_helper {
            parts.push(self.coverage_dir.clone());
        }
        for jar in ["org.jacoco.core.jar", "asm.jar", "asm-commons.jar", "asm-tree.jar"] {
            parts.push(self.jars.join(jar));
        }
        std::env::join_paths(parts).unwrap_or_default()
    }
}

/// The outcome of one child process.
#[derive(Clone, Debug, Default)]
pub struct Ran {
    /// Exit code; `None` when killed by a signal or by the time limit.
    pub code: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    fn output(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Runs `cmd` with a time limit, its output through files `work/TAG.stdout|stderr`. On the time
/// limit the child first gets SIGTERM (so that the JaCoCo agent's shutdown hook writes the exec
/// file), then SIGKILL after 15 s.
fn run_limited(cmd: &mut Command, limit: Duration, work: &Path, tag: &str) -> Ran {
    let out_path = work.join(format!("{tag}.stdout"));
    let err_path = work.join(format!("{tag}.stderr"));
    let files = File::create(&out_path).and_then(|o| File::create(&err_path).map(|e| (o, e)));
    let (out, err) = match files {
        Ok(f) => f,
        Err(e) => {
            return Ran {
                code: Some(-1),
                stderr: format!("cannot create {}: {e}", out_path.display()),
                ..Ran::default()
            }
        }
    };
    let start = Instant::now();
    let mut child = match cmd.stdin(Stdio::null()).stdout(out).stderr(err).spawn() {
        Ok(c) => c,
        Err(e) => {
            return Ran {
                code: Some(-1),
                stderr: format!("cannot start {:?}: {e}", cmd.get_program()),
                ..Ran::default()
            }
        }
    };
    let mut timed_out = false;
    let mut termed: Option<Instant> = None;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(_) => break None,
        }
        if start.elapsed() > limit {
            timed_out = true;
            match termed {
                None => {
                    let _ = Command::new("kill")
                        .arg("-TERM")
                        .arg(child.id().to_string())
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .status();
                    termed = Some(Instant::now());
                }
                Some(t) if t.elapsed() > Duration::from_secs(15) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                Some(_) => {}
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ran {
        code: if timed_out { None } else { status.and_then(|s| s.code()) },
        timed_out,
        stdout: fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: fs::read_to_string(&err_path).unwrap_or_default(),
    }
}

fn tail(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.len() <= max {
        return text.to_owned();
    }
    let mut cut = text.len() - max;
    while !text.is_char_boundary(cut) {
        cut += 1;
    }
    format!("...{}", &text[cut..])
}

// ---------------------------------------------------------------------------------------------
// Running

/// What the JVM did with one method.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MethodRun {
    pub calls: u64,
    pub hangs: u64,
    /// The driver's note (`method-not-found`, `given-up-after-hangs`, ...), or why no summary
    /// came back.
    pub note: String,
}

/// The verdict on one finding.
#[derive(Clone, Debug)]
pub struct FindingResult {
    pub confronted: Confronted,
    /// Watched lines the JVM executed: each one refutes the finding.
    pub ran: Vec<u32>,
    /// Whether JaCoCo analysed the finding's source file among `--classes` at all.
    pub analysed: bool,
}

/// A refuted finding.
#[derive(Clone, Debug)]
pub struct Violation {
    pub file: PathBuf,
    pub line: u32,
    pub message: String,
    /// The method driven for the finding, if any.
    pub method: Option<String>,
}

/// The result of an oracle run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub methods: Vec<(MethodSpec, MethodRun)>,
    pub findings: Vec<FindingResult>,
    /// Failures of whole batches (a JVM that failed or was killed) and similar trouble.
    pub problems: Vec<String>,
    /// `jreach check` findings of other codes, not confronted.
    pub other_findings: usize,
    /// The folder with the spec, exec and log files, when kept.
    pub work: Option<PathBuf>,
}

impl Report {
    pub fn calls(&self) -> u64 {
        self.methods.iter().map(|(_, r)| r.calls).sum()
    }

    pub fn violations(&self) -> Vec<Violation> {
        let mut out = Vec::new();
        for f in &self.findings {
            for &line in &f.ran {
                out.push(Violation {
                    file: f.confronted.finding.file.clone(),
                    line,
                    message: f.confronted.finding.message.clone(),
                    method: f.confronted.method.map(|i| self.methods[i].0.display()),
                });
            }
        }
        out
    }

    /// The report as text: counts, violations, problems and the per-finding table.
    pub fn render(&self, src: &Path) -> String {
        let root = fs::canonicalize(src).unwrap_or_else(|_| src.to_path_buf());
        let shown = |p: &Path| {
            let abs = fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
            abs.strip_prefix(&root).map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
        };
        let mut t = String::new();
        let driven = self.methods.iter().filter(|(_, r)| r.calls > 0).count();
        let hangs: u64 = self.methods.iter().map(|(_, r)| r.hangs).sum();
        let violations = self.violations();
        let _ = writeln!(
            t,
            "oracle: {} unreachable-code findings confronted ({} other findings ignored); {} methods, {} of them \
             driven on the JVM; {} calls, {} hangs; {} violations",
            self.findings.len(),
            self.other_findings,
            self.methods.len(),
            driven,
            self.calls(),
            hangs,
            violations.len()
        );
        for v in &violations {
            let _ = writeln!(t, "VIOLATION {}:{} ({}) ran on the JVM", v.file.display(), v.line, v.message);
        }
        for p in &self.problems {
            let _ = writeln!(t, "problem: {p}");
        }
        for (m, r) in &self.methods {
            if !r.note.is_empty() {
                let _ = writeln!(t, "note: {}: {}", m.display(), r.note);
            }
        }
        if !self.findings.is_empty() {
            let rows: Vec<[String; 4]> = self
                .findings
                .iter()
                .map(|f| {
                    let c = &f.confronted;
                    let loc = if c.lines.0 == c.lines.1 {
                        format!("{}:{}", shown(&c.finding.file), c.lines.0)
                    } else {
                        format!("{}:{}-{}", shown(&c.finding.file), c.lines.0, c.lines.1)
                    };
                    let (method, calls) = match (c.method, &c.undriven) {
                        (Some(i), _) => (self.methods[i].0.display(), self.methods[i].1.calls.to_string()),
                        (None, why) => (format!("(not driven: {})", why.as_deref().unwrap_or("?")), "-".into()),
                    };
                    let ran = if !f.ran.is_empty() {
                        format!("YES: line {}", f.ran.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))
                    } else if !f.analysed {
                        "unknown: no class file for this source".into()
                    } else if c.watched.is_empty() {
                        "unknown: no line wholly inside the finding".into()
                    } else {
                        format!("no ({} lines watched)", c.watched.len())
                    };
                    [loc, method, calls, ran]
                })
                .collect();
            let w0 = rows.iter().map(|r| r[0].len()).max().unwrap_or(0).max(7);
            let w1 = rows.iter().map(|r| r[1].len()).max().unwrap_or(0).max(6);
            let w2 = rows.iter().map(|r| r[2].len()).max().unwrap_or(0).max(5);
            let _ = writeln!(t, "\n{:w0$}  {:w1$}  {:>w2$}  ran on the JVM", "finding", "method", "calls");
            for r in rows {
                let _ = writeln!(t, "{:w0$}  {:w1$}  {:>w2$}  {}", r[0], r[1], r[2], r[3]);
            }
        }
        if let Some(w) = &self.work {
            let _ = writeln!(t, "work files kept in {}", w.display());
        }
        t
    }
}

/// Drives the plan's methods in batches (one JVM per batch) and compares the coverage with the
/// watched lines.
pub fn execute(plan: &Plan, tools: &JavaTools, opts: &Options, work: &Path) -> Report {
    let mut report = Report {
        methods: plan.methods.iter().map(|m| (m.clone(), MethodRun::default())).collect(),
        ..Report::default()
    };
    let mut covered: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
    let mut analysed: BTreeSet<String> = BTreeSet::new();
    let roots = class_files(plan, &opts.classes);
    let batch = opts.batch.max(1);
    let batches: Vec<Range<usize>> =
        (0..plan.methods.len()).step_by(batch).map(|s| s..(s + batch).min(plan.methods.len())).collect();
    for (b, range) in batches.iter().enumerate() {
        let spec = work.join(format!("batch-{b}.spec"));
        let exec = work.join(format!("batch-{b}.exec"));
        let _ = fs::remove_file(&exec);
        let lines: String = plan.methods[range.clone()].iter().map(|m| m.spec_line() + "\n").collect();
        if let Err(e) = fs::write(&spec, lines) {
            report.problems.push(format!("cannot write {}: {e}", spec.display()));
            continue;
        }
        let n = range.len() as f64;
        let limit = Duration::from_secs_f64(n * opts.seconds.max(0.0) * 3.0 + 60.0);
        let mut agent = OsString::from("-javaagent:");
        agent.push(&tools.agent);
        agent.push("=destfile=");
        agent.push(&exec);
        let mut cp = vec![opts.classes.clone()];
        cp.extend(opts.classpath.iter().cloned());
        cp.push(tools.oracle_dir.clone());
        let ran = run_limited(
            Command::new("java")
                .arg(agent)
                .arg("-Djava.security.manager=allow")
                // A bounded heap: generated sizes such as `new ArrayList<>(1 << 30)` then fail at
                // once instead of succeeding and making every later call wait for a full GC.
                .arg("-Xmx1g")
                .arg("-Xss8m")
                .arg("-cp")
                .arg(std::env::join_paths(cp).unwrap_or_default())
                .arg("ExecutionOracle")
                .arg(&spec)
                .arg(opts.seconds.to_string())
                .arg(opts.seed.to_string()),
            limit,
            work,
            &format!("batch-{b}"),
        );
        let mut summaries = ran.stdout.lines().filter_map(parse_summary);
        for i in range.clone() {
            let m = &plan.methods[i];
            let run = &mut report.methods[i].1;
            match summaries.next() {
                Some((class, name, r)) if class == m.class && name == m.name => *run = r,
                Some((class, name, _)) => {
                    run.note = format!("summary out of order (got {class} {name})");
                }
                None => {
                    run.note = if ran.timed_out {
                        "the batch's JVM timed out".into()
                    } else {
                        "no summary from the JVM".into()
                    };
                }
            }
        }
        if ran.timed_out {
            report.problems.push(format!(
                "batch {b} ({} methods) exceeded {:.0} s and was stopped; see {}",
                range.len(),
                limit.as_secs_f64(),
                work.join(format!("batch-{b}.stderr")).display()
            ));
        } else if ran.code != Some(0) {
            report.problems.push(format!(
                "batch {b}: ExecutionOracle exited with {:?}: {}",
                ran.code,
                tail(&ran.stderr, 1500)
            ));
        }
        if !exec.is_file() {
            report.problems.push(format!("batch {b}: no JaCoCo exec file was written ({})", exec.display()));
            continue;
        }
        let (files, failures) = coverage_of(tools, &exec, &roots, work, b);
        for (source, lines) in files {
            analysed.insert(source.clone());
            covered.entry(source).or_default().extend(lines);
        }
        for e in failures {
            report.problems.push(format!("batch {b}: {e}"));
        }
    }
    for c in &plan.findings {
        let lines = covered.get(&c.source);
        let ran = c.watched.iter().copied().filter(|l| lines.is_some_and(|s| s.contains(l))).collect();
        report.findings.push(FindingResult { confronted: c.clone(), ran, analysed: analysed.contains(&c.source) });
    }
    report
}

/// `class method calls=N hangs=H [note]`.
fn parse_summary(line: &str) -> Option<(String, String, MethodRun)> {
    let mut parts = line.split_whitespace();
    let class = parts.next()?.to_string();
    let name = parts.next()?.to_string();
    let calls = parts.next()?.strip_prefix("calls=")?.parse().ok()?;
    let hangs = parts.next()?.strip_prefix("hangs=")?.parse().ok()?;
    let note = parts.collect::<Vec<_>>().join(" ");
    Some((class, name, MethodRun { calls, hangs, note }))
}

/// Executed lines of one exec file over the class files `roots`. When LineCoverage cannot analyse
/// them together, each is analysed alone, so that one unreadable class file hides only itself;
/// the second value lists the failures.
fn coverage_of(
    tools: &JavaTools,
    exec: &Path,
    roots: &[PathBuf],
    work: &Path,
    b: usize,
) -> (BTreeMap<String, BTreeSet<u32>>, Vec<String>) {
    if roots.is_empty() {
        return (BTreeMap::new(), vec!["no class file found for the sources with findings".into()]);
    }
    match line_coverage(tools, exec, roots, work, &format!("coverage-{b}")) {
        Ok(files) => (files, vec![]),
        Err(_) if roots.len() > 1 => {
            let mut files: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
            let mut failures = Vec::new();
            for (i, root) in roots.iter().enumerate() {
                match line_coverage(tools, exec, std::slice::from_ref(root), work, &format!("coverage-{b}-{i}")) {
                    Ok(f) => {
                        for (source, lines) in f {
                            files.entry(source).or_default().extend(lines);
                        }
                    }
                    Err(e) => failures.push(format!(
                        "{e} (JaCoCo 0.8.6 cannot read some class files of javac 17: compile with --release 11)"
                    )),
                }
            }
            (files, failures)
        }
        Err(e) => (BTreeMap::new(), vec![e]),
    }
}

/// `pkg/File.java` → executed lines, from LineCoverage on one exec file.
fn line_coverage(
    tools: &JavaTools,
    exec: &Path,
    roots: &[PathBuf],
    work: &Path,
    tag: &str,
) -> Result<BTreeMap<String, BTreeSet<u32>>, String> {
    let ran = run_limited(
        Command::new("java").arg("-cp").arg(tools.coverage_classpath(true)).arg("LineCoverage").arg(exec).args(roots),
        Duration::from_secs(600),
        work,
        tag,
    );
    if ran.code != Some(0) {
        return Err(format!("LineCoverage failed: {}", tail(&ran.output(), 1500)));
    }
    let mut out = BTreeMap::new();
    for line in ran.stdout.lines() {
        let Some((name, nums)) = line.split_once(':') else { continue };
        out.insert(name.trim().to_string(), nums.split_whitespace().filter_map(|n| n.parse().ok()).collect());
    }
    Ok(out)
}

/// The whole oracle: findings, plan, the JVM, the report.
pub fn run(opts: &Options) -> Result<Report, String> {
    if !opts.src.is_dir() {
        return Err(format!("--src {} is not a folder", opts.src.display()));
    }
    if !opts.classes.exists() {
        return Err(format!("--classes {} does not exist", opts.classes.display()));
    }
    if opts.seconds.is_nan() || opts.seconds <= 0.0 {
        return Err("--seconds must be positive".into());
    }
    let findings = match &opts.findings {
        Some(json) => findings_from_json(json, &opts.src)?,
        None => compute_findings(&opts.src, opts.timeout)?,
    };
    let other = findings.iter().filter(|f| f.code != UNREACHABLE_CODE).count();
    let plan = plan(&findings)?;
    let (work, temporary) = match &opts.work {
        Some(w) => (w.clone(), false),
        None => {
            let nanos =
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
            (std::env::temp_dir().join(format!("jreach-oracle-{}-{nanos}", std::process::id())), true)
        }
    };
    fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let result = (|| {
        let mut report = if plan.methods.is_empty() && plan.findings.is_empty() {
            Report::default()
        } else {
            let tools = JavaTools::setup(&work)?;
            execute(&plan, &tools, opts, &work)
        };
        report.other_findings = other;
        Ok(report)
    })();
    match result {
        Ok(mut report) => {
            if temporary && report.violations().is_empty() && report.problems.is_empty() {
                let _ = fs::remove_dir_all(&work);
            } else {
                report.work = Some(work);
            }
            Ok(report)
        }
        Err(e) => {
            if temporary {
                let _ = fs::remove_dir_all(&work);
            }
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_literals() {
        assert_eq!(parse_int("42"), Some(42));
        assert_eq!(parse_int("0x1F"), Some(31));
        assert_eq!(parse_int("0xFFFFFFFF"), Some(-1));
        assert_eq!(parse_int("0xFFFFFFFFL"), Some(4_294_967_295));
        assert_eq!(parse_int("0b101"), Some(5));
        assert_eq!(parse_int("017"), Some(15));
        assert_eq!(parse_int("1_000L"), Some(1000));
        assert_eq!(parse_int("2147483648"), Some(i32::MIN as i64));
    }

    #[test]
    fn strings_and_escapes() {
        let s = |t: &str| String::from_utf16(&string_value(t)).unwrap();
        assert_eq!(s(r#""a\tb\n""#), "a\tb\n");
        assert_eq!(s(r#""\u00e9\101\0""#), "éA\0");
        assert_eq!(s("\"\"\"\n    x\n      y\n    \"\"\""), "x\n  y\n");
        assert_eq!(escape(&"a;b\\c\té".encode_utf16().collect::<Vec<_>>()), "a\\;b\\\\c\\t\\u00E9");
    }

    #[test]
    fn binary_class_names() {
        let text = "package p;\nenum E {\n  A { int f() { return 1; } },\n  B;\n  int f() { return 0; }\n  static class N { void g() {} }\n}\nclass F {\n  static final Runnable R = new Runnable() { public void run() { } };\n}\n";
        let file = SourceFile::parse(text);
        let names: Vec<Result<String, String>> =
            MethodInfo::all(&file).iter().map(|m| binary_class(&file, m)).collect();
        assert_eq!(names[0], Ok("p.E#A".to_string()));
        assert_eq!(names[1], Ok("p.E".to_string()));
        assert_eq!(names[2], Ok("p.E$N".to_string()));
        assert!(names[3].as_ref().is_err_and(|e| e.contains("object_creation_expression")), "{names:?}");
    }

    #[test]
    fn literals_and_watched_lines() {
        let text = "package p;\nclass A {\n  static final String K = \"k\";\n  int m(int x) {\n    if (x > 5 && x < 3) {\n      x = 'c'; // dead\n    }\n    return x + 0x10;\n  }\n}\n";
        let file = SourceFile::parse(text);
        let m = &MethodInfo::all(&file)[0];
        let spec = method_spec(&file, m, binary_class(&file, m).unwrap(), Path::new("A.java"));
        assert_eq!(spec.class, "p.A");
        assert_eq!(
            spec.literals,
            vec![
                Literal::Int(5),
                Literal::Int(3),
                Literal::Char(b'c' as u16),
                Literal::Int(16),
                Literal::Str(vec![b'k' as u16])
            ]
        );
        let start = text.find("x = 'c'").unwrap();
        let end = start + "x = 'c';".len();
        assert_eq!(watched_lines(&file, &comment_ranges(&file), &(start..end)), vec![6]);
        // A range that covers only part of a line's code watches nothing.
        let start = text.find("0x10").unwrap();
        assert!(watched_lines(&file, &comment_ranges(&file), &(start..start + 4)).is_empty());
    }
}
