"""Newton–Schulz orthogonalisation: Muon's post-processing, which AK-Muon applies to the AK
buffer M_t [cor:mup-base-lr, "AK-Muon: the Newton–Schulz output NS(M_t)"].

NS(G) drives every singular value of G towards 1 and keeps the singular vectors: with
X₀ = G/‖G‖_F (singular values in [0, 1]) each step is

    A = X Xᵀ,   X ← aX + (bA + cA²)X,

which maps X = UΣVᵀ to U p(Σ) Vᵀ for the odd quintic p(σ) = aσ + bσ³ + cσ⁵. Muon's
coefficients (a, b, c) = (3.4445, −4.7750, 2.0315) trade convergence to exactly 1 for a steep
slope p'(0) = a at small σ: after 5 steps, singular values that started at ≥ 1% of ‖G‖_F lie in
a band around 1, about [0.68, 1.13], not at 1 (Muon's reference and its write-up). The
iteration runs on the wide orientation (rows ≤ columns), where A = XXᵀ is the smaller Gram
matrix; a tall G is transposed in and out, so NS(Gᵀ) = NS(G)ᵀ.

Muon's reference runs this in bfloat16 on the GPU; here it runs in G's own dtype, so a float64
model gets a float64 result and tests can hold it to exact algebra.
"""
import numbers

import torch

NS_COEFFICIENTS = (3.4445, -4.7750, 2.0315)  # (a, b, c) of Muon's quintic
NS_STEPS = 5  # Muon's default number of iterations
NS_EPS = 1e-7  # added to ‖G‖_F, as in Muon's reference, so that NS(0) = 0


def quintic(sigma):
    """p(σ) = aσ + bσ³ + cσ⁵, what one Newton–Schulz step does to each singular value."""
    a, b, c = NS_COEFFICIENTS
    return a * sigma + b * sigma ** 3 + c * sigma ** 5


def newton_schulz(G, steps=NS_STEPS):
    """NS(G) for a matrix G (m×n): steps iterations of Muon's quintic on G/(‖G‖_F + ε)."""
    if G.dim() != 2:
        raise ValueError(f"G of shape {tuple(G.shape)}: Newton–Schulz needs a matrix (2-D)")
    if isinstance(steps, bool) or not isinstance(steps, numbers.Integral) or steps < 1:
        raise ValueError(f"ns_steps = {steps!r}: must be an integer >= 1")
    a, b, c = NS_COEFFICIENTS
    tall = G.shape[0] > G.shape[1]
    X = G.T if tall else G
    X = X / (torch.linalg.matrix_norm(X) + NS_EPS)  # Frobenius: every σ of X₀ in [0, 1]
    for _ in range(steps):
        A = X @ X.T
        B = b * A + c * (A @ A)
        X = a * X + B @ X
    return X.T if tall else X
