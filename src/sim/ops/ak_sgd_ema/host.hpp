// ak_sgd_ema/host — the host side the op's launcher (cuda.cu) and emulator (emulated.cpp) share:
// the sizes the kernel exists for, its arguments, and the observables from the final E.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/ak_sgd_ema.hpp"
#include "../../cuda/host.hpp"
#include "trial.hpp"

namespace akm::cuda::ak_sgd_ema_detail {

/// m = kM (registers) and n threads per block: a multiple of 32 (block_sum) up to 1024.
inline void require_size(const ops::AkSgdEma& w) {
  if (w.m != kM) throw InputError("m", std::to_string(w.m), "8 on the cuda backends (the ak_sgd_ema kernel is built for m = 8)");
  if (w.n < 32 || w.n > 1024 || w.n % 32 != 0)
    throw InputError("n", std::to_string(w.n), "a multiple of 32 in [32, 1024] on the cuda backends (one thread per coordinate, whole warps)");
}

inline Args args(const ops::AkSgdEma& w, std::uint64_t seed) {
  return {w.n, w.steps, float(w.alpha), float(w.beta), float(w.eta), float(w.sigma), seed};
}

/// Floats per trial of the kernel's output (E_AK and E_EMA).
inline std::size_t per_trial(const ops::AkSgdEma& w) { return std::size_t(2) * kM * w.n; }

/// Row t: the column energies Σ_r E_ri² of AK (n), of EMA (n), then both totals (double).
inline ops::Observations gather(const ops::AkSgdEma& w, const std::vector<float>& e) {
  ops::Observations o = detail::observations(w.trials, w.n_obs());
  for (long long t = 0; t < w.trials; ++t) {
    double* out = o.values.data() + std::size_t(t) * o.n_obs;
    const float* ea = e.data() + per_trial(w) * t;
    const float* ee = ea + std::size_t(kM) * w.n;
    double ta = 0.0, te = 0.0;
    for (int j = 0; j < w.n; ++j) {
      double sa = 0.0, se = 0.0;
      for (int r = 0; r < kM; ++r) {
        sa += double(ea[j * kM + r]) * double(ea[j * kM + r]);
        se += double(ee[j * kM + r]) * double(ee[j * kM + r]);
      }
      out[j] = sa;
      out[w.n + j] = se;
      ta += sa;
      te += se;
    }
    out[2 * w.n] = ta;
    out[2 * w.n + 1] = te;
  }
  return o;
}

}  // namespace akm::cuda::ak_sgd_ema_detail
