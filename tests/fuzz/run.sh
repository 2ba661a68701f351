#!/usr/bin/env bash
# Builds the libFuzzer targets (clang) and fuzzes each for SECONDS (default 60) from the seed
# corpus in tests/fuzz/corpus_*; new inputs go to build-fuzz/corpus_* (not committed).
# A finding is saved as build-fuzz/<target>-crash-*; turn it into a regression test.
#   tests/fuzz/run.sh [SECONDS]          # CI smoke: 60 s in all, split over the targets
#   nice -n 10 tests/fuzz/run.sh 600     # the documented longer run
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAKM_FUZZ=ON -DAKM_PCH=ON -DAKM_UNITY=ON \
  -DAKM_BUILD_TESTS=OFF -DAKM_CUDA=OFF -DAKM_MPI=OFF -DAKM_PYTHON=OFF > /dev/null
cmake --build build-fuzz -j2 --target fuzz_spectrum fuzz_cli
per=$(( secs / 2 ))
for t in spectrum cli; do
  mkdir -p build-fuzz/corpus_$t
  echo "fuzz_$t: ${per} s"
  ./build-fuzz/fuzz_$t -max_total_time="$per" -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$PWD/build-fuzz/fuzz_$t-" -print_final_stats=1 \
    "$PWD/build-fuzz/corpus_$t" "$PWD/tests/fuzz/corpus_$t" 2>&1 | grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::new_units_added|==[0-9]+==|SUMMARY|.*(deadly signal|Test unit written))" || true
  if ls build-fuzz/fuzz_$t-crash-* build-fuzz/fuzz_$t-timeout-* build-fuzz/fuzz_$t-oom-* >/dev/null 2>&1; then
    echo "fuzz_$t found a failing input:"; ls build-fuzz/fuzz_$t-*; exit 1
  fi
done
