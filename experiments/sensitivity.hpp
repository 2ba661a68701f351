// sensitivity — how a closed-form prediction moves with η, β and λ̂ (a claim's
// resolution in each parameter is its check's minimum detectable effect over |∂p/∂ln θ|).
//
// The derivatives are central differences of the SAME function that makes the prediction, so
// there is one source of truth per formula (the theory layer) and no second, hand-derived
// derivative to drift from it. The step h = 1e-4 in ln θ leaves a relative truncation error
// ~h²/6 times the ratio of the third to the first log-derivative (≲ 1e-6 for horizons up to
// τ ~ 100; tests/test_sensitivity.cpp) and a rounding error ~1e-16/h: both far below any
// Monte-Carlo resolution, which is percent-level.
#pragma once
#include <cmath>
#include <type_traits>

#include "akm/check/check.hpp"

namespace akm::exp {

/// ∂p/∂ln η, ∂p/∂ln β, ∂p/∂ln λ (the λ that sets the contraction: λ̂_i, or λ_i for the raw key).
template <class T>
struct LogSensitivity {
  T eta, beta, lambda;
};

/// Central differences in the logs of p(η, β, s), where s scales the eigenvalue(s) the
/// prediction contracts with (s = 1 is the prediction itself). p may return a double or an
/// Eigen matrix (one entry per direction when each direction depends only on its own λ).
template <class F>
auto log_sensitivity(const F& p, double eta, double beta) {
  using R = std::decay_t<decltype(p(eta, beta, 1.0))>;
  constexpr double h = 1e-4;
  const double up = std::exp(h), dn = std::exp(-h);
  auto central = [](const R& hi, const R& lo) -> R { return (hi - lo) / (2 * h); };
  return LogSensitivity<R>{central(p(eta * up, beta, 1.0), p(eta * dn, beta, 1.0)),
                           central(p(eta, beta * up, 1.0), p(eta, beta * dn, 1.0)),
                           central(p(eta, beta, up), p(eta, beta, dn))};
}

/// Annotates the check added last with the derivatives (NaN: the prediction does not depend).
inline void annotate_sensitivity(Checks& checks, const LogSensitivity<double>& d) {
  checks.sensitivity(d.eta, d.beta, d.lambda);
}

/// The same from the prediction f(η, β, s) itself (a parameter f does not read gives exactly
/// 0, which the resolution ignores).
template <class F>
Checks& sensitivity(Checks& checks, F&& f, double eta, double beta) {
  const LogSensitivity<double> d = log_sensitivity(f, eta, beta);
  return checks.sensitivity(d.eta, d.beta, d.lambda);
}

}  // namespace akm::exp
