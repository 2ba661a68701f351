// T7 stability — the model: the Monte-Carlo run of one (law, arm, scale) on
// ops::transport_product, the mean log determinant factor of the raw path bound, the family
// summaries, and the exact standard errors of the normalized transport (header of claim.cpp).
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include <Eigen/Eigenvalues>

#include "akm/sim/ops/transport_product.hpp"
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

McResult simulate(ExperimentContext& ctx, const KeySampler& law, const Arm& arm, double s,
                  std::uint64_t seed, long long R) {
  const int n = law.n();
  const Layout L{n};
  // The product P_T on ops::transport_product: the law's keys in its own coordinates (trial t on
  // the stream (seed, t, keys)), multiplied by s, the lag diagonals up to the last of kLags, and
  // the path norms: log‖P_T‖_op (the product rescaled past the lags when it leaves range) and
  // the determinant bound (1/n)Σ_t log|det(βI − ηk_tk_tᵀ)|.
  ops::TransportProduct op;
  op.sqrt_lambda = law.lambda().cwiseSqrt();  // sizes the op; the law draws the keys
  op.second_moment = Vec::Zero(n);  // centres the control variates, which T7 does not read
  op.key = arm.key;
  op.beta = kBeta;
  op.eta = arm.eta;
  op.key_scale = s;
  op.steps = kSteps;
  op.lags = kLags.back();
  op.full_lags = {};
  op.path_norms = true;
  op.law_keys.law = std::make_shared<const KeySampler>(law);
  const ops::TransportProductLayout P = op.layout();
  // A key law and the path norms have reference and cpu paths: on another backend T7 runs the cpu.
  const Backend b = ctx.backend_for(ops::transport_product_has(ctx.opts.backend, op));
  const double q = std::max(kBeta, std::abs(kBeta - arm.eta));  // sure per-step bound (normalized)
  // Raw Rademacher keys: ‖x‖² = tr Σ on every sample, so ‖βI − ηs²xxᵀ‖ = max(β, |β − ηs² tr Σ|).
  const double q_rad = std::max(kBeta, std::abs(kBeta - arm.eta * s * s * law.lambda().sum()));
  const bool rademacher = law.law().kind == "rademacher";
  // T7's record of a trial, a function of the op's row p.
  auto record = [&](const double* p, double* out) {
    for (std::size_t l = 0; l < kLags.size(); ++l)
      for (int i = 0; i < n; ++i) out[L.diag(l, i)] = p[P.diag(kLags[l], i)];
    for (int i = 0; i < n; ++i) out[L.diag_sq(i)] = p[P.diag(1, i)] * p[P.diag(1, i)];
    const double log_norm = p[P.log_norm()], bound = p[P.log_det()];
    out[L.log_norm()] = log_norm;
    if (arm.key == Key::raw) {
      // ‖P_T‖ ≥ |det P_T|^{1/n}, up to rounding of the two logarithms.
      out[L.violation()] = log_norm < bound - 1e-9 * std::max(1.0, std::abs(bound)) ? 1.0 : 0.0;
      out[L.det_bound()] = bound;
      out[L.sure_violation()] =
          rademacher && log_norm > kSteps * std::log(q_rad) + 1e-12 * std::max(1.0, kSteps * std::abs(std::log(q_rad))) ? 1.0 : 0.0;
    } else {
      out[L.violation()] = log_norm > kSteps * std::log(q) + 1e-12 ? 1.0 : 0.0;
      out[L.det_bound()] = 0.0;
      out[L.sure_violation()] = 0.0;
    }
  };
  auto rows = [&](long long first, long long count, int threads, double* out) {
    std::vector<double> p(std::size_t(count) * P.size());
    ops::transport_product_rows(op, seed, b, first, count, threads, p.data());
    for (long long j = 0; j < count; ++j) record(p.data() + std::size_t(j) * P.size(), out + std::size_t(j) * L.size());
  };
  return monte_carlo_rows(ctx.mc(R, fmt::format("T7 {} {} s={:g}", law_name(law), arm.name(), s)), L.size(), rows);
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
