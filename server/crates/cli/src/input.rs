//! Reading Java sources with errors a user can act on.

use std::path::Path;

use jreach_syntax::SourceFile;

/// Exit codes of the command-line contract.
pub const EXIT_ERROR: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

/// Reads and parses a `.java` file, or says (with the exit code) why not.
pub fn read_java(path: &Path) -> Result<SourceFile, (u8, String)> {
    read_java_text(path).map(SourceFile::parse)
}

/// [`read_java`] without the parse: the text of a `.java` file.
pub fn read_java_text(path: &Path) -> Result<String, (u8, String)> {
    if path.extension().and_then(|e| e.to_str()) != Some("java") {
        return Err((EXIT_USAGE, format!("{}: not a Java source file (expected a .java file)", path.display())));
    }
    match jreach_synth::read_source(path) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err((EXIT_ERROR, format!("{}: no such file", path.display())))
        }
        // Not a regular file, too large, not UTF-8: the message names the path and the reason.
        Err(e) if matches!(e.kind(), std::io::ErrorKind::InvalidInput | std::io::ErrorKind::InvalidData) => {
            Err((EXIT_USAGE, e.to_string()))
        }
        Err(e) => Err((EXIT_ERROR, format!("{}: cannot read: {e}", path.display()))),
    }
}
