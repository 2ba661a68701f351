# akm.torch's hooks and refusals, on the network of torch_network.py: the hooks capture only
# training forwards and keep no activation alive, and every bad input is refused with
# ValueError before anything changes.
import copy
import gc
import weakref

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")
from akm.torch import AKAdamW, AKMuon, AKSGD  # noqa: E402
from torch_network import MAKERS, ak_weights, data, identical, loss_of, mlp, train  # noqa: E402


def snapshot(model, opt):
    return copy.deepcopy((model.state_dict(), opt.state_dict()["state"]))


# ---- the hooks ----------------------------------------------------------------------------

def test_eval_and_no_grad_forwards_capture_nothing():
    # AK-SGD's step reads only the captured sums, so extra eval-mode or no_grad forwards
    # (with backward where there is a graph) must leave its AK weights' step unchanged.
    plain, noisy = mlp(), mlp()
    opt_plain, opt_noisy = MAKERS["AKSGD"](plain), MAKERS["AKSGD"](noisy)
    train(plain, opt_plain, 1)
    opt_noisy.zero_grad(set_to_none=True)
    loss_of(noisy, *data(0)).backward()
    noisy.eval()
    loss_of(noisy, *data(7)).backward()
    with torch.no_grad():
        loss_of(noisy, *data(8))
    noisy.train()
    with torch.no_grad():
        loss_of(noisy, *data(9))
    opt_noisy.step()
    for a, b in zip(ak_weights(plain), ak_weights(noisy)):
        assert torch.equal(a, b)


def test_the_hook_keeps_no_activation_alive():
    # The captured input is the layer's own tensor (no copy), released at backward: after the
    # backward nothing of akm.torch holds it, even while the output is kept.
    model = mlp()
    opt = MAKERS["AKSGD"](model)
    X, Y = data(0)  # autograd saves X for the first layer's weight gradient, until backward
    alive = weakref.ref(X)
    out = model(X)
    ((out - Y) ** 2).mean().backward()
    del X
    gc.collect()
    assert alive() is None
    opt.step()
    del out


def test_a_dropped_optimizer_stops_capturing():
    model = mlp()
    opt = MAKERS["AKSGD"](model)
    alive = weakref.ref(opt)
    del opt
    gc.collect()
    assert alive() is None
    loss_of(model, *data(0)).backward()  # the hooks find no optimizer and do nothing


# ---- refusals: ValueError, nothing changed ----------------------------------------------

@pytest.mark.parametrize("name,kwargs,message", [
    ("AKSGD", dict(lr=0.1, beta=1.0, eta=0.5), r"beta = 1.0 in param group 0: must be in \[0, 1\)"),
    ("AKSGD", dict(lr=0.1, beta=-0.1, eta=0.5), r"beta = -0.1 in param group 0: must be in \[0, 1\)"),
    ("AKSGD", dict(lr=0.1, beta=0.9, eta=0.0), r"eta = 0.0 in param group 0: must be > 0 and finite"),
    ("AKSGD", dict(lr=0.1, beta=0.9, eta=float("nan")), r"eta = nan in param group 0: must be > 0"),
    ("AKSGD", dict(lr=0.0, beta=0.9, eta=0.5), r"lr = 0.0 in param group 0: must be > 0 and finite"),
    ("AKAdamW", dict(lr=-1e-3), r"lr = -0.001 in param group 0: must be > 0"),
    ("AKAdamW", dict(betas=(0.9, 1.0)), r"betas\[1\] = 1.0 in param group 0: must be in \[0, 1\)"),
    ("AKAdamW", dict(betas=(1.5, 0.9)), r"betas\[0\] = 1.5 in param group 0: must be in \[0, 1\)"),
    ("AKAdamW", dict(eta=-0.4), r"eta = -0.4 in param group 0: must be > 0"),
    ("AKAdamW", dict(eps=0.0), r"eps = 0.0 in param group 0: must be > 0"),
    ("AKMuon", dict(beta=1.0), r"beta = 1.0 in param group 0: must be in \[0, 1\)"),
    ("AKMuon", dict(ns_steps=0), r"ns_steps = 0 in param group 0: must be an integer >= 1"),
    ("AKMuon", dict(weight_decay=-0.1), r"weight_decay = -0.1 in param group 0: must be >= 0"),
])
def test_bad_hyper_parameters_are_refused(name, kwargs, message):
    cls = {"AKSGD": AKSGD, "AKAdamW": AKAdamW, "AKMuon": AKMuon}[name]
    with pytest.raises(ValueError, match=message):
        cls(mlp(), **kwargs)


