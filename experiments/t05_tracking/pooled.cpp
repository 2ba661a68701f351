// T5 tracking, the pooled recovery: every post-shift lag k = 1..kPost of every rule and
// direction of one scenario, with the sensitivities of the same closed forms (theory/tracking.hpp).
// k = 0 is left out: the offset at the shift is set by the pre-shift transient and M*_1 (T1's
// claim), not by the post-shift rates this claim is about.
#include "t05_tracking.hpp"

namespace akm::exp::t05 {

void add_pooled(PooledRecovery& pooled, const Model& md, const Scenario& S, const Measured& m) {
  const int n = md.post.n();
  std::vector<std::size_t> idx;
  std::vector<PooledObservable> terms;
  for (int r = 0; r < kRules; ++r) {
    // β̃_i^k y0_i for k = 1..kPost (rows), one column per direction. EMA's rate is β alone:
    // its η and λ derivatives are held at 0, as its checks annotate them (model.cpp).
    const bool ema = r == kEma;
    const double eta = ema ? 1.0 : md.eta(r);
    auto trajectory = [&](double e, double b, double sc) {
      const auto t = theory::tracking_prediction(make_shift(md, S.Q, b, ema ? 1.0 : sc), static_cast<BufferKind>(r),
                                                 ema ? md.eta(r) : e);
      Mat out(kPost, n);
      for (int k = 1; k <= kPost; ++k)
        for (int i = 0; i < n; ++i) out(k - 1, i) = std::pow(t.rate[i], k) * t.y0[i];
      return out;
    };
    const Mat p = trajectory(eta, kBeta, 1.0);
    const LogSensitivity<Mat> d = log_sensitivity(trajectory, eta, kBeta);
    for (int k = 1; k <= kPost; ++k)
      for (int i = 0; i < n; ++i) {
        const std::size_t o = obs(n, r, k, i);
        idx.push_back(o);
        terms.push_back({p(k - 1, i), m.se[static_cast<Eigen::Index>(o)], d.eta(k - 1, i), d.beta(k - 1, i),
                       d.lambda(k - 1, i), 0.0});
      }
  }
  pooled.add_means(Jackknife(m.res.groups), std::move(idx), std::move(terms));
}

}  // namespace akm::exp::t05
