# akm.torch as a practitioner uses it: a small float64 network (two nn.Linear layers, whose
# weights take the AK rule, and biases and a LayerNorm, which take the fallback) trained by
# AKSGD, AKAdamW and AKMuon. What torch.optim users expect — schedulers, checkpoints, closures,
# zero_grad, gradient accumulation, any leading dimensions — and what akm adds: the fallback
# moves exactly as torch.optim's, the hooks capture only training forwards and keep no
# activation alive, and every bad input is refused before anything changes.
import copy
import gc
import io
import math
import weakref

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")
from akm.torch import AKAdamW, AKMuon, AKSGD, newton_schulz  # noqa: E402

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


def snapshot(model, opt):
    return copy.deepcopy((model.state_dict(), opt.state_dict()["state"]))


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


# ---- groups -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", MAKERS)
def test_default_groups_split_linear_weights_from_the_rest(name):
    model = mlp()
    opt = MAKERS[name](model)
    ak, rest = opt.param_groups
    assert ak["ak"] and not rest["ak"]
    assert same(ak["params"], ak_weights(model))
    assert same(rest["params"], [model[0].bias, model[1].weight, model[1].bias, model[3].bias])
    assert rest["lr"] == (3e-4 if name == "AKMuon" else ak["lr"])  # Muon's reference aux rate
    head = MAKERS[name](model, exclude=[model[3]])  # the user marks the head
    assert same(head.param_groups[0]["params"], [model[0].weight])
    assert any(p is model[3].weight for p in head.param_groups[1]["params"])


# ---- training, schedulers, checkpoints --------------------------------------------------

@pytest.mark.parametrize("name", MAKERS)
def test_trains_through_a_scheduler_and_a_checkpoint(name):
    # 40 steps straight, against 20 steps, a checkpoint through torch.save, a fresh model,
    # optimizer and scheduler loaded from it, and 20 more: bit for bit the same weights.
    def run(model):
        opt = MAKERS[name](model)
        return opt, torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)

    model = mlp()
    opt, sched = run(model)
    losses = train(model, opt, 40, sched=sched)
    assert sum(losses[-5:]) < 0.75 * sum(losses[:5]), losses  # it learns

    first = mlp()
    opt1, sched1 = run(first)
    train(first, opt1, 20, sched=sched1)
    buf = io.BytesIO()
    torch.save({"model": first.state_dict(), "opt": opt1.state_dict(), "sched": sched1.state_dict()}, buf)
    buf.seek(0)
    saved = torch.load(buf)
    resumed = mlp(seed=1)  # other initial weights, overwritten by the checkpoint
    resumed.load_state_dict(saved["model"])
    opt2, sched2 = run(resumed)
    opt2.load_state_dict(saved["opt"])
    sched2.load_state_dict(saved["sched"])
    train(resumed, opt2, 20, start=20, sched=sched2)
    assert identical(resumed.state_dict(), model.state_dict())
    assert identical(opt2.state_dict()["state"], opt.state_dict()["state"])


@pytest.mark.parametrize("name", MAKERS)
def test_a_scheduler_sets_the_rate_of_the_step(name):
    # The scheduler's halving is the step's: equal to setting every group's lr by hand, and
    # not equal to the constant rate.
    runs = []
    for how in ("scheduler", "by hand", "constant"):
        model = mlp()
        opt = MAKERS[name](model)
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda k: 0.5 ** k) if how == "scheduler" else None
        for k in range(4):
            if how == "by hand":
                for g, base in zip(opt.param_groups, [g["initial_lr"] for g in runs[0][1].param_groups]):
                    g["lr"] = base * 0.5 ** k
            train(model, opt, 1, start=k, sched=sched)
        runs.append((model, opt))
    (sched_model, _), (hand_model, _), (const_model, _) = runs
    assert identical(sched_model.state_dict(), hand_model.state_dict())
    assert not torch.equal(sched_model[0].weight, const_model[0].weight)


def test_a_wrong_checkpoint_is_refused():
    model = mlp()
    opt = MAKERS["AKAdamW"](model)
    train(model, opt, 1)
    state = opt.state_dict()
    state["param_groups"][0]["ak"] = False
    with pytest.raises(ValueError, match=r"ak = False in saved param group 0: must be True"):
        MAKERS["AKAdamW"](mlp()).load_state_dict(state)
    state = opt.state_dict()
    state["param_groups"][0]["eta"] = -1.0
    with pytest.raises(ValueError, match=r"eta = -1.0 in param group 0: must be > 0"):
        MAKERS["AKAdamW"](mlp()).load_state_dict(state)


# ---- the fallback is torch.optim's ------------------------------------------------------

