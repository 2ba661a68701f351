// T7 stability — the model: the Monte-Carlo run of one (law, arm, scale), the mean log
// determinant factor of the raw path bound, the family summaries, and the exact standard
// errors of the normalized transport (header of claim.cpp).
#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "akm/rules/kernels.hpp"
#include "t07_stability.hpp"

namespace akm::exp::t07 {

std::vector<double> scales(bool decades_only) {
  std::vector<double> s;
  for (int e = -6; e <= 6; ++e)
    if (!decades_only || e % 2 == 0) s.push_back(std::pow(10.0, e / 2.0));
  return s;
}

double op_norm(const Mat& P) {
  const Eigen::SelfAdjointEigenSolver<Mat> es(P.transpose() * P, Eigen::EigenvaluesOnly);
  return std::sqrt(std::max(es.eigenvalues().maxCoeff(), 0.0));
}

McResult simulate(ExperimentContext& ctx, const KeySampler& law, const Arm& arm, double s,
                  std::uint64_t seed, long long R) {
  const int n = law.n();
  const Layout L{n};
  const double q = std::max(kBeta, std::abs(kBeta - arm.eta));  // sure per-step bound (normalized)
  auto kernel = [&](long long trial, double* out) {
    Stream keys(seed, static_cast<std::uint64_t>(trial), Purpose::keys);
    Mat P = Mat::Identity(n, n);
    Vec x(n), w(n), k(n), r(n);
    double log_scale = 0.0, bound = 0.0;
    std::size_t l = 0;
    for (int t = 1; t <= kSteps; ++t) {
      law.draw(keys, x, w);
      x *= s;
      kern::key_for(arm.key, x, k);
      kern::transport_step(P, k, kBeta, arm.eta, r);
      if (arm.key == Key::raw) {
        bound += ((n - 1) * std::log(kBeta) + std::log(std::abs(kBeta - arm.eta * x.squaredNorm()))) / n;
        // Keep the raw product representable: P = e^{log_scale}·P after the recorded lags.
        const double mx = P.cwiseAbs().maxCoeff();
        if (t > kLags.back() && mx > 1e100) P /= mx, log_scale += std::log(mx);
      }
      if (l < kLags.size() && t == kLags[l]) {
        for (int i = 0; i < n; ++i) out[L.diag(l, i)] = P(i, i);
        ++l;
      }
    }
    const double mx = P.cwiseAbs().maxCoeff();
    const double log_norm = log_scale + std::log(mx) + std::log(op_norm(P / mx));
    out[L.log_norm()] = log_norm;
    if (arm.key == Key::raw) {
      // ‖P_T‖ ≥ |det P_T|^{1/n}, up to rounding of the two logarithms.
      out[L.violation()] = log_norm < bound - 1e-9 * std::max(1.0, std::abs(bound)) ? 1.0 : 0.0;
      out[L.det_bound()] = bound;
    } else {
      out[L.violation()] = log_norm > kSteps * std::log(q) + 1e-12 ? 1.0 : 0.0;
      out[L.det_bound()] = 0.0;
    }
  };
  return monte_carlo(ctx.mc(R, fmt::format("T7 {} {} s={:g}", law_name(law), arm.name(), s)), L.size(), kernel);
}

// E log|β − c‖x‖²| for each c, from a separately seeded sample of ‖x‖²: {mean, se}.
std::vector<std::pair<double, double>> mean_log_det_factor(const KeySampler& law, const std::vector<double>& c,
                                                           std::uint64_t seed) {
  Stream st(seed, 0, Purpose::aux);
  Vec x(law.n()), w(law.n());
  std::vector<double> sum(c.size(), 0.0), sq(c.size(), 0.0);
  for (long long t = 0; t < kPredSamples; ++t) {
    law.draw(st, x, w);
    const double q = x.squaredNorm();
    for (std::size_t j = 0; j < c.size(); ++j) {
      const double v = std::log(std::abs(kBeta - c[j] * q));
      sum[j] += v, sq[j] += v * v;
    }
  }
  std::vector<std::pair<double, double>> out;
  const double N = static_cast<double>(kPredSamples);
  for (std::size_t j = 0; j < c.size(); ++j) {
    const double m = sum[j] / N;
    out.push_back({m, std::sqrt(std::max(sq[j] / N - m * m, 0.0) / (N - 1))});
  }
  return out;
}

// Worst summary of n per-direction comparisons with per-direction predictive errors; the
// worst is the largest skew-corrected deviation (include/akm/check/check.hpp). Returns the
// index of the direction the check reports (its alternative and sensitivity are that one's).
Eigen::Index family(ExperimentContext& ctx, const std::string& name, const Vec& pred, const Vec& pred_se,
                    const std::vector<MeanEstimate>& est) {
  double worst = -1;
  Eigen::Index w = 0;
  for (Eigen::Index i = 0; i < pred.size(); ++i) {
    const MeanEstimate& e = est[static_cast<std::size_t>(i)];
    const double diff = e.mean - pred[i], slack = rounding(pred[i]);
    const double shrunk = diff > 0 ? std::max(diff - slack, 0.0) : std::min(diff + slack, 0.0);
    const double z = std::abs(corrected_deviation(shrunk, std::hypot(e.se, pred_se[i]) + 1e-300, e));
    if (z > worst) worst = z, w = i;
  }
  ctx.checks.mc_family(name, pred[w], est[static_cast<std::size_t>(w)], pred.size(), pred_se[w], rounding(pred[w]));
  return w;
}

// Means with sample errors from a large moment Monte Carlo (skewness not tracked there;
// ~10⁵ samples make it negligible).
std::vector<MeanEstimate> estimates(const Vec& mean, const Vec& se) {
  std::vector<MeanEstimate> out;
  for (Eigen::Index i = 0; i < mean.size(); ++i) out.push_back({mean[i], se[i]});
  return out;
}

// Exact standard errors of the normalized transport E[u_iᵀP_ku_i] over R trials (header):
// Var = (A^k)_ii − β̃_i^{2k}, A = β²I − 2βη diag(λ̂) + η²Q.
Vec exact_transport_se(const KeyLawMoments& m, double eta, int k, long long R) {
  const Vec lh = m.lambda_hat();
  const Eigen::Index n = lh.size();
  Mat A = eta * eta * m.fourth;
  A.diagonal().array() += kBeta * kBeta - 2.0 * kBeta * eta * lh.array();
  Mat Ak = Mat::Identity(n, n);
  for (int t = 0; t < k; ++t) Ak = Ak * A;
  Vec se(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double mean = std::pow(kBeta - eta * lh[i], k);
    se[i] = std::sqrt(std::max(Ak(i, i) - mean * mean, 0.0) / static_cast<double>(R));
  }
  return se;
}

}  // namespace akm::exp::t07
