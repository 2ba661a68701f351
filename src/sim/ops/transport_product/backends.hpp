// transport_product/backends — the op's four paths, one file each beside this one; entry.cpp
// picks one. Each writes rows of trials [first, first + count). Private to this folder.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "akm/sim/ops/transport_product.hpp"

namespace akm::ops::detail {

/// What the paths share in plain arrays (cpu.cpp instantiates no Eigen code, ODR).
struct TransportProductPlain {
  std::vector<double> sqrt_lambda, second_moment, beta_tilde;  ///< per direction; β̃_i of E[k_i²]
  bool normalized;
  double beta, eta, key_rho;
  int steps;
  std::vector<int> full_lags;
  TransportProductLayout layout;
  std::vector<double> forms;  ///< the forms' rows b_q, row-major (n_forms × n)
  std::vector<int> form_lags;
  /// With a key law: writes trial `trial`'s keys x_1..x_steps (steps × n, row-major) as the
  /// reference draws them (LawKeys::batch); empty: x = √λ ∘ z from the normal stream.
  LawKeys::Batch law_keys;
};
TransportProductPlain plain(const TransportProduct& op);

/// reference.cpp: akm::Stream, the kernels of akm/rules/kernels.hpp and TransportControl (double, Eigen).
void transport_product_reference(const TransportProduct& op, std::uint64_t seed, long long first, long long count,
                                 int threads, double* rows);
/// cpu.cpp: the fast engine in double, one trial per task, each row of P pushed in turn.
void transport_product_cpu(const TransportProductPlain& op, std::uint64_t seed, long long first, long long count,
                           int threads, double* rows);
/// cuda.cu: one device thread per (trial, row of P), float.
void transport_product_cuda(const TransportProductPlain& op, std::uint64_t seed, long long first, long long count,
                            double* rows);
/// emulated.cpp: the kernel's thread body (trial.hpp) over its grid on `threads` host threads.
void transport_product_cuda_emulated(const TransportProductPlain& op, std::uint64_t seed, long long first,
                                     long long count, int threads, double* rows);

}  // namespace akm::ops::detail
