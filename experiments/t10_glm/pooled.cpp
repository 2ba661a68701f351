// T10 glm, the pooled recovery of η, β and the λ̂ scale from the observables whose closed form
// the estimated moments cancel out of. The checks' predictions read Ĝ_0, Ĝ_1 (part A) and K
// (part B) from independent samples, whose sampling error enters each check as its se_pred;
// a pooled observable has no such slot (its error is the jackknife of the simulation alone),
// so the recovery pools only quantities free of them:
//  * part A before the switch, E[M_t u_i]/E[M_{t0} u_i] = (1 − β̃_i^t)/(1 − β̃_i^{t0}) (φ_i Ĝ_0,i
//    cancels) at every checkpoint t < t0 of every direction and every step of the shown
//    directions' trajectories, as a ratio of the run's means (jackknife); for the shown
//    directions the denominator is the mean of E[M_s u_i] over the last kPlateau steps
//    s ≤ t0, whose closed form is the same mean of (1 − β̃_i^s). Directions whose
//    predicted E[M_{t0} u_i] is within z_two_sided(1e-9) of its standard errors of 0 are left
//    out: the ratio is not smooth there. After the switch every quantity reads Ĝ_1 or the
//    state at the switch, and is left out;
//  * part B, the fitted det Â_i = β̃_i of the checked soft-label arm [lem:loss-free-det]: the
//    determinant does not read the coupling c_i = ηk_i, and the linearization remainder
//    enters the map's μ row as a change of coupling, which leaves it unchanged. The fitted
//    rate, trace and trajectories read K and are left out, and so is the Bernoulli arm, whose
//    midpoint spread is not bounded (claim.cpp).
#include <algorithm>
#include <functional>

#include "t10_glm.hpp"

