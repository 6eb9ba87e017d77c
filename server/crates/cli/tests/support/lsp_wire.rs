//! LSP framing for the tests and examples that drive `jreach lsp` over stdio: one message read
//! from the server, one written to it, and a thread that reads all the server writes.

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc::{channel, Receiver};

use serde_json::Value;

/// The next message the server wrote, or `None` when its output ended (or was not a message).
fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            len = v.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; len?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// Writes `body` as one frame.
pub fn write_frame(w: &mut impl Write, body: &[u8]) -> std::io::Result<()> {
    write!(w, "Content-Length: {}\r\n\r\n", body.len())?;
    w.write_all(body)?;
    w.flush()
}

/// Every message `output` (the server's stdout) carries, read on a thread of its own; the
/// channel closes when the output ends.
pub fn read_all(output: impl Read + Send + 'static) -> Receiver<Value> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(output);
        while let Some(msg) = read_message(&mut r) {
            if tx.send(msg).is_err() {
                break;
            }
        }
    });
    rx
}
