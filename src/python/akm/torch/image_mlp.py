"""akm.torch.image_mlp — the paper's image-MLP comparison [app:cifar-10, tab:cifar] at small scale on
images a Debian package ships: AK-SGD (akm.torch.AKSGD) against SGD with EMA momentum, one training
per (arm, configuration, seed), every run its own process-independent computation.

The network is the paper's: a 3-hidden-layer ReLU MLP trained with softmax cross-entropy, every
layer an nn.Linear (no biases, so every weight, the head's included, is under the AK rule and no
fallback learning rate enters). Widths, data size, batch and epochs are scaled to a 2-core
machine (WIDTHS, the caller's epochs). Data:
  fashion-mnist  Debian's dataset-fashion-mnist (/usr/share/datasets/fashion-mnist, 28×28, 10
                 classes): per seed, TRAIN + VAL images drawn without replacement from the 60 000
                 training images and TEST from the 10 000 test images;
  digits         scikit-learn's 8×8 digits (1797 images): per seed a 60/20/20 split.
Pixels are divided by their maximum and standardized per feature with the training split's mean
and standard deviation. The seed fixes the split, the initialization and the batch order, the
same for every arm and configuration (paired runs).

SGD-m is torch.optim.SGD(momentum=β, dampening=β): m ← βm + (1−β)g, θ ← θ − lr·m, the EMA
momentum of app:cifar-10. AK-SGD: M ← βM + η(G − MΣ̂), W ← W − lr·M [eq:deployed].

A run diverges when a training or validation loss is not finite, or when the optimizer refuses a
non-finite gradient; its outcomes are then null. Each run is single-threaded, so its numbers do
not depend on how many worker processes share the runs.

    python -m akm.torch.image_mlp --data fashion-mnist --epochs 8 --workers 2 \
        --runs '[{"arm": "ak-sgd", "lr": 1.7, "beta": 0.99, "eta": 0.99, "seed": 7}]'

prints one JSON line: the data and network, and per run its final validation loss, test
accuracy and validation loss after every epoch.
"""
import gzip
import math
import os
import sys

import numpy as np
import torch

from . import trainings
from .sgd import AKSGD
from .trainings import single_threaded

FASHION_DIR = "/usr/share/datasets/fashion-mnist"
FASHION_SIZES = {"train": 5000, "val": 1000, "test": 2000}  # drawn per seed
WIDTHS = (128, 128, 64)  # the paper: 4096, 4096, 2048 on CIFAR-10's 3072 inputs
BATCH = 128  # the paper: 256 over 50 000 images
ARMS = ("sgd-m", "ak-sgd")


def _idx(path):
    """An IDX file (the MNIST format): a big-endian header, then unsigned bytes."""
    with gzip.open(path, "rb") as f:
        raw = f.read()
    dims = raw[3]
    shape = tuple(int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(dims))
    return np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * dims).reshape(shape)


def load(data):
    """(images as float rows, labels) per source file: {"train": (X, y), "test": (X, y)} for
    fashion-mnist, {"all": (X, y)} for digits. Raises FileNotFoundError naming what to install."""
    if data == "fashion-mnist":
        out = {}
        for part, stem in (("train", "train"), ("test", "t10k")):
            img = os.path.join(FASHION_DIR, f"{stem}-images-idx3-ubyte.gz")
            lab = os.path.join(FASHION_DIR, f"{stem}-labels-idx1-ubyte.gz")
            if not os.path.exists(img):
                raise FileNotFoundError(f"{img} is missing: install Debian's dataset-fashion-mnist")
            X = _idx(img).reshape(-1, 28 * 28).astype(np.float64) / 255.0
            out[part] = (X, _idx(lab).astype(np.int64))
        return out
    if data == "digits":
        from sklearn.datasets import load_digits
        d = load_digits()
        return {"all": (d.data.astype(np.float64) / 16.0, d.target.astype(np.int64))}
    raise ValueError(f"--data {data!r} is not one of fashion-mnist, digits")


