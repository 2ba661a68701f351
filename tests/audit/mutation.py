#!/usr/bin/python3
"""Mutation audit (not in CI): applies deliberate bugs one at a time to a scratch copy of
the source, rebuilds (ccache), runs the unit tests and the quick experiments, and records
whether the suite noticed (killed) or not (survived). The committed tree is never touched.

    /usr/bin/python3 tests/audit/mutation.py [--scratch /tmp/akm-mutants] [--only NAME,...]
        [--quick T1,T3,...] [--jobs 2]

Prints a Markdown table and writes <scratch>/mutation.tsv. Exit 1 when a mutant survives.
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import time

# name, file, exact text (must occur once), replacement, what the bug stands for
MUTANTS = [
    ("beta-for-beta-tilde", "src/theory/theory.cpp",
     "double beta_tilde(double beta, double eta, double lam) { return beta - eta * lam; }",
     "double beta_tilde(double beta, double eta, double lam) { return beta + 0 * eta * lam; }",
     "β used where β̃_i = β − ηλ̂_i belongs"),
    ("raw-for-normalized-key", "include/akm/rules/kernels.hpp",
     "    k = x / x.norm();", "    k = x;",
     "the normalized key x̂ = x/‖x‖ replaced by the raw key"),
    ("dropped-1/N-stderr", "src/sim/sim.cpp",
     "return (variance() / static_cast<double>(count_)).array().sqrt().matrix();",
     "return variance().array().sqrt().matrix();",
     "standard error without the 1/N (tolerances √N too wide)"),
    ("dropped-1/N-merge", "src/sim/sim.cpp",
     "mean_[j] += d * nb / n;", "mean_[j] += d * nb;",
     "pooled mean of two partial sums without the 1/N"),
    ("transposed-product", "src/spectrum/spectrum.cpp",
     "return basis * lambda.asDiagonal() * basis.transpose();",
     "return basis.transpose() * lambda.asDiagonal() * basis;",
     "Σ = UᵀΛU instead of UΛUᵀ"),
    ("off-by-one-lag", "src/theory/theory.cpp",
     "return contraction / (1.0 - contraction);  // [prop:nc1-main]",
     "return 1.0 / (1.0 - contraction);  // [prop:nc1-main]",
     "steady lag one step too long: 1/(1−β̃) for β̃/(1−β̃)"),
    ("off-by-one-transient", "src/theory/theory.cpp",
     "return target * (1.0 - std::pow(beta_tilde, static_cast<double>(t)));",
     "return target * (1.0 - std::pow(beta_tilde, static_cast<double>(t + 1)));",
     "transient (1 − β̃^t) with exponent t+1"),
    ("mu-times-eta", "src/theory/theory.cpp",
     "return (1.0 - beta) / eta; }", "return (1.0 - beta) * eta; }",
     "μ = (1−β)·η instead of (1−β)/η"),
    ("ema-dropped-1-minus-beta", "include/akm/rules/kernels.hpp",
     "M.noalias() += ((1.0 - beta) * delta) * x.transpose();",
     "M.noalias() += delta * x.transpose();",
     "EMA update without the (1−β) factor"),
    ("ak-sign", "include/akm/rules/kernels.hpp",
     "r = eta * (delta - r);", "r = eta * (delta + r);",
     "delta rule with the wrong sign of the prediction Mk"),
    ("transport-dropped-beta", "include/akm/rules/kernels.hpp",
     "  P *= beta;\n", "",
     "transport factor ηkkᵀ without βI"),
    ("no-bonferroni", "src/check/check_judge.cpp",
     "const double alpha_each = alpha_ / static_cast<double>(std::max(k, 1LL));",
     "const double alpha_each = alpha_;",
     "family-wise rate not divided over the comparisons"),
    ("jackknife-se-factor", "src/sim/sim.cpp",
     "ss * static_cast<double>(g - 1) / static_cast<double>(g)",
     "ss / static_cast<double>(g)",
     "jackknife variance without the (g−1) factor"),
    ("fourth-moment-gaussian-8th", "src/spectrum/fourth_moment.cpp",
     "105 * e2 * e2 * la * la * la * la", "15 * e2 * e2 * la * la * la * la",
     "E1's exact error: the Gaussian moment E[g⁸] = 105 taken as 15"),
    ("phi-numerator", "src/theory/theory.cpp",
     "double phi(double mu, double lam) { return 1.0 / (mu + lam); }",
     "double phi(double mu, double lam) { return (1.0 + 0 * lam) / mu; }",
     "fixed-point gain φ_i = 1/μ, dropping λ_i"),
]

SLOW_UNIT = "BadInput|Determinism|CrashSafety|Resume"  # CLI plumbing, not numerics


def sh(cmd, cwd, log, timeout=None):
    with open(log, "a") as f:
        f.write(f"\n$ {cmd}\n")
        f.flush()
        try:
            return subprocess.run(cmd, shell=True, cwd=cwd, stdout=f, stderr=subprocess.STDOUT,
                                  timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            return 124


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scratch", default="/tmp/akm-mutants")
    ap.add_argument("--only", default="")
    ap.add_argument("--quick", default="T1,T3,T4,T5,T6,T7,T8,T12")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--skip-baseline", action="store_true",
                    help="trust that the unmutated copy passes (it was checked on a previous run)")
    a = ap.parse_args()
    repo = pathlib.Path(__file__).resolve().parents[2]
    scratch = pathlib.Path(a.scratch)
    # The copy sits at <scratch>/wt/reliability and CCACHE_BASEDIR=<scratch>, so compiler
    # invocations match those of /work/wt/reliability (CCACHE_BASEDIR=/work): ccache hits.
    src = scratch / "wt" / "reliability"
    scratch.mkdir(parents=True, exist_ok=True)
    # Refresh the copy but keep its build folder (make + ccache then rebuild little).
    if src.exists():
        for p in src.iterdir():
            if p.name != "build":
                shutil.rmtree(p) if p.is_dir() else p.unlink()
    ignore = shutil.ignore_patterns("build*", "results", ".git", "notebooks_export")
    src.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(repo, src, ignore=ignore, dirs_exist_ok=True)
    log = scratch / "mutation.log"
    env = f"CCACHE_BASEDIR={scratch} nice -n 10"
    build = src / "build"
    cfg = f"{env} cmake -S {src} -B {build} -DCMAKE_BUILD_TYPE=Release > /dev/null"
    make = f"{env} cmake --build {build} -j{a.jobs}"
    if sh(cfg, scratch, log) or sh(make, scratch, log):
        sys.exit("the unmutated copy does not build; see " + str(log))
    unit = f"{env} ctest --test-dir {build} -L unit -E '{SLOW_UNIT}' -j{a.jobs}"
    quick_ids = [q for q in a.quick.split(",") if q]

    def suite():
        """Which parts of the suite fail: a list of names (empty = all pass)."""
        failed = []
        if sh(unit + " --output-on-failure", scratch, log, timeout=1800) != 0:
            failed.append("unit")
        for q in quick_ids:
            rc = sh(f"{env} {build}/akm run {q} --quick --quiet --out {scratch}/quick", scratch,
                    log, timeout=900)
            if rc != 0:
                failed.append(f"quick_{q}" + ("" if rc == 1 else f"(exit {rc})"))
        return failed

    base = [] if a.skip_baseline else suite()
    if base:
        sys.exit(f"the unmutated copy fails {base}; see {log}")
    only = set(filter(None, a.only.split(",")))
    rows = []
    # Mutants in .cpp files first: a header mutant recompiles most of the library.
    order = sorted(MUTANTS, key=lambda m: m[1].endswith(".hpp"))
    for name, rel, find, repl, what in order:
        if only and name not in only:
            continue
        path = src / rel
        text = path.read_text()
        if text.count(find) != 1:
            rows.append((name, what, "stale", f"pattern found {text.count(find)} times", 0))
            continue
        t0 = time.time()
        path.write_text(text.replace(find, repl))
        try:
            if sh(make, scratch, log) != 0:
                verdict, by = "killed", "build"
            else:
                failed = suite()
                verdict, by = ("killed", ",".join(failed)) if failed else ("SURVIVED", "")
        finally:
            path.write_text(text)
        rows.append((name, what, verdict, by, time.time() - t0))
        print(f"{name}: {verdict} {by} ({time.time() - t0:.0f} s)", flush=True)
    sh(make, scratch, log)  # leave the scratch build unmutated

    with open(scratch / "mutation.tsv", "w") as f:
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    print("\n| mutant | bug | verdict | failed |\n|---|---|---|---|")
    for name, what, verdict, by, _ in rows:
        print(f"| {name} | {what} | {verdict} | {by} |")
    scored = [r for r in rows if r[2] in ("killed", "SURVIVED")]
    killed = sum(r[2] == "killed" for r in scored)
    print(f"\nkill rate: {killed}/{len(scored)}")
    return 0 if killed == len(scored) else 1


if __name__ == "__main__":
    sys.exit(main())
