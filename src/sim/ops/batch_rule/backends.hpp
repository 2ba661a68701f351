// batch_rule/backends — the op's two paths, one file each beside this one; entry.cpp picks one.
// Each writes rows of trials [first, first + count). Private to this folder.
#pragma once
#include <cstdint>
#include <vector>

#include "akm/sim/ops/batch_rule.hpp"

namespace akm::ops::detail {

/// What the cpu path reads, in plain arrays (cpu.cpp instantiates no Eigen code, ODR).
struct BatchRulePlain {
  int n, m, steps;
  double sigma, beta, eta;
  std::vector<double> sqrt_lambda;
  std::vector<double> A;  ///< m × n, row-major
  std::vector<double> center;  ///< m × n, column-major (the observables' order)
  std::vector<int> batches;
  std::size_t per_batch() const { return std::size_t(m) * n + 1; }
  std::size_t n_obs() const { return batches.size() * per_batch(); }
};
BatchRulePlain plain(const BatchRule& op);

/// reference.cpp: akm::Stream and rules::deployed in the order of eq:dispatch (double, Eigen).
void batch_rule_reference(const BatchRule& op, std::uint64_t seed, long long first, long long count, int threads,
                          double* rows);
/// cpu.cpp: the factored form in plain loops, the normals drawn in batches, one trial per task.
void batch_rule_cpu(const BatchRulePlain& op, std::uint64_t seed, long long first, long long count, int threads,
                    double* rows);

}  // namespace akm::ops::detail
