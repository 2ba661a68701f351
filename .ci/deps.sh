#!/usr/bin/env bash
# Installs the Debian packages akm needs, only those missing (apt-get update runs only then).
set -euo pipefail
pkgs=(build-essential cmake git pkg-config
      libeigen3-dev libspectra-dev libboost-dev libboost-random-dev librandom123-dev
      libgtest-dev libgmock-dev librapidcheck-dev libcli11-dev nlohmann-json3-dev libfmt-dev
      libbenchmark-dev gnuplot-nox
      libsleef-dev                  # the engine's alternative Box–Muller kernel (SLEEF log/sincos)
      python3-nbformat jupyter-nbconvert python3-ipykernel python3-pandas python3-matplotlib python3-numpy
      clang libclang-rt-14-dev      # libFuzzer + sanitizer runtimes (tests/fuzz)
      python3-scipy                 # tests/audit reports
      python3-dev pybind11-dev python3-pytest   # the Python module (src/python/, tests/python)
      python3-sklearn zlib1g-dev     # R1's data sets, read from their installed files (no network); gzip reader
      python3-torch                 # tests/python/test_torch_agreement.py (CPU; ~160 packages, ~1 min)
      libcpp-httplib-dev            # akm explore (local server)
      libjs-katex                   # the report's math, rendered offline (copied into results/katex)
      doxygen                       # the API reference (target docs, ctest docs_api)
      libtomlplusplus-dev           # the claim ledger, experiments/ledger.toml (src/check/ledger.cpp)
      libopenmpi-dev openmpi-bin)   # -DAKM_MPI=AUTO, tests/mpi_exact.sh
# Not installed here: libopenblas0-serial and libblis4-serial, which `akm bench` times W4 on when
# they are present (docs/performance.md): the default GEMM is Eigen's (the fastest measured), so
# no result needs them, and installing either makes it the whole system's default BLAS
# (update-alternatives, under NumPy and PyTorch too), which a test command should not do.
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "akm: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