@pytest.mark.parametrize("name", MAKERS)
def test_fallback_parameters_move_as_torch_optim_moves_them(name):
    model = mlp()
    opt = MAKERS[name](model)
    fb = opt.param_groups[1]
    twins = [torch.nn.Parameter(p.detach().clone()) for p in fb["params"]]
    if name == "AKSGD":
        ref = torch.optim.SGD(twins, lr=fb["lr"], momentum=fb["beta"])
    else:
        ref = torch.optim.AdamW(twins, lr=fb["lr"], betas=fb["betas"], eps=fb["eps"], weight_decay=fb["weight_decay"])
    for k in range(6):
        opt.zero_grad(set_to_none=True)
        loss_of(model, *data(k)).backward()
        for p, t in zip(fb["params"], twins):
            t.grad = p.grad.clone()
        opt.step()
        ref.step()
        for p, t in zip(fb["params"], twins):
            assert torch.equal(p, t), (name, k)


# ---- what the step is made of -----------------------------------------------------------

def test_ak_muon_steps_along_newton_schulz_of_the_ak_buffer():
    # AK-Muon's buffer is AK-SGD's (the same rule, eq:deployed), and its step on W (m×n) is
    # −lr·√(m/n)·NS(M) after the decoupled decay [cor:mup-base-lr].
    muon_model, sgd_model = mlp(), mlp()
    muon = AKMuon(muon_model, lr=0.02, beta=0.9, eta=0.5, weight_decay=0.01)
    sgd = AKSGD(sgd_model, lr=0.1, beta=0.9, eta=0.5)
    for k in range(3):
        sgd_model.load_state_dict(muon_model.state_dict())  # the same W, so the same (X, ∇Y)
        before = [w.detach().clone() for w in ak_weights(muon_model)]
        for model, opt in ((muon_model, muon), (sgd_model, sgd)):
            opt.zero_grad(set_to_none=True)
            loss_of(model, *data(k)).backward()
        muon.step()
        sgd.step()
        for w, w0, ws in zip(ak_weights(muon_model), before, ak_weights(sgd_model)):
            M = muon.state[w]["M"]
            assert torch.equal(M, sgd.state[ws]["M"])
            m, n = w.shape
            want = w0 * (1 - 0.02 * 0.01) - 0.02 * math.sqrt(m / n) * newton_schulz(M)
            torch.testing.assert_close(w.detach(), want, rtol=0, atol=1e-15)


def test_leading_dimensions_are_tokens():
    # Inputs (4, 4, N_IN) are 16 tokens: the same step as the (16, N_IN) batch.
    results = []
    for lead in ((4,), ()):
        model = mlp()
        opt = MAKERS["AKAdamW"](model)
        X, Y = data(0, rows=4 if lead else 16, lead=lead)
        if not lead:
            X, Y = data(0, rows=4, lead=(4,))
            X, Y = X.reshape(16, N_IN), Y.reshape(16, N_OUT)
        opt.zero_grad(set_to_none=True)
        loss_of(model, X, Y).backward()
        opt.step()
        results.append(model.state_dict())
    for key in results[0]:
        torch.testing.assert_close(results[0][key], results[1][key], rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("name", MAKERS)
def test_gradient_accumulation_equals_one_large_batch(name):
    # Two backward passes on halves (loss/2 each) before one step: one step on the whole batch,
    # within float64 rounding (the sums G, C and N add up; M is fixed until the step).
    results = []
    for parts in (1, 2):
        model = mlp()
        opt = MAKERS[name](model)
        for k in range(3):
            X, Y = data(k)
            opt.zero_grad(set_to_none=True)
            for Xp, Yp in zip(X.chunk(parts), Y.chunk(parts)):
                (loss_of(model, Xp, Yp) / parts).backward()
            opt.step()
        results.append(model.state_dict())
    for key in results[0]:
        torch.testing.assert_close(results[0][key], results[1][key], rtol=1e-12, atol=1e-13)
    assert not torch.equal(results[0]["0.weight"], mlp().state_dict()["0.weight"])


def test_step_takes_a_closure_and_zero_grad_drops_the_captured_sums():
    model, twin = mlp(), mlp()
    opt, ref = MAKERS["AKAdamW"](model), MAKERS["AKAdamW"](twin)

    def closure():
        opt.zero_grad(set_to_none=True)
        loss = loss_of(model, *data(0))
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert loss.item() == pytest.approx(train(twin, ref, 1)[0], rel=0, abs=0)
    assert identical(model.state_dict(), twin.state_dict())
    # A backward whose step is skipped, then zero_grad(set_to_none=True): its capture is gone.
    loss_of(model, *data(5)).backward()
    opt.zero_grad(set_to_none=True)
    assert all(p.grad is None for p in model.parameters())
    train(model, opt, 1, start=1)
    train(twin, ref, 1, start=1)
    assert identical(model.state_dict(), twin.state_dict())


def test_the_captured_sums_last_one_step():
    # With model.zero_grad() in place of the optimizer's, the step itself must have dropped
    # the sums it used: the same run as with opt.zero_grad().
    model, twin = mlp(), mlp()
    opt, ref = MAKERS["AKAdamW"](model), MAKERS["AKAdamW"](twin)
    for k in range(3):
        model.zero_grad(set_to_none=True)
        loss_of(model, *data(k)).backward()
        opt.step()
    train(twin, ref, 3)
    assert identical(model.state_dict(), twin.state_dict())


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
