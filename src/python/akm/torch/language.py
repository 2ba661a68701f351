"""akm.torch.language — the paper's language-model comparison [tab:scale, tab:muon, app:structured] and
its training-time diagnostics [sec:diag, sec:diag-grad, sec:diag-func, sec:diag-feat] at small scale:
a character-level RMSNorm/SwiGLU transformer trained on the Jargon File, the public-domain text
Debian's jargon-text ships, with AdamW, AK-AdamW (akm.torch.AKAdamW) and Muon (akm.torch.Muon).

The network (TinyLM): byte tokens (vocabulary 256), a learned token and position embedding,
DEPTH pre-norm blocks of width WIDTH (RMSNorm; causal attention with HEADS heads, q, k, v and o as
nn.Linear without bias; a SwiGLU MLP of width HIDDEN), a final RMSNorm and a linear head, on
windows of CONTEXT bytes, BATCH windows per step. The text's first 90% is the training text, the
rest the validation text; a run's seed fixes the initialization and the training windows; the
validation and probe windows are the same for every run (seed 0 of their own streams).

The arms differ only where the optimizers do. AdamW: torch.optim.AdamW, betas (0.9, 0.95),
weight decay 0.1. AK-AdamW: AKAdamW on every nn.Linear weight but the head, betas (0.99, 0.95),
η = 0.37 (tab:hps), the same weight decay; the head, embeddings and norm gains go to its AdamW
fallback at `fallback_lr`. Muon: akm.torch.Muon with the reference code's options (nesterov,
max(1, m/n)^½, β = 0.95) on the same weights, the same fallback. The claim passes AdamW's tuned
rate as `fallback_lr`, so the parameters outside the rules train as under tuned AdamW. Every arm
runs a linear warm-up over the first 10% of the steps and a cosine decay to 10% of the rate
(a LambdaLR on every group).

Per run: the validation loss every EVAL_EVERY steps. With "diagnostics": true (AdamW and
AK-AdamW), at the same steps, over the weights under the AK rule (every nn.Linear but the head):
  sec:diag-grad  the pre-step buffer M_{t−1} (AK-AdamW's M, AdamW's exp_avg) against the step's
                 gradient g_t, concatenated over the weights: cos(M, g) and e = ‖M − g‖/‖g‖;
  sec:diag-func  on the probe windows, with the buffer after the step: cos(M x̂, δ) per layer
                 (δ the rows of ∇Y, x̂ = x/‖x‖, over all probe tokens), averaged over the layers;
  sec:diag-feat  on the probe windows, each layer's input-feature covariance (centered, over the
                 probe tokens): the layerwise mean condition number λ_max/λ_min, the layerwise
                 mean effective rank exp(H(λ/Σλ)), and the maximum top-1 fraction λ_max/Σλ.
The probe pass runs in eval mode (akm.torch captures nothing there) and its gradients are
discarded before the next step.

    python -m akm.torch.language --steps 240 --workers 2 \
        --runs '[{"arm": "ak-adamw", "lr": 0.003, "fallback_lr": 0.003, "seed": 7, "diagnostics": true}]'
"""
import gzip
import math
import os
import sys

import torch

from . import trainings
from .adamw import AKAdamW
from .muon import Muon
from .trainings import single_threaded

TEXT = "/usr/share/doc/jargon-text/jargon.txt.gz"
WIDTH, HEADS, DEPTH, HIDDEN, CONTEXT, BATCH = 48, 4, 2, 128, 32, 16
EVAL_EVERY = 20
VAL_WINDOWS, PROBE_WINDOWS = 64, 32
WEIGHT_DECAY = 0.1
ADAMW_BETAS, AK_BETAS, AK_ETA, MUON_BETA = (0.9, 0.95), (0.99, 0.95), 0.37, 0.95
ARMS = ("adamw", "ak-adamw", "muon")


def load():
    """The Jargon File as byte tokens: (training text, validation text). FileNotFoundError names
    the package when it is absent."""
    if not os.path.exists(TEXT):
        raise FileNotFoundError(f"{TEXT} is missing: install Debian's jargon-text")
    with gzip.open(TEXT, "rb") as f:
        data = torch.frombuffer(bytearray(f.read()), dtype=torch.uint8).long()
    cut = int(0.9 * len(data))
    return data[:cut], data[cut:]


def windows(text, count, generator):
    """`count` windows of CONTEXT + 1 bytes at random starts: (inputs, next-byte targets)."""
    starts = torch.randint(0, len(text) - CONTEXT - 1, (count,), generator=generator)
    w = torch.stack([text[s:s + CONTEXT + 1] for s in starts.tolist()])
    return w[:, :-1], w[:, 1:]


