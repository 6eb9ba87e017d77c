#!/bin/bash
# End-to-end test of the VS Code extension (editors/vscode) against `jreach lsp`, in code-server
# driven by Playwright (playwright-core) and Debian's Chromium:
#   - the .vsix is built (`npm run package`) and installed into code-server;
#   - in a Maven-layout project, the dead block of `if (x > 5 && x < 3)` is faded
#     (.squiggly-inline-unnecessary), with jreach's explanation in the hover and the Problems panel;
#     jreach's hover on a live statement says no dead code was found there;
#   - right-click on a reachable statement → "Generate Test Reaching Here" writes and opens
#     src/test/java/demo/CalcTest.java;
#   - Refactor… → "Generate test reaching line 12" (the code action, resolved lazily) adds a second
#     test to it; the palette command on the dead line says "unreachable" and writes nothing;
#   - with a JaCoCo report in the workspace, the code lens "Generate tests for the N uncovered
#     statements" on the class fills what the tests so far leave (`return 0;`): the edit shows in
#     the Refactor Preview first, writes nothing until Apply, then lands in CalcTest.java;
#   - jreach.diagnostics.enabled off/on clears and restores the warnings; a wrong jreach.serverPath
#     gives a clear error, and fixing it restarts the server;
#   - all three tests compile and pass under JUnit 5.
#
#   tests/editors/vscode/run.sh
#   JREACH=target/release/jreach JREACH_E2E_CACHE=/tmp/jreach-e2e tests/editors/vscode/run.sh
#   CODE_SERVER_VERSION=4.100.3 PORT=18123 tests/editors/vscode/run.sh
#
# Installs what it needs: apt (chromium ripgrep default-jdk-headless junit5, and the headers
# code-server's native modules build against), the npm workspace (`npm ci`), and code-server via
# npm into $JREACH_E2E_CACHE/vscode/code-server-<version> (default target/e2e-cache; never committed).
# On failure it prints the logs and saves screenshots under $JREACH_E2E_CACHE/vscode/run/shots; the
# work folder (project, generated tests, code-server data and logs) stays there until the next run.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
CACHE=${JREACH_E2E_CACHE:-$REPO/target/e2e-cache}
JREACH=${JREACH:-${CARGO_TARGET_DIR:-$REPO/target}/release/jreach}
CODE_SERVER_VERSION=${CODE_SERVER_VERSION:-4.100.3}   # the newest that runs on Node 20
mkdir -p "$CACHE/vscode"
CACHE=$(cd "$CACHE" && pwd)
V="$CACHE/vscode"
W="$V/run"
t0=$(date +%s)

die() { echo "vscode e2e: $*" >&2; echo "vscode e2e: 0 passed, 1 failed"; exit 1; }
stamp() { echo "vscode e2e: $* ($(( $(date +%s) - t0 )) s)" >&2; }

apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "vscode e2e: installing ${missing[*]}" >&2
    local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null \
      || die "cannot install ${missing[*]}"
  fi
}

# --- what the test needs --------------------------------------------------------------------
apt_install chromium ripgrep default-jdk-headless junit5 \
  libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config build-essential
command -v node >/dev/null && command -v npm >/dev/null || apt_install nodejs npm
node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' || die "needs Node 20 or newer ($(node --version))"
CONSOLE=/usr/share/java/junit-platform-console-standalone.jar
[ -f "$CONSOLE" ] || die "$CONSOLE is missing"

if [ ! -x "$JREACH" ]; then
  stamp "building $JREACH"
  (cd "$REPO" && cargo build --release -p jreach) || die "cannot build jreach"
fi
JREACH=$(cd "$(dirname "$JREACH")" && pwd)/$(basename "$JREACH")

# Fresh work folder; short paths (Unix sockets are limited to 108 characters).
rm -rf "$W"; mkdir -p "$W/tmp" "$W/shots" "$W/ud/User" "$W/ud/Machine" "$W/exts"
export TMPDIR=$W/tmp XDG_CONFIG_HOME=$W/xdg/config XDG_DATA_HOME=$W/xdg/data XDG_STATE_HOME=$W/xdg/state \
  XDG_CACHE_HOME=$W/xdg/cache

# The npm workspace (the extension's build tools and playwright-core), from the lockfile.
if [ ! -d "$REPO/node_modules/vscode-languageclient" ] || [ ! -d "$REPO/node_modules/playwright-core" ] \
   || [ "$REPO/package-lock.json" -nt "$REPO/node_modules/.package-lock.json" ]; then
  stamp "npm ci"
  (cd "$REPO" && npm ci --no-audit --no-fund >"$W/npm-ci.log" 2>&1) || { tail -30 "$W/npm-ci.log" >&2; die "npm ci failed"; }
fi

# code-server from npm, cached per version.
CSDIR="$V/code-server-$CODE_SERVER_VERSION"
CS="$CSDIR/node_modules/.bin/code-server"
if [ ! -x "$CS" ]; then
  stamp "installing code-server $CODE_SERVER_VERSION into $CSDIR (a few minutes, once)"
  rm -rf "$CSDIR"; mkdir -p "$CSDIR/tmp"
  # @vscode/ripgrep's postinstall downloads rg from GitHub: seed its cache with Debian's rg.
  mkdir -p "$CSDIR/tmp/vscode-ripgrep-cache-1.15.11"
  tar czf "$CSDIR/tmp/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C /usr/bin rg
  echo '{"private":true}' > "$CSDIR/package.json"
  # npm_config_yes: node-pty's postinstall runs `npx node-gyp`; unsafe_perm: code-server's root check.
  (cd "$CSDIR" && TMPDIR="$CSDIR/tmp" npm_config_yes=true npm_config_unsafe_perm=true \
     npm install --no-audit --no-fund --no-save "code-server@$CODE_SERVER_VERSION" >"$V/code-server-npm.log" 2>&1) \
    || { tail -40 "$V/code-server-npm.log" >&2; rm -rf "$CSDIR"; die "cannot install code-server"; }
  rm -rf "$CSDIR/tmp"
