#!/usr/bin/python3
"""NumPy references of W1–W3, vectorized over trials (what a researcher writes by hand).

Run by `akm bench --vs-numpy` with Debian's python3-numpy:
    /usr/bin/python3 tests/bench/numpy_ref.py '<workload JSON>'
The JSON gives the workload and its parameters (the same names as include/akm/sim/ops/transport.hpp, ak_sgd_ema.hpp, phase_map.hpp).
Prints one JSON object: the simulated time (seconds, excluding imports and set-up), the
trial-steps done and the statistics {name: [mean, standard error]} that `akm bench` checks
against the engine's before the time counts. NumPy's own generator (PCG64) is used: the
streams differ from the engine's, so agreement is statistical, not bitwise.
"""
import json
import sys
import time

import numpy as np


def mean_se(a):
    a = np.asarray(a, dtype=np.float64)
    return [float(a.mean()), float(a.std(ddof=1) / np.sqrt(a.size))]


def power_sqrt(n, unit_trace):
    lam = 1.0 / np.arange(1, n + 1)
    if unit_trace:
        lam = lam / lam.sum()
    return np.sqrt(lam)


def w1(p, rng):
    n, T, steps, beta, eta = p["n"], p["trials"], p["steps"], p["beta"], p["eta"]
    sl = power_sqrt(n, False)
    v = np.full((T, n), 1.0 / np.sqrt(n))
    t0 = time.perf_counter()
    for _ in range(steps):
        x = rng.standard_normal((T, n)) * sl
        x /= np.linalg.norm(x, axis=1, keepdims=True)
        d = np.einsum("ij,ij->i", v, x)
        v = beta * v - (eta * d)[:, None] * x
    el = time.perf_counter() - t0
    stats = {"v0": mean_se(v[:, 0]), "v_mid": mean_se(v[:, n // 2]),
             "norm_sq": mean_se((v * v).sum(axis=1))}
    return el, T * steps, stats


def w2(p, rng):
    m, n, T, steps = p["m"], p["n"], p["trials"], p["steps"]
    alpha, beta, eta, sigma = p["alpha"], p["beta"], p["eta"], p["sigma"]
    sl = power_sqrt(n, False)
    E_ak = -rng.standard_normal((T, m, n))
    E_ema = E_ak.copy()
    M_ak = np.zeros((T, m, n))
    M_ema = np.zeros((T, m, n))
    t0 = time.perf_counter()
    for _ in range(steps):
        x = rng.standard_normal((T, n)) * sl
        eps = sigma * rng.standard_normal((T, m))
        k = x / np.linalg.norm(x, axis=1, keepdims=True)
        d = np.einsum("tmn,tn->tm", E_ak, x) + eps
        pk = np.einsum("tmn,tn->tm", M_ak, k)
        M_ak = beta * M_ak + eta * (d - pk)[:, :, None] * k[:, None, :]
        E_ak -= alpha * M_ak
        d = np.einsum("tmn,tn->tm", E_ema, x) + eps
        M_ema = beta * M_ema + (1.0 - beta) * d[:, :, None] * x[:, None, :]
        E_ema -= alpha * M_ema
    el = time.perf_counter() - t0
    stats = {"loss_ak": mean_se((E_ak ** 2).sum(axis=(1, 2))),
             "loss_ema": mean_se((E_ema ** 2).sum(axis=(1, 2)))}
    return el, T * steps, stats


def w3(p, rng):
    n, T, steps, renorm = p["n"], p["trials"], p["steps"], p["renorm"]
    ne, nb, eta_max = p["n_eta"], p["n_beta"], p["eta_max"]
    sl = power_sqrt(n, True)
    pts = ne * nb
    a = np.repeat(np.arange(pts) // nb, T)
    b = np.repeat(np.arange(pts) % nb, T)
    eta = eta_max * (a + 1) / ne
    beta = b / nb
    R = pts * T
    v = np.full((R, n), 1.0 / np.sqrt(n))
    log_norm = np.zeros(R)
    t0 = time.perf_counter()
    for t in range(steps):
        x = rng.standard_normal((R, n)) * sl
        d = np.einsum("ij,ij->i", v, x)
        v = beta[:, None] * v - (eta * d)[:, None] * x
        if (t + 1) % renorm == 0 or t + 1 == steps:
            nv = np.linalg.norm(v, axis=1)
            log_norm += np.log(nv)
            v /= nv[:, None]
    el = time.perf_counter() - t0
    lyap = (log_norm / steps).reshape(pts, T)
    stats = {f"p{i}": mean_se(lyap[i]) for i in range(pts)}
    return el, R * steps, stats


def main():
    p = json.loads(sys.argv[1])
    rng = np.random.default_rng(p.get("seed", 1))
    fn = {"W1": w1, "W2": w2, "W3": w3}[p["workload"]]
    el, ts, stats = fn(p, rng)
    print(json.dumps({"workload": p["workload"], "seconds": el, "trial_steps": ts,
                      "numpy": np.__version__, "stats": stats}))


if __name__ == "__main__":
    main()
