#!/usr/bin/env bash
# prepare_device_carry.sh — the folder a GPU session carries to run tests/cuda/device_session.sh
# with a build made here (docs/cuda.md, "The device session"); the device machine has no
# registry and no Debian toolchain.
#
#   tests/cuda/prepare_device_carry.sh BUILD_DIR DEST
#
# Writes DEST/build/akm, DEST/build/tests/<the CUDA test binaries>, DEST/build/ptxas.json
# (tests/cuda/ptxas_table.py --json) and DEST/lib/<the shared libraries ldd names, but glibc,
# libstdc++ and the CUDA libraries, which the device machine's toolkit provides>. Prints the
# size (the carry limit is 64 MiB).
set -eu
build=$(realpath "$1")
dest=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dest"
mkdir -p "$dest/build/tests" "$dest/lib"
bins=(test_ops_transport test_ops_ak_sgd_ema test_ops_phase_map test_ops_deployed test_ops_fit
      test_ops_phase_measure test_cuda_single_source test_cuda_ceilings)
cp "$build/akm" "$dest/build/"
for b in "${bins[@]}"; do cp "$build/tests/$b" "$dest/build/tests/"; done
strip "$dest/build/akm" "$dest/build/tests/"* 2>/dev/null || true
python3 "$here/tests/cuda/ptxas_table.py" --json "$dest/build/ptxas.json"
for f in "$dest/build/akm" "$dest/build/tests/"*; do ldd "$f"; done | awk '/=> \//{print $3}' | sort -u |
  grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda|libcudart|libcublas[^/]*)\.so' |
  while read -r lib; do cp -L "$lib" "$dest/lib/"; done
du -sh "$dest"
