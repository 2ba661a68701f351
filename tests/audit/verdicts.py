#!/usr/bin/python3
"""Per-check verdicts of one `akm run` folder at several declared family-wise rates.

The tolerance of a Monte-Carlo check depends on the declared rate only through the
quantile q (include/akm/check/check.hpp): Student-t (or normal) at rate/(2K), K the run's
Monte-Carlo comparisons, then Hall's skew correction. So one run per seed yields the
verdicts at every rate; this script recomputes them from summary.json and first checks
that it reproduces akm's own verdicts at the rate the run was made with.

    verdicts.py RUN_DIR SEED RATE[,RATE...]   → TSV rows: seed rate id check kind pass z
"""
import json
import math
import pathlib
import sys

from scipy.stats import norm, t as student_t


def quantile(p_each, dof):
    if dof is None or dof >= 1e6:
        return norm.isf(p_each / 2)
    return student_t.isf(p_each / 2, max(dof, 1.0))


def judge(c, p_each):
    """akm's judge_monte_carlo (src/check/check_judge.cpp), for one record at per-comparison rate p_each."""
    vals = [c.get(k) for k in ("predicted", "measured", "stderr", "stderr_predicted", "bias_bound")]
    if any(v is None or not math.isfinite(v) for v in vals):
        return False
    pred, meas, se, se_pred, bias = vals
    s = math.hypot(se, se_pred)
    skew = c.get("skew_of_mean") or 0.0
    g = skew * (se / s) ** 3 if s > 0 and skew else 0.0
    cc, d = (-g / 6 if c.get("se_exact") else g / 3), g / 6

    def inv(y):
        return y - d if cc == 0 else (math.copysign(abs(1 + 3 * cc * (y - d)) ** (1 / 3), 1 + 3 * cc * (y - d)) - 1) / cc

    q = quantile(p_each, c.get("dof"))
    above, below = inv(q) * s + bias, -inv(-q) * s + bias
    diff = meas - pred
    return diff <= above and -diff <= below


def main(run_dir, seed, rates):
    rows, mismatches = [], []
    for f in sorted(pathlib.Path(run_dir).glob("*/summary.json")):
        s = json.loads(f.read_text())
        mc = [c for c in s["checks"] if c["kind"] in ("mc", "family")]
        K = max(sum(c["comparisons"] for c in mc), 1)
        for c in s["checks"]:
            is_mc = c["kind"] in ("mc", "family")
            if is_mc and judge(c, s["family_alpha"] / K) != c["pass"]:
                mismatches.append(f"{s['id']} {c['name']}")
            for rate in rates:
                ok = judge(c, rate / K) if is_mc else c["pass"]
                z = c.get("z_corrected", c.get("z_score"))
                rows.append([seed, repr(rate), s["id"], c["name"].replace("\t", " "), c["kind"],
                             "1" if ok else "0", repr(z)])
    if mismatches:
        sys.stderr.write("verdicts.py does not reproduce akm's verdicts:\n  " + "\n  ".join(mismatches) + "\n")
        return 3
    for r in rows:
        print("\t".join(r))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], [float(x) for x in sys.argv[3].split(",")]))
