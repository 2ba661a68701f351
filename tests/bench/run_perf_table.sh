#!/usr/bin/env bash
# run_perf_table.sh — regenerates docs/performance.md's measured table: one full
# `akm bench --vs-numpy --json` run into results/bench/bench.json, then tests/bench/perf_table.py.
# Run it alone on an idle machine (every ratio is measured in that one run).
#   bash tests/bench/run_perf_table.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
mkdir -p results/bench
"$build/akm" bench --vs-numpy --json --quiet > results/bench/bench.json.tmp
mv results/bench/bench.json.tmp results/bench/bench.json
python3 tests/bench/perf_table.py results/bench/bench.json --write docs/performance.md
echo "run_perf_table: results/bench/bench.json and docs/performance.md rewritten"
