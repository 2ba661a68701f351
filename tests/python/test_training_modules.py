# The trainings the claims T23 (akm.torch.image_mlp), T24 (akm.torch.vision) and T25
# (akm.torch.language) run: the convolution written as a patch-keyed linear map against torch's
# own, the runs' independence from the worker count, the paired splits, the diagnostics' probe
# leaving the training untouched, and the refusals of bad runs. The image tests run on the digits
# (the quick-mode data, installed with python3-sklearn), so they need no Fashion-MNIST; the
# language tests need the Jargon File (jargon-text) and skip without it.
import json
import os

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")
pytest.importorskip("sklearn", reason="scikit-learn is not installed (Debian: python3-sklearn)")
from akm.torch import image_mlp, language, vision  # noqa: E402

needs_text = pytest.mark.skipif(not os.path.exists(language.TEXT), reason="jargon-text is not installed")


@pytest.mark.parametrize("stride", [1, 2])
def test_patch_conv_is_a_convolution_with_bias(stride):
    torch.manual_seed(3)
    conv = vision.PatchConv(3, 5, 3, stride).double()
    x = torch.randn(2, 3, 9, 9, dtype=torch.float64)
    w = conv.linear.weight[:, :-1].reshape(5, 3, 3, 3)  # the last column is the bias
    expected = torch.nn.functional.conv2d(x, w, conv.linear.weight[:, -1], stride=stride, padding=1)
    assert torch.allclose(conv(x), expected, rtol=1e-12, atol=1e-12)


def test_patch_conv_keys_are_never_zero():
    conv = vision.PatchConv(1, 2, 3, 1)
    seen = []
    conv.linear.register_forward_pre_hook(lambda mod, inputs: seen.append(inputs[0]))
    conv(torch.zeros(1, 1, 4, 4))  # blank input: every patch is zero but for the constant 1
    assert (torch.linalg.vector_norm(seen[0], dim=-1) == 1).all()


def test_splits_are_paired_and_disjoint():
    sets = image_mlp.load("digits")
    a, b = image_mlp.split(sets, 11), image_mlp.split(sets, 11)
    for part in ("train", "val", "test"):
        assert torch.equal(a[part][0], b[part][0]) and torch.equal(a[part][1], b[part][1])
    sizes = [len(a[p][1]) for p in ("train", "val", "test")]
    assert sum(sizes) == 1797 and sizes[0] == int(0.6 * 1797)
    assert not torch.equal(image_mlp.split(sets, 12)["train"][0], a["train"][0])


RUNS_MLP = [{"arm": "sgd-m", "lr": 0.3, "beta": 0.9, "eta": 0.0, "seed": 5},
            {"arm": "ak-sgd", "lr": 0.1, "beta": 0.99, "eta": 0.99, "seed": 5}]
RUNS_VISION = [{"arch": "convnet", "arm": "ak-adamw", "lr": 1e-3, "seed": 5},
               {"arch": "vit", "arm": "adamw", "lr": 3e-3, "seed": 5}]


@pytest.mark.parametrize("module,runs", [(image_mlp, RUNS_MLP), (vision, RUNS_VISION)])
def test_numbers_do_not_depend_on_the_worker_count(module, runs):
    one = module.measure("digits", 2, runs, 1)
    two = module.measure("digits", 2, runs, 2)
    assert json.dumps(one["runs"]) == json.dumps(two["runs"])
    assert all(not r["diverged"] for r in one["runs"])


@pytest.mark.parametrize("module,bad,message", [
    (image_mlp, {"arm": "adam", "lr": 0.1, "beta": 0.9, "eta": 0.5, "seed": 1}, "arm"),
    (image_mlp, {"arm": "ak-sgd", "lr": 0.1, "beta": 1.0, "eta": 0.5, "seed": 1}, "beta"),
    (image_mlp, {"arm": "ak-sgd", "lr": 0.1, "beta": 0.9, "eta": 0.0, "seed": 1}, "eta"),
    (image_mlp, {"arm": "sgd-m", "lr": -1, "beta": 0.9, "eta": 0.0, "seed": 1}, "lr"),
    (vision, {"arch": "resnet", "arm": "adamw", "lr": 0.1, "seed": 1}, "arch"),
    (vision, {"arch": "vit", "arm": "adamw", "lr": 0.1, "seed": -1}, "seed"),
])
def test_bad_runs_are_refused_naming_the_field(module, bad, message):
    with pytest.raises(ValueError, match=message):
        module.check_runs([bad])


RUNS_LANGUAGE = [{"arm": "adamw", "lr": 1e-2, "seed": 5, "diagnostics": True},
                 {"arm": "ak-adamw", "lr": 1e-3, "fallback_lr": 1e-2, "seed": 5, "diagnostics": True},
                 {"arm": "muon", "lr": 0.03, "fallback_lr": 1e-2, "seed": 5}]


@needs_text
def test_language_numbers_do_not_depend_on_the_worker_count():
    one = language.measure(language.EVAL_EVERY, RUNS_LANGUAGE, 1)
    two = language.measure(language.EVAL_EVERY, RUNS_LANGUAGE, 2)
    assert json.dumps(one["runs"]) == json.dumps(two["runs"])
    assert [len(r["diag"]) for r in one["runs"]] == [1, 1, 0]


@needs_text
def test_the_feature_statistics_cover_every_distinct_layer_input_once():
    # Per block: q, k, v read one input, gate and up another, o and down one each.
    out = language.train(language.load(), dict(RUNS_LANGUAGE[1], diagnostics=True), 3 * language.EVAL_EVERY)
    assert [d["inputs"] for d in out["diag"]] == [4 * language.DEPTH] * 3


@needs_text
@pytest.mark.parametrize("arm", ["adamw", "ak-adamw"])
def test_the_diagnostics_do_not_change_the_training(arm):
    run = dict(next(r for r in RUNS_LANGUAGE if r["arm"] == arm))
    text = language.load()
    steps = 2 * language.EVAL_EVERY
    with_probe = language.train(text, dict(run, diagnostics=True), steps)
    without = language.train(text, dict(run, diagnostics=False), steps)
    assert with_probe["val_curve"] == without["val_curve"] and len(with_probe["diag"]) == 2


@pytest.mark.parametrize("bad,message", [
    ({"arm": "sgd", "lr": 0.1, "seed": 1}, "arm"),
    ({"arm": "ak-adamw", "lr": 0.1, "seed": 1}, "fallback_lr"),
    ({"arm": "muon", "lr": 0.0, "fallback_lr": 0.1, "seed": 1}, "lr"),
])
def test_bad_language_runs_are_refused_naming_the_field(bad, message):
    with pytest.raises(ValueError, match=message):
        language.check_runs([bad])
