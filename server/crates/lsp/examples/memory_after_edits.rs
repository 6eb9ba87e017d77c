//! Memory of the server's document and cache paths over 10,000 edits: a 3,000-line file gets
//! one-character edits inside its methods (as `didChange` applies them), with the background check
//! after every 50 edits (as the debounce would batch them) on a thread of its own, as the server
//! runs it, and the resident set size is printed every 1,000 edits. Flat numbers mean nothing
//! accumulates per edit.
//!
//! Run: `cargo run --release -p jreach-lsp --example memory_after_edits`.

use jreach_ide::MethodCache;
use jreach_lsp::analysis;
use jreach_lsp::config::Settings;
use jreach_lsp::position::Encoding;
use jreach_lsp::server::apply_changes;
use jreach_syntax::SourceFile;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

const METHODS: usize = 177;

fn big_file() -> String {
    let mut out = String::from("package demo;\n\npublic class Calc {\n");
    for i in 0..METHODS {
        out.push_str(&format!(
            "    public static int m{i}(int x, int y) {{\n        int z = x + {i};\n        if (z > 10 && z < 5) {{\n            z = 0;\n        }}\n        if (y == {i}) {{\n            z = z * 2;\n        }}\n        for (int k = 0; k < 3; k++) {{\n            z += k;\n        }}\n        if (z == 77) {{\n            return 1;\n        }}\n        return z;\n    }}\n\n"
        ));
    }
    out.push_str("}\n");
    out
}

/// Resident set size in KiB (Linux).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let text = big_file();
    let dir = std::env::temp_dir().join("jreach-memory-example");
    std::fs::create_dir_all(dir.join("src/main/java/demo")).expect("a temp folder");
    let src = dir.join("src/main/java/demo/Calc.java");
    std::fs::write(&src, &text).expect("the example file");
    let uri = Uri::from_file_path(&src).expect("an absolute path");
    let settings = Settings::default();
    let enc = Encoding::Utf16;
    let cache = MethodCache::new();
    let mut file = SourceFile::parse(text);
    analysis::check(&cache, &uri, &file, &settings, enc, &|| false, &|_| {}).expect("a first check");
    println!("{} lines; after the first check: {} KiB", file.lines.line_count(), rss_kib());
    let mut samples = Vec::new();
    for edit in 1..=10_000usize {
        let method = edit % METHODS;
        let line = (3 + method * 17 + 2) as u32;
        let digit = if (edit / METHODS) % 2 == 0 { "6" } else { "5" };
        let change = TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(line, 26), Position::new(line, 27))),
            range_length: None,
            text: digit.to_string(),
        };
        apply_changes(&mut file, vec![change], enc);
        if edit % 50 == 0 {
            std::thread::scope(|s| {
                s.spawn(|| analysis::check(&cache, &uri, &file, &settings, enc, &|| false, &|_| {}).expect("a check"));
            });
        }
        if edit % 1000 == 0 {
            let kib = rss_kib();
            samples.push(kib);
            println!("after {edit:>5} edits: {kib} KiB");
        }
    }
    let (first, last) = (samples[0], *samples.last().expect("samples"));
    println!("growth from 1,000 to 10,000 edits: {} KiB", last as i64 - first as i64);
}
