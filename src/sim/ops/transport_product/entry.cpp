// transport_product/entry — ops::transport_product: the op checked, the backend chosen, the
// path beside this file run, its rows folded into the run's statistics.
#include "akm/sim/ops/transport_product.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/theory/theory.hpp"
#include "../../cuda/host.hpp"
#include "../check_steps.hpp"
#include "backends.hpp"

namespace akm::ops {

void TransportProduct::validate() const {
  if (n() < 1) throw InputError("n", std::to_string(n()), "must be at least 1 (the key's dimension)");
  if (!(beta >= 0 && beta < 1)) throw InputError("beta", fmt::format("{}", beta), "must be in [0, 1)");
  if (!(eta > 0 && std::isfinite(eta))) throw InputError("eta", fmt::format("{}", eta), "must be finite and > 0");
  if (second_moment.size() != sqrt_lambda.size())
    throw InputError("second_moment", std::to_string(second_moment.size()) + " entries",
                     "must have n = " + std::to_string(n()) + " entries");
  for (Eigen::Index i = 0; i < sqrt_lambda.size(); ++i)
    if (!(std::isfinite(sqrt_lambda[i]) && sqrt_lambda[i] >= 0 && std::isfinite(second_moment[i])))
      throw InputError("sqrt_lambda", fmt::format("entry {}", i), "must be finite and ≥ 0, with a finite E[k²]");
  if (!(key_rho > -1 && key_rho < 1)) throw InputError("key_rho", fmt::format("{}", key_rho), "must be in (-1, 1)");
  if (!(key_scale > 0 && std::isfinite(key_scale)))
    throw InputError("key_scale", fmt::format("{}", key_scale), "must be finite and > 0");
  law_keys.validate(n());
  if (law_keys && key_rho != 0.0)
    throw InputError("key_rho", fmt::format("{}", key_rho), "must be 0 with a key law (its draws are independent)");
  if (forms.rows() > 0 && forms.cols() != n())
    throw InputError("forms", std::to_string(forms.cols()) + " columns", "must have n = " + std::to_string(n()));
  if ((forms.rows() > 0) != !form_lags.empty())
    throw InputError("form_lags", std::to_string(form_lags.size()) + " lags", "must be given exactly when forms are");
  detail::check_steps(form_lags, steps, "form_lags");
  if (steps < 1) throw InputError("steps", std::to_string(steps), "must be at least 1");
  if (lags < 1 || lags > steps)
    throw InputError("lags", std::to_string(lags), "must be in [1, steps = " + std::to_string(steps) + "]");
  detail::check_steps(full_lags, steps, "full_lags");
}

int TransportProduct::last_recorded_lag() const {
  int last = lags;
  if (!full_lags.empty()) last = std::max(last, full_lags.back());
  if (!form_lags.empty()) last = std::max(last, form_lags.back());
  return last;
}

namespace detail {

TransportProductPlain plain(const TransportProduct& op) {
  TransportProductPlain p{{}, {}, {}, op.key == Key::normalized, op.beta, op.eta, op.key_rho, op.key_scale,
                          op.steps, op.last_recorded_lag(), op.full_lags, op.layout(), {}, op.form_lags, {}};
  for (Eigen::Index q = 0; q < op.forms.rows(); ++q)
    for (Eigen::Index c = 0; c < op.forms.cols(); ++c) p.forms.push_back(op.forms(q, c));
  if (op.law_keys) p.law_keys = op.law_keys.batch();
  for (int i = 0; i < op.n(); ++i) {
    p.sqrt_lambda.push_back(op.key_scale * op.sqrt_lambda[i]);  // s·(√λ ∘ z) = (s√λ) ∘ z
    p.second_moment.push_back(op.second_moment[i]);
    p.beta_tilde.push_back(theory::beta_tilde(op.beta, op.eta, op.second_moment[i]));  // as TransportControl
  }
  return p;
}

}  // namespace detail

namespace {

// The backend's path; `p` is plain(op), made once per run rather than once per call.
void rows_on(const TransportProduct& op, const detail::TransportProductPlain& p, std::uint64_t seed, Backend backend, long long first,
             long long count, int threads, double* rows) {
  if (op.host_only() && backend != Backend::reference && backend != Backend::cpu)  // sizes: require_size
    throw InputError("backend", to_string(backend),
                     "must be reference or cpu for dependent keys, a key law, forms or path norms: no device path");
  switch (backend) {
    case Backend::reference: return detail::transport_product_reference(op, seed, first, count, threads, rows);
    case Backend::cpu: return detail::transport_product_cpu(p, seed, first, count, threads, rows);
    case Backend::cuda:
#if defined(AKM_WITH_CUDA)
      return detail::transport_product_cuda(p, seed, first, count, rows);
#else
      cuda::detail::no_cuda_backend();
#endif
    case Backend::cuda_emulated: return detail::transport_product_cuda_emulated(p, seed, first, count, threads, rows);
  }
  throw std::invalid_argument("ops::transport_product: unknown backend");
}

}  // namespace

void transport_product_rows(const TransportProduct& op, std::uint64_t seed, Backend backend, long long first, long long count,
               int threads, double* rows) {
  op.validate();
  rows_on(op, detail::plain(op), seed, backend, first, count, threads, rows);
}

McResult transport_product(const TransportProduct& op, std::uint64_t seed, Backend backend, const McOptions& mc) {
  op.validate();
  const auto p = detail::plain(op);
  // The device gets launches of ≥ 2048 trials (65 536 threads at n = 32).
  return fold_rows(mc, op.layout().size(), backend, 2048, [&](long long first, long long count, int threads, double* rows) {
    rows_on(op, p, seed, backend, first, count, threads, rows);
  });
}

}  // namespace akm::ops
