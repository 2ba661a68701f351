#!/usr/bin/env python3
"""JAX references of W1–W3: one trial written plainly, `jax.vmap` over trials, `jax.jit`.

What a researcher with a GPU would write instead of akm's CUDA kernels. Run by
`akm bench --vs-jax` (interpreter from `--python`), with the same interface as numpy_ref.py:
    python3 tests/bench/jax_ref.py '<workload JSON>'
The JSON gives the workload and its parameters (names as include/akm/sim/ops/transport.hpp,
ak_sgd_ema.hpp, phase_map.hpp). Float32 (JAX's default, as the device path of akm). The jitted
function is run once at the full size to compile and warm up; the second run, with another
key, is timed to `block_until_ready`. Prints one JSON object: seconds, trial-steps, the
device JAX ran on and the statistics {name: [mean, standard error]} that `akm bench` checks
against its own before the time counts. JAX's threefry streams differ from akm's Philox
streams, so agreement is statistical. Exits 3 (and prints nothing) where JAX is missing.
"""
import json
import sys
import time

try:
    import jax
    import jax.numpy as jnp
except ImportError:
    sys.exit(3)

import numpy as np


from numpy_ref import mean_se, power_sqrt as power_sqrt64  # the same statistics and spectrum


def power_sqrt(n, unit_trace):
    return jnp.asarray(power_sqrt64(n, unit_trace), dtype=jnp.float32)


def w1(p):
    n, steps, beta, eta = p["n"], p["steps"], p["beta"], p["eta"]
    sl = power_sqrt(n, False)

    def trial(key):
        def step(t, v):
            x = jax.random.normal(jax.random.fold_in(key, t), (n,)) * sl
            x = x / jnp.linalg.norm(x)
            return beta * v - eta * jnp.dot(v, x) * x
        return jax.lax.fori_loop(0, steps, step, jnp.full((n,), 1.0 / np.sqrt(n), jnp.float32))

    def stats(v):
        return {"v0": v[:, 0], "v_mid": v[:, n // 2], "norm_sq": (v * v).sum(axis=1)}
    return trial, stats, p["trials"] * steps


def w2(p):
    m, n, steps = p["m"], p["n"], p["steps"]
    alpha, beta, eta, sigma = p["alpha"], p["beta"], p["eta"], p["sigma"]
    sl = power_sqrt(n, False)

    def trial(key):
        k0, key = jax.random.split(key)
        e0 = -jax.random.normal(k0, (m, n))
        zero = jnp.zeros((m, n), jnp.float32)

        def step(t, s):
            e_ak, m_ak, e_ema, m_ema = s
            kx, ke = jax.random.split(jax.random.fold_in(key, t))
            x = jax.random.normal(kx, (n,)) * sl
            eps = sigma * jax.random.normal(ke, (m,))
            k = x / jnp.linalg.norm(x)
            d = e_ak @ x + eps
            m_ak = beta * m_ak + eta * jnp.outer(d - m_ak @ k, k)
            e_ak = e_ak - alpha * m_ak
            d = e_ema @ x + eps
            m_ema = beta * m_ema + (1.0 - beta) * jnp.outer(d, x)
            e_ema = e_ema - alpha * m_ema
            return e_ak, m_ak, e_ema, m_ema
        e_ak, _, e_ema, _ = jax.lax.fori_loop(0, steps, step, (e0, zero, e0, zero))
        return jnp.stack([(e_ak ** 2).sum(), (e_ema ** 2).sum()])

    def stats(out):
        return {"loss_ak": out[:, 0], "loss_ema": out[:, 1]}
    return trial, stats, p["trials"] * steps


def w3(p):
    n, steps, renorm = p["n"], p["steps"], p["renorm"]
    ne, nb, eta_max, trials = p["n_eta"], p["n_beta"], p["eta_max"], p["trials"]
    sl = power_sqrt(n, True)
    pts = ne * nb

    def trial(key, eta, beta):
        def step(t, s):
            v, log_norm = s
            x = jax.random.normal(jax.random.fold_in(key, t), (n,)) * sl
            v = beta * v - eta * jnp.dot(v, x) * x
            nv = jnp.linalg.norm(v)
            due = ((t + 1) % renorm == 0) | (t + 1 == steps)
            return (jnp.where(due, v / nv, v),
                    log_norm + jnp.where(due, jnp.log(nv), 0.0))
        v0 = jnp.full((n,), 1.0 / np.sqrt(n), jnp.float32)
        _, log_norm = jax.lax.fori_loop(0, steps, step, (v0, jnp.float32(0.0)))
        return log_norm / steps

    a = np.repeat(np.arange(pts) // nb, trials)
    b = np.repeat(np.arange(pts) % nb, trials)
    etas = jnp.asarray(eta_max * (a + 1) / ne, jnp.float32)
    betas = jnp.asarray(b / nb, jnp.float32)

    def stats(lyap):
        lyap = np.asarray(lyap).reshape(pts, trials)
        return {f"p{i}": lyap[i] for i in range(pts)}
    return trial, stats, pts * trials * steps, (etas, betas)


def main():
    p = json.loads(sys.argv[1])
    made = {"W1": w1, "W2": w2, "W3": w3}[p["workload"]](p)
    trial, stats, trial_steps = made[:3]
    extra = made[3] if len(made) > 3 else ()
    rows = len(extra[0]) if extra else p["trials"]
    run = jax.jit(jax.vmap(trial))

    def keys(seed):
        return jax.random.split(jax.random.PRNGKey(seed), rows)
    seed = p.get("seed", 1)
    run(keys(seed + 1), *extra).block_until_ready()  # compile and warm up at the full size
    k = keys(seed)
    k.block_until_ready()
    t0 = time.perf_counter()
    out = run(k, *extra).block_until_ready()
    el = time.perf_counter() - t0
    st = {name: mean_se(v) for name, v in stats(np.asarray(out)).items()}
    print(json.dumps({"workload": p["workload"], "seconds": el, "trial_steps": trial_steps,
                      "jax": jax.__version__, "device": str(jax.devices()[0].device_kind),
                      "stats": st}))


if __name__ == "__main__":
    main()
