// glm_pair/entry — ops::glm_pair: the op checked, the backend chosen, the path beside this file
// run, its rows folded into the run's statistics.
#include "akm/sim/ops/glm_pair.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/common.hpp"
#include "../host_only.hpp"
#include "backends.hpp"

namespace akm::ops {

void GlmPair::validate() const {
  const int nn = n();
  if (nn < 1) throw InputError("lambda", "0 entries", "must have n ≥ 1 entries (the key's dimension)");
  for (int i = 0; i < nn; ++i)
    if (!(lambda[i] > 0 && std::isfinite(lambda[i])))
      throw InputError("lambda", fmt::format("entry {} = {}", i, lambda[i]), "must be finite and > 0");
  if (w_star.size() != nn || !w_star.allFinite())
    throw InputError("w_star", fmt::format("{} entries", w_star.size()), fmt::format("must be n = {} finite entries", nn));
  if (offset.size() != nn || !offset.allFinite())
    throw InputError("offset", fmt::format("{} entries", offset.size()), fmt::format("must be n = {} finite entries", nn));
  if (!(offset.cwiseAbs2().dot(lambda) > 0)) throw InputError("offset", "0", "must be nonzero (the pair's start w* ± v)");
  if (!(alpha > 0 && std::isfinite(alpha))) throw InputError("alpha", fmt::format("{}", alpha), "must be finite and > 0");
  if (!(beta >= 0 && beta < 1)) throw InputError("beta", fmt::format("{}", beta), "must be in [0, 1)");
  if (!(eta > 0 && std::isfinite(eta))) throw InputError("eta", fmt::format("{}", eta), "must be finite and > 0");
  if (steps < 1) throw InputError("steps", std::to_string(steps), "must be at least 1");
  if (stride < 1 || stride > steps)
    throw InputError("stride", std::to_string(stride), fmt::format("must be in 1..steps = {}", steps));
  for (int d : shown) {
    if (d < 0 || d >= nn) throw InputError("shown", std::to_string(d), fmt::format("must be a direction in 0..{}", nn - 1));
    if (offset[d] == 0)
      throw InputError("shown", std::to_string(d), "must be a direction the offset moves (its trajectory is Δw_i/v_i)");
  }
}

namespace detail {

GlmPairPlain plain(const GlmPair& op) {
  GlmPairPlain p{op.n(), op.steps, op.stride, op.soft, op.alpha, op.beta, op.eta, {}, {}, {}, {}, op.shown};
  const Vec sqrt_lambda = op.lambda.array().sqrt().matrix();  // as logistic::Teacher takes it
  p.lambda.assign(op.lambda.data(), op.lambda.data() + op.n());
  p.sqrt_lambda.assign(sqrt_lambda.data(), sqrt_lambda.data() + op.n());
  p.w_star.assign(op.w_star.data(), op.w_star.data() + op.n());
  p.offset.assign(op.offset.data(), op.offset.data() + op.n());
  return p;
}

}  // namespace detail

namespace {

auto paths(const GlmPair& op, std::uint64_t seed, Backend backend) {
  return detail::host_only_paths<detail::GlmPairPlain>(
      op, seed, backend, glm_pair_has(backend), "glm_pair has no device kernel yet",
      detail::glm_pair_reference, detail::plain, detail::glm_pair_cpu);
}

}  // namespace

void glm_pair_rows(const GlmPair& op, std::uint64_t seed, Backend backend, long long first, long long count,
                   int threads, double* rows) {
  paths(op, seed, backend)(first, count, threads, rows);
}

McResult glm_pair(const GlmPair& op, std::uint64_t seed, Backend backend, const McOptions& mc) {
  return fold_rows(mc, op.n_obs(), backend, 1, paths(op, seed, backend));
}

}  // namespace akm::ops
