#!/usr/bin/env bash
# Benchmarks of the engine, in-process (no JVM): `gen` on every target line of ../shared/corpus
# (per-target medians, overall median and p95, outcomes) and the gen_chain scaling table (shared
# vs naive engine on N sequential branches). With --criterion, also the criterion bench
# `cargo bench -p jreach-ide --bench gen_chain`.
#
# usage: scripts/bench.sh [--criterion] [--repeat K]
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

criterion=0
repeat=5
while [ $# -gt 0 ]; do
    case "$1" in
        --criterion) criterion=1 ;;
        --repeat)
            [ $# -ge 2 ] || { echo "bench.sh: --repeat needs a number" >&2; exit 2; }
            repeat="$2"
            shift
            ;;
        -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench.sh: unknown argument $1 (usage: scripts/bench.sh [--criterion] [--repeat K])" >&2; exit 2 ;;
    esac
    shift
done

corpus=../shared/corpus
if [ ! -d "$corpus" ]; then
    echo "bench.sh: $corpus not found (expected next to the repository, at $(cd .. && pwd)/shared/corpus)" >&2
    exit 1
fi

step() { printf '\n== %s\n' "$*"; }

step "build (release)"
cargo build --release -p jreach-ide --example bench_corpus

step "gen on $corpus and the chain table ($repeat runs each)"
target/release/examples/bench_corpus "$corpus" --repeat "$repeat" --chains

if [ "$criterion" = 1 ]; then
    step "criterion: gen_chain"
    cargo bench -p jreach-ide --bench gen_chain
fi