namespace akm::exp::t10 {
namespace {

// Adds observables that are smooth functions of a run's means, each weighted by its own
// jackknife standard error (one pass over the leave-one-out means).
void add_with_jackknife_weights(PooledRecovery& pooled, const Jackknife& jk, std::vector<std::size_t> idx,
                                std::vector<PooledObservable> obs, std::function<void(const Vec&, double*)> f) {
  const std::vector<MeanEstimate> e = jk.many(idx, obs.size(), f);
  for (std::size_t j = 0; j < obs.size(); ++j) obs[j].se = e[j].se;
  pooled.add(jk, std::move(idx), std::move(obs), std::move(f));
}

}  // namespace

void add_pooled_buffer(PooledRecovery& pooled, const Vec& lh, const BufferRun& buffer) {
  const int n = static_cast<int>(lh.size());
  const std::size_t n_cp = kCheckpoints.size();
  const int T = kT0 + kPost;
  const auto cp0 = static_cast<std::size_t>(std::find(kCheckpoints.begin(), kCheckpoints.end(), kT0) - kCheckpoints.begin());
  const Vec se = buffer.res.total.stderr_mean();
  const BufferRun* run = &buffer;
  // Ratio j reads observable num[j] over the mean of observables dens[j]: the last kPlateau
  // steps before the switch for the shown directions (whose every step is recorded), the
  // state at t0 for the others. A denominator shared by all of a direction's ratios puts its
  // relative error into all of them at once, which the weights (each ratio's own error) do not
  // see; the mean over kPlateau steps, many times the top direction's memory 1/(1 − β̃), averages
  // that common error down (docs/statistics.md, "Pooled recovery").
  std::vector<std::size_t> num;
  std::vector<std::vector<std::size_t>> dens;
  std::vector<PooledObservable> obs;
  auto add_ratio = [&](int i, int t, std::size_t o, const std::vector<std::size_t>& den, const std::vector<int>& den_t) {
    auto ratio = [run, &lh, i, t, den_t](double e, double b, double sc) {
      double m = 0;
      for (int s : den_t) m += run->predict_at(e, b, sc * lh[i], i, s).first / double(den_t.size());
      return run->predict_at(e, b, sc * lh[i], i, t).first / m;
    };
    const LogSensitivity<double> d = log_sensitivity(ratio, kEta, kBeta);
    num.push_back(o), dens.push_back(den);
    obs.push_back({ratio(kEta, kBeta, 1.0), 0.0, d.eta, d.beta, d.lambda, 0.0});  // se: below
  };
  auto smooth = [&](int i, std::size_t o0) {
    return std::abs(run->predict_at(kEta, kBeta, lh[i], i, kT0).first) >
           z_two_sided(1e-9) * se[static_cast<Eigen::Index>(o0)];
  };
  for (int i = 0; i < n; ++i) {
    const std::size_t o0 = cp0 * n + static_cast<std::size_t>(i);
    if (!smooth(i, o0)) continue;
    const auto shown = std::find(buffer.shown.begin(), buffer.shown.end(), i);
    std::vector<std::size_t> den{o0};
    std::vector<int> den_t{kT0};
    if (shown != buffer.shown.end()) {
      const std::size_t base = n_cp * n + static_cast<std::size_t>(shown - buffer.shown.begin()) * T;
      den.clear(), den_t.clear();
      for (int t = kT0 - kPlateau + 1; t <= kT0; ++t) den.push_back(base + (t - 1)), den_t.push_back(t);
      for (int t = 1; t < kT0; ++t)
        if (std::find(kCheckpoints.begin(), kCheckpoints.end(), t) == kCheckpoints.end())  // a checkpoint's: below
          add_ratio(i, t, base + (t - 1), den, den_t);
    }
    for (std::size_t cp = 0; cp < cp0; ++cp) add_ratio(i, kCheckpoints[cp], cp * n + static_cast<std::size_t>(i), den, den_t);
  }
  const std::size_t k = num.size();
  std::vector<std::size_t> idx = num, first(k);
  for (std::size_t j = 0; j < k; ++j) first[j] = idx.size(), idx.insert(idx.end(), dens[j].begin(), dens[j].end());
  std::vector<std::size_t> count(k);
  for (std::size_t j = 0; j < k; ++j) count[j] = dens[j].size();
  add_with_jackknife_weights(pooled, Jackknife(buffer.res.groups), std::move(idx), std::move(obs),
                             [k, first, count](const Vec& v, double* out) {
                               for (std::size_t j = 0; j < k; ++j) {
                                 double m = 0;
                                 for (std::size_t q = 0; q < count[j]; ++q) m += v[static_cast<Eigen::Index>(first[j] + q)];
                                 out[j] = v[static_cast<Eigen::Index>(j)] / (m / double(count[j]));
                               }
                             });
}

void add_pooled_local_rates(PooledRecovery& pooled, const Vec& lh, const LocalRates& local) {
  const int n = static_cast<int>(lh.size());
  for (const ArmResult& ar : local.arms) {
    if (!(ar.arm.soft && ar.arm.checked)) continue;
    std::vector<std::size_t> moments;
    std::vector<PooledObservable> dets;
    for (int i = 0; i < n; ++i) {
      for (int q = 0; q < kMapMoments; ++q) moments.push_back(ar.pair.mom(i, q));
      const double ki = local.k[i], alpha = ar.alpha, l = lh[i];
      const auto det = [ki, alpha, l](double e, double b, double sc) {
        return theory::iter_matrix_ak(alpha, e * ki, theory::beta_tilde(b, e, sc * l)).determinant();
      };
      const LogSensitivity<double> d = log_sensitivity(det, kEta, kBeta);
      dets.push_back({det(kEta, kBeta, 1.0), 0.0, d.eta, d.beta, d.lambda, 0.0});  // se: below
    }
    add_with_jackknife_weights(pooled, Jackknife(ar.res.groups), std::move(moments), std::move(dets),
                               [n](const Vec& v, double* out) {
                                 for (int i = 0; i < n; ++i)
                                   out[i] = fitted_map(v.data() + static_cast<std::ptrdiff_t>(i) * kMapMoments).determinant();
                               });
  }
}

}  // namespace akm::exp::t10
