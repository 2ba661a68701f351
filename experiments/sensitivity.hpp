// sensitivity — derivatives of a closed-form prediction in ln η, ln β and ln λ̂, for a check's
// resolution (Checks::sensitivity, check/power.hpp): the relative error in a parameter that
// the check detects with power 0.9 is mde/|∂p/∂ln θ|.
//
// One rule for every experiment: central differences of the *same* theory function the
// prediction uses, in the logarithm of each parameter, step h = 1e-4 (truncation error
// O(h²) ≈ 1e-8 relative, far below any resolution reported). λ̂ enters as a common multiplier
// s of every eigenvalue the prediction reads (s = 1 at the prediction), i.e. a relative error
// of the key's spectrum. A parameter the prediction does not read gives exactly 0, which
// the resolution ignores.
#pragma once
#include <cmath>

#include "akm/check/check.hpp"

namespace akm::exp {

struct LogSensitivity {
  double eta, beta, lambda;
};

/// ∂f/∂ln η, ∂f/∂ln β, ∂f/∂ln s at (η, β, s = 1) for a prediction f(η, β, s).
template <class F>
LogSensitivity log_sensitivity(F&& f, double eta, double beta) {
  constexpr double h = 1e-4;
  const double up = std::exp(h), down = std::exp(-h);
  return {(f(eta * up, beta, 1.0) - f(eta * down, beta, 1.0)) / (2 * h),
          (f(eta, beta * up, 1.0) - f(eta, beta * down, 1.0)) / (2 * h),
          (f(eta, beta, up) - f(eta, beta, down)) / (2 * h)};
}

/// Annotates the check added last with the derivatives of its prediction f(η, β, s).
template <class F>
Checks& sensitivity(Checks& checks, F&& f, double eta, double beta) {
  const LogSensitivity d = log_sensitivity(f, eta, beta);
  return checks.sensitivity(d.eta, d.beta, d.lambda);
}

}  // namespace akm::exp
