"""AK-AdamW: AdamW with the AK buffer as its first moment [app:deployed, sec:methodology]."""
import torch

from . import checks, fallback
from .optimizer import AKOptimizer


class AKAdamW(AKOptimizer):
    """AK-AdamW on a model's linear layers; AdamW for every other parameter.

    AK groups (ak=True, nn.Linear weights W, m×n), per step from the captured (X, ∇Y), with
    betas = (β, β2) — β the AK decay in place of AdamW's β1 (tab:hps: β1 = 0.99, η = 0.37):
        M ← βM + η(G − MΣ̂),  G = ∇YᵀX̂,  Σ̂ = X̂ᵀX̂/N       [eq:deployed]
        v ← β2 v + (1−β2) g⊙g,  g the ordinary weight gradient p.grad   [app:deployed]
        W ← W(1 − lr·wd) − lr·(M/(1−βᵗ)) ⊘ (√(v/(1−β2ᵗ)) + ε)
    The second moment, bias correction and decoupled weight decay are AdamW's, unchanged
    [sec:methodology]; the bias correction 1 − βᵗ is AdamW's factor taken literally (the AK
    buffer's own transient is direction dependent, 1 − β̃_iᵗ [thm:fixedpoint], and no scalar
    removes it; the difference is overall scale, absorbed by lr [app:second-moment]).
    Fallback groups (ak=False): torch.optim.AdamW with the group's betas, eps, weight_decay, lr.

    model, params, exclude, fallback_lr: as for AKSGD.
    """

    fallback = "AdamW"
    _needs_grad = True

    def __init__(self, model, params=None, *, lr=1e-3, betas=(0.9, 0.999), eta=0.4, eps=1e-8,
                 weight_decay=0.0, exclude=(), fallback_lr=None):
        super().__init__(model, params, dict(lr=lr, betas=tuple(betas), eta=eta, eps=eps,
                                             weight_decay=weight_decay), exclude, fallback_lr)

    def _check_hyper(self, i, group):
        checks.pair("betas", group["betas"], i)
        checks.positive("eta", group["eta"], i)
        checks.positive("eps", group["eps"], i)
        checks.nonnegative("weight_decay", group["weight_decay"], i)

    def _beta(self, group):
        return group["betas"][0]

    def _init_state(self, p):
        super()._init_state(p)
        self.state[p]["v"] = torch.zeros_like(p, memory_format=torch.preserve_format)
        self.state[p]["step"] = 0

    def _apply(self, group, p):
        st = self.state[p]
        st["step"] += 1
        t, (beta, beta2), lr = st["step"], group["betas"], group["lr"]
        g = p.grad
        st["v"].mul_(beta2).addcmul_(g, g, value=1 - beta2)
        denom = (st["v"] / (1 - beta2 ** t)).sqrt_().add_(group["eps"])
        p.mul_(1 - lr * group["weight_decay"])
        p.addcdiv_(st["M"] / (1 - beta ** t), denom, value=-lr)

    def _fallback_step(self, group, params):
        fallback.adamw_step(group, params, self.state, group["betas"])
