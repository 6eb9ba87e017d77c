#!/usr/bin/env bash
# The whole test suite: system packages, release build, Rust unit and end-to-end tests.
# The end-to-end tests run the release `jreach` binary against real javac/JUnit/JaCoCo.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '\n== %s\n' "$*"; }

step "setup"
scripts/setup.sh

step "build (release)"
cargo build --release --workspace

step "tests (release: unit, CLI and Java end-to-end)"
cargo test --workspace --release --no-fail-fast

# Further suites (LSP over stdio, editor extensions) are added here.

step "all tests passed"
