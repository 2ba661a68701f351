# AKMuon's and Muon's options (nesterov, scale) held to hand-written float64 references on a tiny
# linear layer: the reference forms G, Σ̂ and the buffers in NumPy from the batch itself and
# takes NS(A) from A's SVD, U p⁵(Σ/(‖A‖_F + ε)) Vᵀ, not from the iteration the package runs. The
# defaults are the paper's AK-Muon [cor:mup-base-lr] exactly as before the options existed; the
# wide layer (m < n) separates "paper" from "reference"; nesterov changes the step from the
# second step on; options survive a checkpoint; bad values are refused with nothing changed.
import copy
import importlib
import io
import math

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")
from akm.torch import AKMuon, AKSGD, Muon, newton_schulz  # noqa: E402

COEF = (3.4445, -4.7750, 2.0315)  # Muon's quintic, copied from its reference
EPS = 1e-7  # Muon's reference adds it to ‖A‖_F
LR, BETA, ETA, WD, N = 0.02, 0.9, 0.4, 0.1, 16
WIDE, TALL = (3, 7), (7, 3)  # (m, n): W is m×n, out × in
CLASSES = {"AKMuon": AKMuon, "Muon": Muon}


def ns_ref(A, steps=5):
    U, S, Vt = np.linalg.svd(A, full_matrices=False)
    s = S / (np.linalg.norm(A) + EPS)
    for _ in range(steps):
        s = COEF[0] * s + COEF[1] * s ** 3 + COEF[2] * s ** 5
    return (U * s) @ Vt


def scale_ref(scale, m, n):
    return {"paper": math.sqrt(m / n), "reference": math.sqrt(max(1.0, m / n)), "none": 1.0}[scale]


def batch(k, m, n):
    rng = np.random.default_rng(100 + k)
    return rng.standard_normal((N, m)), rng.standard_normal((N, n))  # Δ (N×m), X (N×n)


def layer(m, n, seed=0):
    torch.manual_seed(seed)
    return torch.nn.Linear(n, m).double()  # weight m×n (Muon's rule), bias (AdamW fallback)


def make(name, lin, **kw):
    if name == "AKMuon":
        kw.setdefault("eta", ETA)
    return CLASSES[name](lin, lr=LR, beta=BETA, weight_decay=WD, **kw)


def backward(lin, k):
    m, n = lin.weight.shape
    D, X = batch(k, m, n)
    ((lin(torch.tensor(X)) * torch.tensor(D)).sum() / N).backward()  # ∇Y = Δ/N


def step(lin, opt, k):
    opt.zero_grad(set_to_none=True)
    backward(lin, k)
    opt.step()


def reference_run(name, W, steps, nesterov, scale):
    """The weights after each step, by the formulas alone."""
    m, n = W.shape
    buf, out = np.zeros_like(W), []
    for k in range(steps):
        D, X = batch(k, m, n)
        if name == "AKMuon":
            Xh = X / np.linalg.norm(X, axis=1, keepdims=True)
            innovation = (D / N).T @ Xh - buf @ (Xh.T @ Xh / N)  # G − M_{t−1}Σ̂ [eq:deployed]
            buf = BETA * buf + ETA * innovation
            direction = BETA * buf + ETA * innovation if nesterov else buf
        else:
            g = (D / N).T @ X
            buf = BETA * buf + (1 - BETA) * g  # [eq:ema-update]
            direction = (1 - BETA) * g + BETA * buf if nesterov else buf
        W = W * (1 - LR * WD) - LR * scale_ref(scale, m, n) * ns_ref(direction)
        out.append(W)
    return out


@pytest.mark.parametrize("name", CLASSES)
@pytest.mark.parametrize("shape", [WIDE, TALL])
@pytest.mark.parametrize("nesterov", [False, True])
@pytest.mark.parametrize("scale", ["paper", "reference", "none"])
def test_each_option_is_its_formula(name, shape, nesterov, scale):
    lin = layer(*shape)
    want = reference_run(name, lin.weight.detach().numpy().copy(), 4, nesterov, scale)
    opt = make(name, lin, nesterov=nesterov, scale=scale)
    for k in range(4):
        step(lin, opt, k)
        got = lin.weight.detach().numpy()
        assert np.abs(got - want[k]).max() <= 1e-12, (k, np.abs(got - want[k]).max())
    if nesterov or scale != "paper":  # the option is visible: the paper's form is far away
        paper = reference_run(name, layer(*shape).weight.detach().numpy().copy(), 4, False, "paper")
        if nesterov or shape == WIDE or scale == "none":
            assert np.abs(want[-1] - paper[-1]).max() > 1e-6


