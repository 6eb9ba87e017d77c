#!/usr/bin/env bash
# Fuzzes jreach's front end with cargo-fuzz (libFuzzer): `lower` (any text: parsing, lowering in
# both modes, the verifier) and `check` (the whole of `check`, z3 included, with short limits).
#
#   scripts/fuzz.sh                 # each target for 60 s (the test suite's short run)
#   scripts/fuzz.sh 3600 lower      # one hour of `lower`
#
# New inputs that reach new code are kept in fuzz/corpus/<target> (committed); the fixtures,
# the examples and ../shared/corpus are read as seeds. A crash leaves its input in
# fuzz/artifacts/<target>/ and fails the run; `cargo +nightly fuzz run <target> <file>` replays it.
# JREACH_FUZZ_KEEP=0 (the test suite's run) reads fuzz/corpus but keeps what it finds elsewhere.
# Uses the nightly toolchain, or stable with RUSTC_BOOTSTRAP=1; cargo-fuzz is installed from
# crates.io when missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(lower check)

die() { echo "fuzz: $*" >&2; exit 1; }
# cargo-fuzz needs nightly's -Z flags (AddressSanitizer, coverage for libFuzzer). A machine whose
# one toolchain is stable gets them with RUSTC_BOOTSTRAP=1, which lets stable rustc accept them.
toolchain=(+nightly)
if ! cargo +nightly --version >/dev/null 2>&1; then
  toolchain=()
  export RUSTC_BOOTSTRAP=1
  echo "fuzz: no nightly toolchain; using the default one with RUSTC_BOOTSTRAP=1" >&2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz" >&2
  cargo install --locked cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz || die "cannot install cargo-fuzz"
fi
seeds=()
for d in tests/fixtures/java examples ../shared/corpus; do
  [ -d "$d" ] && seeds+=("$(cd "$d" && pwd)")
done
cd fuzz
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  echo "fuzz: $t for $seconds s" >&2
  log=$(mktemp)
  rc=0
  dirs=("corpus/$t")
  [ "${JREACH_FUZZ_KEEP:-1}" = 1 ] || dirs=("$(mktemp -d)" "corpus/$t")
  cargo "${toolchain[@]}" fuzz run -O "$t" "${dirs[@]}" "${seeds[@]}" -- \
    -max_total_time="$seconds" -max_len=8192 -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 >"$log" 2>&1 || rc=$?
  grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb)|panicked|SUMMARY|Failing input|artifacts/" "$log" || true
  if [ $rc != 0 ]; then
    tail -n 60 "$log" >&2
    rm -f "$log"
    die "$t found a crash (its input is in fuzz/artifacts/$t/)"
  fi
  rm -f "$log"
done
echo "fuzz: ${targets[*]}: no crash in $seconds s each"
