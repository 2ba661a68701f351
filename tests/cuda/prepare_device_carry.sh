#!/usr/bin/env bash
# prepare_device_carry.sh — the one archive a GPU session carries to run
# tests/cuda/device_session.sh with a build made here (docs/cuda.md, "The device session"); the
# device machine has no registry and no Debian toolchain.
#
#   tests/cuda/prepare_device_carry.sh BUILD_DIR DEST
#
# Writes DEST/carry.tar.xz holding build/akm, build/tests/<the CUDA test binaries>,
# build/ptxas.json (tests/cuda/ptxas_table.py --json), build/source_dir.txt (the source path the
# binaries were built in: device_session.sh links it to the checkout there) and lib/<the shared
# libraries ldd names, but glibc, libstdc++ and the CUDA libraries, which the device machine's
# toolkit provides>. What travels is the working tree plus DEST, 64 MiB in all; the tracked tree
# is most of it, so the archive is xz -9e (the test binaries share most of their bytes, which a
# 64 MiB dictionary finds) and the script refuses (exit 1) when the sum would pass the limit.
# A BUILD_DIR configured with -DAKM_MPI=OFF -DAKM_PYTHON=OFF needs no MPI libraries (~1 MiB
# less in the archive).
set -eu
build=$(realpath "$1")
dest=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/build/tests" "$stage/lib"
bins=(test_ops_transport test_ops_ak_sgd_ema test_ops_phase_map test_ops_deployed test_ops_fit
      test_ops_phase_measure test_cuda_single_source test_cuda_ceilings)
cp "$build/akm" "$stage/build/"
for b in "${bins[@]}"; do cp "$build/tests/$b" "$stage/build/tests/"; done
strip "$stage/build/akm" "$stage/build/tests/"* 2>/dev/null || true
python3 "$here/tests/cuda/ptxas_table.py" --json "$stage/build/ptxas.json"
sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" > "$stage/build/source_dir.txt"
for f in "$stage/build/akm" "$stage/build/tests/"*; do ldd "$f"; done | awk '/=> \//{print $3}' | sort -u |
  grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda|libcudart|libcublas[^/]*)\.so' |
  while read -r lib; do cp -L "$lib" "$stage/lib/"; done
rm -rf "$dest"
mkdir -p "$dest"
tar cf - -C "$stage" build lib | xz -9e -T1 > "$dest/carry.tar.xz"
# The working tree that travels: tracked files and untracked files git does not ignore.
tree=$(cd "$here" && { git ls-files -z; git ls-files -z --others --exclude-standard; } |
       xargs -0 stat -c %s 2>/dev/null | awk '{s += $1} END {print s + 0}')
archive=$(stat -c %s "$dest/carry.tar.xz")
limit=$((64 * 1024 * 1024))
awk -v t="$tree" -v a="$archive" -v l="$limit" 'BEGIN {
  printf "carry: archive %.1f MiB + working tree %.1f MiB = %.1f MiB of the 64 MiB that travel\n",
         a / 1048576, t / 1048576, (a + t) / 1048576 }'
if (( tree + archive > limit )); then
  echo "prepare_device_carry: over the limit: carry less (a build with -DAKM_MPI=OFF) or ignore untracked files" >&2
  exit 1
fi
