// engine_util — small helpers shared by the fast CPU paths of src/sim/ops/<op>/cpu.cpp.
// Private to the sim layer; no Eigen (the engine files are compiled for the native ISA).
#pragma once
#include <cmath>
#include <vector>

namespace akm::engine {

/// √λ of the power-law spectrum λ_i = 1/i (unit trace when asked): ops::power_spectrum's
/// numbers, without Eigen.
inline std::vector<double> sqrt_power(int n, bool unit_trace) {
  std::vector<double> l(n);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += (l[i] = 1.0 / (i + 1.0));
  for (int i = 0; i < n; ++i) l[i] = std::sqrt(unit_trace ? l[i] / s : l[i]);
  return l;
}

template <class T>
inline std::vector<T> cast(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

}  // namespace akm::engine
