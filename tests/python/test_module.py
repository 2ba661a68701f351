# The akm Python module (src/python/) against the program it wraps: the same numbers as
# `akm theory --json`, the CLI's refusals as ValueError, shapes that numpy and pandas take,
# determinism, and Ctrl-C stopping the long Monte-Carlo calls.
import json
import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import akm

SPEC = "spiked:n=16,spikes=10/5/2,floor=1"


def cli_json(cli, *args):
    out = subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


@pytest.mark.parametrize("key,beta,eta,alpha", [("normalized", 0.9, 0.5, 0.1), ("raw", 0.8, 0.05, 0.3),
                                                ("normalized", 0.0, 0.8, 2.0)])
def test_theory_equals_cli_json(akm_cli, key, beta, eta, alpha):
    ref = cli_json(akm_cli, "theory", "--beta", repr(beta), "--eta", repr(eta), "--alpha", repr(alpha),
                   "--spectrum", SPEC, "--key", key, "--json")
    r = akm.theory(beta, eta, SPEC, key=key, alpha=alpha)
    for name, value in ref.items():
        if name == "directions":
            continue
        assert r[name] == value, name  # the same double: both come from one to_json()
    d = r["directions"]
    n = len(ref["directions"])
    for name in ref["directions"][0]:
        if name == "band":
            for i, row in enumerate(ref["directions"]):
                if row["band"] is None:
                    assert math.isnan(d["band_lo"][i]) and math.isnan(d["band_hi"][i])
                else:
                    assert [d["band_lo"][i], d["band_hi"][i]] == row["band"]
            continue
        col = d[name]
        assert isinstance(col, np.ndarray) and col.shape == (n,), name
        assert col.tolist() == [row[name] for row in ref["directions"]], name


def test_theory_directions_make_a_dataframe():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(akm.theory(0.9, 0.5, SPEC)["directions"])
    assert len(df) == 16 and "beta_tilde" in df and df["underdamped_ak"].dtype == bool


def test_spectrum_matches_theory():
    s = akm.spectrum(SPEC)
    t = akm.theory(0.9, 0.5, SPEC)["directions"]
    assert s["n"] == 16 and s["eigenvalues"].shape == (16,)
    assert s["eigenvalues"].tolist() == t["lambda"].tolist()
    assert s["lambda_hat"].tolist() == t["lambda_hat"].tolist()
    assert s["kappa"].tolist() == t["kappa"].tolist()
    assert abs(s["lambda_hat"].sum() - 1.0) < 1e-10  # λ̂ are the eigenvalues of a unit-trace Σ̂
    assert np.all(np.diff(s["eigenvalues"]) <= 0)


