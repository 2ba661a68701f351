// phase_measure/host — the host side `phase --measure`'s launcher (cuda.cu) and emulator
// (emulated.cpp) share: the device's points, launch arguments and batch size.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "akm/sim/ops/phase_measure.hpp"
#include "trial.hpp"

namespace akm::cuda::phase_detail {

inline std::vector<Point> device_points(const std::vector<ops::PhasePoint>& plan) {
  std::vector<Point> out;
  out.reserve(plan.size());
  for (const auto& p : plan) out.push_back({p.beta, p.eta, p.direction, p.lag, p.seed});
  return out;
}

/// Rows per batch: scratch of 3n doubles per row within `bytes`.
inline long long batch_rows(int n, long long rows, std::size_t bytes) {
  return std::max(1LL, std::min<long long>(rows, (long long)(bytes / (24 * std::size_t(n)))));
}

/// The arguments of the batch of rows [row0, row0 + nb).
inline Args args(int n, const ops::PhaseMeasure& o, long long row0, long long nb) {
  return {n, o.steps, o.key == Key::normalized, o.ar_rho, std::sqrt(1.0 - o.ar_rho * o.ar_rho),
          std::log(o.threshold), o.trials, row0, nb};
}

inline ops::PhaseTrial result(const Out& r) { return {r.projection, r.log_growth, r.diverged != 0}; }

}  // namespace akm::cuda::phase_detail
