# The rounding bound that holds akm's optimizers to PyTorch's (test_torch_agreement.py,
# test_akm_torch_agreement.py), and the gradient stream they are fed: float64, the same
# recurrence on both sides, the parameters compared element by element after every step.
#
# The bound. Both sides compute the same exact recurrence with different roundings, and their
# products may sum in any order (Eigen's, netlib's, OpenBLAS's blocking; a batch's rows in
# another order), so the bound must hold for every summation order. Each side's W is within
# E of the exact W, so |W_akm − W_torch| ≤ 2E, element by element. E is a first-order
# forward-error bound (products of two rounding errors dropped) carried along the trajectory
# from two facts (u = 2⁻⁵³; |·|, ≤ and products of |·| elementwise; γ_k = ku/(1 − ku)):
#  (i)  k products summed in any order: |fl(Σ a_i b_i) − Σ a_i b_i| ≤ γ_k·Σ|a_i||b_i|. The
#       error of g = ΔᵀX/N scales with |Δ|ᵀ|X|/N, not with |g|: where the terms cancel,
#       |g| ≪ |Δ|ᵀ|X|/N, g's own relative error is κ·γ_N with κ = (|Δ|ᵀ|X|/N)/|g| ≫ 1.
#  (ii) an elementwise operation rounds once (relative u; pow within a few ulps). The few of
#       them per quantity are one declared constant: K·u times the operands' magnitudes, K = 4.
# Per step, with N rows (N = 1 for the per-sample rules), A = |Δ|, B = |X|, X̂ = X with rows
# normalized (n squares summed, √, a division: relative r_x = γ_n/2 + K·u), B̂ = |X̂|:
#   g = ΔᵀX/N                   δg ≤ (γ_N + K u)·AᵀB/N
#   G = ΔᵀX̂/N                   δG ≤ (γ_N + r_x + K u)·AᵀB̂/N
#   S = M·X̂ᵀX̂/N, in either order (M·(X̂ᵀX̂) or (M·X̂ᵀ)·X̂, [eq:dispatch]; per sample the
#     residual form (δ − Mx̂)x̂ᵀ is the same sums)
#                               δS ≤ (γ_{n+N} + 2r_x + K u)·|M|·B̂ᵀB̂/N
#   AK buffer  M' = βM + η(G − S)   [eq:deployed, eq:dm-norm-update]
#              δM' = δM·P + F,  P = βI − ηX̂ᵀX̂/N,  F ≤ η(δG + δS) + K u β|M|
#              (the K u of δG and δS, whose sums bound |G| and |S|, covers G − S, η· and +)
#   EMA buffer M' = βM + (1−β)g     [eq:ema-update]
#              δM' = δM·P + F,  P = βI,           F ≤ (1−β)δg + K u (|M| + (1−β)|g|)
#   The inherited part δM·P mixes columns, so it is carried as a linear map and bounded
#   only at the end: |δM_t| ≤ Σ_{s≤t} F_s·|P_{s+1}⋯P_t|, the product taken before the
#   absolute value (the products of P decay; those of βI + η|X̂ᵀX̂|/N, elementwise, grow).
#   v' = β₂v + (1−β₂)g∘g          δv' ≤ β₂δv + (1−β₂)(2|g|δg + δg²) + K u v'
#   b = 1 − βᵗ: pow's few-ulp error is amplified by the cancellation, rel. error ≤ K u/(1−βᵗ)
#   m̂ = M'/b₁                     δm̂ ≤ δM'/b₁ + |m̂|(K u/b₁ + K u)
#   v̂ = v'/b₂                     δv̂ ≤ δv'/b₂ + v̂(K u/b₂ + K u)
#   s = √v̂                        δs ≤ δv̂/(2s) + K u s
#   a = m̂/(s + ε)                 δa ≤ δm̂/(s + ε) + |a|·δs/(s + ε) + K u|a|
#   AdamW  W' = W − lr(a + wd·W)  δW' ≤ (1 − lr·wd)δW + lr·δa + K u(|W| + lr|a|)
#   SGD    W' = W − lr·M'         δW' ≤ δW + lr·δM' + K u(|W| + lr|M'|)
# AdamW's division is where a perturbation of g is amplified: s is built from g, and where g
# cancels δs/s ≈ δg/|g| = κγ_N, so a |Δ|ᵀ|X|/N-sized perturbation of g, negligible against
# the sums, becomes a relative one of the update a. (Plain AdamW's first update ±lr·g/|g| is
# insensitive to it, as m and √v are the same g; from the second step they are not. AK-AdamW's
# m̂ is built from G, not from g, so its update lr·m̂/|g| carries κγ_N from the first step.)
# The magnitudes (|M|, |g|, v, s, |a|, |W|) are those of the exact recurrence, evaluated in
# float64 beside the error terms (first order: a computed value for an exact one changes E by
# O(u²)). The batch tests also feed torch the rows reversed and shuffled, a change of summation
# order the bound must absorb; measured |ΔW|/bound stays below 0.1 there, and also with
# OpenBLAS in place of netlib under NumPy and PyTorch. The bound still catches a real defect: a relative 1e-9 change of W or
# of η is thousands of times over it (test_bound_catches_a_small_defect).
import numpy as np


