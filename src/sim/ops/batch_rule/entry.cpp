// batch_rule/entry — ops::batch_rule: the op checked, the backend chosen, the path beside this
// file run, its rows folded into the run's statistics.
#include "akm/sim/ops/batch_rule.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/common.hpp"
#include "../host_only.hpp"
#include "backends.hpp"

namespace akm::ops {

void BatchRule::validate() const {
  if (n() < 1) throw InputError("sqrt_lambda", "0 entries", "must have n ≥ 1 entries (the key's dimension)");
  if (!sqrt_lambda.allFinite() || sqrt_lambda.minCoeff() < 0 || !(sqrt_lambda.maxCoeff() > 0))
    throw InputError("sqrt_lambda", "a negative, non-finite or all-zero entry", "must be finite, ≥ 0 and not all 0");
  if (m() < 1 || A.cols() != n())
    throw InputError("A", fmt::format("{}×{}", A.rows(), A.cols()), fmt::format("must be m × n with m ≥ 1, n = {}", n()));
  if (!A.allFinite()) throw InputError("A", "a non-finite entry", "must be finite");
  if (!(sigma >= 0 && std::isfinite(sigma))) throw InputError("sigma", fmt::format("{}", sigma), "must be finite and ≥ 0");
  if (!(beta >= 0 && beta < 1)) throw InputError("beta", fmt::format("{}", beta), "must be in [0, 1)");
  if (!(eta > 0 && std::isfinite(eta))) throw InputError("eta", fmt::format("{}", eta), "must be finite and > 0");
  if (steps < 1) throw InputError("steps", std::to_string(steps), "must be at least 1");
  if (batches.empty() || batches.size() > 16)
    throw InputError("batches", fmt::format("{} sizes", batches.size()), "must name 1 to 16 batch sizes (the streams 16t + b)");
  for (int N : batches)
    if (N < 1) throw InputError("batches", std::to_string(N), "must be at least 1");
  if (center.rows() != m() || center.cols() != n() || !center.allFinite())
    throw InputError("center", fmt::format("{}×{}", center.rows(), center.cols()),
                     fmt::format("must be a finite m × n = {}×{} matrix", m(), n()));
}

namespace detail {

BatchRulePlain plain(const BatchRule& op) {
  BatchRulePlain p{op.n(), op.m(), op.steps, op.sigma, op.beta, op.eta, {}, {}, {}, op.batches};
  p.sqrt_lambda.assign(op.sqrt_lambda.data(), op.sqrt_lambda.data() + op.n());
  for (int c = 0; c < op.m(); ++c)
    for (int i = 0; i < op.n(); ++i) p.A.push_back(op.A(c, i));
  p.center.assign(op.center.data(), op.center.data() + op.center.size());  // column-major, as the observables
  return p;
}

}  // namespace detail

namespace {

auto paths(const BatchRule& op, std::uint64_t seed, Backend backend) {
  return detail::host_only_paths<detail::BatchRulePlain>(
      op, seed, backend, batch_rule_has(backend), "batch_rule has no device kernel yet",
      detail::batch_rule_reference, detail::plain, detail::batch_rule_cpu);
}

}  // namespace

void batch_rule_rows(const BatchRule& op, std::uint64_t seed, Backend backend, long long first, long long count,
                     int threads, double* rows) {
  paths(op, seed, backend)(first, count, threads, rows);
}

McResult batch_rule(const BatchRule& op, std::uint64_t seed, Backend backend, const McOptions& mc) {
  return fold_rows(mc, op.n_obs(), backend, 1, paths(op, seed, backend));
}

}  // namespace akm::ops