fi

# --- the extension ---------------------------------------------------------------------------
stamp "packaging the extension"
(cd "$REPO" && npm run -s package -- --out "$W/jreach.vsix" >"$W/package.log" 2>&1) \
  || { cat "$W/package.log" >&2; die "npm run package failed"; }
"$CS" --user-data-dir "$W/ud" --extensions-dir "$W/exts" --install-extension "$W/jreach.vsix" >"$W/install.log" 2>&1 \
  || { cat "$W/install.log" >&2; die "cannot install the .vsix"; }

# --- the project -----------------------------------------------------------------------------
WS="$W/ws"
mkdir -p "$WS/src/main/java/demo"
cat > "$WS/pom.xml" <<'POM'
<project><modelVersion>4.0.0</modelVersion><groupId>demo</groupId><artifactId>demo</artifactId><version>1</version>
<dependencies><dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.9.2</version><scope>test</scope></dependency></dependencies></project>
POM
cat > "$WS/src/main/java/demo/Calc.java" <<'JAVA'
package demo;

public class Calc {
    public static int classify(int x) {
        if (x > 5 && x < 3) {
            dead();
        }
        if (x * 3 == 51) {
            return 1;
        }
        if (x < -7) {
            return -1;
        }
        return 0;
    }

    static void dead() {
    }

    static int count(int n) {
        int i = 0;
        while (i < n) {
            i++;
        }
        if (i == 50) {
            return 50;
        }
        return 0;
    }
}
JAVA
# A JaCoCo report of the project's tests (as `mvn jacoco:report` writes it), newer than Calc.java:
# they ran the three `if`s and none of the statements they guard, nor `return 0;`.
mkdir -p "$WS/target/site/jacoco"
touch -d '1 hour ago' "$WS/src/main/java/demo/Calc.java"
{
  printf '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><report name="demo"><package name="demo">'
  printf '<sourcefile name="Calc.java">'
  for l in 5 8 11; do printf '<line nr="%d" mi="0" ci="4" mb="0" cb="4"/>' "$l"; done
  for l in 6 9 12 14 18; do printf '<line nr="%d" mi="2" ci="0" mb="0" cb="0"/>' "$l"; done
  printf '</sourcefile></package></report>\n'
} > "$WS/target/site/jacoco/jacoco.xml"
cat > "$W/ud/User/settings.json" <<JSON
{
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "update.mode": "none",
  "files.autoSave": "off",
  "jreach.timeout": 20
}
JSON
# jreach.serverPath is machine-scoped: in a remote window (code-server) it belongs to the machine's settings.
mkdir -p "$W/ud/Machine"
cat > "$W/ud/Machine/settings.json" <<JSON
{
  "jreach.serverPath": "$JREACH"
}
JSON

# --- code-server + the browser ---------------------------------------------------------------
# A free port (asked from the kernel), unless PORT is given.
PORT=${PORT:-$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')}
stamp "starting code-server on 127.0.0.1:$PORT"
setsid "$CS" --config /dev/null --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override --user-data-dir "$W/ud" --extensions-dir "$W/exts" \
  "$WS" >"$W/code-server.log" 2>&1 &
CSPID=$!
cleanup() { kill -- -"$CSPID" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 150); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.2; done
curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" || { cat "$W/code-server.log" >&2; die "code-server did not start"; }

set +e
NODE_PATH="$REPO/node_modules" timeout 240 node "$HERE/drive.js" "http://127.0.0.1:$PORT/?folder=$WS" "$W/shots" "$WS" \
  "$W/ud" 2>&1 | tee "$W/drive.log"
rc=${PIPESTATUS[0]}
set -e

why=""
TEST="$WS/src/test/java/demo/CalcTest.java"
if [ $rc != 0 ]; then
  why="the editor steps failed (screenshots in $W/shots)"
elif [ ! -s "$TEST" ]; then
  why="no $TEST"
else
  mkdir -p "$W/classes"
  if ! javac -d "$W/classes" -cp "$CONSOLE" "$WS/src/main/java/demo/Calc.java" "$TEST" >"$W/javac.log" 2>&1; then
    why="the generated test does not compile"; cat "$W/javac.log" >&2
  elif ! java -jar "$CONSOLE" --disable-banner --fail-if-no-tests --details=summary -cp "$W/classes" \
      --select-class demo.CalcTest >"$W/junit.log" 2>&1; then
    why="the generated test fails"; cat "$W/junit.log" >&2
  else
    stamp "$(grep -E 'tests successful' "$W/junit.log" | tr -s ' []' ' ' | sed 's/^ //')"
  fi
fi
if [ -n "$why" ]; then
  echo "vscode e2e: FAILED: $why" >&2
  echo "--- code-server log (tail)" >&2; tail -30 "$W/code-server.log" >&2
  for log in "$W"/ud/logs/*/exthost*/jreach.jreach/*.log; do
    [ -f "$log" ] && { echo "--- $log (tail)" >&2; tail -60 "$log" >&2; }
  done
  [ -f "$TEST" ] && sed 's/^/    | /' "$TEST" >&2
  echo "vscode e2e: 0 passed, 1 failed"
  exit 1
fi
stamp "done"
echo "vscode e2e: 1 passed, 0 failed"
