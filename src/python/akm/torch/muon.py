"""AK-Muon: Muon's Newton–Schulz post-processing on the AK buffer [cor:mup-base-lr, app:structured:
"the delta buffer would replace the EMA that feeds Newton–Schulz"]."""
import math

from . import checks, fallback
from .newton_schulz import NS_STEPS, newton_schulz
from .optimizer import AKOptimizer


class AKMuon(AKOptimizer):
    """AK-Muon on a model's linear layers; AdamW for every other parameter, as in Muon's reference.

    AK groups (ak=True, nn.Linear weights W, m×n), per step from the captured (X, ∇Y):
        M ← βM + η(G − MΣ̂),  G = ∇YᵀX̂,  Σ̂ = X̂ᵀX̂/N       [eq:deployed]
        W ← W(1 − lr·wd) − lr·√(m/n)·NS(M)                 [cor:mup-base-lr]
    NS is Muon's quintic Newton–Schulz iteration (newton_schulz.py, ns_steps iterations) on the
    buffer itself: the paper's AK-Muon is NS(M_t), with no Nesterov look-ahead, and the √(m/n)
    prefactor is the one cor:mup-base-lr names (Muon's reference code writes max(1, m/n)^½,
    which differs for wide layers, m < n). Decoupled weight decay as in Muon's reference.
    Fallback groups (ak=False): torch.optim.AdamW with the group's betas, eps, weight_decay and
    lr; fallback_lr defaults to 3e-4, the auxiliary AdamW rate of Muon's reference, since the
    paper tunes the auxiliary rate as its own axis (tab:hps "aux lr").

    model, params, exclude: as for AKSGD.
    """

    fallback = "AdamW"

    def __init__(self, model, params=None, *, lr=0.02, beta=0.95, eta=0.4, weight_decay=0.0,
                 ns_steps=NS_STEPS, betas=(0.9, 0.95), eps=1e-8, exclude=(), fallback_lr=3e-4):
        super().__init__(model, params, dict(lr=lr, beta=beta, eta=eta, weight_decay=weight_decay,
                                             ns_steps=ns_steps, betas=tuple(betas), eps=eps),
                         exclude, fallback_lr)

    def _check_hyper(self, i, group):
        checks.unit_interval("beta", group["beta"], i)
        checks.positive("eta", group["eta"], i)
        checks.nonnegative("weight_decay", group["weight_decay"], i)
        checks.steps("ns_steps", group["ns_steps"], i)
        checks.pair("betas", group["betas"], i)
        checks.positive("eps", group["eps"], i)

    def _apply(self, group, p):
        m, n = p.shape
        lr = group["lr"]
        update = newton_schulz(self.state[p]["M"], group["ns_steps"])
        p.mul_(1 - lr * group["weight_decay"])
        p.add_(update, alpha=-lr * math.sqrt(m / n))

    def _fallback_step(self, group, params):
        fallback.adamw_step(group, params, self.state, group["betas"])
