#!/usr/bin/env bash
# Builds the libFuzzer targets (clang) and fuzzes each for SECONDS (default 60) from the seed
# corpus in tests/fuzz/corpus_*; new inputs go to <build>/corpus_* (not committed).
# A finding is saved as <build>/<target>-crash-*; turn it into a regression test.
#   tests/fuzz/run.sh [SECONDS [BUILD]]  # CI smoke: 60 s in all, split over the targets
#   nice -n 10 tests/fuzz/run.sh 600     # the documented longer run
# BUILD defaults to build-fuzz, configured here; CI passes build-asan, its sanitizer build
# configured with AKM_FUZZ (.ci/test), whose targets are already built.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
dir=${2:-build-fuzz}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
if [ "$dir" = build-fuzz ]; then
  CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAKM_FUZZ=ON -DAKM_PCH=ON -DAKM_UNITY=ON \
    -DAKM_BUILD_TESTS=OFF -DAKM_CUDA=OFF -DAKM_MPI=OFF -DAKM_PYTHON=OFF > /dev/null
fi
cmake --build "$dir" -j2 --target fuzz_spectrum fuzz_cli
per=$(( secs / 2 ))
for t in spectrum cli; do
  mkdir -p "$dir"/corpus_$t
  echo "fuzz_$t: ${per} s"
  ./"$dir"/fuzz_$t -max_total_time="$per" -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="$PWD/$dir/fuzz_$t-" -print_final_stats=1 \
    "$PWD/$dir/corpus_$t" "$PWD/tests/fuzz/corpus_$t" 2>&1 | grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::new_units_added|==[0-9]+==|SUMMARY|.*(deadly signal|Test unit written))" || true
  if ls "$dir"/fuzz_$t-crash-* "$dir"/fuzz_$t-timeout-* "$dir"/fuzz_$t-oom-* >/dev/null 2>&1; then
    echo "fuzz_$t found a failing input:"; ls "$dir"/fuzz_$t-*; exit 1
  fi
done
