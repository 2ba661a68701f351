# Newton–Schulz as AK-Muon uses it (akm/torch/newton_schulz.py): held to the algebra it must
# satisfy, in float64. NS(A) = U p⁵(Σ/‖A‖_F) Vᵀ for A = UΣVᵀ and Muon's quintic
# p(σ) = aσ + bσ³ + cσ⁵, so every property below follows from that identity: the coefficients
# act on each singular value, the singular vectors are kept, the result's singular values lie
# in the quintic's band, a tall A is the transpose of the wide case, and the Frobenius
# normalisation makes NS blind to A's scale.
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (Debian: python3-torch)")
from akm.torch import NS_COEFFICIENTS, NS_STEPS, newton_schulz  # noqa: E402
from akm.torch.newton_schulz import NS_EPS, quintic  # noqa: E402


def iterate(sigma, steps=NS_STEPS):
    for _ in range(steps):
        sigma = quintic(sigma)
    return sigma


def conditioned(m, n, seed, lo=0.5, hi=2.0):
    """A random m×n matrix with singular values spread over [lo, hi] (condition hi/lo)."""
    rng = np.random.default_rng(seed)
    k = min(m, n)
    U, _ = np.linalg.qr(rng.standard_normal((m, k)))
    V, _ = np.linalg.qr(rng.standard_normal((n, k)))
    return torch.tensor(U @ np.diag(np.linspace(lo, hi, k)) @ V.T)


def test_coefficients_are_muons():
    assert NS_COEFFICIENTS == (3.4445, -4.7750, 2.0315) and NS_STEPS == 5
    # The slope at 0 is a (small singular values grow by a per step); p(1) = a + b + c ≈ 0.70.
    assert quintic(1.0) == pytest.approx(sum(NS_COEFFICIENTS), abs=1e-15)


def test_ns_of_a_diagonal_is_the_quintic_on_each_entry():
    # The coefficients act on each singular value: NS(diag(s)) = diag(p⁵(s/‖s‖)).
    s = np.array([3.0, 1.0, 0.4, 0.05])
    got = newton_schulz(torch.tensor(np.diag(s))).numpy()
    want = np.diag(iterate(s / (np.linalg.norm(s) + NS_EPS)))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)


@pytest.mark.parametrize("shape", [(6, 9), (9, 6), (8, 8)])
def test_ns_keeps_the_singular_vectors(shape):
    A = torch.tensor(np.random.default_rng(3).standard_normal(shape))
    U, S, Vh = torch.linalg.svd(A, full_matrices=False)
    want = U @ torch.diag(iterate(S / (torch.linalg.matrix_norm(A) + NS_EPS))) @ Vh
    torch.testing.assert_close(newton_schulz(A), want, rtol=0, atol=1e-12)


def test_singular_values_end_in_the_quintics_band():
    # The band: 5 steps of p map every σ ∈ [0.01, 1] (what normalisation leaves of a
    # well-conditioned matrix) into [0.6818, 1.1344]; Muon's write-up quotes about [0.68, 1.13].
    grid = iterate(np.linspace(0.01, 1.0, 100001))
    lo, hi = grid.min(), grid.max()
    assert 0.68 < lo < 0.6819 and 1.134 < hi < 1.135
    for shape, seed in [((16, 16), 1), ((16, 48), 2), ((48, 16), 3), ((64, 64), 4)]:
        A = conditioned(*shape, seed)
        assert torch.linalg.svdvals(A).min() / torch.linalg.matrix_norm(A) > 0.01
        s = torch.linalg.svdvals(newton_schulz(A))
        assert lo - 1e-12 <= s.min() and s.max() <= hi + 1e-12, (shape, s.min(), s.max())


def test_singular_values_below_the_band_are_not_orthogonalised():
    # A control: a direction at 1e-4 of ‖A‖_F grows by a⁵ ≈ 487 only, to about 0.05, far
    # below the band; the band is a property of well-conditioned input, not of any input.
    s = np.array([1.0, 1e-4])
    out = torch.linalg.svdvals(newton_schulz(torch.tensor(np.diag(s)))).numpy()
    assert out.min() < 0.1


@pytest.mark.parametrize("shape", [(5, 11), (11, 5)])
def test_tall_is_the_transpose_of_wide(shape):
    A = torch.tensor(np.random.default_rng(5).standard_normal(shape))
    assert torch.equal(newton_schulz(A.T), newton_schulz(A).T)


@pytest.mark.parametrize("c", [10.0, 1000.0, 0.5])
def test_frobenius_normalisation_makes_ns_scale_free(c):
    # NS(cA) = NS(A) but for ε = 1e-7 in ‖A‖_F + ε: X₀ differs by a relative ε/‖A‖_F ≈ 1e-8
    # here, and 5 steps of p (slope at most a = 3.4 per step) amplify it to < 1e-5.
    A = torch.tensor(np.random.default_rng(6).standard_normal((7, 10)))
    torch.testing.assert_close(newton_schulz(c * A), newton_schulz(A), rtol=0, atol=1e-5)
    assert not torch.equal(newton_schulz(A, steps=4), newton_schulz(A))  # the steps matter


def test_ns_of_zero_is_zero_and_bad_input_is_refused():
    assert torch.equal(newton_schulz(torch.zeros(3, 4, dtype=torch.float64)), torch.zeros(3, 4, dtype=torch.float64))
    with pytest.raises(ValueError, match=r"shape \(3,\): Newton–Schulz needs a matrix"):
        newton_schulz(torch.ones(3))
    with pytest.raises(ValueError, match="ns_steps = 0: must be an integer >= 1"):
        newton_schulz(torch.ones(2, 2), steps=0)
