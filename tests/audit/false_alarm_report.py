#!/usr/bin/python3
"""Summarizes tests/audit/false_alarm.sh: per declared rate and experiment, how many of the
N seeds had at least one failed check (the family-wise event the rate bounds), with an exact
(Clopper-Pearson) 95% interval, and per check the failure counts.

    /usr/bin/python3 tests/audit/false_alarm_report.py [--wide] [results.tsv ...]

Several results.tsv files (e.g. audits of different experiment groups) are read as one.
--wide prints one row per experiment, a column per declared rate (docs/statistics.md describes the audit).
"""
import collections
import sys

from scipy.stats import beta as beta_dist


def clopper_pearson(k, n, conf=0.95):
    a = (1 - conf) / 2
    lo = 0.0 if k == 0 else beta_dist.ppf(a, k, n - k + 1)
    hi = 1.0 if k == n else beta_dist.ppf(1 - a, k + 1, n - k)
    return lo, hi


def wide(runs):
    rates = sorted({r for r, _ in runs}, key=float)
    ids = sorted({e for _, e in runs}, key=lambda e: (e[0], int(e[1:])))
    print("| experiment | seeds | " + " | ".join(f"declared {r}" for r in rates) + " |")
    print("|---|---|" + "---|" * len(rates))
    worst = 0
    for eid in ids:
        cells, n = [], 0
        for r in rates:
            per_seed = runs.get((r, eid), {})
            n, k = len(per_seed), sum(per_seed.values())
            lo, hi = clopper_pearson(k, n)
            flag = "" if lo <= float(r) else " **exceeds**"
            worst += bool(flag)
            cells.append(f"{k} ({k / n:.3g}; [{lo:.2g}, {hi:.2g}]){flag}" if k else f"0 ([0, {hi:.2g}])")
        print(f"| {eid} | {n} | " + " | ".join(cells) + " |")
    return 1 if worst else 0


def main(paths, as_wide=False):
    runs = collections.defaultdict(lambda: collections.defaultdict(bool))  # (rate,id)->seed->fail
    checks = collections.Counter()
    check_fail = collections.Counter()
    for path in paths:
        with open(path) as f:
            next(f)
            for line in f:
                seed, rate, eid, name, kind, ok, _z = line.rstrip("\n").split("\t")
                failed = ok == "0"
                runs[(rate, eid)][seed] |= failed
                checks[(rate, eid, name)] += 1
                check_fail[(rate, eid, name)] += failed
    if as_wide:
        return wide(runs)
    print("| declared rate | experiment | seeds N | runs with a failed check | observed rate | 95% CI | verdict |")
    print("|---|---|---|---|---|---|---|")
    worst = []
    for (rate, eid), per_seed in sorted(runs.items(), key=lambda kv: (float(kv[0][0]), kv[0][1])):
        n, k = len(per_seed), sum(per_seed.values())
        lo, hi = clopper_pearson(k, n)
        ok = lo <= float(rate)
        print(f"| {rate} | {eid} | {n} | {k} | {k / n:.3g} | [{lo:.3g}, {hi:.3g}] | "
              f"{'consistent' if ok else 'EXCEEDS declared rate'} |")
        if not ok:
            worst.append((rate, eid))
    print()
    print("Checks that failed at least once:")
    for key, c in sorted(check_fail.items()):
        if c:
            print(f"  rate {key[0]} {key[1]} {key[2]}: {c}/{checks[key]}")
    return 1 if worst else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    w = "--wide" in args
    files = [a for a in args if a != "--wide"] or ["/tmp/akm-false-alarm/results.tsv"]
    sys.exit(main(files, w))
