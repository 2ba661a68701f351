// fit/host — the host side the fitting op's launcher (cuda.cu) and emulator
// (emulated.cpp) share: √λ in float, the batch size, and the trial-group means.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "akm/sim/ops/fit.hpp"
#include "../../cuda/host.hpp"
#include "trial.hpp"

namespace akm::cuda::fit_detail {

inline std::vector<float> sqrt_lambda(const ops::Fit& w) {
  std::vector<float> sl(w.n());
  for (int i = 0; i < w.n(); ++i) sl[i] = float(std::sqrt(w.lambda[i]));
  return sl;
}

/// Trials per batch: state (5n floats) and moments (16n doubles) per trial within `bytes`.
inline long long batch_trials(const ops::Fit& w, std::size_t bytes) {
  const std::size_t per_trial = std::size_t(w.n()) * (5 * sizeof(float) + 16 * sizeof(double));
  return std::max(1LL, std::min<long long>(w.trials, (long long)(bytes / per_trial)));
}

/// Group sums of ops::Fit's rows, in trial order so the result is fixed; `finish` divides.
class Groups {
 public:
  explicit Groups(const ops::Fit& w) : w_(w), o_(detail::observations(w.groups, w.n_obs())) {}
  /// Adds trials t0 … t0 + nb − 1 from q laid out [j·nb + b] (trial.hpp with B = nb).
  void add(long long t0, int nb, const std::vector<double>& q) {
    for (int b = 0; b < nb; ++b) {
      while (t0 + b >= w_.group_begin(g_ + 1)) ++g_;
      double* out = o_.values.data() + std::size_t(g_) * o_.n_obs;
      for (int j = 0; j < o_.n_obs; ++j) out[j] += q[std::size_t(j) * nb + b];
    }
  }
  ops::Observations finish() {
    for (int k = 0; k < w_.groups; ++k) {
      const double c = double(w_.group_begin(k + 1) - w_.group_begin(k));
      for (int j = 0; j < o_.n_obs; ++j) o_.values[std::size_t(k) * o_.n_obs + j] /= c;
    }
    return o_;
  }

 private:
  const ops::Fit& w_;
  ops::Observations o_;
  int g_ = 0;
};

}  // namespace akm::cuda::fit_detail
