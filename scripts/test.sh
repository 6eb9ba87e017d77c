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

step "fuzzing: the front end and check, a short run of each (fuzz/README.md)"
JREACH_FUZZ_KEEP=0 scripts/fuzz.sh "${JREACH_FUZZ_SECONDS:-45}"

step "editor end-to-end: Neovim 0.7 and 0.11 with the project's plugin"
tests/editors/nvim/run.sh

step "editor end-to-end: the VS Code extension in code-server, driven by Playwright"
tests/editors/vscode/run.sh

step "all tests passed"
