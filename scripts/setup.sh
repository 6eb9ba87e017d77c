#!/usr/bin/env bash
# Installs what jreach's build and test suites need on a Debian machine.
# Idempotent: packages already present are left alone, and `apt-get update`
# runs only when something has to be installed. The Rust toolchain is assumed.
set -euo pipefail

PACKAGES=(libz3-dev default-jdk-headless junit5 junit4 libjacoco-java)

say() { printf 'setup: %s\n' "$*"; }

installed() {
    [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == "install ok installed" ]]
}

missing=()
for p in "${PACKAGES[@]}"; do
    if installed "$p"; then
        say "$p already installed"
    else
        missing+=("$p")
    fi
done

if ((${#missing[@]} == 0)); then
    say "nothing to install"
else
    if ! command -v apt-get >/dev/null 2>&1; then
        say "missing packages ${missing[*]}, and apt-get is not available: install them by hand" >&2
        exit 1
    fi
    SUDO=()
    if [[ "$(id -u)" != 0 ]]; then
        if command -v sudo >/dev/null 2>&1; then
            SUDO=(sudo)
        else
            say "missing packages ${missing[*]}: run as root or install sudo" >&2
            exit 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    say "installing ${missing[*]}"
    "${SUDO[@]}" apt-get update -qq
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${missing[@]}"
    say "installed ${missing[*]}"
fi

# Sanity checks: the tools and jars the end-to-end suites rely on.
J=/usr/share/java
status=0
for tool in javac java; do
    command -v "$tool" >/dev/null 2>&1 || { say "$tool not found on PATH" >&2; status=1; }
done
for jar in junit-platform-console-standalone.jar junit-jupiter-api.jar junit4.jar \
    org.jacoco.core.jar org.jacoco.agent.jar asm.jar; do
    [[ -f "$J/$jar" ]] || { say "$J/$jar not found" >&2; status=1; }
done
if ((status == 0)); then
    say "java: $(java -version 2>&1 | sed -n 1p)"
    say "ready"
fi
exit "$status"
