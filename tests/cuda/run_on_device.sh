#!/usr/bin/env bash
# run_on_device.sh — the first run of the CUDA backend on a GPU machine (docs/cuda.md).
#
#   tests/cuda/run_on_device.sh [BUILD_DIR] [OUT_JSON]
#
# BUILD_DIR (default: build) is a tree configured with -DAKM_CUDA=ON (or AUTO where nvcc is)
# and built (`cmake --build BUILD_DIR`). Runs every test that holds the device to its emulation
# or to the CPU paths, the emulation's own tests, and `akm bench --backend cuda --quick`, and
# writes OUT_JSON (default: BUILD_DIR/cuda-device-run.json):
#   {"device": …, "ok": true|false, "tests": [{"binary", "filter", "exit", "passed", "failed",
#    "skipped", "log"}…], "bench": {"exit", "json"}}
# A GPU test that skips here counts as a failure: on this machine nothing may skip. Exit 0
# when every test passed and the bench ran; 1 otherwise; 2 on bad usage or a missing build.
set -u
build=${1:-build}
out=${2:-$build/cuda-device-run.json}
tests="$build/tests"
akm="$build/akm"
if [[ ! -x "$akm" || ! -d "$tests" ]]; then
  echo "run_on_device: no built tree at '$build' (needs $akm and $tests/)" >&2
  exit 2
fi
logdir=$(dirname "$out")/cuda-device-logs
mkdir -p "$logdir"

device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
[[ -n "$device" ]] || device="(nvidia-smi found no GPU)"

json_str() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
count() { grep -oE "\[ +$1 +\] [0-9]+ test" "$2" | grep -oE '[0-9]+' | head -n1; }

ok=true
rows=()
# binary and gtest filter: each op's device tests with the emulation they are held to
# (tests/ops/test_<op>.cpp, *Cuda* matches both), then the host pieces of the backend.
for spec in "test_ops_transport:*Cuda*" "test_ops_ak_sgd_ema:*Cuda*" "test_ops_phase_map:*Cuda*" \
            "test_ops_deployed:*Cuda*" "test_ops_fit:*Cuda*" "test_ops_phase_measure:*Cuda*" \
            "test_cuda_single_source:*" "test_cuda_ceilings:*"; do
  bin=${spec%%:*}
  filter=${spec#*:}
  log="$logdir/$bin.log"
  "$tests/$bin" --gtest_filter="$filter" >"$log" 2>&1
  code=$?
  passed=$(count PASSED "$log"); failed=$(count FAILED "$log"); skipped=$(count SKIPPED "$log")
  passed=${passed:-0}; failed=${failed:-0}; skipped=${skipped:-0}
  # test_cuda_single_source's and test_cuda_ceilings's refusal tests skip by design when a
  # device is present.
  allowed_skips=0
  [[ $bin == test_cuda_single_source || $bin == test_cuda_ceilings ]] && allowed_skips=1
  if [[ $code -ne 0 || $failed -ne 0 || $skipped -gt $allowed_skips || $passed -eq 0 ]]; then ok=false; fi
  rows+=("{\"binary\": $(json_str "$bin"), \"filter\": $(json_str "$filter"), \"exit\": $code, \"passed\": $passed, \"failed\": $failed, \"skipped\": $skipped, \"log\": $(json_str "$log")}")
done

bench_log="$logdir/bench.json"
"$akm" bench --backend cuda --quick --json --quiet >"$bench_log" 2>"$logdir/bench.stderr"
bench_code=$?
[[ $bench_code -eq 0 ]] || ok=false
bench_json=null
if [[ $bench_code -eq 0 && -s "$bench_log" ]]; then bench_json=$(cat "$bench_log"); fi

{
  printf '{\n  "device": %s,\n  "ok": %s,\n  "tests": [\n' "$(json_str "$device")" "$ok"
  for i in "${!rows[@]}"; do
    sep=","; [[ $i -eq $((${#rows[@]} - 1)) ]] && sep=""
    printf '    %s%s\n' "${rows[$i]}" "$sep"
  done
  printf '  ],\n  "bench": {"exit": %d, "json": %s}\n}\n' "$bench_code" "$bench_json"
} >"$out"
echo "run_on_device: $([[ $ok == true ]] && echo ok || echo FAILED) — $out"
[[ $ok == true ]]
