# sec:realized-flops/saved-activation-overhead-0, measured on akm.torch: "No additional
# activation tensors must be saved between forward and backward."
#
# The measurement. A forward runs under torch.autograd.graph.saved_tensors_hooks, whose pack
# hook records the storage of every tensor autograd saves for the backward. Between the forward
# and the backward, every tensor alive in the process (gc) whose storage the forward created is
# listed; the extra activation is what is alive but neither saved by autograd nor the forward's
# output or loss. The deployed rule needs X and ∇Y only, and the weight gradient ∇Yᵀ X already
# needs X, so akm.torch's capture must alias an autograd-saved tensor: extra = 0 bytes, and
# autograd saves as many tensors as it does under plain torch.optim.
#
# Negative controls that the measurement must catch (else it could not tell the statement from
# its rival "an activation is kept"): a capture that keeps a copy of a layer's input, and a
# capture that keeps a reference to the input of a frozen layer (whose weight gradient is not
# needed, so autograd saves no X for it and the reference keeps it alive on its own).
import gc

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")
from akm.torch import AKAdamW, AKMuon, AKSGD  # noqa: E402

ROWS, N_IN, N_OUT = 16, 6, 4
HIDDEN = (12, 8)
MAKERS = {
    "AKSGD": lambda model: AKSGD(model, lr=0.1, beta=0.9, eta=0.5),
    "AKAdamW": lambda model: AKAdamW(model, lr=1e-3, betas=(0.99, 0.999), eta=0.37),
    "AKMuon": lambda model: AKMuon(model, lr=0.02),
    "torch.optim.AdamW": lambda model: torch.optim.AdamW(model.parameters(), lr=1e-3),
}


def network(frozen_middle=False):
    """Linear → LayerNorm → Linear → LayerNorm → Linear: LayerNorm saves its input, not its
    output, so the middle layer's input is saved by autograd only for that layer's own weight
    gradient (with the layer frozen, by nothing)."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(N_IN, HIDDEN[0]), torch.nn.LayerNorm(HIDDEN[0]),
                                torch.nn.Linear(*HIDDEN), torch.nn.LayerNorm(HIDDEN[1]),
                                torch.nn.Linear(HIDDEN[1], N_OUT)).double()
    if frozen_middle:
        model[2].requires_grad_(False)
    return model


def batch():
    g = torch.Generator().manual_seed(7)
    return (torch.randn(ROWS, N_IN, generator=g, dtype=torch.float64),
            torch.randn(ROWS, N_OUT, generator=g, dtype=torch.float64))


def live_storages():
    gc.collect()
    return {o.storage().data_ptr(): o.numel() * o.element_size() for o in gc.get_objects() if torch.is_tensor(o)}


def forward_backward(model, opt):
    """One training step; returns (extra bytes alive between forward and backward that autograd
    did not save, number of tensors autograd saved)."""
    X, Y = batch()
    saved = set()

    def pack(t):
        saved.add(t.storage().data_ptr())
        return t

    before = live_storages()
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = model(X)
        loss = ((out - Y) ** 2).mean()
    now = live_storages()
    kept = saved | {out.storage().data_ptr(), loss.storage().data_ptr()}
    extra = sum(size for ptr, size in now.items() if ptr not in before and ptr not in kept)
    loss.backward()
    if opt is not None:
        opt.step()
        opt.zero_grad(set_to_none=True)
    return extra, len(saved)


def steps(model, opt, k=3):
    # The first step creates the optimizer's state; later steps run with it in place.
    return [forward_backward(model, opt) for _ in range(k)]


@pytest.mark.parametrize("frozen_middle", [False, True])
@pytest.mark.parametrize("name", MAKERS)
def test_the_optimizers_save_no_additional_activation(name, frozen_middle):
    plain = steps(network(frozen_middle), None)
    model = network(frozen_middle)
    measured = steps(model, MAKERS[name](model))
    assert [extra for extra, _ in measured] == [0] * len(measured)
    assert [count for _, count in measured] == [count for _, count in plain]  # autograd saves as many


def test_a_capture_that_keeps_a_copy_is_caught():
    model, held = network(), []
    model[2].register_forward_pre_hook(lambda mod, inputs: held.append(inputs[0].clone()))
    extra, _ = forward_backward(model, None)
    assert extra == ROWS * HIDDEN[0] * 8  # the copy of the middle layer's float64 input


def test_a_reference_to_a_frozen_layers_input_is_caught():
    model, held = network(frozen_middle=True), []
    model[2].register_forward_pre_hook(lambda mod, inputs: held.append(inputs[0]))
    extra, _ = forward_backward(model, None)
    assert extra == ROWS * HIDDEN[0] * 8  # autograd saves no X for a frozen weight's gradient
    trainable, kept = network(), []
    trainable[2].register_forward_pre_hook(lambda mod, inputs: kept.append(inputs[0]))
    assert forward_backward(trainable, None)[0] == 0  # where autograd saves X, a reference adds nothing
