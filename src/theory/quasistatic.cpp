// quasistatic — the exact mean recursion of the buffer and the quasi-static fixed point
// [thm:fixedpoint, app:scope].
#include "akm/theory/quasistatic.hpp"

#include <string>

#include "akm/base/errors.hpp"
#include "akm/theory/theory.hpp"

namespace akm::theory {

Mat quasi_static_fixed_point(const Mat& G_hat, const Mat& Sigma_hat, double beta, double eta) {
  // ηĜ((1−β)I + ηΣ̂)⁻¹ = Ĝ(μI + Σ̂)⁻¹, μ = (1−β)/η: the one fixed-point formula of theory.hpp.
  return fixed_point(G_hat, Sigma_hat, mu(beta, eta));
}

Mat mean_buffer_step(const Mat& M, const Mat& G_hat, const Mat& Sigma_hat, double beta, double eta) {
  return beta * M - eta * M * Sigma_hat + eta * G_hat;
}

std::vector<Mat> mean_buffer_trajectory(const Mat& M0, const std::vector<Mat>& G_hat,
                                        const std::vector<Mat>& Sigma_hat, double beta, double eta) {
  if (G_hat.size() != Sigma_hat.size())
    throw InputError("schedule", std::to_string(G_hat.size()) + " vs " + std::to_string(Sigma_hat.size()),
                     "one Ĝ_t per Σ̂_t");
  std::vector<Mat> m{M0};
  for (std::size_t t = 0; t < G_hat.size(); ++t)
    m.push_back(mean_buffer_step(m.back(), G_hat[t], Sigma_hat[t], beta, eta));
  return m;
}

}  // namespace akm::theory