@pytest.mark.parametrize("name", CLASSES)
def test_the_defaults_are_the_paper_form(name):
    opt = make(name, layer(*WIDE))
    assert opt.defaults["nesterov"] is False and opt.defaults["scale"] == "paper"


@pytest.mark.parametrize("shape", [WIDE, TALL])
def test_ak_muon_default_step_is_unchanged(shape):
    # The previous AKMuon: M by the deployed rule (AKSGD's, bit for bit), then in place
    # W·(1 − lr·wd) and W − lr·√(m/n)·NS(M) [cor:mup-base-lr]; the default reproduces it exactly.
    lin, twin = layer(*shape), layer(*shape)
    opt, sgd = make("AKMuon", lin), AKSGD(twin, lr=0.1, beta=BETA, eta=ETA)
    m, n = shape
    for k in range(4):
        twin.load_state_dict(lin.state_dict())
        w0 = lin.weight.detach().clone()
        step(lin, opt, k)
        step(twin, sgd, k)
        M = opt.state[lin.weight]["M"]
        assert torch.equal(M, sgd.state[twin.weight]["M"])
        want = w0.clone()
        want.mul_(1 - LR * WD)
        want.add_(newton_schulz(M), alpha=-LR * math.sqrt(m / n))
        assert torch.equal(lin.weight.detach(), want)


@pytest.mark.parametrize("name", CLASSES)
def test_wide_layers_separate_paper_from_reference(name):
    # One step from the same W and batch, no decay: for m < n "reference" moves W √(n/m) times
    # as far as "paper" and "none" 1/√(m/n) times; for m ≥ n "paper" and "reference" coincide.
    for (m, n) in (WIDE, TALL):
        moves = {}
        for scale in ("paper", "reference", "none"):
            lin = layer(m, n)
            w0 = lin.weight.detach().clone()
            step(lin, CLASSES[name](lin, lr=LR, weight_decay=0.0, scale=scale), 0)
            moves[scale] = lin.weight.detach() - w0
        ratio = math.sqrt(n / m) if m < n else 1.0
        torch.testing.assert_close(moves["reference"], ratio * moves["paper"], rtol=1e-12, atol=0)
        torch.testing.assert_close(moves["none"], math.sqrt(n / m) * moves["paper"], rtol=1e-12, atol=0)
        if m < n:
            assert (moves["reference"].norm() / moves["paper"].norm()).item() > 1.5
        else:
            assert torch.equal(moves["reference"], moves["paper"])


@pytest.mark.parametrize("name", CLASSES)
def test_nesterov_changes_the_step_from_the_second_on(name, monkeypatch):
    # At the first step the look-ahead is a multiple of the buffer, which NS removes but for
    # its ε (set to 0 here, so only rounding is left); from the second on it is another direction.
    monkeypatch.setattr(importlib.import_module("akm.torch.newton_schulz"), "NS_EPS", 0.0)
    runs = {}
    for nesterov in (False, True):
        lin = layer(*WIDE)
        opt = make(name, lin, nesterov=nesterov)
        runs[nesterov] = []
        for k in range(2):
            step(lin, opt, k)
            runs[nesterov].append(lin.weight.detach().clone())
    first = (runs[True][0] - runs[False][0]).abs().max().item()
    second = (runs[True][1] - runs[False][1]).abs().max().item()
    assert first < 1e-14 and second > 1e-3 * LR, (first, second)


@pytest.mark.parametrize("name", CLASSES)
def test_options_survive_a_checkpoint(name):
    # 6 steps straight against 3, torch.save, a fresh layer and an optimizer built with the
    # defaults, load_state_dict, 3 more: bit for bit, and the loaded groups hold the options.
    straight = layer(*WIDE)
    opt = make(name, straight, nesterov=True, scale="reference")
    for k in range(6):
        step(straight, opt, k)
    first = layer(*WIDE)
    opt1 = make(name, first, nesterov=True, scale="reference")
    for k in range(3):
        step(first, opt1, k)
    buf = io.BytesIO()
    torch.save({"model": first.state_dict(), "opt": opt1.state_dict()}, buf)
    buf.seek(0)
    saved = torch.load(buf)
    resumed = layer(*WIDE, seed=1)
    resumed.load_state_dict(saved["model"])
    opt2 = make(name, resumed)
    opt2.load_state_dict(saved["opt"])
    assert all(g["nesterov"] is True and g["scale"] == "reference" for g in opt2.param_groups)
    for k in range(3, 6):
        step(resumed, opt2, k)
    assert all(torch.equal(a, b) for a, b in zip(resumed.parameters(), straight.parameters()))


