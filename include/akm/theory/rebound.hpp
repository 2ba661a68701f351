// rebound — the stepping-rebound term of eq:rebound on a quadratic loss [app:mom-grad-cos-sim].
//
// On L(W) = ½ E‖(W − A)x‖² + const with x ~ N(0, Σ), Σ = diag λ (the linear-regression task
// of the training experiments), ∇L(W) = (W − A)Σ and the Hessian acts as H[Δ] = ΔΣ. The loss
// is quadratic, so the Taylor step of eq:rebound is exact: a step Δθ = θ_t − θ_{t−1} moves the
// gradient by exactly HΔθ, and for any buffer M
//   ⟨M, ∇L(θ_t)⟩ = ⟨M, ∇L(θ_{t−1})⟩ − R,   R = −⟨M, Δθ Σ⟩ = −Σ_ij M_ij Δθ_ij λ_j.
// When the step is the optimizer's, Δθ = −α P⊙M with a diagonal preconditioner P ≥ 0 (SGD:
// P = 1; the Adam family: the bias-corrected 1/(√V + ε)), R = α Σ_ij P_ij λ_j M_ij² ≥ 0 —
// the paper's α⟨M, HM⟩/(√V + ε), whatever rule (EMA or delta) built M.
#pragma once

#include "akm/base/linalg.hpp"

namespace akm::theory {

/// R = −⟨M, Δθ Σ⟩ with Σ = diag(lambda): the rebound term of eq:rebound for the buffer M and
/// the step Δθ (both d_out × d_in, lambda of length d_in, else InputError).
double rebound_term(const Mat& M, const Mat& step, const Vec& lambda);

}  // namespace akm::theory
