"""Which parameters the AK rule covers, and the parameter groups built from a model.

The rule [eq:deployed] updates the weight W (m×n) of a linear layer y = xWᵀ + b from the layer's
input X and output gradient ∇Y, so it covers exactly the weights of nn.Linear modules whose
forward runs (the hooks of capture.py see their input). Everything else — biases, norm gains,
embeddings, convolutions, a weight shared with an embedding (tied head), and any module the user
excludes, such as the output head — goes to the optimizer's fallback, as Muon's reference sends
embeddings, the head and non-matrix parameters to AdamW.
"""
import torch

# nn.MultiheadAttention reads out_proj.weight inside its own forward and never calls
# out_proj's, so no hook would see that layer's input.
_NOT_CALLED = (torch.nn.modules.linear.NonDynamicallyQuantizableLinear,)


def owners(model):
    """{parameter: [(module name, module, attribute)]}: every module that holds it directly."""
    held = {}
    for mod_name, mod in model.named_modules():
        for attr, p in mod._parameters.items():
            if p is not None:
                held.setdefault(p, []).append((mod_name, mod, attr))
    return held


def names(model):
    """{parameter: qualified name} (a shared parameter keeps its first name)."""
    out = {}
    for name, p in model.named_parameters():
        out.setdefault(p, name)
    return out


def linear_modules(p, held):
    """The nn.Linear modules whose weight p is, or None where the rule cannot cover p."""
    mods = held.get(p, [])
    if not mods or any(attr != "weight" or not isinstance(m, torch.nn.Linear) or isinstance(m, _NOT_CALLED)
                       for _, m, attr in mods):
        return None
    return [m for _, m, _ in mods]


def default_groups(model, held, exclude):
    """[AK group, fallback group]: the weights of model's nn.Linear layers outside `exclude`
    (modules or parameters) with ak=True, every other trainable parameter with ak=False. Empty
    groups are left out."""
    excluded = set()
    for e in exclude:
        excluded.update(e.parameters() if isinstance(e, torch.nn.Module) else [e])
    ak, rest, seen = [], [], set()
    for _, p in model.named_parameters():
        if p in seen or not p.requires_grad:
            continue
        seen.add(p)
        (ak if p not in excluded and linear_modules(p, held) else rest).append(p)
    groups = []
    if ak:
        groups.append({"params": ak, "ak": True})
    if rest:
        groups.append({"params": rest, "ak": False})
    return groups


def require_covered(p, held, name, fallback):
    """ValueError unless the rule covers p (an AK group may hold only nn.Linear weights)."""
    if p.dim() != 2:
        raise ValueError(f"parameter '{name}' of shape {tuple(p.shape)} is in an AK group: the rule "
                         f"[eq:deployed] covers matrices W (m×n) of linear layers only; put it in a "
                         f"group with ak=False ({fallback})")
    if linear_modules(p, held) is None:
        what = ", ".join(f"{type(m).__name__}.{a}" for _, m, a in held.get(p, [])) or "not in the model"
        raise ValueError(f"parameter '{name}' ({what}) is in an AK group: the rule needs the input of "
                         f"the nn.Linear whose weight it is, captured by its forward; put it in a group "
                         f"with ak=False ({fallback})")
