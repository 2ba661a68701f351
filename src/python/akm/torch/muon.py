"""AK-Muon and the Muon baseline: Muon's Newton–Schulz post-processing on a momentum buffer —
the AK buffer [cor:mup-base-lr, app:structured: "the delta buffer would replace the EMA that
feeds Newton–Schulz"] or Muon's EMA [eq:ema-update] — with the options of Muon's reference
code (nesterov, the prefactor's form) beside the paper's form, which is the default."""
import math

import torch

from . import checks, fallback
from .newton_schulz import NS_STEPS, newton_schulz
from .optimizer import AKOptimizer

SCALES = ("paper", "reference", "none")  # the values of `scale`, the paper's first


def prefactor(scale, m, n):
    """The update's prefactor for W (m×n): "paper" √(m/n) [cor:mup-base-lr], "reference"
    max(1, m/n)^½ (Muon's reference code), "none" 1. The first two differ for wide layers, m < n."""
    if scale == "paper":
        return math.sqrt(m / n)
    if scale == "reference":
        return math.sqrt(max(1.0, m / n))
    return 1.0


class _MuonRule(AKOptimizer):
    """What AK-Muon and Muon share: the checks, W ← W(1 − lr·wd) − lr·s·NS(direction), the AdamW
    fallback, and old checkpoints (without nesterov and scale) loaded as the paper's form. Each
    subclass's _buffer_step moves its buffer and sets self._direction, which _apply consumes."""

    fallback = "AdamW"
    _direction = None

    def _check_hyper(self, i, group):
        checks.unit_interval("beta", group["beta"], i)
        checks.nonnegative("weight_decay", group["weight_decay"], i)
        checks.steps("ns_steps", group["ns_steps"], i)
        checks.flag("nesterov", group["nesterov"], i)
        checks.one_of("scale", group["scale"], i, SCALES)
        checks.pair("betas", group["betas"], i)
        checks.positive("eps", group["eps"], i)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("scale", "paper")

    def _apply(self, group, p):
        m, n = p.shape
        lr = group["lr"]
        direction, self._direction = self._direction, None
        update = newton_schulz(direction, group["ns_steps"])
        p.mul_(1 - lr * group["weight_decay"])
        p.add_(update, alpha=-lr * prefactor(group["scale"], m, n))

    def _fallback_step(self, group, params):
        fallback.adamw_step(group, params, self.state, group["betas"])


