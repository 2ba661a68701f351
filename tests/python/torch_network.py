# The small network, data and optimizers that the akm.torch tests share (test_akm_torch.py,
# test_akm_torch_hooks.py): a float64 MLP whose two nn.Linear weights take the AK rule and whose
# biases and LayerNorm take the fallback, a fixed teacher task, and the three optimizers.
import torch

from akm.torch import AKAdamW, AKMuon, AKSGD

N_IN, HIDDEN, N_OUT = 6, 12, 4

MAKERS = {
    "AKSGD": lambda model, **kw: AKSGD(model, lr=0.1, beta=0.9, eta=0.5, **kw),
    "AKAdamW": lambda model, **kw: AKAdamW(model, lr=1e-2, betas=(0.99, 0.999), eta=0.37, weight_decay=0.1, **kw),
    "AKMuon": lambda model, **kw: AKMuon(model, lr=0.02, weight_decay=0.01, **kw),
}


def mlp(seed=0):
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Linear(N_IN, HIDDEN), torch.nn.LayerNorm(HIDDEN), torch.nn.Tanh(),
                               torch.nn.Linear(HIDDEN, N_OUT)).double()


def data(k, rows=16, lead=()):
    """Batch k of a fixed teacher task: inputs (*lead, rows, N_IN), targets (*lead, rows, N_OUT)."""
    g = torch.Generator().manual_seed(1000 + k)
    X = torch.randn(*lead, rows, N_IN, generator=g, dtype=torch.float64)
    teacher = torch.linspace(-1, 1, N_IN * N_OUT, dtype=torch.float64).reshape(N_IN, N_OUT)
    return X, torch.sin(X @ teacher)


def loss_of(model, X, Y):
    return ((model(X) - Y) ** 2).mean()


def train(model, opt, steps, start=0, sched=None):
    losses = []
    for k in range(start, start + steps):
        opt.zero_grad(set_to_none=True)
        loss = loss_of(model, *data(k))
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        losses.append(loss.item())
    return losses


def identical(a, b):
    if isinstance(a, torch.Tensor):
        return torch.equal(a, b)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(identical(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(identical(x, y) for x, y in zip(a, b))
    return a == b


def same(params, others):
    return len(params) == len(others) and all(p is q for p, q in zip(params, others))


def ak_weights(model):
    return [model[0].weight, model[3].weight]