def cli_error(cli, *args):
    p = subprocess.run([cli, *args], capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    return p.stderr


@pytest.mark.parametrize("call,args", [
    (lambda: akm.theory(1.0, 0.5, SPEC), ["theory", "--beta", "1", "--eta", "0.5", "--spectrum", SPEC]),
    (lambda: akm.theory(0.9, 0.0, SPEC), ["theory", "--beta", "0.9", "--eta", "0", "--spectrum", SPEC]),
    (lambda: akm.theory(0.9, -1.0, SPEC), ["theory", "--beta", "0.9", "--eta", "-1", "--spectrum", SPEC]),
    (lambda: akm.theory(0.9, 1.95, SPEC), ["theory", "--beta", "0.9", "--eta", "1.95", "--spectrum", SPEC]),
    (lambda: akm.theory(0.9, 0.5, "spiked:n=0"), ["theory", "--beta", "0.9", "--eta", "0.5", "--spectrum", "spiked:n=0"]),
    (lambda: akm.theory(0.9, 0.5, "nonsense"), ["theory", "--beta", "0.9", "--eta", "0.5", "--spectrum", "nonsense"]),
    (lambda: akm.theory(0.9, 0.5, SPEC, key="hat"), ["theory", "--beta", "0.9", "--eta", "0.5", "--spectrum", SPEC, "--key", "hat"]),
    (lambda: akm.run("T999"), ["run", "T999"]),
    (lambda: akm.run("T14", trials_scale=0), ["run", "T14", "--trials-scale", "0"]),
    (lambda: akm.run("T14", trials_scale=1001), ["run", "T14", "--trials-scale", "1001"]),
    (lambda: akm.run("T3", backend="gpu"), ["run", "T3", "--backend", "gpu"]),
    (lambda: akm.phase(x="eta:0.1:1:4", y="gamma:0:1:4", spectrum=SPEC),
     ["phase", "--x", "eta:0.1:1:4", "--y", "gamma:0:1:4", "--metric", "stable", "--spectrum", SPEC]),
    (lambda: akm.phase(x="eta:0.1:1:4", y="alpha:0.1:1:4", spectrum=SPEC, metric="rho_ratio", measure=True),
     ["phase", "--x", "eta:0.1:1:4", "--y", "alpha:0.1:1:4", "--metric", "rho_ratio", "--spectrum", SPEC, "--measure"]),
    (lambda: akm.simulate(SPEC, trials=10), ["simulate", "--spectrum", SPEC, "--trials", "10"]),
])
def test_bad_input_raises_the_cli_message(akm_cli, call, args):
    with pytest.raises(ValueError) as e:
        call()
    msg = str(e.value)
    assert msg and " is invalid: " in msg
    # The program prints the same message (after its own prefix) and exits 2.
    assert msg in cli_error(akm_cli, *args)


def test_phase_closed_form_shapes_and_values(akm_cli, tmp_path):
    x, y = "eta:0.05:1.9:7", "beta:0:0.95:5"
    m = akm.phase(x=x, y=y, metric="rho_ratio", spectrum=SPEC, alpha=0.2)
    assert m["x"].shape == (7,) and m["y"].shape == (5,)
    assert m["value"].shape == (5, 7) and m["names"][0] in m["values"]
    assert m["x"][0] == 0.05 and m["x"][-1] == 1.9 and m["y"][-1] == 0.95
    # The same map as `akm phase` writes to phase.csv (x fastest, then y).
    out = tmp_path / "ph"
    subprocess.run([akm_cli, "phase", "--x", x, "--y", y, "--metric", "rho_ratio", "--alpha", "0.2",
                    "--spectrum", SPEC, "--out", str(out), "--quiet"], check=True)
    import csv
    rows = list(csv.DictReader(open(out / "phase.csv")))
    assert len(rows) == 35
    for name in m["names"]:
        col = np.array([float(r[name]) for r in rows]).reshape(5, 7)
        got = m["values"][name]
        # The CSV writes every non-finite value as nan; the module keeps it (inf stays inf).
        assert np.array_equal(np.isfinite(got), np.isfinite(col)), name
        ok = np.isfinite(col)
        np.testing.assert_allclose(got[ok], col[ok], rtol=1e-15, atol=0)


def test_phase_measure_is_deterministic_and_near_the_closed_form():
    kw = dict(x="eta:0.2:1.0:3", y="beta:0.5:0.9:2", spectrum="power:n=8,exp=1", measure=True,
              trials=64, steps=60, seed=7, progress=False)
    a = akm.phase(**kw)
    b = akm.phase(**dict(kw, threads=1))
    assert a["measured"]["measured_rate"].shape == (2, 3)
    np.testing.assert_array_equal(a["measured"]["measured_rate"], b["measured"]["measured_rate"])
    assert np.all(np.isfinite(a["measured"]["rate_z"]))


def test_simulate_dataframe_and_determinism():
    pd = pytest.importorskip("pandas")
    kw = dict(spectrum="power:n=6,exp=1", trials=400, steps=40, seed=3, progress=False)
    t = akm.simulate(**kw)
    df = pd.DataFrame(t)
    assert len(df) == 12 and set(df["arm"]) == {"ak", "ema"}
    assert {"contraction", "contraction_pred", "contraction_se", "rate_se"} <= set(df.columns)
    assert np.all(df["contraction_se"] > 0)
    again = akm.simulate(**dict(kw, threads=1))
    for k in t:
        np.testing.assert_array_equal(t[k], again[k])
    other = akm.simulate(**dict(kw, seed=4))
    assert not np.array_equal(t["contraction"], other["contraction"])


def test_simulate_equals_cli(akm_cli, tmp_path):
    kw = dict(spectrum="power:n=4,exp=1", trials=300, steps=30, seed=11)
    table, summary = akm.simulate(**kw, summary=True, progress=False)
    out = tmp_path / "sim"
    subprocess.run([akm_cli, "simulate", "--spectrum", kw["spectrum"], "--trials", "300", "--steps", "30",
                    "--seed", "11", "--out", str(out), "--quiet"], check=False)
    import csv
    rows = list(csv.DictReader(open(out / "rates.csv")))
    assert [r["arm"] for r in rows] == table["arm"].tolist()
    for name in ("contraction", "contraction_se", "coupling", "rate_pred", "final_error"):
        np.testing.assert_allclose(table[name], [float(r[name]) for r in rows], rtol=1e-12)
    cli_summary = json.load(open(out / "summary.json"))
    assert summary["pass"] == cli_summary["pass"] and summary["checks"] == cli_summary["checks"]


def test_list_and_run():
    ids = [e["id"] for e in akm.list()]
    assert "T1" in ids and all(e["title"] for e in akm.list())
    s = akm.run("T1", quick=True, seed=5, progress=False)
    assert s["id"] == "T1" and s["quick"] is True and s["seed"] == 5
    assert "checks" in s and isinstance(s["pass"], bool)
    # The claim status (docs/statistics.md, "Claim statuses") comes with its counts.
    assert s["status"]["status"] in {"SUPPORTED", "CORRECTED", "CONTRADICTED", "NOT REPRODUCED AT THIS SCALE",
                                     "INCONCLUSIVE", "REPORTED"}
    assert 0 <= s["status"]["discriminating_checks"] <= s["status"]["evidence_checks"]
    # T1's status is the roll-up of the ledger statements it tests (docs/ledger.md), the same
    # statements `akm run` prints, with the ledger compiled into the module.
    assert s["status"]["basis"] == "ledger"
    assert [p["label"] for p in s["ledger"]] == ["thm:fixedpoint", "cor:fixedpoint-normalized"]
    assert s == akm.run("T1", quick=True, seed=5, progress=False)  # same seed, same summary


def test_run_trials_scale_multiplies_the_trials():
    one = akm.run("T1", quick=True, seed=5, progress=False)
    two = akm.run("T1", quick=True, seed=5, progress=False, trials_scale=2)
    assert "trials_scale" not in one and two["trials_scale"] == 2 and two["trials_scaled"] is True
    assert two["params"]["trials"] == 2 * one["params"]["trials"]


def test_run_backend_is_recorded():
    # T1 runs on an op (row_buffers) with a reference path but no cuda-emulated one.
    s = akm.run("T1", quick=True, seed=5, progress=False, backend="reference")
    assert s["backend"] == {"asked": "reference", "ran_on": "reference"}
    s = akm.run("T1", quick=True, seed=5, progress=False, backend="cuda-emulated")
    assert s["backend"] == {"asked": "cuda-emulated", "ran_on": "cpu"}
    assert "backend" not in akm.run("T1", quick=True, seed=5, progress=False)


def test_run_writes_to_out(tmp_path):
    s = akm.run("t1", seed=5, out=tmp_path, progress=False)
    assert (tmp_path / "T1" / "summary.json").exists() and s["dir"] == str(tmp_path / "T1")


INTERRUPT_SCRIPT = r"""
import sys, time, akm
print("ready", flush=True)
t0 = time.time()
try:
    {call}
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted %.3f" % (time.time() - t0), flush=True)
    # The stop flag is cleared: the next call runs to the end.
    akm.simulate("power:n=3,exp=1", trials=200, steps=5, progress=False)
    print("again ok", flush=True)
    sys.exit(3)
"""


@pytest.mark.parametrize("call", [
    'akm.simulate("power:n=32,exp=1", trials=10**8, steps=400, progress=False)',
    'akm.phase(x="eta:0.1:1.5:40", y="beta:0:0.95:40", spectrum="power:n=32,exp=1", measure=True, '
    'trials=20000, steps=2000, progress=False)',
])
def test_ctrl_c_stops_long_calls(call):
    env = dict(os.environ)
    p = subprocess.Popen([sys.executable, "-c", INTERRUPT_SCRIPT.format(call=call)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout.readline().strip() == "ready"
    time.sleep(1.0)  # well inside the call (each runs for minutes)
    sent = time.time()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    latency = time.time() - sent
    assert p.returncode == 3, (out, err)
    assert "interrupted" in out and "again ok" in out and "finished" not in out
    assert latency < 10, latency
