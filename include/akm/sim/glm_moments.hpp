// glm_moments — Monte-Carlo moments Ĝ, K, Σ̂ of the logistic teacher [app:glm], on the
// deterministic engine (identical for any thread count).
#pragma once
#include <cstdint>

#include "akm/base/linalg.hpp"
#include "akm/problems/logistic.hpp"

namespace akm::logistic {

struct GlmMomentOptions {
  long long samples = 1'000'000;  ///< keys drawn (rounded up to whole batches)
  long long batch = 256;          ///< keys per batch; standard errors from batch means
  std::uint64_t seed = 0;
  int threads = 0;
  bool full = false;              ///< full n×n K and Σ̂ (else only their diagonals)
};

/// Monte-Carlo moments of the logistic teacher at parameter w, each with the standard
/// error of its mean. Ĝ uses E[y | x] = σ(w*ᵀx) (same mean as E[δx̂], less variance).
struct GlmMoments {
  long long samples = 0;
  Vec g_hat, g_hat_se;          ///< Ĝ(w) = E[(σ(wᵀx) − σ(w*ᵀx)) x̂]
  Mat k, k_se;                  ///< K = E[σ'(w*ᵀx)‖x‖ x̂x̂ᵀ] (diagonal only unless full)
  Mat sigma_hat, sigma_hat_se;  ///< Σ̂ = E[x̂x̂ᵀ] (diagonal only unless full)
};

GlmMoments estimate_glm_moments(const Teacher& teacher, ConstVecRef w,
                                const GlmMomentOptions& opts);

}  // namespace akm::logistic