U = 2.0 ** -53
K = 4.0  # elementwise roundings per computed quantity (fact (ii) above)
M_ROWS, N_COLS, STEPS = 5, 7, 300


def gamma(k):
    """γ_k = k·u/(1 − k·u): the relative error bound of k products summed in any order."""
    return k * U / (1.0 - k * U)


def sequence(seed, batch=None):
    """A fixed stream of factors (δ_t, x_t), or batches (Δ_t, X_t), independent of W."""
    rng = np.random.default_rng(seed)
    scale = np.linspace(3.0, 0.2, N_COLS)  # anisotropic keys, as in the experiments
    for _ in range(STEPS):
        if batch is None:
            yield rng.standard_normal(M_ROWS), rng.standard_normal(N_COLS) * scale
        else:
            yield rng.standard_normal((batch, M_ROWS)), rng.standard_normal((batch, N_COLS)) * scale


def w0():
    return np.random.default_rng(99).standard_normal((M_ROWS, N_COLS))


class Bound:
    """The rounding bound of the header, carried along one trajectory.

    buffer: "ema" (M' = βM + (1−β)g) or "ak" (the normalized-key AK buffer, eta);
    adam: None (SGD: W' = W − lr·M') or (beta2, eps, weight_decay) (AdamW's update, m̂ = M/b₁).
    step(Delta, X) advances the exact recurrence and E; check(...) compares the two sides.
    """

    def __init__(self, W, lr, buffer, beta, eta=None, adam=None):
        self.lr, self.buffer, self.beta, self.eta, self.adam = lr, buffer, beta, eta, adam
        self.W = np.array(W, dtype=np.float64)
        self.M = np.zeros_like(self.W)
        self.v = np.zeros_like(self.W)
        self.t = 0
        self.eW = np.zeros_like(self.W)  # E: |W_computed − W_exact| ≤ eW
        self.eV = np.zeros_like(self.W)
        self.F = np.zeros((0,) + self.W.shape)  # the buffer's fresh errors F_s ...
        self.P = np.zeros((0, self.W.shape[1], self.W.shape[1]))  # ... and P_{s+1}⋯P_t
        self.worst = 0.0

    def step(self, Delta, X):
        Delta, X = np.atleast_2d(Delta), np.atleast_2d(X)
        N, n = X.shape
        A, B = np.abs(Delta), np.abs(X)
        g = Delta.T @ X / N
        eg = (gamma(N) + K * U) * (A.T @ B / N)
        M, beta = self.M, self.beta
        if self.buffer == "ak":
            Xh = X / np.sqrt((X * X).sum(axis=1, keepdims=True))
            Bh, rx = np.abs(Xh), gamma(n) / 2 + K * U
            sigma, sigma_abs = Xh.T @ Xh / N, Bh.T @ Bh / N
            G, S = Delta.T @ Xh / N, M @ sigma
            eG = (gamma(N) + rx + K * U) * (A.T @ Bh / N)
            eS = (gamma(n + N) + 2 * rx + K * U) * (np.abs(M) @ sigma_abs)
            F = self.eta * (eG + eS) + K * U * beta * np.abs(M)
            P = beta * np.eye(n) - self.eta * sigma
            M_new = beta * M + self.eta * (G - S)
        else:
            F = (1 - beta) * eg + K * U * (np.abs(M) + (1 - beta) * np.abs(g))
            P = beta * np.eye(n)
            M_new = beta * M + (1 - beta) * g
        self.F = np.concatenate([self.F, F[None]])
        self.P = np.concatenate([self.P @ P, np.eye(n)[None]])
        eM = np.einsum("sij,sjk->ik", self.F, np.abs(self.P))  # Σ_s F_s·|P_{s+1}⋯P_t|
        self.M = M_new
        self.t += 1
        lr, W = self.lr, self.W
        if self.adam is None:
            self.eW = self.eW + lr * eM + K * U * (np.abs(W) + lr * np.abs(M_new))
            self.W = W - lr * M_new
            return
        beta2, eps, wd = self.adam
        self.v = beta2 * self.v + (1 - beta2) * g * g
        self.eV = beta2 * self.eV + (1 - beta2) * (2 * np.abs(g) * eg + eg * eg) + K * U * self.v
        b1, b2 = 1 - beta ** self.t, 1 - beta2 ** self.t
        m_hat, v_hat = M_new / b1, self.v / b2
        e_m_hat = eM / b1 + np.abs(m_hat) * (K * U / b1 + K * U)
        e_v_hat = self.eV / b2 + v_hat * (K * U / b2 + K * U)
        s = np.sqrt(v_hat)
        # s = 0 only where every g so far was exactly 0: there δs ≤ √δv̂, not first order.
        with np.errstate(divide="ignore", invalid="ignore"):
            e_s = np.where(s > 0, e_v_hat / (2 * s), np.sqrt(e_v_hat)) + K * U * s
        d = s + eps
        a = m_hat / d
        e_a = e_m_hat / d + np.abs(a) * e_s / d + K * U * np.abs(a)
        self.eW = (1 - lr * wd) * self.eW + lr * e_a + K * U * (np.abs(W) + lr * np.abs(a))
        self.W = W - lr * (a + wd * W)

    def check(self, step, W_akm, W_torch):
        bound = 2 * self.eW
        ratio = np.abs(W_akm - W_torch) / bound
        self.worst = max(self.worst, ratio.max())
        i = np.unravel_index(ratio.argmax(), ratio.shape)
        assert ratio[i] <= 1, (f"step {step}: |ΔW| = {abs(W_akm[i] - W_torch[i]):.3g} at {i} > "
                               f"bound {bound[i]:.3g}")



# A batch's rows in another order: the same gradient summed in another order, as another BLAS
# would (the bound must hold for any order; netlib's and Eigen's happen to be the same).
ROW_ORDERS = ["same", "reversed", "shuffled"]


def reorder(order, k, *arrays):
    """The rows of each batch array as torch is fed them at step k."""
    if order == "same":
        return arrays
    rows = arrays[0].shape[0]
    perm = np.arange(rows)[::-1] if order == "reversed" else np.random.default_rng(1000 + k).permutation(rows)
    return tuple(np.ascontiguousarray(a[perm]) for a in arrays)


def batch_cases():
    return [(None, "same")] + [(8, order) for order in ROW_ORDERS]
