#!/usr/bin/env python3
"""The umbrella header include/akm/akm.hpp includes every public header (include/akm/**/*.hpp)
and nothing else. Exceptions would be headers that cannot be included on a machine without
an optional toolchain; there are none: the CUDA (sim/cuda.hpp) and MPI (sim/dist.hpp)
interfaces are plain C++ whose implementations are chosen at build time.

usage: python3 tests/check_umbrella.py
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXCEPTIONS = {}  # "akm/x.hpp": "why it cannot be included everywhere"


def main():
    inc = ROOT / "include"
    public = {p.relative_to(inc).as_posix() for p in inc.rglob("*.hpp")} - {"akm/akm.hpp"}
    umbrella = set(re.findall(r'^#include "(akm/[^"]+)"', (inc / "akm/akm.hpp").read_text(), re.M))
    missing = sorted(public - umbrella - set(EXCEPTIONS))
    extra = sorted(umbrella - public)
    for h in missing:
        print(f"akm.hpp does not include {h}")
    for h in extra:
        print(f"akm.hpp includes {h}, which is not a public header")
    if missing or extra:
        sys.exit(1)
    print(f"akm.hpp includes all {len(public)} public headers")


if __name__ == "__main__":
    main()
