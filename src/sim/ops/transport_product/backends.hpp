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
  double key_scale;  ///< s of the keys s·x (a Gaussian key's √λ arrives already scaled)
  int steps;
  int last_recorded_lag;  ///< TransportProduct::last_recorded_lag(): past it path_norms may rescale P
  std::vector<int> full_lags;
  TransportProductLayout layout;
  std::vector<double> forms;  ///< the forms' rows b_q, row-major (n_forms × n)
  std::vector<int> form_lags;
  /// With a key law: writes trial `trial`'s keys x_1..x_steps (steps × n, row-major) as the
  /// reference draws them (LawKeys::batch); empty: x = √λ ∘ z from the normal stream.
  LawKeys::Batch law_keys;
};
TransportProductPlain plain(const TransportProduct& op);

/// path_norms.cpp (Eigen, not the native ISA): log‖P‖_op of an n×n row-major P, from the largest
/// eigenvalue of PᵀP. The reference takes the largest singular value from an SVD instead.
double log_op_norm(const double* P, int n);
/// The step's term of the determinant bound, from det(βI − ηkkᵀ) = β^{n−1}(β − η‖k‖²):
/// ((n−1)·log β + log|β − η‖k‖²|)/n (the cpu path; the reference takes the LU determinant).
double log_det_step(double beta, double eta, double key_norm_sq, int n);

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
