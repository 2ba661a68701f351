// phase_map/reference — the plain reference: the raw-key transport growth rate at every
// (η, β) grid point, one trial at a time. cpu.cpp, cuda.cu and emulated.cpp beside it are held
// to it by tests/ops/test_phase_map.cpp.
#include <cmath>

#include "akm/rules/kernels.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/rules.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

Observations phase_map_reference(const PhaseMap& w, std::uint64_t seed, int threads) {
  const Vec sl = power_spectrum(w.n, true).cwiseSqrt();
  const long long total = w.trials * w.points();
  return run_trials(total, 1, threads, [&](long long row, double* out) {
    const int p = int(row / w.trials);
    const double eta = w.eta(p / w.n_beta), beta = w.beta(p % w.n_beta);
    Stream s(seed, std::uint64_t(row), Purpose::keys);
    Mat P = Mat::Constant(1, w.n, 1.0 / std::sqrt(double(w.n)));
    Vec x(w.n), r(1);
    double log_norm = 0.0;
    for (int t = 0; t < w.steps; ++t) {
      kern::gaussian_key(s, sl, x);
      kern::transport_step(P, x, beta, eta, r);  // raw key: v(βI − ηxxᵀ)
      if ((t + 1) % w.renorm == 0 || t + 1 == w.steps) {
        const double nv = P.norm();
        log_norm += std::log(nv);
        P /= nv;
      }
    }
    out[0] = log_norm / w.steps;
  });
}

}  // namespace akm::ops::detail
