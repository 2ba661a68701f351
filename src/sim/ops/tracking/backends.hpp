// tracking/backends — the op's four paths, one file each beside this one; entry.cpp picks
// one. Each writes rows of trials [first, first + count). Private to this folder.
#pragma once
#include <cstdint>
#include <vector>

#include "akm/sim/ops/tracking.hpp"

namespace akm::ops::detail {

/// What the fast paths share in plain arrays (cpu.cpp instantiates no Eigen code, ODR).
struct TrackingPlain {
  int n, m, t0, post;
  std::vector<double> sqrt_lambda0, sqrt_lambda1;
  std::vector<double> Q;  ///< n×n row-major; empty: the identity
  std::vector<double> a0, a1;  ///< row 0 of A0 and A1 (the recorded row's values)
  std::vector<double> center;  ///< 3×n row-major
  double noise_sigma, beta, eta_raw, eta_normalized;
  std::size_t obs(int r, int k, int i) const { return tracking_obs(n, post, r, k, i); }
  std::size_t n_obs() const { return obs(3, 0, 0); }
};
TrackingPlain plain(const Tracking& op);

/// reference.cpp: akm::Stream and the kernels of akm/rules/kernels.hpp (double, Eigen, all m rows).
void tracking_reference(const Tracking& op, std::uint64_t seed, long long first, long long count, int threads,
                        double* rows);
/// cpu.cpp: the fast engine in double, one trial per task, row 0 only.
void tracking_cpu(const TrackingPlain& op, std::uint64_t seed, long long first, long long count, int threads,
                  double* rows);
/// cuda.cu: one device thread per trial, float.
void tracking_cuda(const TrackingPlain& op, std::uint64_t seed, long long first, long long count, double* rows);
/// emulated.cpp: the kernel's thread body (trial.hpp) over its grid on `threads` host threads.
void tracking_cuda_emulated(const TrackingPlain& op, std::uint64_t seed, long long first, long long count,
                            int threads, double* rows);

}  // namespace akm::ops::detail
