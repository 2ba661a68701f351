// span_buffers/entry — ops::span_buffers: the op checked, the backend chosen (reference or cpu),
// the path beside this file run, its rows folded into the run's statistics.
#include "akm/sim/ops/span_buffers.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/common.hpp"
#include "../check_steps.hpp"
#include "../host_only.hpp"
#include "backends.hpp"

namespace akm::ops {

void SpanBuffers::validate() const {
  if (p() < 1 || n_s() < 1) throw InputError("keys", fmt::format("{}×{}", p(), n_s()), "must be p×n_s with p, n_s ≥ 1");
  if (norms.size() != n_s()) throw InputError("norms", std::to_string(norms.size()) + " entries", "must have n_s entries");
  if (m() < 1 || values.cols() != n_s())
    throw InputError("values", fmt::format("{}×{}", values.rows(), values.cols()), "must be m×n_s with m ≥ 1");
  if (D() < 1 || directions.rows() != p())
    throw InputError("directions", fmt::format("{}×{}", directions.rows(), directions.cols()), "must be p×D with D ≥ 1");
  for (const Mat* a : {&keys, &values, &directions})
    if (!a->allFinite()) throw InputError("keys, values, directions", "a non-finite entry", "must be finite");
  if (!norms.allFinite() || norms.minCoeff() < 0) throw InputError("norms", "a negative or non-finite entry", "must be finite and ≥ 0");
  if (!(beta >= 0 && beta < 1)) throw InputError("beta", fmt::format("{}", beta), "must be in [0, 1)");
  if (!(eta > 0 && std::isfinite(eta))) throw InputError("eta", fmt::format("{}", eta), "must be finite and > 0");
  if (steps < 1) throw InputError("steps", std::to_string(steps), "must be at least 1");
  detail::check_steps(grid, steps, "grid");
  if (window_start < 1 || window_start > steps)
    throw InputError("window_start", std::to_string(window_start), fmt::format("must be in 1..steps = {}", steps));
}

namespace detail {

SpanBuffersPlain plain(const SpanBuffers& op) {
  SpanBuffersPlain p{op.n_s(), op.m(), op.D(), op.steps, op.window_start, op.beta, op.eta, {}, {}, {}, {}, op.grid};
  const Mat gram = op.keys.transpose() * op.keys, ct = op.directions.transpose() * op.keys;
  for (int s = 0; s < op.n_s(); ++s) {
    for (int q = 0; q < op.n_s(); ++q) p.gram.push_back(gram(q, s));
    for (int j = 0; j < op.D(); ++j) p.ct.push_back(ct(j, s));
    for (int r = 0; r < op.m(); ++r) p.values.push_back(op.values(r, s));
    p.norms.push_back(op.norms[s]);
  }
  return p;
}

}  // namespace detail

namespace {

auto paths(const SpanBuffers& op, std::uint64_t seed, Backend backend) {
  op.validate();
  detail::refuse_host_only(span_buffers_has(backend), backend,
                           "span_buffers has no device kernel: a trial's p-dimensional buffers do not fit a thread");
  const Mat Ct = backend == Backend::reference ? Mat(op.directions.transpose() * op.keys) : Mat();
  return detail::host_only_paths(
      backend,
      [&op, Ct, seed](long long first, long long count, int threads, double* rows) {
        detail::span_buffers_reference(op, Ct, seed, first, count, threads, rows);
      },
      [p = detail::plain(op), seed](long long first, long long count, int threads, double* rows) {
        detail::span_buffers_cpu(p, seed, first, count, threads, rows);
      });
}

}  // namespace

void span_buffers_rows(const SpanBuffers& op, std::uint64_t seed, Backend backend, long long first, long long count,
                       int threads, double* rows) {
  paths(op, seed, backend)(first, count, threads, rows);
}

McResult span_buffers(const SpanBuffers& op, std::uint64_t seed, Backend backend, const McOptions& mc) {
  return fold_rows(mc, op.n_obs(), backend, 1, paths(op, seed, backend));
}

}  // namespace akm::ops
