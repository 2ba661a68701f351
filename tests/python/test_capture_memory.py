# akm.torch's memory against the paper's byte counts (app:flops-memory).
#
# Transient: the capture's reduction of one forward's (X, ∇Y) allocates, at its peak, what the
# paper's tables list: ‖x_t‖ (N), X̂ (N×n), then T = MX̂ᵀ (m×N, factored path) or X̂ᵀX̂ (n×n,
# Gram path), b bytes each (b = 4 in fp32, the tables' unit; 8 in fp64); G and C accumulate in
# place. The measurement is exact, not sampled: a TorchDispatchMode sees every op the reduction
# runs, counts each new storage's bytes when an op creates it and releases them when the last
# tensor on that storage dies, and keeps the peak. Negative controls: a reduction that keeps a
# copy of X, and one that forms an N×n finiteness mask of X while X̂ lives, must read above the
# count by what they add.
#
# Persistent: the optimizer state that survives a step is the base optimizer's (app:flops-memory,
# sec:realized-flops/persistent-overhead-0): AK-AdamW holds M and v where AdamW holds exp_avg
# and exp_avg_sq, AK-SGD holds M where SGD-momentum holds momentum_buffer.
import weakref

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402
from torch.utils._pytree import tree_flatten  # noqa: E402

from akm.torch import AKAdamW, AKSGD, capture  # noqa: E402


class PeakBytes(TorchDispatchMode):
    """Bytes of the storages that the ops run under it create, alive at once: `peak`, and `now`."""

    def __init__(self):
        super().__init__()
        self.refs, self.size, self.now, self.peak = {}, {}, 0, 0

    def _release(self, ptr):
        self.refs[ptr] -= 1
        if self.refs[ptr] == 0:
            self.now -= self.size.pop(ptr)
            del self.refs[ptr]

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        inputs = {t.storage().data_ptr() for t in tree_flatten((args, kwargs))[0] if isinstance(t, torch.Tensor)}
        out = func(*args, **kwargs)
        for t in tree_flatten(out)[0]:
            if not isinstance(t, torch.Tensor):
                continue
            ptr = t.storage().data_ptr()
            if ptr in inputs and ptr not in self.refs:
                continue  # written in place, or a view of a tensor made before the measurement
            if ptr not in self.refs:
                self.refs[ptr], self.size[ptr] = 0, t.storage().nbytes()
                self.now += self.size[ptr]
                self.peak = max(self.peak, self.now)
            self.refs[ptr] += 1
            weakref.finalize(t, self._release, ptr)
        return out


def peak_of(fn, kept=0):
    """The peak bytes of fn; `kept` bytes of what it made may outlive it (0: nothing persists)."""
    with PeakBytes() as p:
        fn()
    assert p.now == kept
    return p.peak


def papers_count(m, n, N, b):
    """The peak transient of app:flops-memory's tables: Gram path when n < 2m [eq:dispatch]."""
    return b * (N + N * n + (n * n if n < 2 * m else m * N))


def operands(m, n, lead, dtype, seed=0):
    g = torch.Generator().manual_seed(seed)
    M = torch.randn(m, n, generator=g, dtype=dtype)
    X = torch.randn(*lead, n, generator=g, dtype=dtype)
    dY = torch.randn(*lead, m, generator=g, dtype=dtype)
    return M, X, dY


SHAPES = [(24, 24, (256,)), (8, 24, (64,)), (16, 24, (64,)), (4, 64, (32,)), (64, 24, (16,)),
          (12, 20, (4, 16))]  # Gram and factored paths; the last with leading dimensions (N = 64)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("m,n,lead", SHAPES)
def test_the_transient_peak_is_the_papers_count(m, n, lead, dtype):
    M, X, dY = operands(m, n, lead, dtype)
    sums = capture.LayerSums(M)
    N = X.numel() // n
    assert peak_of(lambda: sums.add(M, X, dY)) == papers_count(m, n, N, M.element_size())


@pytest.mark.parametrize("m,n,lead", SHAPES)
def test_low_precision_activations_add_one_converted_gradient(m, n, lead):
    # bf16 X and ∇Y with an fp32 buffer: X is converted once and normalized in place (X̂ is
    # the table's fp32 X̂); the fp32 copy of ∇Y (m per token) lives only for G's product.
    M, X, dY = operands(m, n, lead, torch.float32)
    X, dY = X.bfloat16(), dY.bfloat16()
    sums = capture.LayerSums(M)
    N = X.numel() // n
    expected = 4 * (N + N * n + max(N * m, n * n if n < 2 * m else m * N))
    assert peak_of(lambda: sums.add(M, X, dY)) == expected


def test_the_measurement_catches_a_kept_copy_and_a_full_mask():
    m, n, N = 8, 24, 64
    M, X, dY = operands(m, n, (N,), torch.float32)
    count = papers_count(m, n, N, 4)

    class KeepsACopy(capture.LayerSums):
        def add(self, M, x, dy):
            self.kept = x.clone()
            super().add(M, x, dy)

    class FullMask(capture.LayerSums):
        def add(self, M, x, dy):
            xhat = x / torch.linalg.vector_norm(x, dim=1, keepdim=True)
            self.x_finite &= torch.isfinite(xhat).all()  # an N×n mask while X̂ lives
            super().add(M, x, dy)

    copy = KeepsACopy(M)
    assert peak_of(lambda: copy.add(M, X, dY), kept=4 * N * n) == count + 4 * N * n
    assert peak_of(lambda: FullMask(M).add(M, X, dY)) > count


def state_bytes(opt):
    return sum(v.numel() * v.element_size() for s in opt.state.values() for v in s.values()
               if isinstance(v, torch.Tensor) and v.dim() > 0)


@pytest.mark.parametrize("ak,base", [
    (lambda m: AKAdamW(m, lr=1e-3, eta=0.37), lambda m: torch.optim.AdamW(m.parameters(), lr=1e-3)),
    (lambda m: AKSGD(m, lr=0.1, beta=0.9, eta=0.5), lambda m: torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)),
], ids=["AKAdamW", "AKSGD"])
def test_the_persistent_state_is_the_base_optimizers(ak, base):
    sizes = []
    for make in (ak, base):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(6, 12), torch.nn.LayerNorm(12), torch.nn.Linear(12, 4))
        opt = make(model)
        for _ in range(2):
            opt.zero_grad(set_to_none=True)
            model(torch.randn(16, 6)).square().mean().backward()
            opt.step()
        sizes.append(state_bytes(opt))
    assert sizes[0] == sizes[1] > 0