@pytest.mark.parametrize("name", CLASSES)
def test_a_checkpoint_without_the_options_loads_as_the_paper_form(name):
    straight = layer(*WIDE)
    opt = make(name, straight)
    for k in range(4):
        step(straight, opt, k)
    first = layer(*WIDE)
    opt1 = make(name, first)
    for k in range(2):
        step(first, opt1, k)
    sd = copy.deepcopy(opt1.state_dict())
    opt1.remove_hooks()  # AKMuon: opt2 takes the layer over
    for g in sd["param_groups"]:
        del g["nesterov"], g["scale"]  # as saved before the options existed
    opt2 = make(name, first, nesterov=True, scale="none")
    opt2.load_state_dict(sd)
    assert all(g["nesterov"] is False and g["scale"] == "paper" for g in opt2.param_groups)
    for k in range(2, 4):
        step(first, opt2, k)
    assert all(torch.equal(a, b) for a, b in zip(first.parameters(), straight.parameters()))


def test_muon_fallback_is_torch_adamw():
    lin, twin = layer(*WIDE), layer(*WIDE)
    opt = make("Muon", lin)
    ref = torch.optim.AdamW([twin.bias], lr=3e-4, betas=(0.9, 0.95), eps=1e-8, weight_decay=WD)
    for k in range(3):
        step(lin, opt, k)
        step(twin, ref, k)
        assert torch.equal(lin.bias, twin.bias)


BAD = [
    (dict(scale="bogus"), r"scale = 'bogus' in param group 0: must be one of 'paper', 'reference', 'none'"),
    (dict(scale="Paper"), r"scale = 'Paper' in param group 0: must be one of 'paper', 'reference', 'none'"),
    (dict(scale=None), r"scale = None in param group 0: must be one of 'paper', 'reference', 'none'"),
    (dict(nesterov="yes"), r"nesterov = 'yes' in param group 0: must be True or False"),
    (dict(nesterov=1), r"nesterov = 1 in param group 0: must be True or False"),
]


@pytest.mark.parametrize("name", CLASSES)
@pytest.mark.parametrize("kwargs,message", BAD)
def test_bad_options_are_refused_when_built(name, kwargs, message):
    lin = layer(*WIDE)
    before = copy.deepcopy(lin.state_dict())
    with pytest.raises(ValueError, match=message):
        make(name, lin, **kwargs)
    with pytest.raises(ValueError, match=message.replace("group 0", "group 1")):
        CLASSES[name](lin, [{"params": [lin.weight]}, {"params": [lin.bias], "ak": False, **kwargs}])
    assert all(torch.equal(a, b) for a, b in zip(lin.state_dict().values(), before.values()))


@pytest.mark.parametrize("name", CLASSES)
def test_bad_options_are_refused_at_a_step_and_on_load_with_nothing_changed(name):
    lin = layer(*WIDE)
    opt = make(name, lin, nesterov=True)
    step(lin, opt, 0)
    opt.zero_grad(set_to_none=True)
    backward(lin, 1)
    params, state = copy.deepcopy(lin.state_dict()), copy.deepcopy(opt.state_dict())
    opt.param_groups[0]["scale"] = "wide"
    with pytest.raises(ValueError, match=r"scale = 'wide' in param group 0: must be one of 'paper', "
                                         r"'reference', 'none'"):
        opt.step()
    assert all(torch.equal(a, b) for a, b in zip(lin.state_dict().values(), params.values()))
    opt.param_groups[0]["scale"] = "paper"
    sd = opt.state_dict()
    assert sd["state"].keys() == state["state"].keys()
    assert all(torch.equal(torch.as_tensor(v), torch.as_tensor(state["state"][i][key]))
               for i in sd["state"] for key, v in sd["state"][i].items())
    bad = copy.deepcopy(sd)
    bad["param_groups"][0]["scale"] = "mup"
    with pytest.raises(ValueError, match=r"scale = 'mup' in param group 0: must be one of"):
        opt.load_state_dict(bad)
    assert opt.param_groups[0]["scale"] == "paper"
    opt.step()  # the same gradient and capture, now accepted
    assert not torch.equal(lin.weight.detach(), params["weight"])


def test_muon_refuses_a_nonfinite_gradient_with_nothing_changed():
    lin = layer(*WIDE)
    opt = make("Muon", lin, nesterov=True)
    step(lin, opt, 0)
    opt.zero_grad(set_to_none=True)
    backward(lin, 1)
    lin.weight.grad[0, 0] = float("nan")
    params, buf = copy.deepcopy(lin.state_dict()), opt.state[lin.weight]["momentum_buffer"].clone()
    with pytest.raises(ValueError, match=r"parameter 'weight': its gradient holds NaN or inf"):
        opt.step()
    assert all(torch.equal(a, b) for a, b in zip(lin.state_dict().values(), params.values()))
    assert torch.equal(opt.state[lin.weight]["momentum_buffer"], buf)
