//! The wire between the client and the server proper: every frame the client sends is read and
//! checked here before `tower-lsp-server` sees it, and every frame either side writes goes out
//! through one writer.
//!
//! `tower-lsp-server` ends its read loop at the first frame it cannot decode (a body that is not
//! UTF-8, not JSON, or not a JSON-RPC message, a header it rejects), and the server with it. Here
//! such a frame is answered with the JSON-RPC error (`-32700` parse error, `-32600` invalid
//! request, with a null id) and dropped, garbage between frames is skipped, and the server only
//! ever reads frames that it can decode, re-framed with a `Content-Length` header alone. Requests
//! whose method starts with `$/`, which the server would never answer, get MethodNotFound here.

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{Request, Response};

/// The largest body accepted; a header announcing more is garbage.
const MAX_BODY: usize = 64 << 20;

/// The largest header block looked at before it is called garbage.
const MAX_HEADER: usize = 8 << 10;

/// What the reader found at the front of its buffer.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Frame {
    /// A complete frame's body.
    Body(Vec<u8>),
    /// Bytes that are no frame (skipped), and why.
    Garbage(&'static str),
}

/// Takes the next frame (or run of garbage) off the front of `buf`; `None` when more bytes are
/// needed.
pub(crate) fn next_frame(buf: &mut Vec<u8>) -> Option<Frame> {
    if buf.is_empty() {
        return None;
    }
    // Anything before a header is garbage: skip to the next "Content-Length".
    let start = find(buf, b"Content-Length").or_else(|| find_ci(buf, b"content-length"));
    match start {
        Some(0) => {}
        Some(at) => {
            buf.drain(..at);
            return Some(Frame::Garbage("bytes before a header"));
        }
        None => {
            // Keep a tail that may be the start of a header still arriving.
            if buf.len() > MAX_HEADER {
                let keep = buf.len() - "Content-Length".len();
                buf.drain(..keep);
                return Some(Frame::Garbage("bytes without a header"));
            }
            return None;
        }
    }
    let Some(end) = find(buf, b"\r\n\r\n") else {
        if buf.len() > MAX_HEADER {
            buf.drain(.."Content-Length".len());
            return Some(Frame::Garbage("a header without an end"));
        }
        return None;
    };
    let header = String::from_utf8_lossy(&buf[..end]).into_owned();
    let mut length: Option<usize> = None;
    for line in header.split("\r\n") {
        let Some((name, value)) = line.split_once(':') else { continue };
        if name.trim().eq_ignore_ascii_case("content-length") {
            length = value.trim().parse().ok();
        }
    }
    let Some(length) = length.filter(|n| *n <= MAX_BODY) else {
        buf.drain(..end + 4);
        return Some(Frame::Garbage("a header without a usable Content-Length"));
    };
    if buf.len() < end + 4 + length {
        return None;
    }
    let body = buf[end + 4..end + 4 + length].to_vec();
    buf.drain(..end + 4 + length);
    Some(Frame::Body(body))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn find_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

/// What becomes of a body from the client.
#[derive(Debug, PartialEq)]
pub(crate) enum Verdict {
    /// The server decodes it: forward.
    Forward,
    /// Answered here with this error (code, message, the request's id or null), not forwarded.
    Answer(i64, &'static str, serde_json::Value),
}

/// What to do with `body`: malformed bodies are answered with the JSON-RPC error, and requests
/// whose method starts with `$/` (which the protocol leaves to implementations, and the server
/// would leave unanswered) with MethodNotFound.
pub(crate) fn verdict(body: &[u8]) -> Verdict {
    match check_body(body) {
        Err((code, message)) => Verdict::Answer(code, message, serde_json::Value::Null),
        Ok(()) => {
            let v: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
            let dollar = v["method"].as_str().is_some_and(|m| m.starts_with("$/"));
            match v.get("id") {
                Some(id) if dollar && !id.is_null() => {
                    Verdict::Answer(-32601, "Method not found: `$/` requests are not implemented", id.clone())
                }
                _ => Verdict::Forward,
            }
        }
    }
}

/// Why a body cannot go to the server: the JSON-RPC error code and message.
pub(crate) fn check_body(body: &[u8]) -> Result<(), (i64, &'static str)> {
    let Ok(text) = std::str::from_utf8(body) else { return Err((-32700, "Parse error: the body is not UTF-8")) };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return Err((-32700, "Parse error: the body is not JSON"));
    };
    let message =
        serde_json::from_value::<Request>(value.clone()).is_ok() || serde_json::from_value::<Response>(value).is_ok();
    if message {
        Ok(())
    } else {
        Err((-32600, "Invalid request: not a JSON-RPC 2.0 message"))
    }
}

/// `body` framed for the wire.
pub(crate) fn framed(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn error_frame(code: i64, message: &str, id: serde_json::Value) -> Vec<u8> {
    let body = serde_json::json!({"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": id});
    framed(body.to_string().as_bytes())
}

/// Frames read off a stream.
struct FrameReader<R> {
    from: R,
    buf: Vec<u8>,
    chunk: Vec<u8>,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    fn new(from: R) -> Self {
        FrameReader { from, buf: Vec::new(), chunk: vec![0u8; 64 << 10] }
    }

    /// The next frame, or `None` when the stream ended.
    async fn next(&mut self) -> Option<Frame> {
        loop {
            if let Some(frame) = next_frame(&mut self.buf) {
                return Some(frame);
            }
            match self.from.read(&mut self.chunk).await {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.buf.extend_from_slice(&self.chunk[..n]),
            }
        }
    }
}

/// Runs `serve` (the server proper, reading and writing the two streams it is given) between the
/// client's `input` and `output`, checking every frame on the way in.
pub async fn guard<I, O, F>(
    input: I,
    output: O,
    serve: impl FnOnce(tokio::io::DuplexStream, tokio::io::DuplexStream) -> F,
) where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
    F: std::future::Future<Output = ()>,
{
    let (mut to_server, server_in) = tokio::io::duplex(1 << 20);
    let (server_out, from_server) = tokio::io::duplex(1 << 20);
    let (tx, mut rx) = mpsc::channel::<Vec<u8>>(64);
    let writer = tokio::spawn(async move {
        let mut output = output;
        while let Some(bytes) = rx.recv().await {
            if output.write_all(&bytes).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    });
    let errors = tx.clone();
    let reader = tokio::spawn(async move {
        let mut frames = FrameReader::new(input);
        while let Some(frame) = frames.next().await {
            let Frame::Body(body) = frame else { continue };
            let sent = match verdict(&body) {
                Verdict::Forward => to_server.write_all(&framed(&body)).await.is_ok(),
                Verdict::Answer(code, message, id) => errors.send(error_frame(code, message, id)).await.is_ok(),
            };
            if !sent {
                break;
            }
        }
        // The client closed its side: so does the server's input.
        let _ = to_server.shutdown().await;
    });
    let forward = tokio::spawn(async move {
        let mut frames = FrameReader::new(from_server);
        while let Some(frame) = frames.next().await {
            if let Frame::Body(body) = frame {
                if tx.send(framed(&body)).await.is_err() {
                    break;
                }
            }
        }
    });
    serve(server_in, server_out).await;
    reader.abort();
    let _ = forward.await;
    let _ = writer.await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_cut_at_their_length_and_garbage_is_skipped() {
        let mut buf = b"xx".to_vec();
        buf.extend(framed(b"{\"a\":1}"));
        buf.extend(b"Content-Length: 3\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}");
        assert_eq!(next_frame(&mut buf), Some(Frame::Garbage("bytes before a header")));
        assert_eq!(next_frame(&mut buf), Some(Frame::Body(b"{\"a\":1}".to_vec())));
        // Incomplete: waits for the last byte.
        assert_eq!(next_frame(&mut buf), None);
        buf.push(b' ');
        assert_eq!(next_frame(&mut buf), Some(Frame::Body(b"{} ".to_vec())));
        assert!(buf.is_empty());

        let mut buf = b"Content-Length: lots\r\n\r\n{}".to_vec();
        assert_eq!(next_frame(&mut buf), Some(Frame::Garbage("a header without a usable Content-Length")));
        let mut buf = format!("Content-Length: {}\r\n\r\n", MAX_BODY + 1).into_bytes();
        assert_eq!(next_frame(&mut buf), Some(Frame::Garbage("a header without a usable Content-Length")));
    }

    #[test]
    fn only_json_rpc_messages_pass() {
        assert_eq!(check_body(br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#), Ok(()));
        assert_eq!(check_body(br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#), Ok(()));
        assert_eq!(check_body(br#"{"jsonrpc":"2.0","id":3,"result":null}"#), Ok(()));
        for bad in [&b"{"[..], b"\xff\xfe{}", b"nul"] {
            assert_eq!(check_body(bad).map_err(|e| e.0), Err(-32700), "{bad:?}");
        }
        for bad in [&b"null"[..], b"[]", b"42", br#"{"id":1,"method":"x"}"#, br#"{"jsonrpc":"1.0","method":"x"}"#] {
            assert_eq!(check_body(bad).map_err(|e| e.0), Err(-32600), "{bad:?}");
        }
        assert_eq!(
            verdict(br#"{"jsonrpc":"2.0","id":7,"method":"$/x"}"#),
            Verdict::Answer(-32601, "Method not found: `$/` requests are not implemented", serde_json::json!(7))
        );
        assert_eq!(verdict(br#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}"#), Verdict::Forward);
    }
}
