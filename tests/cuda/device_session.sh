#!/usr/bin/env bash
# device_session.sh — the one script a session lent a GPU runs (docs/cuda.md, "The device
# session"): at most 8 minutes, everything under OUT_DIR, then the tables into docs/cuda.md.
#
#   tests/cuda/device_session.sh CARRY OUT_DIR [BUILT_SOURCE_DIR]
#
# CARRY is the archive tests/cuda/prepare_device_carry.sh wrote (DEST/carry.tar.xz, unpacked
# here into /tmp/akm-dev/carry) or a folder BUILD_DIR holding akm and tests/<the CUDA test
# binaries> built with the CUDA backend (sm_90), and ptxas.json (tests/cuda/ptxas_table.py
# --json BUILD_DIR/ptxas.json, made where the build was); BUILD_DIR/../lib may hold shared
# libraries the device machine lacks (device_report.sh's rules). BUILT_SOURCE_DIR defaults to
# the archive's build/source_dir.txt. Steps, each under its own time limit, each recorded in OUT_DIR/session.json:
#   env.txt          the device, driver, CUDA and JAX versions (as device_report.sh writes it)
#   ptxas.json       registers, stack frame and spills per kernel (regenerated where nvcc exists)
#   run.json         tests/cuda/run_on_device.sh: every device test (a skip fails) and the quick bench
#   bench_<k>.json   akm bench --backend cuda --precision float --json, k = 1…5 (the device
#                    ceilings measured in each run; --vs-jax in run 1 where JAX imports)
#   bench_median.json  the median over the runs of every rate and fraction
#   ncu.txt, ncu.csv   Nsight Compute at the quick sizes, where ncu exists and may profile:
#                    launch, occupancy, scheduler and warp-state (stall) sections; raw metrics
#                    (achieved occupancy, issue activity, local-memory bytes, stall reasons)
# then tests/cuda/device_table.py OUT_DIR --write docs/cuda.md (the session tables). Exit 0 when
# every step passed (ncu missing or refused is recorded, not a failure).
set -u
if [[ -f "$1" && "$1" == *.tar.xz ]]; then
  rm -rf /tmp/akm-dev/carry && mkdir -p /tmp/akm-dev/carry && tar xJf "$1" -C /tmp/akm-dev/carry || exit 2
  build=/tmp/akm-dev/carry/build
else
  build=$(realpath "$1")
fi
out=$(realpath "$2")
here=$(cd "$(dirname "$0")/../.." && pwd)
start=$(date +%s)
mkdir -p "$out" /tmp/akm-dev/logs
logs=/tmp/akm-dev/logs
rc=0
steps=()
exec 3>&1  # the steps' report lines, past any redirection of a step's output
elapsed() { echo $(( $(date +%s) - start )); }
# step NAME LIMIT_S CMD…: runs CMD under `timeout`, records its exit and seconds.
step() {
  local name=$1 limit=$2 s e
  shift 2
  s=$(date +%s)
  timeout "$limit" "$@"
  e=$?
  steps+=("\"$name\": {\"exit\": $e, \"seconds\": $(( $(date +%s) - s )), \"limit_s\": $limit}")
  echo "== $name: exit $e in $(( $(date +%s) - s )) s (elapsed $(elapsed) s)" >&3
  return $e
}

