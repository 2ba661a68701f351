# sec:realized-flops/saved-activation-overhead-0, measured on akm.torch: "No additional
# activation tensors must be saved between forward and backward." The measurement and its
# negative controls are akm.torch.saved_activations (the claim T22 runs the same module); these
# tests hold each part of it on its own.
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")
from akm.torch import saved_activations as sa  # noqa: E402

SEED = 7


@pytest.mark.parametrize("frozen_middle", [False, True])
@pytest.mark.parametrize("name", sa.MAKERS)
def test_the_optimizers_save_no_additional_activation(name, frozen_middle):
    plain = sa.steps(SEED, frozen_middle)
    measured = sa.steps(SEED, frozen_middle, sa.MAKERS[name])
    assert [extra for extra, _ in measured] == [0] * sa.STEPS
    assert [count for _, count in measured] == [count for _, count in plain]  # autograd saves as many


def test_a_capture_that_keeps_a_copy_is_caught():
    assert sa.control(SEED, frozen_middle=False, keep_copy=True) == sa.INPUT_BYTES


def test_a_reference_to_a_frozen_layers_input_is_caught():
    # autograd saves no X for a frozen weight's gradient, so the reference keeps it alive alone
    assert sa.control(SEED, frozen_middle=True, keep_copy=False) == sa.INPUT_BYTES
    # where autograd saves X, a reference adds nothing
    assert sa.control(SEED, frozen_middle=False, keep_copy=False) == 0


def test_the_module_prints_one_json_line_and_refuses_a_bad_seed(capsys):
    sa.main(["--seed", "3"])
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and '"controls"' in out[0]
    with pytest.raises(SystemExit) as e:
        sa.main(["--seed", "-1"])
    assert e.value.code == 2
    assert "--seed -1 is outside" in capsys.readouterr().err
