// sample_minimizers/entry — ops::sample_minimizers: the op checked, the backend chosen, the path
// beside this file run, its rows folded into the run's statistics.
#include "akm/sim/ops/sample_minimizers.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/common.hpp"
#include "../host_only.hpp"
#include "backends.hpp"

namespace akm::ops {

void SampleMinimizers::validate() const {
  if (n() < 1) throw InputError("sqrt_lambda", "0 entries", "must have n ≥ 1 entries (the key's dimension)");
  if (!sqrt_lambda.allFinite() || !(sqrt_lambda.minCoeff() > 0))
    throw InputError("sqrt_lambda", "a non-positive or non-finite entry",
                     "must be finite and > 0 (XᵀX is singular on a null direction)");
  if (basis.size() && (basis.rows() != n() || basis.cols() != n() || !basis.allFinite() ||
                       !(basis.transpose() * basis).isIdentity(1e-10)))
    throw InputError("basis", fmt::format("{}×{}", basis.rows(), basis.cols()),
                     fmt::format("must be empty or a finite orthogonal {}×{} matrix", n(), n()));
  if (m() < 1 || A.cols() != n())
    throw InputError("A", fmt::format("{}×{}", A.rows(), A.cols()), fmt::format("must be m × n with m ≥ 1, n = {}", n()));
  if (!A.allFinite()) throw InputError("A", "a non-finite entry", "must be finite");
  if (!(sigma >= 0 && std::isfinite(sigma))) throw InputError("sigma", fmt::format("{}", sigma), "must be finite and ≥ 0");
  if (samples < n())
    throw InputError("samples", std::to_string(samples), fmt::format("must be at least n = {} (XᵀX invertible)", n()));
}

namespace detail {

SampleMinimizersPlain plain(const SampleMinimizers& op) {
  const int n = op.n();
  SampleMinimizersPlain p{n, op.m(), op.samples, op.sigma, {}, {}, {}};
  p.sqrt_lambda.assign(op.sqrt_lambda.data(), op.sqrt_lambda.data() + n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) p.U.push_back(op.basis.size() ? op.basis(i, j) : double(i == j));
  for (int q = 0; q < op.m(); ++q)
    for (int i = 0; i < n; ++i) p.A.push_back(op.A(q, i));
  return p;
}

}  // namespace detail

namespace {

auto paths(const SampleMinimizers& op, std::uint64_t seed, Backend backend) {
  return detail::host_only_paths<detail::SampleMinimizersPlain>(
      op, seed, backend, sample_minimizers_has(backend), "sample_minimizers has no device kernel",
      detail::sample_minimizers_reference, detail::plain, detail::sample_minimizers_cpu);
}

}  // namespace

void sample_minimizers_rows(const SampleMinimizers& op, std::uint64_t seed, Backend backend, long long first,
                            long long count, int threads, double* rows) {
  paths(op, seed, backend)(first, count, threads, rows);
}

McResult sample_minimizers(const SampleMinimizers& op, std::uint64_t seed, Backend backend, const McOptions& mc) {
  return fold_rows(mc, op.n_obs(), backend, 1, paths(op, seed, backend));
}

}  // namespace akm::ops
