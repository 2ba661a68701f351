#!/usr/bin/env bash
# Installs the Debian packages akm needs, only those missing (apt-get update runs only then).
#   bash .ci/deps.sh          everything: what .ci/test and .ci/reproduce need
#   bash .ci/deps.sh --core   the C++ core only: what the library, the program (akm) and the
#                             C++ tests (ctest -L unit) need; no PyTorch, MPI, Doxygen, Jupyter
#                             or clang (cmake finds the rest optional: MPI, the Python module,
#                             the API reference, SLEEF and Google Benchmark are built when found)
set -euo pipefail
core_only=0
for arg in "$@"; do
  case "$arg" in
    --core) core_only=1 ;;
    *) echo "usage: bash .ci/deps.sh [--core]" >&2; exit 2 ;;
  esac
done
# The C++ core: every find_package(... REQUIRED) of CMakeLists.txt and tests/CMakeLists.txt,
# and what the program's commands and the C++ tests run.
core=(build-essential cmake git pkg-config
      libeigen3-dev libspectra-dev libboost-dev libboost-random-dev librandom123-dev
      libgtest-dev libgmock-dev librapidcheck-dev libcli11-dev nlohmann-json3-dev libfmt-dev
      libtomlplusplus-dev           # the claim ledger, experiments/ledger.toml (src/check/ledger.cpp)
      zlib1g-dev                    # the gzip data sets' reader (src/spectrum/data_keys.cpp)
      gnuplot-nox                   # the figures of akm run, phase and simulate (their CLI tests)
      python3-sklearn               # R1's data sets, read from their installed files (no network)
      libcpp-httplib-dev)           # akm explore (local server)
# Everything else: the tests beyond the C++ ones, the notebooks, the Python module, the report.
rest=(libbenchmark-dev
      libsleef-dev                  # the engine's alternative Box–Muller kernel (SLEEF log/sincos)
      python3-nbformat jupyter-nbconvert python3-ipykernel python3-pandas python3-matplotlib python3-numpy
      clang libclang-rt-14-dev      # libFuzzer + sanitizer runtimes (tests/fuzz)
      python3-scipy                 # tests/audit reports
      python3-dev pybind11-dev python3-pytest   # the Python module (src/python/, tests/python)
      python3-torch                 # tests/python/test_torch_agreement.py (CPU; ~160 packages, ~1 min)
      libopenblas0-pthread          # the BLAS torch and numpy call (Debian's default reference BLAS is ~20× slower)
      dataset-fashion-mnist         # T23's and T24's images (/usr/share/datasets/fashion-mnist)
      jargon-text                   # T25's text (/usr/share/doc/jargon-text/jargon.txt.gz)
      libjs-katex                   # the report's math, rendered offline (copied into results/katex)
      doxygen                       # the API reference (target docs, ctest docs_api)
      libopenmpi-dev openmpi-bin)   # -DAKM_MPI=AUTO, tests/mpi_exact.sh
pkgs=("${core[@]}")
[ "$core_only" -eq 1 ] || pkgs+=("${rest[@]}")
# libopenblas0-pthread becomes the system's default BLAS (update-alternatives, under NumPy and
# PyTorch). Rule, and why: the claims that train networks through akm.torch (T23–T25) call
# PyTorch, which Debian builds against the system BLAS, and the reference BLAS is ~20× slower
# there (a 128×784×128 product: 4.7 against 97 GFLOP/s on one core), which no run budget
# affords. The C++ code does not call it (its GEMM is Eigen's), and the Python tests compare
# within rounding bounds, not bits.
# Not installed here: libopenblas0-serial and libblis4-serial, which `akm bench` times W4 on when
# they are present (docs/performance.md): the default GEMM is Eigen's (the fastest measured), so
# no result needs them.
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
