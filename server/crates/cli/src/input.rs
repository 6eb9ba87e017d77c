//! Reading Java sources with errors a user can act on.

use std::path::Path;

use jreach_syntax::SourceFile;

/// Exit codes of the command-line contract.
pub const EXIT_ERROR: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

/// Reads and parses a `.java` file, or says (with the exit code) why not.
pub fn read_java(path: &Path) -> Result<SourceFile, (u8, String)> {
    if path.extension().and_then(|e| e.to_str()) != Some("java") {
        return Err((EXIT_USAGE, format!("{}: not a Java source file (expected a .java file)", path.display())));
    }
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err((EXIT_ERROR, format!("{}: no such file", path.display())))
        }
        Err(e) => return Err((EXIT_ERROR, format!("{}: cannot read: {e}", path.display()))),
    };
    let text = String::from_utf8(text)
        .map_err(|_| (EXIT_USAGE, format!("{}: not UTF-8 text; jreach reads UTF-8 Java sources", path.display())))?;
    Ok(SourceFile::parse(text))
}
