#!/usr/bin/env python3
"""Times what an editor waits for between "Generate Test Reaching Here" and the test's preview:
the language server's answer to `jreach.generateTest` with `preview: true` (solve, run the test on
the JVM, place it in the test file), as the VS Code extension and the Neovim plugin ask for it.
The first request starts the JVM runner (cold); the next --runs ask again for the same statement
(warm), as a user does after an edit. The project is copied to a temporary folder (a preview
writes nothing, but the copy keeps the example as it is). Prints the cold time and the warm
median and p95. Uses target/release/jreach unless --server says otherwise.

usage: scripts/lsp_preview_bench.py [FILE.java --line N] [--runs 10] [--server PATH]
       (default: examples/shop's Pricing.java, line 27, `base += ...` past a switch and an if)
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from lsp_open_bench import Server  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def project_root(path):
    d = os.path.dirname(path)
    while d != os.path.dirname(d):
        if any(os.path.exists(os.path.join(d, m)) for m in ("pom.xml", "build.gradle", ".git")):
            return d
        d = os.path.dirname(d)
    return os.path.dirname(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=os.path.join(HERE, "..", "examples/shop/src/main/java/shop/Pricing.java"))
    ap.add_argument("--line", type=int, default=27, help="1-based line of the statement")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--server", default=os.path.join(HERE, "..", "target", "release", "jreach"))
    a = ap.parse_args()
    if not os.path.isfile(a.file):
        sys.exit(f"lsp_preview_bench: {a.file}: no such file")
    if not os.access(a.server, os.X_OK):
        sys.exit(f"lsp_preview_bench: {a.server}: not built (cargo build --release)")
    src = os.path.abspath(a.file)
    root = project_root(src)
    with tempfile.TemporaryDirectory(prefix="jreach-preview-") as tmp:
        copy = os.path.join(tmp, os.path.basename(root))
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns("target", "build", ".git"))
        path = os.path.join(copy, os.path.relpath(src, root))
        uri = "file://" + path
        with open(path, encoding="utf-8") as f:
            text = f.read()
        s = Server([os.path.abspath(a.server), "lsp"])
        caps = {"window": {"workDoneProgress": True},
                "workspace": {"workspaceEdit": {"documentChanges": True, "resourceOperations": ["create"]}}}
        s.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + copy, "capabilities": caps})
        s.notify("initialized", {})
        s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "java", "version": 1, "text": text}})
        times = []
        for i in range(a.runs + 1):
            t = time.monotonic()
            r = s.request("workspace/executeCommand", {"command": "jreach.generateTest",
                                                        "arguments": [{"uri": uri, "line": a.line - 1, "preview": True}]})
            times.append(time.monotonic() - t)
            res = r.get("result") or {}
            if res.get("status") != "test" or not res.get("preview"):
                sys.exit(f"lsp_preview_bench: no preview for line {a.line}: {r}")
            if i == 0:
                print(f"preview of {res['method']} ({os.path.basename(res['path'])}{res.get('note', '')})")
        s.request("shutdown", None)
        s.notify("exit", None)
    warm = sorted(times[1:])
    p95 = warm[min(len(warm) - 1, int(round(0.95 * (len(warm) - 1))))]
    print(f"cold (JVM runner starts): {times[0]:.3f} s")
    print(f"warm, {len(warm)} runs: median {statistics.median(warm):.3f} s, p95 {p95:.3f} s")


if __name__ == "__main__":
    main()
