// tracking/entry — ops::tracking: the op checked, the backend chosen, the path beside this file
// run, its rows folded into the run's statistics.
#include "akm/sim/ops/tracking.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "../../cuda/host.hpp"
#include "backends.hpp"

namespace akm::ops {

void Tracking::validate() const {
  const int nn = n();
  if (nn < 1) throw InputError("n", std::to_string(nn), "must be at least 1 (the key's dimension)");
  if (sqrt_lambda0.size() != nn) throw InputError("sqrt_lambda0", std::to_string(sqrt_lambda0.size()) + " entries", "must have n entries");
  if (Q.size() > 0 && (Q.rows() != nn || Q.cols() != nn))
    throw InputError("Q", fmt::format("{}×{}", Q.rows(), Q.cols()), "must be n×n or empty");
  if (A0.rows() < 1 || A0.cols() != nn || A1.rows() != A0.rows() || A1.cols() != nn)
    throw InputError("A0, A1", fmt::format("{}×{}, {}×{}", A0.rows(), A0.cols(), A1.rows(), A1.cols()),
                     "must both be m×n with m ≥ 1");
  if (center.rows() != 3 || center.cols() != nn)
    throw InputError("center", fmt::format("{}×{}", center.rows(), center.cols()), "must be 3×n");
  if (!(beta >= 0 && beta < 1)) throw InputError("beta", fmt::format("{}", beta), "must be in [0, 1)");
  if (!(eta_raw > 0 && std::isfinite(eta_raw))) throw InputError("eta_raw", fmt::format("{}", eta_raw), "must be finite and > 0");
  if (!(eta_normalized > 0 && std::isfinite(eta_normalized)))
    throw InputError("eta_normalized", fmt::format("{}", eta_normalized), "must be finite and > 0");
  if (!(noise_sigma >= 0 && std::isfinite(noise_sigma)))
    throw InputError("noise_sigma", fmt::format("{}", noise_sigma), "must be finite and ≥ 0");
  if (t0 < 1) throw InputError("t0", std::to_string(t0), "must be at least 1");
  if (post < 1) throw InputError("post", std::to_string(post), "must be at least 1");
  for (const Mat* a : {&A0, &A1, &Q, &center})
    if (!a->allFinite()) throw InputError("A0, A1, Q, center", "a non-finite entry", "must be finite");
  if (!sqrt_lambda0.allFinite() || !sqrt_lambda1.allFinite() || sqrt_lambda0.minCoeff() < 0 || sqrt_lambda1.minCoeff() < 0)
    throw InputError("sqrt_lambda0, sqrt_lambda1", "a negative or non-finite entry", "must be finite and ≥ 0");
}

namespace detail {

TrackingPlain plain(const Tracking& op) {
  TrackingPlain p{op.n(), op.m(), op.t0, op.post, {}, {}, {}, {}, {}, {}, op.noise_sigma, op.beta, op.eta_raw,
                  op.eta_normalized};
  for (int i = 0; i < op.n(); ++i) {
    p.sqrt_lambda0.push_back(op.sqrt_lambda0[i]);
    p.sqrt_lambda1.push_back(op.sqrt_lambda1[i]);
    p.a0.push_back(op.A0(0, i));
    p.a1.push_back(op.A1(0, i));
  }
  if (op.Q.size() > 0)
    for (int i = 0; i < op.n(); ++i)
      for (int c = 0; c < op.n(); ++c) p.Q.push_back(op.Q(i, c));
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < op.n(); ++i) p.center.push_back(op.center(r, i));
  return p;
}

}  // namespace detail

namespace {

// The backend's path; `p` is plain(op), made once per run rather than once per call.
void rows_on(const Tracking& op, const detail::TrackingPlain& p, std::uint64_t seed, Backend backend, long long first,
             long long count, int threads, double* rows) {
  switch (backend) {
    case Backend::reference: return detail::tracking_reference(op, seed, first, count, threads, rows);
    case Backend::cpu: return detail::tracking_cpu(p, seed, first, count, threads, rows);
    case Backend::cuda:
#if defined(AKM_WITH_CUDA)
      return detail::tracking_cuda(p, seed, first, count, rows);
#else
      cuda::detail::no_cuda_backend();
#endif
    case Backend::cuda_emulated: return detail::tracking_cuda_emulated(p, seed, first, count, threads, rows);
  }
  throw std::invalid_argument("ops::tracking: unknown backend");
}

}  // namespace

void tracking_rows(const Tracking& op, std::uint64_t seed, Backend backend, long long first, long long count,
               int threads, double* rows) {
  op.validate();
  rows_on(op, detail::plain(op), seed, backend, first, count, threads, rows);
}

McResult tracking(const Tracking& op, std::uint64_t seed, Backend backend, const McOptions& mc) {
  op.validate();
  const auto p = detail::plain(op);
  // The device gets launches of ≥ 65 536 trials (a thread each).
  return fold_rows(mc, op.n_obs(), backend, 65536, [&](long long first, long long count, int threads, double* rows) {
    rows_on(op, p, seed, backend, first, count, threads, rows);
  });
}

}  // namespace akm::ops
