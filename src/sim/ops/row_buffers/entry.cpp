// row_buffers/entry — ops::row_buffers: the op checked, the backend chosen (reference or cpu),
// the path beside this file run, its rows folded into the run's statistics.
#include "akm/sim/ops/row_buffers.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/common.hpp"
#include "../check_steps.hpp"
#include "../host_only.hpp"
#include "backends.hpp"

namespace akm::ops {
void RowBuffers::validate() const {
  const int nn = n();
  if (nn < 1) throw InputError("sqrt_lambda", "0 entries", "must have n ≥ 1 entries (the key's dimension)");
  if (!sqrt_lambda.allFinite() || sqrt_lambda.minCoeff() < 0)
    throw InputError("sqrt_lambda", "a negative or non-finite entry", "must be finite and ≥ 0");
  law_keys.validate(nn);
  if (B() < 1) throw InputError("rows", "0 rows", "must hold at least one buffer row");
  // β = 1 is the pure delta rule [eq:delta-rule] for AK rows; an EMA row would never move.
  const bool any_ema = std::any_of(rows.begin(), rows.end(), [](const BufferRow& r) { return r.rule == BufferKind::ema; });
  if (!(beta >= 0 && (beta < 1 || (beta == 1 && !any_ema))))
    throw InputError("beta", fmt::format("{}", beta), "must be in [0, 1) (or 1 when every row is AK: the pure delta rule)");
  if (!(noise_sigma >= 0 && std::isfinite(noise_sigma)))
    throw InputError("noise_sigma", fmt::format("{}", noise_sigma), "must be finite and ≥ 0");
  if (noise_slots < 1) throw InputError("noise_slots", std::to_string(noise_slots), "must be at least 1");
  if (!std::isfinite(a0) || !std::isfinite(a1)) throw InputError("a0, a1", fmt::format("{}, {}", a0, a1), "must be finite");
  for (const BufferRow& r : rows) {
    if (r.rule != BufferKind::ak_raw && r.rule != BufferKind::ak_normalized && r.rule != BufferKind::ema)
      throw InputError("rows.rule", to_string(r.rule), "must be ak-raw, ak-normalized or ema (the pure delta rule: ak-raw at beta = 1)");
    if (r.d.size() != nn || r.start.size() != nn || r.center.size() != nn)
      throw InputError("rows.d, rows.start, rows.center", fmt::format("{}, {}, {} entries", r.d.size(), r.start.size(), r.center.size()),
                       fmt::format("must have n = {} entries each", nn));
    if (!r.d.allFinite() || !r.start.allFinite() || !r.center.allFinite())
      throw InputError("rows.d, rows.start, rows.center", "a non-finite entry", "must be finite");
    if (r.rule != BufferKind::ema && !(r.eta > 0 && std::isfinite(r.eta)))
      throw InputError("rows.eta", fmt::format("{}", r.eta), "must be finite and > 0 (AK rows)");
    if (!(r.noise_scale >= 0 && std::isfinite(r.noise_scale)))
      throw InputError("rows.noise_scale", fmt::format("{}", r.noise_scale), "must be finite and ≥ 0");
    if (r.noise_slot < 0 || r.noise_slot >= noise_slots)
      throw InputError("rows.noise_slot", std::to_string(r.noise_slot), fmt::format("must be in 0..noise_slots−1 = {}", noise_slots - 1));
  }
  if (steps < 1) throw InputError("steps", std::to_string(steps), "must be at least 1");
  auto schedule = [&](const std::vector<Mat>& per_step, const char* name, int rows_each) {
    if (per_step.empty()) return;
    if (int(per_step.size()) != steps)
      throw InputError(name, fmt::format("{} matrices", per_step.size()),
                       fmt::format("must be empty or one per step ({} steps)", steps));
    for (const Mat& K : per_step)
      if (K.rows() != rows_each || K.cols() != nn || !K.allFinite())
        throw InputError(name, fmt::format("a {}×{} or non-finite matrix", K.rows(), K.cols()),
                         fmt::format("must be finite {}×{} matrices", rows_each, nn));
  };
  schedule(key_turns, "key_turns", nn);
  schedule(value_rows, "value_rows", B());
  detail::check_steps(record, steps, "record");
  if (window_start < 0 || window_start > steps)
    throw InputError("window_start", std::to_string(window_start), fmt::format("must be 0 (no window) or in 1..steps = {}", steps));
  if (key_mean.size() != 0 && (key_mean.size() != nn || !key_mean.allFinite()))
    throw InputError("key_mean", fmt::format("{} entries", key_mean.size()), fmt::format("must be empty or n = {} finite entries", nn));
  if (msq_window_start < 0 || msq_window_start > steps)
    throw InputError("msq_window_start", std::to_string(msq_window_start), fmt::format("must be 0 (none) or in 1..steps = {}", steps));
  detail::check_steps(second_moment_record, steps, "second_moment_record");
  if (!(beta2 >= 0 && beta2 < 1)) throw InputError("beta2", fmt::format("{}", beta2), "must be in [0, 1)");
  if (stream_stride < 1) throw InputError("stream_stride", std::to_string(stream_stride), "must be at least 1");
  if (stream_offset < 0) throw InputError("stream_offset", std::to_string(stream_offset), "must be ≥ 0");
  for (const RowProbe& p : probes) {
    if (p.W.rows() != B() || p.W.cols() != nn)
      throw InputError("probes.W", fmt::format("{}×{}", p.W.rows(), p.W.cols()), fmt::format("must be rows × n = {}×{}", B(), nn));
    if (!p.W.allFinite()) throw InputError("probes.W", "a non-finite entry", "must be finite");
    if (p.window && (window_start == 0 || !p.steps.empty()))
      throw InputError("probes.window", "true", "needs window_start ≥ 1 and no steps of its own");
    if (!p.window && p.steps.empty()) throw InputError("probes.steps", "none", "must name at least one step (or window)");
    detail::check_steps(p.steps, steps, "probes.steps");
  }
}

namespace detail {

RowBuffersPlain plain(const RowBuffers& op) {
  RowBuffersPlain p{op.n(), op.B(), op.noise_slots, op.steps, op.window_start, op.msq_window_start, op.beta, op.noise_sigma,
                    op.a0, op.a1, op.stream_stride, op.stream_offset, {}, {}, {}, {}, {}, {}, {}, {}, op.record, {}, {},
                    op.n_obs(), op.value_on_normalized, {}, {}, {}, {}, op.second_moment_record, op.beta2,
                    op.msq_obs(), op.second_moment_obs(0, 0, 0)};
  p.key_mean.assign(op.key_mean.data(), op.key_mean.data() + op.key_mean.size());
  if (op.law_keys) p.law_keys = op.law_keys.batch();
  p.sqrt_lambda.assign(op.sqrt_lambda.data(), op.sqrt_lambda.data() + op.n());
  for (const BufferRow& r : op.rows) {
    p.rule.push_back(int(r.rule));
    p.eta.push_back(r.eta);
    p.slot.push_back(r.noise_slot);
    p.noise_scale.push_back(r.noise_scale);
    for (int i = 0; i < op.n(); ++i) {
      p.d.push_back(r.d[i]);
      p.start.push_back(r.start[i]);
      p.center.push_back(r.center[i]);
    }
  }
  for (const Mat& K : op.key_turns)
    for (int i = 0; i < op.n(); ++i)
      for (int j = 0; j < op.n(); ++j) p.key_turns.push_back(K(i, j));
  for (const Mat& V : op.value_rows)
    for (int b = 0; b < op.B(); ++b)
      for (int i = 0; i < op.n(); ++i) p.value_rows.push_back(V(b, i));
  for (std::size_t q = 0; q < op.probes.size(); ++q) {
    const RowProbe& pr = op.probes[q];
    RowBuffersPlain::Probe pp{{}, pr.steps, pr.window};
    for (int b = 0; b < op.B(); ++b)
      for (int i = 0; i < op.n(); ++i) pp.W.push_back(pr.W(b, i));
    p.probes.push_back(std::move(pp));
    p.probe_base.push_back(op.probe_obs(q, 0));
  }
  return p;
}

}  // namespace detail

namespace {

auto paths(const RowBuffers& op, std::uint64_t seed, Backend backend) {
  return detail::host_only_paths<detail::RowBuffersPlain>(
      op, seed, backend, row_buffers_has(backend), "row_buffers has no device kernel yet",
      detail::row_buffers_reference, detail::plain, detail::row_buffers_cpu);
}

}  // namespace

void row_buffers_rows(const RowBuffers& op, std::uint64_t seed, Backend backend, long long first, long long count,
                      int threads, double* rows) {
  paths(op, seed, backend)(first, count, threads, rows);
}

McResult row_buffers(const RowBuffers& op, std::uint64_t seed, Backend backend, const McOptions& mc) {
  return fold_rows(mc, op.n_obs(), backend, 1, paths(op, seed, backend));
}

}  // namespace akm::ops
