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

std::vector<double> raw_scales() {
  std::vector<double> s = scales(false);
  for (double u : kWindowFrac) s.push_back(std::sqrt(u / kRawFrac));
  std::sort(s.begin(), s.end());
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
  // Raw Rademacher keys: ‖x‖² = tr Σ on every sample, so ‖βI − ηs²xxᵀ‖ = max(β, |β − ηs² tr Σ|).
  const double q_rad = std::max(kBeta, std::abs(kBeta - arm.eta * s * s * law.lambda().sum()));
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
      if (t == 1)
        for (int i = 0; i < n; ++i) out[L.diag_sq(i)] = P(i, i) * P(i, i);
    }
    const double mx = P.cwiseAbs().maxCoeff();
    const double log_norm = log_scale + std::log(mx) + std::log(op_norm(P / mx));
    out[L.log_norm()] = log_norm;
    if (arm.key == Key::raw) {
      // ‖P_T‖ ≥ |det P_T|^{1/n}, up to rounding of the two logarithms.
      out[L.violation()] = log_norm < bound - 1e-9 * std::max(1.0, std::abs(bound)) ? 1.0 : 0.0;
      out[L.det_bound()] = bound;
      out[L.sure_violation()] =
          law.law().kind == "rademacher" && log_norm > kSteps * std::log(q_rad) + 1e-12 * std::max(1.0, kSteps * std::abs(std::log(q_rad))) ? 1.0 : 0.0;
    } else {
      out[L.violation()] = log_norm > kSteps * std::log(q) + 1e-12 ? 1.0 : 0.0;
      out[L.det_bound()] = 0.0;
      out[L.sure_violation()] = 0.0;
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

// The second-moment map of a pushed row (header of claim.cpp):
// A = diag(β² − 2βη lam) + η²Q.
Mat second_moment_map(const Vec& lam, const Mat& Q, double eta) {
  Mat A = eta * eta * Q;
  A.diagonal().array() += kBeta * kBeta - 2.0 * kBeta * eta * lam.array();
  return A;
}

// Exact standard errors of the transport E[u_iᵀP_ku_i] over R trials (header):
// Var = (A^k)_ii − β̃_i^{2k}. With B = diag(β̃²), A = B + η²E, E = Q − diag(lam²) ≥ 0
// entrywise, the difference telescopes, A^k − B^k = Σ_j A^j η²E B^{k−1−j}, into terms ≥ 0:
// Var_i = η² Σ_j β̃_i^{2(k−1−j)} (A^jE)_ii, with no cancellation where Var ≪ β̃_i^{2k}.
Vec exact_transport_se(const Vec& lam, const Mat& Q, double eta, int k, long long R) {
  const Mat A = second_moment_map(lam, Q, eta);
  const Eigen::Index n = lam.size();
  Mat E = Q;
  E.diagonal() -= lam.cwiseProduct(lam);
  const Vec bt2 = (kBeta - eta * lam.array()).square().matrix();
  Vec var = Vec::Zero(n);
  Mat Aj = Mat::Identity(n, n);
  for (int j = 0; j < k; ++j) {
    const Vec d = (Aj * E).diagonal();
    for (Eigen::Index i = 0; i < n; ++i) var[i] += std::pow(bt2[i], k - 1 - j) * d[i];
    Aj = Aj * A;
  }
  Vec se(n);
  for (Eigen::Index i = 0; i < n; ++i) se[i] = std::sqrt(std::max(eta * eta * var[i], 0.0) / static_cast<double>(R));
  return se;
}

double spectral_radius(const Mat& A) {
  const Eigen::SelfAdjointEigenSolver<Mat> es(A, Eigen::EigenvaluesOnly);
  return es.eigenvalues().cwiseAbs().maxCoeff();
}

// Per coordinate, a Gaussian key law is a mixture of centred normals (one component for
// "gaussian"), x_i ~ N(0, v_ci) with weight w_c: E x_i^{2p} = Σ_c w_c v_ci^p (2p−1)!! and,
// the coordinates of a component being independent, E[x_a²x_j²] = Σ_c w_c v_ca v_cj (1 + 2δ_aj).
// Rademacher keys have x_i² = λ_i on every sample.
RawMoments raw_moments(const KeySampler& law) {
  const KeyLaw& kl = law.law();
  const Vec& lam = law.lambda();
  const Eigen::Index n = lam.size();
  RawMoments m;
  if (kl.kind == "student") return m;  // ν = 3: E x⁴ = ∞
  m.finite = true;
  m.Q = Mat::Zero(n, n);
  m.even = Mat::Zero(n, 5);
  if (kl.kind == "rademacher") {
    m.Q = lam * lam.transpose();
    for (int p = 0; p <= 4; ++p) m.even.col(p) = lam.array().pow(p).matrix();
    return m;
  }
  std::vector<std::pair<double, Vec>> comps;  // (weight, per-coordinate variance)
  if (kl.kind == "gaussian") {
    comps.push_back({1.0, lam});
  } else {
    for (std::size_t c = 0; c < kl.weights.size(); ++c) {
      if (kl.bases[c] != "identity" && kl.bases[c] != "reverse")
        throw std::logic_error("raw_moments: a rotated mixture component is not diagonal");
      const Vec v = kl.bases[c] == "identity" ? lam : Vec(lam.reverse());
      comps.push_back({kl.weights[c], kl.scales[c] * kl.scales[c] * v});
    }
  }
  const double dfact[5] = {1, 1, 3, 15, 105};  // (2p−1)!!
  for (const auto& [w, v] : comps) {
    Mat q = v * v.transpose();
    q.diagonal() *= 3.0;
    m.Q += w * q;
    for (int p = 0; p <= 4; ++p) m.even.col(p) += w * dfact[p] * v.array().pow(p).matrix();
  }
  return m;
}

double mean_square_threshold(const RawMoments& m, const Vec& cov) {
  const double lmax = cov.maxCoeff();
  const auto rho = [&](double u) { return spectral_radius(second_moment_map(cov, m.Q, u / lmax)); };
  double lo = 0.0, hi = 0.0;
  for (double u = 0.01; u <= 10.0 + 1e-9; u += 0.01)
    if (rho(u) >= 1.0) {
      hi = u;
      break;
    } else {
      lo = u;
    }
  if (hi == 0.0) return std::numeric_limits<double>::infinity();
  for (int it = 0; it < 50; ++it) {
    const double mid = 0.5 * (lo + hi);
    (rho(mid) < 1.0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace akm::exp::t07
