# akm's optimizers held to PyTorch's: one gradient sequence of a linear layer y = Wx
# (g_t = δ_t x_tᵀ, or ΔᵀX/N for a batch) is fed to akm and to torch.optim, in float64, and
# the parameters must agree after every step, element by element, to the rounding bound
# derived in rounding_bound.py. The AK buffer is written below as a short
# torch.optim.Optimizer — the paper's rule and nothing more — and held to akm's AK-SGD and
# AK-AdamW the same way.
import numpy as np
import pytest

import akm
from rounding_bound import M_ROWS, N_COLS, STEPS, Bound, batch_cases, reorder, sequence, w0

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")


class AK(torch.optim.Optimizer):
    """The AK buffer of the paper on linear layers W (m×n), fed the layer's factors.

    Buffer, per batch of N rows (N = 1 is the per-sample rule [eq:dm-norm-update]):
        x̂ = x/‖x‖ per row,  M ← βM + η(ΔᵀX̂/N − M·X̂ᵀX̂/N)            [eq:deployed]
    adam=False (AK-SGD):    W ← W − lr·M
    adam=True  (AK-AdamW):  v ← β2 v + (1−β2) g⊙g with g = ΔᵀX/N (the ordinary gradient),
                            W ← W(1 − lr·wd) − lr·(M/(1−βᵗ)) ⊘ (√(v/(1−β2ᵗ)) + ε)
    """

    def __init__(self, params, lr, beta, eta, adam=False, beta2=0.999, eps=1e-8, weight_decay=0.0):
        super().__init__(params, dict(lr=lr, beta=beta, eta=eta, adam=adam, beta2=beta2, eps=eps,
                                      weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, factors):
        """factors: {parameter: (Delta N×m, X N×n)} (1-D δ, x are one row)."""
        for group in self.param_groups:
            lr, beta, eta = group["lr"], group["beta"], group["eta"]
            for p in group["params"]:
                Delta, X = (torch.atleast_2d(t) for t in factors[p])
                N = X.shape[0]
                st = self.state[p]
                if not st:
                    st["t"], st["M"], st["v"] = 0, torch.zeros_like(p), torch.zeros_like(p)
                M = st["M"]
                Xh = X / X.norm(dim=1, keepdim=True)
                corr = M @ (Xh.T @ Xh) / N  # from the old M
                M.mul_(beta).add_(Delta.T @ Xh / N - corr, alpha=eta)
                if not group["adam"]:
                    p.add_(M, alpha=-lr)
                    continue
                st["t"] += 1
                t, beta2 = st["t"], group["beta2"]
                g = Delta.T @ X / N
                st["v"].mul_(beta2).addcmul_(g, g, value=1 - beta2)
                denom = (st["v"] / (1 - beta2 ** t)).sqrt().add_(group["eps"])
                p.mul_(1 - lr * group["weight_decay"])
                p.addcdiv_(M / (1 - beta ** t), denom, value=-lr)


def param(W):
    return torch.nn.Parameter(torch.tensor(W, dtype=torch.float64))


def T(a):
    return torch.tensor(a, dtype=torch.float64)



@pytest.mark.parametrize("beta", [0.0, 0.9, 0.99])
def test_sgd_momentum_equals_torch_sgd(beta):
    # torch.optim.SGD: buf ← momentum·buf + (1 − dampening)·g, p ← p − lr·buf. With momentum = β
    # and dampening = β it is akm's EMA buffer (1−β)g [eq:ema-update]; torch starts the buffer
    # at g on its first step, akm at M₀ = 0, so the torch buffer is started at zero here.
    lr = 0.05
    W = w0()
    ours = akm.SgdEma(W, lr=lr, beta=beta)
    p = param(W)
    ref = torch.optim.SGD([p], lr=lr, momentum=beta, dampening=beta)
    if beta > 0:
        ref.state[p]["momentum_buffer"] = torch.zeros_like(p)
    bound = Bound(W, lr, "ema", beta)
    for k, (d, x) in enumerate(sequence(1)):
        ours.step(d, x)
        p.grad = T(np.outer(d, x))
        ref.step()
        bound.step(d, x)
        bound.check(k, ours.W, p.detach().numpy())


def test_torch_sgd_first_step_convention():
    # Without the zero start torch's buffer is g₁ at step 1, i.e. akm's M₁ + βg₁, and the
    # difference decays as β^{t−1}·βg₁: the two conventions, stated exactly.
    beta, lr = 0.9, 0.05
    W = w0()
    ours = akm.SgdEma(W, lr=lr, beta=beta)
    p = param(W)
    ref = torch.optim.SGD([p], lr=lr, momentum=beta, dampening=beta)
    g1 = None
    for k, (d, x) in enumerate(sequence(2)):
        ours.step(d, x)
        p.grad = T(np.outer(d, x))
        ref.step()
        g1 = np.outer(d, x) if g1 is None else g1
        buf = ref.state[p]["momentum_buffer"].numpy()
        np.testing.assert_allclose(buf - ours.M, beta ** k * beta * g1, rtol=0, atol=1e-12 * (1 + np.abs(g1).max()))



@pytest.mark.parametrize("wd", [0.0, 0.05])
@pytest.mark.parametrize("batch,order", batch_cases())
def test_adamw_equals_torch_adamw(wd, batch, order):
    lr, b1, b2, eps = 1e-2, 0.9, 0.999, 1e-8
    W = w0()
    ours = akm.AdamW(W, lr=lr, beta1=b1, beta2=b2, eps=eps, weight_decay=wd)
    p = param(W)
    ref = torch.optim.AdamW([p], lr=lr, betas=(b1, b2), eps=eps, weight_decay=wd)
    bound = Bound(W, lr, "ema", b1, adam=(b2, eps, wd))
    for k, (D, X) in enumerate(sequence(3, batch)):
        if batch is None:
            ours.step(delta=D, x=X)
            g = np.outer(D, X)
        else:
            ours.step_batch(D, X)
            Dt, Xt = reorder(order, k, D, X)
            g = Dt.T @ Xt / batch
        p.grad = T(g)
        ref.step()
        bound.step(D, X)
        bound.check(k, ours.W, p.detach().numpy())
    assert ours.t == STEPS


def test_adamw_gradient_and_factor_forms_agree():
    W = w0()
    a, b = akm.AdamW(W, lr=1e-2), akm.AdamW(W, lr=1e-2)
    for d, x in sequence(4):
        a.step(grad=np.outer(d, x))
        b.step(delta=d, x=x)
    np.testing.assert_allclose(a.W, b.W, rtol=0, atol=1e-12)


@pytest.mark.parametrize("beta,eta", [(0.9, 0.5), (0.99, 0.37), (0.0, 1.5)])
def test_ak_sgd_equals_torch_ak_optimizer(beta, eta):
    lr = 0.05
    W = w0()
    ours = akm.AkSgd(W, lr=lr, beta=beta, eta=eta)
    p = param(W)
    ref = AK([p], lr=lr, beta=beta, eta=eta)
    bound = Bound(W, lr, "ak", beta, eta=eta)
    for k, (d, x) in enumerate(sequence(5)):
        ours.step(d, x)
        ref.step({p: (T(d), T(x))})
        bound.step(d, x)
        bound.check(k, ours.W, p.detach().numpy())
    np.testing.assert_allclose(ours.M, ref.state[p]["M"].numpy(), rtol=0, atol=1e-10)


def ak_adamw_against_torch(batch, wd, order="same", defect=None):
    """AK-AdamW held to the torch AK optimizer along sequence(6); `defect` (step, W, eta) →
    (W, eta) changes what torch is given, to show the bound catches it."""
    lr, beta, eta, b2, eps = 1e-2, 0.99, 0.37, 0.999, 1e-8  # tab:hps's β and η
    W = w0()
    ours = akm.AkAdamW(W, lr=lr, beta1=beta, beta2=b2, eps=eps, weight_decay=wd, eta=eta)
    p = param(W)
    ref = AK([p], lr=lr, beta=beta, eta=eta, adam=True, beta2=b2, eps=eps, weight_decay=wd)
    bound = Bound(W, lr, "ak", beta, eta=eta, adam=(b2, eps, wd))
    for k, (D, X) in enumerate(sequence(6, batch)):
        if batch is None:
            ours.step(D, X)
        else:
            ours.step_batch(D, X)
        if defect is not None:
            with torch.no_grad():
                W_ref, ref.param_groups[0]["eta"] = defect(k, p.detach().numpy(), eta)
                p.copy_(T(W_ref))
        Dt, Xt = reorder(order, k, D, X) if batch is not None else (D, X)
        ref.step({p: (T(Dt), T(Xt))})
        bound.step(D, X)
        bound.check(k, ours.W, p.detach().numpy())
    assert ours.t == STEPS
    return bound


@pytest.mark.parametrize("wd", [0.0, 0.05])
@pytest.mark.parametrize("batch,order", batch_cases())
def test_ak_adamw_equals_torch_ak_optimizer(batch, wd, order):
    ak_adamw_against_torch(batch, wd, order)


@pytest.mark.parametrize("defect", ["W", "eta"])
def test_bound_catches_a_small_defect(defect):
    # A relative 1e-9 error, far below what a test of results would see, is still thousands
    # of times the bound: W scaled by 1 + 1e-9 once (step 10), or η off by a relative 1e-9
    # throughout; with the batch rows reversed, as the order tests feed them.
    if defect == "W":
        change, first = (lambda k, W, eta: (W * (1 + 1e-9) if k == 10 else W, eta)), 10
    else:
        change, first = (lambda k, W, eta: (W, eta * (1 + 1e-9))), 0
    with pytest.raises(AssertionError, match=f"step {first}: .* > bound"):
        ak_adamw_against_torch(8, 0.0, "reversed", defect=change)


def test_ak_adamw_second_moment_is_adamw_s():
    # On one stream AdamW and AK-AdamW hold the identical v (the raw-key gradient's), and
    # torch.optim.AdamW's exp_avg_sq is that v.
    W = w0()
    a, b = akm.AdamW(W, lr=1e-3), akm.AkAdamW(W, lr=1e-3, eta=0.4)
    p = param(W)
    ref = torch.optim.AdamW([p], lr=1e-3)
    for d, x in sequence(7):
        a.step(delta=d, x=x)
        b.step(d, x)
        p.grad = T(np.outer(d, x))
        ref.step()
    np.testing.assert_array_equal(a.v, b.v)
    np.testing.assert_allclose(a.v, ref.state[p]["exp_avg_sq"].numpy(), rtol=1e-12, atol=0)


def test_optimizer_inputs_are_refused():
    W = w0()
    with pytest.raises(ValueError, match="beta1"):
        akm.AdamW(W, beta1=1.0)
    with pytest.raises(ValueError, match="eta"):
        akm.AkSgd(W, lr=0.1, beta=0.9, eta=0.0)
    with pytest.raises(ValueError, match="delta"):
        akm.AkSgd(W, lr=0.1, beta=0.9, eta=0.5).step(np.ones(3), np.ones(N_COLS))
    with pytest.raises(ValueError):
        akm.AkSgd(W, lr=0.1, beta=0.9, eta=0.5).step(np.ones(M_ROWS), np.zeros(N_COLS))
