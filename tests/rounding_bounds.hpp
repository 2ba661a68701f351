// Rounding-bound helpers (and the deployed op's case) shared by the tests that hold a fast path
// (the CPU engine, the CUDA backend or its emulation) to a plain reference: the model is stated
// in tests/test_engine.cpp (sums: ≤ c·n·ε relative; float normals: ≤ 4e-4) and
// tests/ops/test_fit.cpp (fit moments).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "akm/sim/ops/deployed.hpp"
#include "akm/sim/ops/fit.hpp"

namespace akm_test {

constexpr double kEps64 = 1.1102230246251565e-16, kEps32 = 5.9604644775390625e-08;
constexpr double kC = 4.0;

// phase_measure's per-step rounding bound δ in double, for ρ = ar and a key of squared norm
// key_norm2 (tests/ops/test_phase_measure.cpp states the model): one formula for both of its files.
inline double phase_measure_delta(int n, double beta, double eta, double ar, double key_norm2) {
  return (kC * n + 160.0 / (1.0 - ar)) * kEps64 * (1.0 + beta + eta * key_norm2);
}

// Worst over trials of max_j |a − b| / max_j |a| on observables [j0, j1).
inline double max_rel_diff(const akm::ops::Observations& a, const akm::ops::Observations& b, int j0, int j1) {
  double worst = 0.0;
  for (long long t = 0; t < a.trials; ++t) {
    double scale = 0.0, diff = 0.0;
    for (int j = j0; j < j1; ++j) {
      scale = std::max(scale, std::abs(a.at(t, j)));
      diff = std::max(diff, std::abs(a.at(t, j) - b.at(t, j)));
    }
    worst = std::max(worst, diff / std::max(scale, 1e-300));
  }
  return worst;
}

// Fit moments: worst |a − b| / bound over every group and observable, the bound of
// tests/ops/test_fit.cpp's model (2·T·δ·S for a moment, T·δ·√S for e_T).
inline double fit_worst_ratio(const akm::ops::Fit& w, const akm::ops::Observations& a,
                              const akm::ops::Observations& b, double delta) {
  double worst = 0.0;
  const int n = w.n();
  for (long long g = 0; g < a.trials; ++g)
    for (int arm = 0; arm < 2; ++arm) {
      double S = 1.0;
      for (int i = 0; i < n; ++i)
        S += a.at(g, int(w.index(arm, 0, i))) + a.at(g, int(w.index(arm, 2, i)));
      for (int q = 0; q < 8; ++q)
        for (int i = 0; i < n; ++i) {
          const int j = int(w.index(arm, q, i));
          const double bound = q < 7 ? 2.0 * w.steps * delta * S : w.steps * delta * std::sqrt(S);
          worst = std::max(worst, std::abs(a.at(g, j) - b.at(g, j)) / bound);
        }
    }
  return worst;
}

// A deployed case: sizes m×n, batch N, and the data of ops::deployed_data(seed).
struct DeployedCase {
  akm::ops::Deployed w;
  akm::Mat M0, D, X;
};
inline DeployedCase deployed_case(int m, int n, int batch, std::uint64_t seed) {
  DeployedCase c;
  c.w.m = m;
  c.w.n = n;
  c.w.batch = batch;
  akm::ops::deployed_data(c.w, seed, c.M0, c.D, c.X);
  return c;
}

}  // namespace akm_test
