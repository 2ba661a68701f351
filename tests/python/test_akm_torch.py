# akm.torch as a practitioner uses it: a small float64 network (two nn.Linear layers, whose
# weights take the AK rule, and biases and a LayerNorm, which take the fallback) trained by
# AKSGD, AKAdamW and AKMuon. What torch.optim users expect — param groups, schedulers,
# checkpoints, closures, zero_grad, gradient accumulation, any leading dimensions — and what akm
# adds: the fallback moves exactly as torch.optim's, and the step is the paper's rule. The hooks
# and the refusals are in test_akm_torch_hooks.py; the network in torch_network.py.
import io
import math

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")
from akm.torch import AKMuon, AKSGD, newton_schulz  # noqa: E402
from torch_network import MAKERS, N_IN, N_OUT, ak_weights, data, identical, loss_of, mlp, same, train  # noqa: E402

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
