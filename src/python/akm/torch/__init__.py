"""akm.torch — the paper's optimizers as torch.optim optimizers [eq:deployed, app:deployed].

    AKSGD    AK-SGD:   W ← W − lr·M                                (fallback: SGD-momentum)
    AKAdamW  AK-AdamW: AdamW with M as its first moment            (fallback: AdamW)
    AKMuon   AK-Muon:  W ← W − lr·√(m/n)·NS(M), Newton–Schulz      (fallback: AdamW)
    Muon     the baseline: AKMuon with Muon's EMA buffer of p.grad  (fallback: AdamW)

each with the AK buffer M ← βM + η(G − MΣ̂) of every nn.Linear weight, formed from the layer's
input X (captured by a hook, not copied) and output gradient ∇Y: G = ∇YᵀX̂, Σ̂ = X̂ᵀX̂/N over the
N rows (tokens) of X, x̂ = x/‖x‖. Parameters the rule does not cover go to the fallback.
AKMuon and Muon take Muon's reference options, nesterov=True and scale="reference"; the
defaults, nesterov=False and scale="paper", are the paper's form [cor:mup-base-lr].

    opt = akm.torch.AKAdamW(model, lr=3e-4, betas=(0.99, 0.99), eta=0.37, weight_decay=0.1,
                            exclude=[model.head], fallback_lr=1.24e-2)
    loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)

Bad input raises ValueError before any parameter changes (docs/torch.md).
"""
from .adamw import AKAdamW
from .muon import AKMuon, Muon
from .newton_schulz import NS_COEFFICIENTS, NS_STEPS, newton_schulz
from .sgd import AKSGD

__all__ = ["AKSGD", "AKAdamW", "AKMuon", "Muon", "newton_schulz", "NS_COEFFICIENTS", "NS_STEPS"]
