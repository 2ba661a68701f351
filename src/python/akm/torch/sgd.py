"""AK-SGD: SGD on the AK buffer [app:deployed, sec:main-deltaSGD]."""
from . import checks, fallback
from .optimizer import AKOptimizer


class AKSGD(AKOptimizer):
    """AK-SGD on a model's linear layers; SGD-momentum for every other parameter.

    AK groups (ak=True, nn.Linear weights W, m×n), per step from the captured (X, ∇Y):
        M ← βM + η(G − MΣ̂),  G = ∇YᵀX̂,  Σ̂ = X̂ᵀX̂/N      [eq:deployed]
        W ← W − lr·M                                      [app:deployed: "θ ← θ − αM directly"]
    with no weight decay (the paper's AK-SGD has none; a nonzero weight_decay in an AK group is
    refused). Fallback groups (ak=False): torch.optim.SGD with momentum β, dampening 0 and the
    group's weight_decay (torch's, added to the gradient; default 0).

    model: the nn.Module whose nn.Linear layers are hooked. params: None (default groups: every
    nn.Linear weight outside `exclude` in an AK group, the rest in a fallback group with
    lr=fallback_lr, or lr) or param groups as for torch.optim, each with "ak" (default True).
    """

    fallback = "SGD-momentum"

    def __init__(self, model, params=None, *, lr, beta, eta, exclude=(), fallback_lr=None):
        super().__init__(model, params, dict(lr=lr, beta=beta, eta=eta, weight_decay=0.0), exclude,
                         fallback_lr)

    def _check_hyper(self, i, group):
        checks.unit_interval("beta", group["beta"], i)
        checks.positive("eta", group["eta"], i)
        if group["ak"]:
            checks.zero("weight_decay", group["weight_decay"], i,
                        "AK-SGD's W ← W − lr·M has no decay [app:deployed]; set it on an ak=False group")
        else:
            checks.nonnegative("weight_decay", group["weight_decay"], i)

    def _apply(self, group, p):
        p.add_(self.state[p]["M"], alpha=-group["lr"])

    def _fallback_step(self, group, params):
        fallback.sgd_step(group, params, self.state, momentum=group["beta"])
