#!/usr/bin/env python3
"""Times the language server's workspace diagnostics, as an editor sees them after start-up: from
`initialized` to the first published file and to the end of the server's progress report on the
workspace check ("jreach: checking the workspace"), the number of files published (with and
without warnings), the progress reports seen, and the server's peak memory. No file is opened:
the server checks the workspace's main sources from the disk (test sources, build output and
hidden folders are left out). Uses target/release/jreach unless --server says otherwise.

usage: scripts/lsp_workspace_bench.py ROOT [--server PATH] [--limit SECONDS (1800)]
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from lsp_open_bench import Server  # noqa: E402


def java_lines(root):
    n = files = 0
    for d, dirs, fs in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".") and x not in ("target", "build", "out")]
        if os.sep + "src" + os.sep + "test" in d + os.sep:
            continue
        for f in fs:
            if f.endswith(".java"):
                files += 1
                with open(os.path.join(d, f), encoding="utf-8", errors="replace") as fh:
                    n += sum(1 for _ in fh)
    return files, n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root")
    ap.add_argument("--server", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "jreach"))
    ap.add_argument("--limit", type=float, default=1800.0)
    a = ap.parse_args()
    if not os.path.isdir(a.root):
        sys.exit(f"lsp_workspace_bench: {a.root}: no such folder")
    if not os.access(a.server, os.X_OK):
        sys.exit(f"lsp_workspace_bench: {a.server}: not built (cargo build --release)")
    root = os.path.abspath(a.root)
    files, lines = java_lines(root)
    s = Server([a.server, "lsp"])
    caps = {"window": {"workDoneProgress": True}}
    s.request("initialize", {"processId": os.getpid(), "rootUri": "file://" + root, "capabilities": caps})
    t0 = time.monotonic()
    s.notify("initialized", {})
    first = last = None
    published = set()
    warned = set()
    reports = 0
    token = None
    while True:
        t, m = s.read(timeout=max(0.0, a.limit - (time.monotonic() - t0)))
        if m is None:
            sys.exit(f"lsp_workspace_bench: no end of the workspace check within {a.limit:.0f} s")
        if m.get("method") == "window/workDoneProgress/create":
            continue
        if m.get("method") == "textDocument/publishDiagnostics":
            p = m["params"]
            first = first or t
            last = t
            published.add(p["uri"])
            if p["diagnostics"]:
                warned.add(p["uri"])
        elif m.get("method") == "$/progress":
            v = m["params"]["value"]
            if v.get("kind") == "begin" and "workspace" in v.get("title", ""):
                token = m["params"]["token"]
            elif m["params"]["token"] == token and v.get("kind") == "report":
                reports += 1
            elif m["params"]["token"] == token and v.get("kind") == "end":
                end = t
                break
    rss = s.peak_rss_kb()
    s.request("shutdown", None)
    s.notify("exit", None)
    print(f"{root}: {files} main source files, {lines} lines")
    if first is not None:
        print(f"initialized -> first file published: {first - t0:.2f} s, last: {last - t0:.2f} s")
    print(f"initialized -> end of the workspace check: {end - t0:.2f} s ({lines / max(end - t0, 1e-9):.0f} lines/s)")
    print(f"files published: {len(published)}, with warnings: {len(warned)}; progress reports: {reports}")
    if rss:
        print(f"server peak RSS: {rss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
