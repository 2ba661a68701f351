# akm.torch's Newton–Schulz and AKMuon held to akm's C++ ones (akm.newton_schulz, akm.AkMuon:
# rules/newton_schulz.hpp, rules/muon.hpp) on the same input, in float64 [cor:mup-base-lr].
#
# Both run the same quintic iteration; each is within the C++ error model's rounding bound
# (akm.newton_schulz_bound: first order in u, Frobenius norm) of the one exact NS(G), so they
# differ by at most twice that. akm.torch adds ε = 1e-7 to ‖G‖_F (Muon's reference), which
# scales X₀ by ‖G‖/(‖G‖ + ε): a perturbation of at most ε/‖G‖_F in Frobenius norm, which the
# k steps amplify by at most L^k (L, the step's Lipschitz constant, from the same model).
import importlib

import numpy as np
import pytest

import akm

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")
from akm.torch import AKMuon  # noqa: E402

# The module itself (akm.torch's `newton_schulz` attribute is the function of that name), whose
# NS_EPS and NS_COEFFICIENTS the function reads at call time.
tns = importlib.import_module("akm.torch.newton_schulz")


def bound(G, steps=5, eps=0.0):
    e = akm.newton_schulz_bound(G.shape[0], G.shape[1], steps)
    return 2 * e["rounding"] + e["lipschitz"] ** steps * eps / np.linalg.norm(G)


def matrices():
    rng = np.random.default_rng(45)
    for shape in [(6, 9), (9, 6), (16, 16), (1, 5), (24, 40), (40, 24)]:
        yield rng.standard_normal(shape) * rng.uniform(0.01, 100.0)


def test_the_coefficients_are_the_same():
    assert tuple(akm.NS_COEFFICIENTS) == tns.NS_COEFFICIENTS


@pytest.mark.parametrize("steps", [1, 5])
def test_newton_schulz_agrees_without_the_epsilon(monkeypatch, steps):
    monkeypatch.setattr(tns, "NS_EPS", 0.0)  # read at call time: the pure iteration, as in C++
    for G in matrices():
        diff = np.linalg.norm(akm.newton_schulz(G, steps) - tns.newton_schulz(torch.tensor(G), steps).numpy())
        assert diff <= bound(G, steps), (G.shape, diff, bound(G, steps))


def test_newton_schulz_agrees_with_the_epsilon_within_its_derived_effect():
    for G in matrices():
        diff = np.linalg.norm(akm.newton_schulz(G) - tns.newton_schulz(torch.tensor(G)).numpy())
        assert diff <= bound(G, eps=tns.NS_EPS), (G.shape, diff)


def test_the_bound_catches_a_small_defect(monkeypatch):
    # Muon's a off by a relative 1e-6 on the torch side is far outside the bound.
    a, b, c = tns.NS_COEFFICIENTS
    monkeypatch.setattr(tns, "NS_EPS", 0.0)
    monkeypatch.setattr(tns, "NS_COEFFICIENTS", (a * (1 + 1e-6), b, c))
    G = np.random.default_rng(7).standard_normal((12, 20))
    diff = np.linalg.norm(akm.newton_schulz(G) - tns.newton_schulz(torch.tensor(G)).numpy())
    assert diff > 10 * bound(G)


def test_zero_and_bad_input_refused_in_cpp():
    with pytest.raises(ValueError, match="G = the zero matrix is invalid"):
        akm.newton_schulz(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="steps = 0 is invalid: must be >= 1"):
        akm.newton_schulz(np.ones((2, 2)), 0)
    with pytest.raises(ValueError, match="every entry must be finite"):
        akm.newton_schulz(np.array([[1.0, np.nan]]))


@pytest.mark.parametrize("shape", [(5, 12), (12, 5)])
def test_ak_muon_agrees_with_cpp(shape):
    # The same (Δ, X) batches through a one-layer model with AKMuon and through akm.AkMuon. The
    # buffers are AKSGD's deployed rule on both sides (held to the C++ within its bound by
    # test_akm_torch_agreement.py): their measured difference dM enters NS's sensitivity
    # L^k·2‖dM‖_F/‖M‖_F (normalisation included), with ε's and each side's rounding; each step
    # adds lr·√(m/n) times that to the weights, plus both sides' rounding of W(1 − lr·wd) − c·NS.
    m, n = shape
    lr, beta, eta, wd, N = 0.02, 0.95, 0.4, 0.1, 8
    rng = np.random.default_rng(11)
    W = rng.standard_normal((m, n)) / np.sqrt(n)
    ours = akm.AkMuon(W, lr=lr, beta=beta, eta=eta, weight_decay=wd)
    lin = torch.nn.Linear(n, m, bias=False).double()
    with torch.no_grad():
        lin.weight.copy_(torch.tensor(W))
    opt = AKMuon(lin, lr=lr, beta=beta, eta=eta, weight_decay=wd)
    e = akm.newton_schulz_bound(m, n)
    c, u, tol = lr * np.sqrt(m / n), 2.0 ** -53, 0.0
    for _ in range(6):
        D, X = rng.standard_normal((N, m)), rng.standard_normal((N, n))
        ours.step_batch(D, X)
        opt.zero_grad(set_to_none=True)
        ((lin(torch.tensor(X)) * torch.tensor(D)).sum() / N).backward()  # ∇Y = Δ/N, N a power of 2
        opt.step()
        M = ours.M
        dM = np.linalg.norm(M - opt.state[lin.weight]["M"].numpy())
        ns_err = bound(M, eps=tns.NS_EPS) + e["lipschitz"] ** 5 * 2 * dM / np.linalg.norm(M)
        tol += c * ns_err + 4 * u * (np.linalg.norm(ours.W) + c * np.sqrt(min(m, n)) * e["s_max"])
        assert np.linalg.norm(ours.W - lin.weight.detach().numpy()) <= tol
    assert ours.t == 6