class AKMuon(_MuonRule):
    """AK-Muon on a model's linear layers; AdamW for every other parameter, as in Muon's reference.

    AK groups (ak=True, nn.Linear weights W, m×n), per step from the captured (X, ∇Y):
        M_t = βM_{t−1} + η(G − M_{t−1}Σ̂),  G = ∇YᵀX̂,  Σ̂ = X̂ᵀX̂/N    [eq:deployed]
        W ← W(1 − lr·wd) − lr·s·NS(D_t)
    NS is Muon's quintic Newton–Schulz iteration (newton_schulz.py, ns_steps iterations).
    Decoupled weight decay as in Muon's reference. With the defaults this is the paper's
    AK-Muon [cor:mup-base-lr]: D_t = M_t, no Nesterov look-ahead, s = √(m/n).

    nesterov: False (default, the paper's rule): D_t = M_t. True: D_t = βM_t + η(G − M_{t−1}Σ̂),
        the buffer's own next-step look-ahead — the step M_t → M_{t+1} taken once more with this
        step's innovation η(G − M_{t−1}Σ̂) = M_t − βM_{t−1}, as Muon's reference orthogonalises
        g_t + μ·buf_t = μ·buf_t + (buf_t − μ·buf_{t−1}) rather than buf_t. NOT the paper's rule
        (an option for practitioners coming from Muon, whose reference has it on). At the first
        step (M_0 = 0) D_1 = (1 + β)M_1, the same direction after NS; later steps differ.
    scale: the prefactor s, "paper" (default) √(m/n) as cor:mup-base-lr names it; "reference"
        max(1, m/n)^½ as Muon's reference code writes it (equal for m ≥ n; 1 > √(m/n) for wide
        layers, m < n); "none" 1. Any other value is refused (ValueError) before anything changes.
    Fallback groups (ak=False): torch.optim.AdamW with the group's betas, eps, weight_decay and
    lr; fallback_lr defaults to 3e-4, the auxiliary AdamW rate of Muon's reference, since the
    paper tunes the auxiliary rate as its own axis (tab:hps "aux lr").

    model, params, exclude: as for AKSGD.
    """

    def __init__(self, model, params=None, *, lr=0.02, beta=0.95, eta=0.4, weight_decay=0.0,
                 ns_steps=NS_STEPS, nesterov=False, scale="paper", betas=(0.9, 0.95), eps=1e-8,
                 exclude=(), fallback_lr=3e-4):
        super().__init__(model, params, dict(lr=lr, beta=beta, eta=eta, weight_decay=weight_decay,
                                             ns_steps=ns_steps, nesterov=nesterov, scale=scale,
                                             betas=tuple(betas), eps=eps),
                         exclude, fallback_lr)

    def _check_hyper(self, i, group):
        checks.positive("eta", group["eta"], i)
        super()._check_hyper(i, group)

    def _buffer_step(self, group, p, sums):
        M = self.state[p]["M"]
        if not group["nesterov"]:
            super()._buffer_step(group, p, sums)  # M_t [eq:deployed]
            self._direction = M
            return
        beta, eta = group["beta"], group["eta"]
        innovation = sums.G - sums.C / sums.tokens  # G − M_{t−1}Σ̂, MΣ̂ = C/N [eq:deployed]
        M.mul_(beta).add_(innovation, alpha=eta)  # M_t
        self._direction = (M * beta).add_(innovation, alpha=eta)  # βM_t + η(G − M_{t−1}Σ̂)


class Muon(_MuonRule):
    """Muon, the baseline AK-Muon is compared with: the same groups, options, fallback and
    refusals as AKMuon, with Muon's EMA momentum in place of the AK buffer, formed from the
    ordinary weight gradient g = p.grad (no hooks):
        m_t = βm_{t−1} + (1−β)g                                    [eq:ema-update]
        W ← W(1 − lr·wd) − lr·s·NS(D_t)
    nesterov: False (default, as the paper's AK-Muon, so the pair differs only in the buffer):
        D_t = m_t. True: D_t = (1−β)g + βm_t, Muon's reference look-ahead (its g + μ·buf with
        the EMA buffer, buf = m/(1−β); NS removes the scale, up to its ε).
    scale: "paper" (default) √(m/n) [cor:mup-base-lr], "reference" max(1, m/n)^½, "none" 1, as
        for AKMuon. Muon's reference code is nesterov=True, scale="reference".
    AK groups (ak=True) are the ones AKMuon would hook, nn.Linear weights, and take Muon's rule;
    ak=False groups take torch.optim.AdamW (fallback_lr default 3e-4, as AKMuon). The buffer is
    state "momentum_buffer", as in Muon's reference and torch.optim.SGD.

    model, params, exclude: as for AKSGD.
    """

    _captures = False

    def __init__(self, model, params=None, *, lr=0.02, beta=0.95, weight_decay=0.0, ns_steps=NS_STEPS,
                 nesterov=False, scale="paper", betas=(0.9, 0.95), eps=1e-8, exclude=(), fallback_lr=3e-4):
        super().__init__(model, params, dict(lr=lr, beta=beta, weight_decay=weight_decay,
                                             ns_steps=ns_steps, nesterov=nesterov, scale=scale,
                                             betas=tuple(betas), eps=eps),
                         exclude, fallback_lr)

    def _buffer_step(self, group, p, sums):
        st, g, beta = self.state[p], p.grad, group["beta"]
        if "momentum_buffer" not in st:
            st["momentum_buffer"] = torch.zeros_like(p, memory_format=torch.preserve_format)
        buf = st["momentum_buffer"]
        buf.lerp_(g, 1 - beta)  # m_t = βm_{t−1} + (1−β)g, as Muon's reference writes it
        self._direction = g.lerp(buf, beta) if group["nesterov"] else buf  # (1−β)g + βm_t
