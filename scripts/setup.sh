#!/usr/bin/env bash
# Installs what jreach's build and test suites need on a Debian machine.
# Idempotent: packages already present are left alone, and `apt-get update`
# runs only when something has to be installed. The Rust toolchain is assumed.
set -euo pipefail

PACKAGES=(default-jdk-headless junit5 junit4 libjacoco-java libasm-java python3-pip pkg-config)

# The solver library. Debian's libz3 (4.8.12) crashes inside `Z3_solver_check_assumptions` on
# real code and is 2.3x slower on the corpus, so jreach links a current release: the shared
# library PyPI's z3-solver wheel ships, installed under /usr/local with a pkg-config file, which
# the linker and pkg-config find before Debian's.
Z3_VERSION=5.4.1
Z3_WHEEL_VERSION=5.4.1.0

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

# The solver library, from the z3-solver wheel (a zip holding z3/lib/libz3.so and headers).
multiarch="$(gcc -print-multiarch 2>/dev/null || true)"
Z3_LIBDIR="/usr/local/lib${multiarch:+/$multiarch}"
z3_soname="libz3.so.${Z3_VERSION%.*}"
if [[ -f "$Z3_LIBDIR/$z3_soname" && "$(pkg-config --modversion z3 2>/dev/null || true)" == "$Z3_VERSION" ]]; then
    say "libz3 $Z3_VERSION already installed"
else
    SUDO=()
    if [[ "$(id -u)" != 0 ]]; then
        command -v sudo >/dev/null 2>&1 || { say "installing libz3 $Z3_VERSION needs root or sudo" >&2; exit 1; }
        SUDO=(sudo)
    fi
    say "installing libz3 $Z3_VERSION (PyPI z3-solver $Z3_WHEEL_VERSION) into $Z3_LIBDIR"
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$tmp" "z3-solver==$Z3_WHEEL_VERSION"
    python3 -m zipfile -e "$tmp"/z3_solver-*.whl "$tmp/wheel"
    "${SUDO[@]}" install -d "$Z3_LIBDIR/pkgconfig" /usr/local/include/z3
    "${SUDO[@]}" install -m 0755 "$tmp/wheel/z3/lib/$z3_soname" "$Z3_LIBDIR/$z3_soname"
    "${SUDO[@]}" ln -sf "$z3_soname" "$Z3_LIBDIR/libz3.so"
    "${SUDO[@]}" install -m 0644 "$tmp"/wheel/z3/include/*.h /usr/local/include/z3/
    printf '%s\n' "prefix=/usr/local" "libdir=$Z3_LIBDIR" "includedir=/usr/local/include/z3" "" \
        "Name: z3" "Description: The Z3 theorem prover (jreach's solver)" "Version: $Z3_VERSION" \
        "Libs: -L\${libdir} -lz3" "Cflags: -I\${includedir}" >"$tmp/z3.pc"
    "${SUDO[@]}" install -m 0644 "$tmp/z3.pc" "$Z3_LIBDIR/pkgconfig/z3.pc"
    "${SUDO[@]}" ldconfig
    say "installed libz3 $Z3_VERSION"
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
