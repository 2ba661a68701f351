// ops_common — what the Monte-Carlo ops share (akm/sim/ops/common.hpp): the benchmark
// spectrum and the observations' means. Each op's backends live side by side in
// src/sim/ops/<op>/{reference.cpp, cpu.cpp, cuda.cu, emulated.cpp} behind its entry.cpp.
#include "akm/sim/ops/common.hpp"

#include <cmath>

namespace akm::ops {

Vec power_spectrum(int n, bool unit_trace) {
  Vec l(n);
  for (int i = 0; i < n; ++i) l[i] = 1.0 / (i + 1.0);
  if (unit_trace) l /= l.sum();
  return l;
}

std::pair<double, double> Observations::mean_se(int j, long long t0, long long t1) const {
  if (t1 < 0) t1 = trials;
  const double cnt = double(t1 - t0);
  double s = 0.0;
  for (long long t = t0; t < t1; ++t) s += at(t, j);
  const double mean = s / cnt;
  double ss = 0.0;
  for (long long t = t0; t < t1; ++t) ss += (at(t, j) - mean) * (at(t, j) - mean);
  return {mean, cnt > 1 ? std::sqrt(ss / (cnt - 1) / cnt) : 0.0};
}

}  // namespace akm::ops
