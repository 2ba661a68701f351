"""What the claims' trainings share (akm.torch.image_mlp, akm.torch.vision, akm.torch.language):
one thread per run, the runs spread over worker processes, the checks of a run's fields, and the
command line that prints every run as one JSON line."""
import argparse
import ctypes
import json
import math
import multiprocessing

import torch


def single_threaded():
    """One thread for torch and for the BLAS it calls (Debian's torch calls the system libblas,
    OpenBLAS where installed, which starts its own threads): the runs are spread over worker
    processes instead, and a run's numbers do not depend on their count."""
    torch.set_num_threads(1)
    try:
        setter = getattr(ctypes.CDLL("libblas.so.3"), "openblas_set_num_threads", None)
    except OSError:
        setter = None
    if setter is not None:
        setter(1)


def step(opt, loss, before_step=None):
    """One training step on `loss`: the gradients, then `before_step()` if given (a diagnostic of
    the pre-step state), then the optimizer's step. Returns the loss's value, or None when the run
    has diverged: the loss is not finite, or akm.torch refuses a non-finite gradient or activation."""
    value = loss.item()
    if not math.isfinite(value):
        return None
    opt.zero_grad(set_to_none=True)
    loss.backward()
    if before_step is not None:
        before_step()
    try:
        opt.step()
    except ValueError:
        return None
    return value


_WORK = None  # (train, data) in a worker process


def _init(load, load_args, train):
    global _WORK
    _WORK = (train, load(*load_args))


def _one(args):
    run, length = args
    train, data = _WORK
    return train(data, run, length)


def run_all(load, load_args, train, runs, length, workers):
    """train(load(*load_args), run, length) for every run, in the order given, on `workers`
    processes (forked; each loads the data once)."""
    if workers > 1 and len(runs) > 1:
        with multiprocessing.get_context("fork").Pool(workers, _init, (load, load_args, train)) as pool:
            return pool.map(_one, [(r, length) for r in runs], chunksize=1)
    data = load(*load_args)
    return [train(data, r, length) for r in runs]


def check_runs(runs, fields):
    """Refuses a run list that is not a non-empty list, or a run whose field fails its test:
    `fields` maps a name to (test(run) → bool, what it must be). ValueError names the run and field."""
    if not isinstance(runs, list) or not runs:
        raise ValueError("--runs must be a non-empty JSON list")
    for k, r in enumerate(runs):
        for name, (ok, must) in fields.items():
            if not ok(r):
                raise ValueError(f"runs[{k}].{name} {r.get(name)!r} must be {must}")


def one_of(name, choices):
    return lambda r: r.get(name) in choices, "one of " + ", ".join(choices)


def positive(name, when=lambda r: True):
    return lambda r: not when(r) or (isinstance(r.get(name), (int, float)) and r[name] > 0), "> 0"


def seed():
    return lambda r: isinstance(r.get("seed"), int) and 0 <= r["seed"] < 2**31, "an integer in [0, 2**31)"


def command(argv, prog, doc, length, measure, check, data=None):
    """The command line of a training module: --runs (JSON), --workers, the run length (`length`:
    (flag, help, minimum)) and, where given, --data (its choices); prints measure(...) as JSON."""
    p = argparse.ArgumentParser(prog=prog, description=doc.splitlines()[0])
    if data:
        p.add_argument("--data", required=True, choices=data)
    flag, text, least = length
    p.add_argument(flag, type=int, required=True, help=f"{text} (≥ {least})")
    p.add_argument("--runs", required=True, help="JSON list of runs (the module's docstring)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (≥ 1); the numbers do not depend on it")
    a = p.parse_args(argv)
    n = getattr(a, flag.lstrip("-"))
    if n < least:
        p.error(f"{flag} {n} must be ≥ {least}")
    if a.workers < 1:
        p.error(f"--workers {a.workers} must be ≥ 1")
    try:
        runs = json.loads(a.runs)
        check(runs)
    except ValueError as e:
        p.error(str(e))
    print(json.dumps(measure(*((a.data,) if data else ()), n, runs, a.workers)))