def split(sets, seed, sizes=FASHION_SIZES):
    """The seed's train / validation / test split (`sizes` of Fashion-MNIST's, the digits' 60/20/20),
    standardized with the training split's statistics, as float32 tensors."""
    rng = np.random.default_rng(seed)
    if "all" in sets:
        X, y = sets["all"]
        order = rng.permutation(len(y))
        a, b = int(0.6 * len(y)), int(0.8 * len(y))
        parts = {"train": (X[order[:a]], y[order[:a]]), "val": (X[order[a:b]], y[order[a:b]]),
                 "test": (X[order[b:]], y[order[b:]])}
    else:
        X, y = sets["train"]
        order = rng.permutation(len(y))[:sizes["train"] + sizes["val"]]
        tr, va = order[:sizes["train"]], order[sizes["train"]:]
        Xt, yt = sets["test"]
        te = rng.permutation(len(yt))[:sizes["test"]]
        parts = {"train": (X[tr], y[tr]), "val": (X[va], y[va]), "test": (Xt[te], yt[te])}
    mean = parts["train"][0].mean(axis=0)
    std = parts["train"][0].std(axis=0)
    std[std == 0] = 1.0
    return {k: (torch.tensor((Xp - mean) / std, dtype=torch.float32), torch.tensor(yp))
            for k, (Xp, yp) in parts.items()}


def network(n_in, n_out, seed):
    """The 3-hidden-layer ReLU MLP without biases, initialized from the seed."""
    torch.manual_seed(seed)
    widths = (n_in,) + WIDTHS
    layers = []
    for a, b in zip(widths[:-1], widths[1:]):
        layers += [torch.nn.Linear(a, b, bias=False), torch.nn.ReLU()]
    layers.append(torch.nn.Linear(widths[-1], n_out, bias=False))
    return torch.nn.Sequential(*layers)


def optimizer(model, run):
    if run["arm"] == "sgd-m":
        return torch.optim.SGD(model.parameters(), lr=run["lr"], momentum=run["beta"], dampening=run["beta"])
    if run["arm"] == "ak-sgd":
        return AKSGD(model, lr=run["lr"], beta=run["beta"], eta=run["eta"])
    raise ValueError(f"arm {run['arm']!r} is not one of {', '.join(ARMS)}")


@torch.no_grad()
def evaluate(model, X, y):
    model.eval()
    logits = model(X)
    model.train()
    loss = torch.nn.functional.cross_entropy(logits, y).item()
    return loss, (logits.argmax(dim=1) == y).double().mean().item()


def train(sets, run, epochs):
    """One training: the run's outcomes (null outcomes when it diverged)."""
    single_threaded()
    data = split(sets, run["seed"])
    Xtr, ytr = data["train"]
    model = network(Xtr.shape[1], 10, run["seed"])
    opt = optimizer(model, run)
    order = torch.Generator().manual_seed(run["seed"])
    val_curve, steps = [], 0
    out = dict(run, diverged=False, steps=0, val_loss=None, test_accuracy=None, val_curve=val_curve)
    for _ in range(epochs):
        perm = torch.randperm(len(ytr), generator=order)
        for i in range(0, len(ytr), BATCH):
            idx = perm[i:i + BATCH]
            loss = torch.nn.functional.cross_entropy(model(Xtr[idx]), ytr[idx])
            if trainings.step(opt, loss) is None:
                out["diverged"] = True
                return out
            steps += 1
        val_loss, _ = evaluate(model, *data["val"])
        if not math.isfinite(val_loss):
            out["diverged"] = True
            return out
        val_curve.append(val_loss)
    out["steps"] = steps
    out["val_loss"] = val_curve[-1]
    out["test_accuracy"] = evaluate(model, *data["test"])[1]
    return out


def check_runs(runs):
    trainings.check_runs(runs, {
        "arm": trainings.one_of("arm", ARMS),
        "lr": trainings.positive("lr"),
        "beta": (lambda r: isinstance(r.get("beta"), (int, float)) and 0 <= r["beta"] < 1, "in [0, 1)"),
        "eta": trainings.positive("eta", when=lambda r: r.get("arm") == "ak-sgd"),
        "seed": trainings.seed()})


def measure(data, epochs, runs, workers):
    """Every run, in the order given, with the data and network it used."""
    check_runs(runs)
    results = trainings.run_all(load, (data,), train, runs, epochs, workers)
    sizes = FASHION_SIZES if data == "fashion-mnist" else {"split": "60/20/20 of 1797"}
    return {"data": data, "sizes": sizes, "widths": list(WIDTHS), "batch": BATCH, "epochs": epochs,
            "activation": "relu", "dtype": "float32", "torch": torch.__version__,
            "python": sys.version.split()[0], "runs": results}


def main(argv=None):
    trainings.command(argv, "python -m akm.torch.image_mlp", __doc__, ("--epochs", "epochs per run", 1), measure,
                      check_runs, data=("fashion-mnist", "digits"))


if __name__ == "__main__":
    main()
