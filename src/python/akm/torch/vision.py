"""akm.torch.vision — the paper's vision-architecture comparison [tab:vision, app:cifar-vision] at
small scale: AK-AdamW (akm.torch.AKAdamW) against AdamW on a residual convolutional network and a
vision transformer, trained on Fashion-MNIST (digits in quick mode; data and splits as
akm.torch.image_mlp), one training per (architecture, arm, learning rate, seed).

The two networks, scaled to a 2-core machine (the paper: ResNet-18 and ViT-Tiny on CIFAR-10):
  convnet  a residual network whose convolutions are patch-wise linear maps (PatchConv: unfold,
           then an nn.Linear on each k×k patch and a constant 1, which is what a convolution
           with bias computes), so every
           convolution's weight is under the AK rule with the patch as its key, N = images ×
           positions, on the images average-pooled to 14×14 (the digits as they are): stem 3×3
           stride 2 to 8 channels, a residual block of two 3×3 convolutions,
           3×3 stride 2 to 16 channels, a residual block, global average pooling, a linear head;
  vit      a vision transformer: 7×7 patches (16 tokens on 28×28, one on the 8×8 digits' single
           patch grid of 4×4 patches), a linear patch embedding, learned position embeddings,
           2 pre-LayerNorm blocks of width 48 with 3 heads (q, k, v, o as nn.Linear) and a GELU
           MLP of width 96, mean pooling, a linear head.
Every nn.Linear weight is an AK parameter; biases, LayerNorm and position embeddings go to
AK-AdamW's fallback, AdamW at the same learning rate. AdamW: torch.optim.AdamW(betas=(0.9,
0.999), weight_decay=0.01); AK-AdamW: betas (0.99, 0.999) and η = 0.37 (tab:hps), the same
weight decay.

Per run: the mean training loss of every epoch (the mean over its minibatches), the validation
loss after every epoch, and whether it diverged (a non-finite loss, or a refused step).

    python -m akm.torch.vision --data fashion-mnist --epochs 6 --workers 2 \
        --runs '[{"arch": "vit", "arm": "ak-adamw", "lr": 0.001, "seed": 7}]'
"""
import math
import sys

import torch

from . import trainings
from .adamw import AKAdamW
from .image_mlp import load, split
from .trainings import single_threaded

ARCHS = ("convnet", "vit")
ARMS = ("adamw", "ak-adamw")
BATCH = 128
WEIGHT_DECAY = 0.01
AK_BETAS, AK_ETA = (0.99, 0.999), 0.37  # tab:hps
SIZES = {"train": 2000, "val": 1000, "test": 500}  # drawn per seed; the test images are not used


class PatchConv(torch.nn.Module):
    """A k×k convolution with bias as an nn.Linear on unfolded patches with a constant 1 appended
    (the bias as the weight's last column). The 1 keeps every key nonzero: a zero-padded patch of
    blank background, or of a dead ReLU region, is all zeros, and its normalized key x/‖x‖ is
    undefined (akm.torch refuses it)."""

    def __init__(self, c_in, c_out, k, stride):
        super().__init__()
        self.k, self.stride, self.c_out = k, stride, c_out
        self.linear = torch.nn.Linear(c_in * k * k + 1, c_out, bias=False)

    def forward(self, x):
        n, _, h, w = x.shape
        cols = torch.nn.functional.unfold(x, self.k, padding=self.k // 2, stride=self.stride)  # n × (c k k) × L
        ho, wo = (h + 2 * (self.k // 2) - self.k) // self.stride + 1, (w + 2 * (self.k // 2) - self.k) // self.stride + 1
        keys = torch.cat([cols.transpose(1, 2), cols.new_ones(n, cols.shape[2], 1)], dim=2)
        y = self.linear(keys)  # n × L × c_out
        return y.transpose(1, 2).reshape(n, self.c_out, ho, wo)


class Residual(torch.nn.Module):
    def __init__(self, c):
        super().__init__()
        self.a, self.b = PatchConv(c, c, 3, 1), PatchConv(c, c, 3, 1)

    def forward(self, x):
        return torch.relu(x + self.b(torch.relu(self.a(x))))


class ConvNet(torch.nn.Module):
    def __init__(self, side, n_out):
        super().__init__()
        self.side = side
        self.body = torch.nn.Sequential(PatchConv(1, 8, 3, 2), torch.nn.ReLU(), Residual(8),
                                        PatchConv(8, 16, 3, 2), torch.nn.ReLU(), Residual(16))
        self.head = torch.nn.Linear(16, n_out)

    def forward(self, x):
        img = x.reshape(-1, 1, self.side, self.side)
        if self.side == 28:  # Fashion-MNIST pooled to 14×14: a quarter of the cost
            img = torch.nn.functional.avg_pool2d(img, 2)
        h = self.body(img)
        return self.head(h.mean(dim=(2, 3)))


class Block(torch.nn.Module):
    def __init__(self, width, heads, hidden):
        super().__init__()
        self.heads = heads
        self.norm1, self.norm2 = torch.nn.LayerNorm(width), torch.nn.LayerNorm(width)
        self.q, self.k, self.v, self.o = (torch.nn.Linear(width, width) for _ in range(4))
        self.up, self.down = torch.nn.Linear(width, hidden), torch.nn.Linear(hidden, width)

    def forward(self, x):
        n, t, w = x.shape
        h = self.norm1(x)
        q, k, v = (f(h).reshape(n, t, self.heads, -1).transpose(1, 2) for f in (self.q, self.k, self.v))
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]), dim=-1)
        x = x + self.o((att @ v).transpose(1, 2).reshape(n, t, w))
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm2(x))))