def test_what_the_rule_does_not_cover_is_refused_in_an_ak_group():
    model = mlp()
    with pytest.raises(ValueError, match=r"parameter '0.bias' of shape \(12,\) is in an AK group: .*ak=False \(AdamW\)"):
        AKAdamW(model, [model[0].weight, model[0].bias])
    emb = torch.nn.ModuleDict({"emb": torch.nn.Embedding(10, 4), "out": torch.nn.Linear(4, 2)})
    with pytest.raises(ValueError, match=r"parameter 'emb.weight' \(Embedding.weight\) is in an AK group"):
        AKSGD(emb, [{"params": [emb["emb"].weight]}], lr=0.1, beta=0.9, eta=0.5)
    stranger = torch.nn.Parameter(torch.zeros(3, 3))
    with pytest.raises(ValueError, match=r"not in the model, shape \(3, 3\)"):
        AKMuon(model, [stranger])
    with pytest.raises(ValueError, match=r"weight_decay = 0.1 in param group 0: must be 0 \(AK-SGD"):
        AKSGD(model, [{"params": ak_weights(model), "weight_decay": 0.1}], lr=0.1, beta=0.9, eta=0.5)
    # The same parameters, marked for the fallback, are accepted.
    AKSGD(emb, [{"params": [emb["emb"].weight], "ak": False, "weight_decay": 0.1}], lr=0.1, beta=0.9, eta=0.5)


def refused_step(model, opt, message, backward=True, X=None, Y=None):
    """Forward and backward (unless done), then a step that must raise and change nothing."""
    if backward:
        Xd, Yd = data(3)
        loss_of(model, Xd if X is None else X, Yd if Y is None else Y).backward()
    before = snapshot(model, opt)
    with pytest.raises(ValueError, match=message):
        opt.step()
    assert identical(snapshot(model, opt), before)


@pytest.mark.parametrize("name", MAKERS)
@pytest.mark.parametrize("key,value,message", [
    ("eta", 0.0, r"eta = 0.0 in param group 0: must be > 0"),
    ("lr", -0.1, r"lr = -0.1 in param group 0: must be >= 0"),
    ("beta", 1.0, r"(beta|betas\[0\]) = 1.0 in param group 0: must be in \[0, 1\)"),
])
def test_a_group_changed_to_a_bad_value_refuses_the_step(name, key, value, message):
    model = mlp()
    opt = MAKERS[name](model)
    train(model, opt, 2)
    if key == "beta" and name == "AKAdamW":
        opt.param_groups[0]["betas"] = (value, 0.999)
    else:
        opt.param_groups[0][key] = value
    refused_step(model, opt, message)


@pytest.mark.parametrize("name", MAKERS)
def test_non_finite_or_zero_inputs_and_gradients_are_refused(name):
    X, Y = data(3)
    bad_x = X.clone()
    bad_x[2, 1] = float("nan")
    zero_row = X.clone()
    zero_row[5] = 0.0
    bad_y = Y.clone()
    bad_y[0, 0] = float("inf")
    cases = [(dict(X=bad_x), r"parameter '0.weight': the captured layer input X holds NaN or inf; must be finite"),
             (dict(X=zero_row), r"parameter '0.weight': .* a row of norm 0, .*; every row must be nonzero"),
             (dict(Y=bad_y), r"parameter '0.weight': the captured output gradient ∇Y holds NaN or inf")]
    for kwargs, message in cases:
        model = mlp()
        opt = MAKERS[name](model)
        train(model, opt, 2)
        opt.zero_grad(set_to_none=True)
        refused_step(model, opt, message + r".*\(step refused, no parameter changed\)", **kwargs)
    # A NaN gradient of a fallback parameter alone is refused too.
    model = mlp()
    opt = MAKERS[name](model)
    loss_of(model, *data(0)).backward()
    model[1].weight.grad[0] = float("nan")
    refused_step(model, opt, r"parameter '1.weight': its gradient holds NaN or inf", backward=False)


@pytest.mark.parametrize("name", MAKERS)
def test_a_step_without_captured_input_is_refused(name):
    message = r"parameter '0.weight' has a gradient but no captured layer input"
    model = mlp()
    opt = MAKERS[name](model)
    train(model, opt, 1)
    opt.remove_hooks()
    refused_step(model, opt, message)  # hooks removed
    model = mlp()
    opt = MAKERS[name](model)
    model.eval()
    refused_step(model, opt, message)  # the forward ran in eval mode
    model = mlp()
    opt = MAKERS[name](model)
    with torch.no_grad():
        loss_of(model, *data(0))
    for p in model.parameters():  # a gradient from elsewhere, with no training forward
        p.grad = torch.ones_like(p)
    refused_step(model, opt, message, backward=False)


def test_a_second_backward_through_one_forward_is_refused():
    model = mlp()
    opt = MAKERS["AKSGD"](model)
    loss = loss_of(model, *data(0))
    loss.backward(retain_graph=True)
    loss.backward()
    refused_step(model, opt, r"backward ran twice through one forward", backward=False)


def test_not_a_module_is_refused():
    with pytest.raises(ValueError, match=r"model = list: must be the torch.nn.Module"):
        AKAdamW(list(mlp().parameters()))