# Libraries, as device_report.sh: the CUDA ones from this machine, the carried ones where missing.
mkdir -p /tmp/akm-dev/lib
if [[ -d "$build/../lib" ]]; then
  for f in "$build"/../lib/*.so*; do
    [[ -e "$f" ]] || continue
    ldconfig -p | grep -qE "^\s+$(basename "$f") " || cp "$f" /tmp/akm-dev/lib/
  done
fi
cublas=$(dirname "$( (ls /usr/local/cuda/lib64/libcublas.so.13 || find / -name 'libcublas.so.13' -not -path '/proc/*') 2>/dev/null | head -n1)")
export LD_LIBRARY_PATH="/tmp/akm-dev/lib:/usr/local/cuda/lib64:$cublas${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
src=${3:-$(cat "$build/source_dir.txt" 2>/dev/null)}
if [[ -n "$src" && "$src" != "$here" && ! -e "$src" ]]; then mkdir -p "$(dirname "$src")" && ln -s "$here" "$src"; fi
py=$(command -v python3)
akm="$build/akm"

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version 2>/dev/null | tail -n1
  "$py" -c 'import jax; print("jax", jax.__version__, jax.devices())' 2>&1 | tail -n1
  ldd "$akm" | grep -E 'cuda|cublas|not found'
  nproc; grep -m1 'model name' /proc/cpuinfo
  command -v ncu >/dev/null && ncu --version | tail -n1
} >"$out/env.txt" 2>&1
cat "$out/env.txt"

# ptxas: regenerated where an nvcc exists, else the build's (the same compiler made the binaries).
if command -v nvcc >/dev/null || [[ -x /usr/local/cuda/bin/nvcc ]]; then
  step ptxas 120 python3 "$here/tests/cuda/ptxas_table.py" --json "$out/ptxas.json" || cp "$build/ptxas.json" "$out/" 2>/dev/null
else
  cp "$build/ptxas.json" "$out/ptxas.json" 2>/dev/null || { echo "no ptxas.json in $build"; rc=1; }
fi
python3 - "$out/ptxas.json" <<'EOF' || true
import json, sys
d = json.load(open(sys.argv[1]))
print(f"ptxas (nvcc {d['nvcc']}, {d['arch']}): registers, stack, spill stores/loads per kernel")
for k in d["kernels"]:
    print(f"  {k['file']:36} {k['kernel']:52} {k['registers']:4} {k['stack']:5} {k['spill_stores']:4} {k['spill_loads']:4}")
EOF

step device_tests 150 bash "$here/tests/cuda/run_on_device.sh" "$build" "$out/run.json" || rc=1
rm -rf "$out/cuda-device-logs"

# The bench, five runs at full size (float); JAX beside it in the first run only.
for k in 1 2 3 4 5; do
  if (( $(elapsed) > 330 )); then echo "bench run $k skipped: $(elapsed) s elapsed"; break; fi
  jax=(); [[ $k -eq 1 ]] && jax=(--vs-jax --python "$py")
  step "bench_$k" 75 "$akm" bench --backend cuda --precision float "${jax[@]}" --json --quiet \
    >"$out/bench_$k.json" 2>"$logs/bench_$k.stderr" || { rc=1; tail -n 5 "$logs/bench_$k.stderr"; }
done
python3 "$here/tests/cuda/device_table.py" --median "$out" || rc=1

# Nsight Compute at the quick sizes: the ops' kernels, then the ceilings' FMA and normals kernels.
if command -v ncu >/dev/null; then
  left=$(( 450 - $(elapsed) ))
  if (( left > 40 )); then
    sec=(--section LaunchStats --section Occupancy --section SchedulerStats --section WarpStateStats)
    step ncu_sections $(( left / 2 )) ncu "${sec[@]}" -k 'regex:per_item_kernel|block_kernel|fma_kernel|normals_kernel' \
      -c 10 "$akm" bench --backend cuda --quick --precision float --workload all --quiet >"$out/ncu.txt" 2>&1
    m=sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,launch__registers_per_thread
    m=$m,smsp__issue_active.avg.pct_of_peak_sustained_active
    m=$m,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum
    for s in long_scoreboard short_scoreboard wait math_pipe_throttle barrier no_instruction mio_throttle lg_throttle; do
      m=$m,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio
    done
    step ncu_metrics $(( left / 2 )) ncu --csv --page raw --metrics "$m" \
      -k 'regex:per_item_kernel|block_kernel|fma_kernel|normals_kernel' -c 10 \
      "$akm" bench --backend cuda --quick --precision float --workload all --quiet >"$out/ncu.csv" 2>"$logs/ncu.stderr"
  else
    echo "ncu skipped: $(elapsed) s elapsed"
  fi
else
  echo "ncu: not on this machine"
fi

{
  printf '{"elapsed_s": %d, "ok": %s, "steps": {' "$(elapsed)" "$([[ $rc -eq 0 ]] && echo true || echo false)"
  for i in "${!steps[@]}"; do [[ $i -gt 0 ]] && printf ', '; printf '%s' "${steps[$i]}"; done
  printf '}}\n'
} >"$out/session.json"
python3 "$here/tests/cuda/device_table.py" "$out" --write "$here/docs/cuda.md" || rc=1
tar czf "$out/logs.tar.gz" -C /tmp/akm-dev logs 2>/dev/null
echo "device_session: rc $rc in $(elapsed) s"
exit $rc