class RMSNorm(torch.nn.Module):
    def __init__(self, width, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.gain = torch.nn.Parameter(torch.ones(width))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.gain


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.norm1, self.norm2 = RMSNorm(WIDTH), RMSNorm(WIDTH)
        self.q, self.k, self.v, self.o = (torch.nn.Linear(WIDTH, WIDTH, bias=False) for _ in range(4))
        self.gate, self.up = torch.nn.Linear(WIDTH, HIDDEN, bias=False), torch.nn.Linear(WIDTH, HIDDEN, bias=False)
        self.down = torch.nn.Linear(HIDDEN, WIDTH, bias=False)

    def forward(self, x):
        n, t, w = x.shape
        h = self.norm1(x)
        q, k, v = (f(h).reshape(n, t, HEADS, -1).transpose(1, 2) for f in (self.q, self.k, self.v))
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
        causal = torch.ones(t, t, dtype=torch.bool).triu(1)
        att = torch.softmax(scores.masked_fill(causal, float("-inf")), dim=-1)
        x = x + self.o((att @ v).transpose(1, 2).reshape(n, t, w))
        h = self.norm2(x)
        return x + self.down(torch.nn.functional.silu(self.gate(h)) * self.up(h))


class TinyLM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(256, WIDTH)
        self.position = torch.nn.Parameter(torch.zeros(CONTEXT, WIDTH))
        torch.nn.init.normal_(self.position, std=0.02)
        self.blocks = torch.nn.Sequential(*(Block() for _ in range(DEPTH)))
        self.norm = RMSNorm(WIDTH)
        self.head = torch.nn.Linear(WIDTH, 256, bias=False)

    def forward(self, tokens):
        return self.head(self.norm(self.blocks(self.embed(tokens) + self.position[:tokens.shape[1]])))


def ruled(model):
    """The weights under the AK rule (and Muon's): every nn.Linear but the head, in order."""
    return [m for m in model.modules() if isinstance(m, torch.nn.Linear) and m is not model.head]


def optimizer(model, run):
    if run["arm"] == "adamw":
        return torch.optim.AdamW(model.parameters(), lr=run["lr"], betas=ADAMW_BETAS, weight_decay=WEIGHT_DECAY)
    if run["arm"] == "ak-adamw":
        return AKAdamW(model, lr=run["lr"], betas=AK_BETAS, eta=AK_ETA, weight_decay=WEIGHT_DECAY,
                       exclude=[model.head], fallback_lr=run["fallback_lr"])
    return Muon(model, lr=run["lr"], beta=MUON_BETA, weight_decay=WEIGHT_DECAY, nesterov=True, scale="reference",
                betas=ADAMW_BETAS, exclude=[model.head], fallback_lr=run["fallback_lr"])


def schedule(steps):
    warm = max(1, steps // 10)

    def factor(step):
        if step < warm:
            return (step + 1) / warm
        return 0.1 + 0.45 * (1 + math.cos(math.pi * (step - warm) / max(1, steps - warm)))
    return factor


def buffer(opt, p):
    """The optimizer's first moment of p: AK-AdamW's M, AdamW's exp_avg (zeros before its first step)."""
    st = opt.state.get(p, {})
    b = st.get("M", st.get("exp_avg"))
    return torch.zeros_like(p) if b is None else b


def grad_tracking(opt, layers):
    """cos(M_{t−1}, g_t) and e_t = ‖M − g‖/‖g‖ over the ruled weights, concatenated [sec:diag-grad]."""
    M = torch.cat([buffer(opt, m.weight).reshape(-1) for m in layers]).double()
    g = torch.cat([m.weight.grad.reshape(-1) for m in layers]).double()
    cos = (M @ g / (M.norm() * g.norm())).item() if M.norm() > 0 else 0.0
    return cos, ((M - g).norm() / g.norm()).item()


def probe(model, opt, layers, tokens, targets):
    """cos(M x̂, δ) averaged over the layers, and the input-feature statistics, on the probe windows
    with the buffers frozen [sec:diag-func, sec:diag-feat]; eval mode, gradients discarded."""
    seen = {}
    handles = []
    for m in layers:
        def hook(mod, inputs, output, m=m):
            seen[m] = [inputs[0].detach().reshape(-1, mod.in_features), None]
            output.register_hook(lambda dy, m=m: seen[m].__setitem__(1, dy.detach().reshape(-1, m.out_features)))
        handles.append(m.register_forward_hook(hook))
    model.eval()
    loss = torch.nn.functional.cross_entropy(model(tokens).reshape(-1, 256), targets.reshape(-1))
    loss.backward()
    model.train()
    for h in handles:
        h.remove()
    for p in model.parameters():
        p.grad = None
    cos, cond, erank, top1, features = [], [], [], [], {}
    for m in layers:
        X, dY = (t.double() for t in seen[m])
        Xhat = X / X.norm(dim=1, keepdim=True)
        pred = Xhat @ buffer(opt, m.weight).double().T
        cos.append((pred.reshape(-1) @ dY.reshape(-1) / (pred.norm() * dY.norm())).item())
        # q, k, v (and gate, up) read one tensor: its covariance once. The key is the address of
        # the captured input, alive in `seen` throughout (not of the converted copy X, which a
        # later layer's copy may reuse once it is freed).
        key = seen[m][0].data_ptr()
        if key not in features:
            lam = torch.linalg.eigvalsh(torch.cov(X.T)).clamp_min(0)
            p = lam / lam.sum()
            features[key] = ((lam[-1] / lam[0]).item() if lam[0] > 0 else float("inf"),
                             math.exp(-(p[p > 0] * p[p > 0].log()).sum().item()), p[-1].item())
    for c, r, t in features.values():
        cond.append(c), erank.append(r), top1.append(t)
    return {"cos_pred_delta": sum(cos) / len(cos), "condition_number": sum(cond) / len(cond),
            "effective_rank": sum(erank) / len(erank), "top1_fraction": max(top1), "inputs": len(features)}


def train(text, run, steps):
    single_threaded()
    train_text, val_text = text
    torch.manual_seed(run["seed"])
    model = TinyLM()
    opt = optimizer(model, run)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, schedule(steps))
    batches = torch.Generator().manual_seed(run["seed"])
    val = windows(val_text, VAL_WINDOWS, torch.Generator().manual_seed(0))
    probe_batch = windows(val_text, PROBE_WINDOWS, torch.Generator().manual_seed(1))
    layers = ruled(model)
    out = dict(run, diverged=False, eval_steps=[], val_curve=[], diag=[])
    for step in range(1, steps + 1):
        x, y = windows(train_text, BATCH, batches)
        loss = torch.nn.functional.cross_entropy(model(x).reshape(-1, 256), y.reshape(-1))
        logged = step % EVAL_EVERY == 0
        tracking = []  # the pre-step buffer against this step's gradient [sec:diag-grad]
        track = (lambda: tracking.append(grad_tracking(opt, layers))) \
            if logged and run.get("diagnostics") and step > 1 else None
        if trainings.step(opt, loss, track) is None:
            out["diverged"] = True
            return out
        sched.step()
        if logged:
            with torch.no_grad():
                model.eval()
                v = torch.nn.functional.cross_entropy(model(val[0]).reshape(-1, 256), val[1].reshape(-1)).item()
                model.train()
            if not math.isfinite(v):
                out["diverged"] = True
                return out
            out["eval_steps"].append(step)
            out["val_curve"].append(v)
            if tracking:
                d = probe(model, opt, layers, *probe_batch)
                d["step"], (d["cos_buffer_grad"], d["e_t"]) = step, tracking[0]
                out["diag"].append(d)
    return out


def check_runs(runs):
    trainings.check_runs(runs, {"arm": trainings.one_of("arm", ARMS), "lr": trainings.positive("lr"),
                                "fallback_lr": trainings.positive("fallback_lr", when=lambda r: r.get("arm") != "adamw"),
                                "seed": trainings.seed()})


def measure(steps, runs, workers):
    check_runs(runs)
    results = trainings.run_all(load, (), train, runs, steps, workers)
    return {"data": "jargon-text (the Jargon File, bytes; first 90% training, last 10% validation)",
            "network": {"width": WIDTH, "heads": HEADS, "depth": DEPTH, "hidden": HIDDEN, "context": CONTEXT,
                        "vocabulary": 256, "norm": "RMSNorm", "mlp": "SwiGLU"},
            "batch": BATCH, "steps": steps, "eval_every": EVAL_EVERY, "weight_decay": WEIGHT_DECAY,
            "adamw_betas": list(ADAMW_BETAS), "ak": {"betas": list(AK_BETAS), "eta": AK_ETA},
            "muon": {"beta": MUON_BETA, "nesterov": True, "scale": "reference"},
            "torch": torch.__version__, "python": sys.version.split()[0], "runs": results}


def main(argv=None):
    trainings.command(argv, "python -m akm.torch.language", __doc__, ("--steps", "training steps per run", EVAL_EVERY),
                      measure, check_runs)


if __name__ == "__main__":
    main()
