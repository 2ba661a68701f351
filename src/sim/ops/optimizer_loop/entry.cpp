// optimizer_loop/entry — ops::optimizer_loop: the op checked, the backend chosen (reference or
// cpu), the path beside this file run, its rows folded into the run's statistics.
#include "akm/sim/ops/optimizer_loop.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/common.hpp"
#include "../host_only.hpp"
#include "backends.hpp"

namespace akm::ops {

void OptimizerLoop::validate() const {
  if (n() < 1) throw InputError("sqrt_lambda", "0 entries", "must have n ≥ 1 entries (the key's dimension)");
  if (!sqrt_lambda.allFinite() || sqrt_lambda.minCoeff() < 0)
    throw InputError("sqrt_lambda", "a negative or non-finite entry", "must be finite and ≥ 0");
  if (!(beta >= 0 && beta < 1)) throw InputError("beta", fmt::format("{}", beta), "must be in [0, 1)");
  if (rule != BufferKind::ema && !(eta > 0 && std::isfinite(eta)))
    throw InputError("eta", fmt::format("{}", eta), "must be finite and > 0 (AK arms)");
  if (!(alpha > 0 && std::isfinite(alpha))) throw InputError("alpha", fmt::format("{}", alpha), "must be finite and > 0");
  if (!(noise_sigma >= 0 && std::isfinite(noise_sigma)))
    throw InputError("noise_sigma", fmt::format("{}", noise_sigma), "must be finite and ≥ 0");
  if (steps < 1) throw InputError("steps", std::to_string(steps), "must be at least 1");
  if (e0.size() > 0 && (e0.size() != n() || !e0.allFinite()))
    throw InputError("e0", fmt::format("{} entries", e0.size()), fmt::format("must be empty or n = {} finite entries", n()));
}

namespace {

detail::OptimizerLoopPlain plain(const OptimizerLoop& op) {
  return {op.n(), int(op.rule), op.steps, op.eta, op.beta, op.alpha, op.noise_sigma,
          std::vector<double>(op.sqrt_lambda.data(), op.sqrt_lambda.data() + op.n()), op.n_obs(),
          op.e0.size() > 0 ? std::vector<double>(op.e0.data(), op.e0.data() + op.n()) : std::vector<double>(op.n(), 1.0)};
}

auto paths(const OptimizerLoop& op, std::uint64_t seed, Backend backend) {
  return detail::host_only_paths<detail::OptimizerLoopPlain>(
      op, seed, backend, optimizer_loop_has(backend), "optimizer_loop has no device kernel yet",
      detail::optimizer_loop_reference, plain, detail::optimizer_loop_cpu);
}

}  // namespace

void optimizer_loop_rows(const OptimizerLoop& op, std::uint64_t seed, Backend backend, long long first,
                         long long count, int threads, double* rows) {
  paths(op, seed, backend)(first, count, threads, rows);
}

McResult optimizer_loop(const OptimizerLoop& op, std::uint64_t seed, Backend backend, const McOptions& mc) {
  return fold_rows(mc, op.n_obs(), backend, 1, paths(op, seed, backend));
}

}  // namespace akm::ops
