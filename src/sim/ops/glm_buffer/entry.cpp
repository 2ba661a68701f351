// glm_buffer/entry — ops::glm_buffer: the op checked, the backend chosen, the path beside this
// file run, its rows folded into the run's statistics.
#include "akm/sim/ops/glm_buffer.hpp"

#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "../../cuda/host.hpp"
#include "../check_steps.hpp"
#include "backends.hpp"

namespace akm::ops {

void GlmBuffer::validate() const {
  const int nn = n();
  if (nn < 1) throw InputError("lambda", std::to_string(nn) + " entries", "must have at least 1 (the key's dimension)");
  if (!lambda.allFinite() || lambda.minCoeff() <= 0)
    throw InputError("lambda", "a non-positive or non-finite entry", "must be finite and > 0 (Σ's eigenvalues)");
  for (const auto& [name, v] : {std::pair{"w_star", &w_star}, std::pair{"w0", &w0}, std::pair{"w1", &w1}}) {
    if (v->size() != nn) throw InputError(name, std::to_string(v->size()) + " entries", fmt::format("must have n = {}", nn));
    if (!v->allFinite()) throw InputError(name, "a non-finite entry", "must be finite");
  }
  if (!(beta >= 0 && beta < 1)) throw InputError("beta", fmt::format("{}", beta), "must be in [0, 1)");
  if (!(eta > 0 && std::isfinite(eta))) throw InputError("eta", fmt::format("{}", eta), "must be finite and > 0");
  if (t0 < 1) throw InputError("t0", std::to_string(t0), "must be at least 1");
  if (post < 0) throw InputError("post", std::to_string(post), "must be at least 0");
  detail::check_steps(checkpoints, steps(), "checkpoints");  // steps() = t0 + post
  for (int d : shown)
    if (d < 0 || d >= nn) throw InputError("shown", std::to_string(d), fmt::format("must be a direction in 0..{}", nn - 1));
}

namespace detail {

GlmBufferPlain plain(const GlmBuffer& op) {
  GlmBufferPlain p{op.n(), op.t0, op.post, {}, {}, {}, {}, op.beta, op.eta, op.checkpoints, op.shown};
  for (int i = 0; i < op.n(); ++i) {
    p.sqrt_lambda.push_back(std::sqrt(op.lambda[i]));
    p.w_star.push_back(op.w_star[i]);
    p.w0.push_back(op.w0[i]);
    p.w1.push_back(op.w1[i]);
  }
  return p;
}

}  // namespace detail

namespace {

// The backend's path; `p` is plain(op), made once per run rather than once per call.
void rows_on(const GlmBuffer& op, const detail::GlmBufferPlain& p, std::uint64_t seed, Backend backend, long long first,
             long long count, int threads, double* rows) {
  switch (backend) {
    case Backend::reference: return detail::glm_buffer_reference(op, seed, first, count, threads, rows);
    case Backend::cpu: return detail::glm_buffer_cpu(p, seed, first, count, threads, rows);
    case Backend::cuda:
#if defined(AKM_WITH_CUDA)
      return detail::glm_buffer_cuda(p, seed, first, count, rows);
#else
      cuda::detail::no_cuda_backend();
#endif
    case Backend::cuda_emulated: return detail::glm_buffer_cuda_emulated(p, seed, first, count, threads, rows);
  }
  throw std::invalid_argument("ops::glm_buffer: unknown backend");
}

}  // namespace

void glm_buffer_rows(const GlmBuffer& op, std::uint64_t seed, Backend backend, long long first, long long count,
                     int threads, double* rows) {
  op.validate();
  rows_on(op, detail::plain(op), seed, backend, first, count, threads, rows);
}

McResult glm_buffer(const GlmBuffer& op, std::uint64_t seed, Backend backend, const McOptions& mc) {
  op.validate();
  const auto p = detail::plain(op);
  // The device gets launches of ≥ 65 536 trials (a thread each).
  return fold_rows(mc, op.n_obs(), backend, 65536, [&](long long first, long long count, int threads, double* rows) {
    rows_on(op, p, seed, backend, first, count, threads, rows);
  });
}

}  // namespace akm::ops
