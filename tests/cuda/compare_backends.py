#!/usr/bin/env python3
"""Compares `akm phase --measure` and `akm simulate` run with --backend cpu and cuda on the
same seed (tests/cuda/device_report.sh writes them under DIR as ph_<backend>, sim_<backend>).

    python3 tests/cuda/compare_backends.py DIR

The device draws the CPU engine's streams (docs/cuda.md), so the two runs differ by rounding
only: each measured column's largest |cpu − cuda| is printed in units of that point's
standard error (a statistical difference would be of order 1; rounding is far below it), with
each run's own verdict. Exit 1 when a verdict differs or a difference exceeds 0.1 standard
errors (rounding at T steps of float is ≤ 1e-4 relative: far below 0.1 se at these sizes).
"""
import csv
import json
import math
import os
import sys


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def worst(a, b, col, se_col):
    w = 0.0
    for ra, rb in zip(a, b, strict=True):
        x, y, se = float(ra[col]), float(rb[col]), float(ra[se_col])
        if math.isnan(x) and math.isnan(y):
            continue
        if not (math.isfinite(x) and math.isfinite(y)):
            w = math.inf if x != y else w
            continue
        w = max(w, abs(x - y) / se if se > 0 else (0.0 if x == y else math.inf))
    return w


def main():
    d = sys.argv[1]
    bad = False
    pc, pg = (rows(os.path.join(d, f"ph_{b}", "phase.csv")) for b in ("cpu", "cuda"))
    sc, sg = (json.load(open(os.path.join(d, f"ph_{b}", "summary.json")))["measure"] for b in ("cpu", "cuda"))
    w = worst(pc, pg, "measured_rate", "rate_se")
    div = max(abs(float(a["diverged_fraction"]) - float(b["diverged_fraction"])) for a, b in zip(pc, pg))
    print(f"phase --measure: {len(pc)} points; max |cpu - cuda| = {w:.3g} se (measured_rate); "
          f"diverged fraction max diff {div:g}; max |z| vs theory cpu {sc['max_abs_rate_z']:.3f} "
          f"cuda {sg['max_abs_rate_z']:.3f}")
    bad |= not (w <= 0.1) or div > 0
    rc, rg = (rows(os.path.join(d, f"sim_{b}", "rates.csv")) for b in ("cpu", "cuda"))
    jc, jg = (json.load(open(os.path.join(d, f"sim_{b}", "summary.json"))) for b in ("cpu", "cuda"))
    for col in ("contraction", "coupling", "rate", "final_error"):
        w = worst(rc, rg, col, col + "_se")
        print(f"simulate {col:12}: max |cpu - cuda| = {w:.3g} se over {len(rc)} rows")
        bad |= not (w <= 0.1)
    print(f"simulate verdicts: cpu pass={jc['pass']} failed={jc['failed']}/{jc['checks']}; "
          f"cuda pass={jg['pass']} failed={jg['failed']}/{jg['checks']}")
    bad |= jc["pass"] != jg["pass"]
    big = os.path.join(d, "sim_big", "summary.json")
    if os.path.exists(big):
        jb = json.load(open(big))
        print(f"simulate cuda {jb['trials']} trials: pass={jb['pass']} failed={jb['failed']}/{jb['checks']}, "
              f"{jb['seconds']:.2f} s in the op; z limit {jb['z_limit']:.2f}")
    print("backends agree" if not bad else "backends DISAGREE")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
