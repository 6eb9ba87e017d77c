//! Any text as a Java file through `check` (lowering, encoding, z3 with a short time limit,
//! explanations): no panic, and every finding lies inside the file. A 256 MiB stack, as the CLI
//! and the language server give the engine.
#![no_main]

use std::time::Duration;

use jreach_syntax::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let len = text.len();
            let file = SourceFile::parse(text);
            let report = jreach_ide::check_file(&file, Duration::from_millis(200));
            for f in &report.findings {
                assert!(f.range.start <= f.range.end && f.range.end <= len, "{f:?} outside the file");
            }
        })
        .expect("a thread")
        .join()
        .expect("check panicked");
});
