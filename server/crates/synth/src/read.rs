//! Reading a source file from disk without trusting what the path names: only a regular file is
//! read (a FIFO named `X.java` would block forever, a link to `/dev/zero` would never end), and at
//! most [`MAX_SOURCE_BYTES`] of it. Every read of a Java source, test or build file goes through
//! [`read_source`].

use std::fs;
use std::io::{self, Read as _};
use std::path::Path;

/// The largest source file jreach reads: 16 MiB, some 50 times the largest hand-written Java file
/// of the real projects it was measured on.
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// The text of the regular file at `path` (a symbolic link is followed). Errors say what is wrong
/// with the path: [`io::ErrorKind::NotFound`] as the system reports it; `InvalidInput` for
/// something that is not a regular file; `InvalidData` for a file larger than
/// [`MAX_SOURCE_BYTES`] or not UTF-8.
pub fn read_source(path: &Path) -> io::Result<String> {
    let meta = fs::metadata(path)?;
    if !meta.is_file() {
        let what = if meta.is_dir() { "a folder" } else { "not a regular file (a pipe, socket or device)" };
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: {what}; jreach reads only regular files", path.display()),
        ));
    }
    let too_large = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: larger than the {} MiB jreach reads of a source file", path.display(), MAX_SOURCE_BYTES >> 20),
        )
    };
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(too_large());
    }
    // The file may have been swapped or grown since: read no more than the limit regardless.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    fs::File::open(path)?.take(MAX_SOURCE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: not UTF-8 text; jreach reads UTF-8 Java sources", path.display()),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("A.java");
        fs::write(&p, "class A {}").unwrap();
        assert_eq!(read_source(&p).unwrap(), "class A {}");
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("X.java");
        let made = std::process::Command::new("mkfifo").arg(&p).status().expect("mkfifo (coreutils) runs");
        assert!(made.success());
        let err = read_source(&p).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_device_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("Z.java");
        std::os::unix::fs::symlink("/dev/zero", &p).unwrap();
        let err = read_source(&p).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");
    }

    #[test]
    fn folders_large_files_and_other_encodings_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read_source(dir.path()).unwrap_err().to_string().contains("a folder"));
        let big = dir.path().join("Big.java");
        fs::File::create(&big).unwrap().set_len(MAX_SOURCE_BYTES + 1).unwrap();
        assert!(read_source(&big).unwrap_err().to_string().contains("larger than the 16 MiB"));
        let latin = dir.path().join("L.java");
        fs::write(&latin, b"class L { String s = \"\xe9\"; }").unwrap();
        assert!(read_source(&latin).unwrap_err().to_string().contains("not UTF-8"));
        let missing = read_source(&dir.path().join("None.java")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
    }
}
