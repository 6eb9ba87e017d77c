#!/usr/bin/env python3
"""Times the language server on one file, as an editor sees it: from didOpen to its first and to
its last diagnostics (the server publishes what it knows while a check goes on), then from each
edit to the last diagnostics of the edited version (the server's debounce taken off), and the
server's peak memory. The last diagnostics of a version are those before the server's progress
report on the check ends or, when it made none, before it stays quiet for a second.

Each edit inserts one statement before a randomly chosen statement line of a method body (a line
indented by 8 or more spaces that ends with ';'), as typing would; edits are applied one after
the other and each waits for its diagnostics. Uses target/release/jreach unless --server says
otherwise.

usage: scripts/lsp_open_bench.py FILE.java [--edits N (20)] [--seed S (1)] [--server PATH]
"""

import argparse
import json
import os
import queue
import random
import statistics
import subprocess
import sys
import threading
import time

DEBOUNCE_S = 0.2  # lsp::server::DEBOUNCE


class Server:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 1
        self.inbox = queue.Queue()
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        while True:
            length = None
            while True:
                line = self.p.stdout.readline()
                if not line:
                    self.inbox.put((time.monotonic(), None))
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.inbox.put((time.monotonic(), json.loads(self.p.stdout.read(length))))

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self, timeout=None):
        """The next message and when it came; (None, None) after `timeout` seconds of quiet."""
        try:
            t, m = self.inbox.get(timeout=timeout)
        except queue.Empty:
            return None, None
        if m is None:
            raise SystemExit("lsp_open_bench: the server ended")
        if "method" in m and "id" in m:  # a request from the server: answer it
            result = [None] * len(m["params"].get("items", [])) if m["method"] == "workspace/configuration" else None
            self.send({"jsonrpc": "2.0", "id": m["id"], "result": result})
        return t, m

    def request(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        while True:
            _, m = self.read()
            if m.get("id") == i and "method" not in m:
                return m

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics_of(self, uri, version):
        """Waits for the diagnostics of `uri` at `version`: when the first and the last came, and
        the last ones."""
        first = last = None
        diags = []
        progressing = False
        while True:
            t, m = self.read(timeout=None if first is None or progressing else 1.0)
            if m is None:
                return first, last, diags
            if m.get("method") == "textDocument/publishDiagnostics":
                p = m["params"]
                if p["uri"] == uri and p.get("version") == version:
                    first = first or t
                    last, diags = t, p["diagnostics"]
            elif m.get("method") == "$/progress" and first is not None:
                kind = m["params"]["value"].get("kind")
                if kind == "begin":
                    progressing = True
                elif kind == "end" and progressing:
                    return first, last, diags

    def peak_rss_kb(self):
        try:
            with open(f"/proc/{self.p.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--edits", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--server", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "jreach"))
    a = ap.parse_args()
    if not os.path.isfile(a.file):
        sys.exit(f"lsp_open_bench: {a.file}: no such file")
    if not os.access(a.server, os.X_OK):
        sys.exit(f"lsp_open_bench: {a.server}: not built (cargo build --release)")
    text = open(a.file, encoding="utf-8").read()
    path = os.path.abspath(a.file)
    uri = "file://" + path
    s = Server([a.server, "lsp"])
    caps = {"window": {"workDoneProgress": True}}
    s.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + os.path.dirname(path), "capabilities": caps})
    s.notify("initialized", {})
    t0 = time.monotonic()
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "java", "version": 1, "text": text}})
    first, last, diags = s.diagnostics_of(uri, 1)
    lines = text.split("\n")
    rng = random.Random(a.seed)
    candidates = [i for i, l in enumerate(lines) if l.startswith(" " * 8) and l.rstrip().endswith(";")]
    times = []
    for k in range(a.edits):
        i = rng.choice(candidates)
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        new = f"{indent}int jreachBench{k} = {k};\n"
        lines.insert(i, new.rstrip("\n"))
        candidates = [c + 1 if c >= i else c for c in candidates]
        change = {"range": {"start": {"line": i, "character": 0}, "end": {"line": i, "character": 0}}, "text": new}
        t = time.monotonic()
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": k + 2}, "contentChanges": [change]})
        _, done, _ = s.diagnostics_of(uri, k + 2)
        times.append(max(0.0, done - t - DEBOUNCE_S))
    rss = s.peak_rss_kb()
    s.request("shutdown", None)
    s.notify("exit", None)
    print(f"{os.path.basename(a.file)}: {len(text.splitlines())} lines, {len(diags)} diagnostics")
    print(f"didOpen -> first diagnostics: {first - t0:.2f} s, last: {last - t0:.2f} s")
    if times:
        times.sort()
        p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
        print(f"edit -> diagnostics (debounce of {DEBOUNCE_S:.1f} s taken off), {len(times)} edits: "
              f"median {statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms")
    if rss:
        print(f"server peak RSS: {rss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
