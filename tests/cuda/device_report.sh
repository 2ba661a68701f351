#!/usr/bin/env bash
# device_report.sh — everything one GPU lease should measure, in one call (docs/cuda.md).
#
#   tests/cuda/device_report.sh BUILD_DIR OUT_DIR [BUILT_SOURCE_DIR]
#
# BUILT_SOURCE_DIR: the source path akm was compiled in (it finds tests/bench/*.py there); where
# it differs from this checkout and does not exist here, it is linked to this checkout.
# BUILD_DIR holds akm and tests/<the CUDA test binaries> built here with the CUDA backend
# (sm_90); BUILD_DIR/../lib may hold shared libraries the device machine lacks (only those
# its loader cannot find are used). Writes into OUT_DIR:
#   env.txt             the device, driver, CUDA and JAX versions
#   run.json            tests/cuda/run_on_device.sh: every CUDA test and the quick bench
#   bench_cuda.json     akm bench --backend cuda --vs-jax (full sizes; JAX vmap + jit on the GPU)
#   bench_cpu.json      akm bench --backend cpu, W1 and W3 in float, on this machine's cores
#   backends.txt        phase --measure and simulate, cpu against cuda on the same seeds
#   logs.tar.gz         every log
# Exit 0 when every step ran and passed.
set -u
build=$(realpath "$1")
out=$(realpath "$2")
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out" /tmp/akm-dev/logs
logs=/tmp/akm-dev/logs
rc=0

# Libraries: the CUDA ones from this machine's toolkit, the carried ones only where missing.
mkdir -p /tmp/akm-dev/lib
if [[ -d "$build/../lib" ]]; then
  for f in "$build"/../lib/*.so*; do
    ldconfig -p | grep -qE "^\s+$(basename "$f") " || cp "$f" /tmp/akm-dev/lib/
  done
fi
cublas=$(dirname "$( (ls /usr/local/cuda/lib64/libcublas.so.13 || find / -name 'libcublas.so.13' -not -path '/proc/*') 2>/dev/null | head -n1)")
export LD_LIBRARY_PATH="/tmp/akm-dev/lib:/usr/local/cuda/lib64:$cublas${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# akm finds tests/bench/*.py under the source path it was built in.
src=${3:-}
if [[ -n "$src" && "$src" != "$here" && ! -e "$src" ]]; then mkdir -p "$(dirname "$src")" && ln -s "$here" "$src"; fi
py=$(command -v python3)
# gnuplot (akm's figures) where the machine has none: carried as BUILD_DIR/../gp.tar.xz, run
# with its own libraries only.
if ! command -v gnuplot >/dev/null && [[ -f "$build/../gp.tar.xz" ]]; then
  tar xJf "$build/../gp.tar.xz" -C /tmp/akm-dev
  mkdir -p /tmp/akm-dev/bin
  printf '#!/bin/sh\nLD_LIBRARY_PATH=/tmp/akm-dev/gp/lib exec /tmp/akm-dev/gp/bin/gnuplot "$@"\n' >/tmp/akm-dev/bin/gnuplot
  chmod +x /tmp/akm-dev/bin/gnuplot
  export PATH="/tmp/akm-dev/bin:$PATH"
fi

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version 2>/dev/null | tail -n1
  "$py" -c 'import jax; print("jax", jax.__version__, jax.devices())' 2>&1 | tail -n1
  ldd "$build/akm" | grep -E 'cuda|cublas|not found'
  nproc; grep -m1 'model name' /proc/cpuinfo
} >"$out/env.txt" 2>&1
cat "$out/env.txt"

echo "== CUDA tests"
bash "$here/tests/cuda/run_on_device.sh" "$build" "$out/run.json" || rc=1
cp -r "$(dirname "$out/run.json")/cuda-device-logs" "$logs/" 2>/dev/null && rm -rf "$out/cuda-device-logs"
python3 - "$out/run.json" <<'EOF' || true
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tests"]:
    print(f'{t["binary"]:28} exit {t["exit"]} passed {t["passed"]} failed {t["failed"]} skipped {t["skipped"]}')
EOF

echo "== bench cuda (full sizes, JAX beside)"
timeout 240 "$build/akm" bench --backend cuda --precision float --vs-jax --python "$py" --json --quiet \
  >"$out/bench_cuda.json" 2>"$logs/bench_cuda.stderr" || { rc=1; tail -n 5 "$logs/bench_cuda.stderr"; }
echo "== bench cpu (W1, W3 in float on all of this machine's cores)"
for w in W1 W3; do
  timeout 150 "$build/akm" bench --backend cpu --workload $w --precision float --json --quiet \
    >"$logs/bench_cpu_${w}.json" 2>>"$logs/bench_cpu.stderr" || rc=1
done
python3 - "$logs" "$out/bench_cpu.json" <<'EOF' || rc=1
import glob, json, os, sys
rows = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "bench_cpu_*.json"))):
    try:
        rows[os.path.basename(f)[10:-5]] = json.load(open(f))
    except Exception as e:
        rows[os.path.basename(f)[10:-5]] = {"error": str(e)}
json.dump(rows, open(sys.argv[2], "w"), indent=1)
EOF

echo "== backends: phase --measure and simulate, cpu vs cuda"
akm="$build/akm"
ph="--x eta:0.1:2:16 --y beta:0.3:0.95:16 --metric stable --spectrum power:n=32,exp=1 --measure --trials 256 --steps 1000 --quiet"
sim="--spectrum power:n=32,exp=1 --trials 20000 --steps 400 --precision float --quiet"
{
  for b in cpu cuda; do
    s=$(date +%s%N); "$akm" phase $ph --backend $b --out /tmp/akm-dev/ph_$b; e=$?
    echo "phase --measure $b exit $e $(( ($(date +%s%N) - s) / 1000000 )) ms"
    s=$(date +%s%N); "$akm" simulate $sim --backend $b --out /tmp/akm-dev/sim_$b; e=$?
    echo "simulate $b exit $e $(( ($(date +%s%N) - s) / 1000000 )) ms"
  done
  s=$(date +%s%N); "$akm" simulate --spectrum power:n=32,exp=1 --trials 1000000 --steps 400 --precision float --quiet --backend cuda --out /tmp/akm-dev/sim_big; e=$?
  echo "simulate cuda 1e6 trials exit $e $(( ($(date +%s%N) - s) / 1000000 )) ms"
  python3 "$here/tests/cuda/compare_backends.py" /tmp/akm-dev
} >"$out/backends.txt" 2>&1 || rc=1
cat "$out/backends.txt"
tar czf "$out/logs.tar.gz" -C /tmp/akm-dev logs ph_cpu ph_cuda sim_cpu sim_cuda sim_big 2>/dev/null
echo "device_report: rc $rc"
exit $rc
