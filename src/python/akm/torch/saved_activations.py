"""akm.torch.saved_activations — what autograd keeps between forward and backward under akm.torch
[sec:realized-flops: "No additional activation tensors must be saved between forward and backward"].

The measurement. A forward runs under torch.autograd.graph.saved_tensors_hooks, whose pack hook
records the storage of every tensor autograd saves for the backward. Between the forward and the
backward, every tensor alive in the process (gc) whose storage the forward created is listed; the
extra activation is what is alive but neither saved by autograd nor the forward's output or loss.
The deployed rule needs X and ∇Y only, and the weight gradient ∇YᵀX already needs X, so
akm.torch's capture must alias an autograd-saved tensor: extra = 0 bytes, and autograd saves as
many tensors as it does with no optimizer at all.

Negative controls that the measurement must catch (else it could not tell the statement from its
rival, "an activation is kept"): a capture that keeps a copy of a layer's input, and a capture
that keeps a reference to the input of a frozen layer (whose weight gradient is not needed, so
autograd saves no X for it and the reference keeps it alive on its own). Both must read exactly
the input's bytes, ROWS·HIDDEN[0]·8; a reference to a trainable layer's input must read 0.

One source for the claim T22 (`python -m akm.torch.saved_activations --seed S` prints the
measurement as one JSON line) and for tests/python/test_saved_tensors.py.
"""
import argparse
import gc
import json
import sys

import torch

from .adamw import AKAdamW
from .muon import AKMuon
from .sgd import AKSGD

ROWS, N_IN, N_OUT = 16, 6, 4
HIDDEN = (12, 8)
STEPS = 3  # the first step creates the optimizer's state; later steps run with it in place
#: The optimizers measured: akm.torch's three, and torch.optim.AdamW as the plain reference.
MAKERS = {
    "AKSGD": lambda model: AKSGD(model, lr=0.1, beta=0.9, eta=0.5),
    "AKAdamW": lambda model: AKAdamW(model, lr=1e-3, betas=(0.99, 0.999), eta=0.37),
    "AKMuon": lambda model: AKMuon(model, lr=0.02),
    "torch.optim.AdamW": lambda model: torch.optim.AdamW(model.parameters(), lr=1e-3),
}
#: The bytes a kept copy of (or a lone reference to) the middle layer's float64 input holds.
INPUT_BYTES = ROWS * HIDDEN[0] * 8


def network(seed, frozen_middle=False):
    """Linear → LayerNorm → Linear → LayerNorm → Linear: LayerNorm saves its input, not its
    output, so the middle layer's input is saved by autograd only for that layer's own weight
    gradient (with the layer frozen, by nothing)."""
    torch.manual_seed(seed)
    model = torch.nn.Sequential(torch.nn.Linear(N_IN, HIDDEN[0]), torch.nn.LayerNorm(HIDDEN[0]),
                                torch.nn.Linear(*HIDDEN), torch.nn.LayerNorm(HIDDEN[1]),
                                torch.nn.Linear(HIDDEN[1], N_OUT)).double()
    if frozen_middle:
        model[2].requires_grad_(False)
    return model


def batch(seed):
    g = torch.Generator().manual_seed(seed + 1)
    return (torch.randn(ROWS, N_IN, generator=g, dtype=torch.float64),
            torch.randn(ROWS, N_OUT, generator=g, dtype=torch.float64))


def live_storages():
    gc.collect()
    return {o.storage().data_ptr(): o.numel() * o.element_size() for o in gc.get_objects() if torch.is_tensor(o)}


def forward_backward(model, opt, seed):
    """One training step; returns (extra bytes alive between forward and backward that autograd
    did not save, number of tensors autograd saved)."""
    X, Y = batch(seed)
    saved = set()

    def pack(t):
        saved.add(t.storage().data_ptr())
        return t

    before = live_storages()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = model(X)
        loss = ((out - Y) ** 2).mean()
    now = live_storages()
    kept = saved | {out.storage().data_ptr(), loss.storage().data_ptr()}
    extra = sum(size for ptr, size in now.items() if ptr not in before and ptr not in kept)
    loss.backward()
    if opt is not None:
        opt.step()
        opt.zero_grad(set_to_none=True)
    return extra, len(saved)


def steps(seed, frozen_middle, maker=None):
    """STEPS training steps of a fresh network under `maker`'s optimizer (None: no optimizer)."""
    model = network(seed, frozen_middle)
    opt = maker(model) if maker is not None else None
    return [forward_backward(model, opt, seed + k) for k in range(STEPS)]


def control(seed, frozen_middle, keep_copy):
    """Extra bytes of one step with a hook on the middle layer that keeps its input (a copy, or
    a reference); no optimizer."""
    model, held = network(seed, frozen_middle), []
    model[2].register_forward_pre_hook(
        lambda mod, inputs: held.append(inputs[0].clone() if keep_copy else inputs[0]))
    return forward_backward(model, None, seed)[0]


def measure(seed):
    """Every optimizer with the middle layer trainable and frozen, the plain runs with no
    optimizer, and the three controls, as one JSON-ready dict."""
    runs = []
    for layers, frozen in (("trainable", False), ("frozen-middle", True)):
        plain = steps(seed, frozen)
        for name, maker in MAKERS.items():
            for k, ((extra, saved), (_, plain_saved)) in enumerate(zip(steps(seed, frozen, maker), plain), 1):
                runs.append({"optimizer": name, "layers": layers, "step": k, "extra_bytes": extra,
                             "saved_tensors": saved, "plain_saved_tensors": plain_saved})
    return {
        "network": {"rows": ROWS, "n_in": N_IN, "hidden": list(HIDDEN), "n_out": N_OUT, "dtype": "float64",
                    "steps": STEPS},
        "torch": torch.__version__,
        "python": sys.version.split()[0],
        "input_bytes": INPUT_BYTES,
        "runs": runs,
        "controls": {"copy": control(seed, False, True),
                     "frozen reference": control(seed, True, False),
                     "trainable reference": control(seed, False, False)},
    }


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m akm.torch.saved_activations", description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=0, help="network and batch seed (0 ≤ seed < 2**31)")
    a = p.parse_args(argv)
    if not 0 <= a.seed < 2**31:
        p.error(f"--seed {a.seed} is outside [0, 2**31)")
    print(json.dumps(measure(a.seed)))


if __name__ == "__main__":
    main()