class ViT(torch.nn.Module):
    def __init__(self, side, n_out, width=48, heads=3, hidden=96, depth=2):
        super().__init__()
        self.side, self.patch = side, 7 if side == 28 else 4
        tokens = (side // self.patch) ** 2
        self.embed = torch.nn.Linear(self.patch * self.patch, width)
        self.position = torch.nn.Parameter(torch.zeros(tokens, width))
        torch.nn.init.normal_(self.position, std=0.02)
        self.blocks = torch.nn.Sequential(*(Block(width, heads, hidden) for _ in range(depth)))
        self.norm = torch.nn.LayerNorm(width)
        self.head = torch.nn.Linear(width, n_out)

    def forward(self, x):
        p = self.patch
        img = x.reshape(-1, 1, self.side, self.side)
        patches = torch.nn.functional.unfold(img, p, stride=p).transpose(1, 2)  # n × tokens × p²
        h = self.blocks(self.embed(patches) + self.position)
        return self.head(self.norm(h).mean(dim=1))


def network(arch, n_in, n_out, seed):
    torch.manual_seed(seed)
    side = int(round(math.sqrt(n_in)))
    if arch == "convnet":
        return ConvNet(side, n_out)
    if arch == "vit":
        return ViT(side, n_out)
    raise ValueError(f"arch {arch!r} is not one of {', '.join(ARCHS)}")


def optimizer(model, run):
    if run["arm"] == "adamw":
        return torch.optim.AdamW(model.parameters(), lr=run["lr"], weight_decay=WEIGHT_DECAY)
    return AKAdamW(model, lr=run["lr"], betas=AK_BETAS, eta=AK_ETA, weight_decay=WEIGHT_DECAY)


@torch.no_grad()
def val_loss(model, X, y):
    model.eval()
    out = torch.nn.functional.cross_entropy(model(X), y).item()
    model.train()
    return out


def train(sets, run, epochs):
    """One training: per-epoch mean training loss and validation loss (cut short at a divergence)."""
    single_threaded()
    data = split(sets, run["seed"], SIZES)
    Xtr, ytr = data["train"]
    model = network(run["arch"], Xtr.shape[1], 10, run["seed"])
    opt = optimizer(model, run)
    order = torch.Generator().manual_seed(run["seed"])
    out = dict(run, diverged=False, train_curve=[], val_curve=[])
    for _ in range(epochs):
        perm, total, batches = torch.randperm(len(ytr), generator=order), 0.0, 0
        for i in range(0, len(ytr), BATCH):
            idx = perm[i:i + BATCH]
            value = trainings.step(opt, torch.nn.functional.cross_entropy(model(Xtr[idx]), ytr[idx]))
            if value is None:
                out["diverged"] = True
                return out
            total, batches = total + value, batches + 1
        v = val_loss(model, *data["val"])
        if not math.isfinite(v):
            out["diverged"] = True
            return out
        out["train_curve"].append(total / batches)
        out["val_curve"].append(v)
    return out


def check_runs(runs):
    trainings.check_runs(runs, {"arch": trainings.one_of("arch", ARCHS), "arm": trainings.one_of("arm", ARMS),
                                "lr": trainings.positive("lr"), "seed": trainings.seed()})


def measure(data, epochs, runs, workers):
    check_runs(runs)
    results = trainings.run_all(load, (data,), train, runs, epochs, workers)
    return {"data": data, "sizes": SIZES if data == "fashion-mnist" else {"split": "60/20/20 of 1797"},
            "batch": BATCH, "epochs": epochs, "weight_decay": WEIGHT_DECAY,
            "ak": {"betas": list(AK_BETAS), "eta": AK_ETA}, "adamw": {"betas": [0.9, 0.999]},
            "dtype": "float32", "torch": torch.__version__, "python": sys.version.split()[0], "runs": results}


def main(argv=None):
    trainings.command(argv, "python -m akm.torch.vision", __doc__, ("--epochs", "epochs per run", 1), measure,
                      check_runs, data=("fashion-mnist", "digits"))


if __name__ == "__main__":
    main()
