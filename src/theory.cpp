// theory — the closed forms of THEOREMS.md T1–T8 and f(γ) of T14. No randomness.
#include "akm/theory.hpp"

#include <cmath>
#include <limits>

#include "akm/errors.hpp"
#include "akm/moments.hpp"

namespace akm {

Key parse_key(const std::string& s) {
  if (s == "raw") return Key::raw;
  if (s == "normalized") return Key::normalized;
  throw InputError("key", s, "must be raw or normalized");
}

std::string to_string(Key k) { return k == Key::raw ? "raw" : "normalized"; }

namespace theory {

double mu(double beta, double eta) { return (1.0 - beta) / eta; }  // [eq:dm-eigen]

double beta_tilde(double beta, double eta, double lam) { return beta - eta * lam; }

double horizon(double beta_tilde) { return 1.0 / (1.0 - beta_tilde); }  // [eq:horizon]

double phi(double mu, double lam) { return 1.0 / (mu + lam); }

double ratio_r(double beta, double eta, double lam_hat) {
  return eta * lam_hat / (1.0 - beta);  // [eq:ratio]
}

double transient_mean(double target, double beta_tilde, long long t) {
  // E[M_t] − M* = (M_0 − M*) β̃^t with M_0 = 0 [thm:fixedpoint].
  return target * (1.0 - std::pow(beta_tilde, static_cast<double>(t)));
}

Mat2 iter_matrix_ak(double alpha, double c, double beta_tilde) {
  Mat2 A;  // [eq:loss-free-A]
  A << 1.0 - alpha * c, -alpha * beta_tilde, c, beta_tilde;
  return A;
}

Mat2 iter_matrix_ema(double alpha, double beta, double lambda) {
  // The EMA buffer injects (1−β)·(raw gradient), so its coupling is (1−β)λ [eq:iter-matrices].
  const double c = (1.0 - beta) * lambda;
  Mat2 A;
  A << 1.0 - alpha * c, -alpha * beta, c, beta;
  return A;
}

double discriminant(const Mat2& A) {
  const double tr = A.trace();
  return tr * tr - 4.0 * A.determinant();  // [lem:det-bound]
}

double spectral_radius(const Mat2& A) {
  // Eigenvalues (tr ± √disc)/2: a complex pair has modulus √det; a real pair's larger
  // modulus is (|tr| + √disc)/2.
  const double disc = discriminant(A);
  if (disc < 0.0) return std::sqrt(A.determinant());
  return 0.5 * (std::abs(A.trace()) + std::sqrt(disc));
}

std::optional<std::pair<double, double>> underdamped_band(double det) {
  // disc = (1 + det − αc)² − 4det < 0  ⇔  αc ∈ ((1−√det)², (1+√det)²) [eq:underdamped-cond].
  if (!(det > 0.0)) return std::nullopt;
  const double s = std::sqrt(det);
  return std::make_pair((1.0 - s) * (1.0 - s), (1.0 + s) * (1.0 + s));
}

double min_alpha_rho(double det) {
  // [lem:loss-free-det] For det > 0 the minimum √det is attained on the band. For det ≤ 0
  // the eigenvalues are real with product det, and the step αc = 1 + det (tr = 0) gives
  // the smallest radius √|det|.
  return std::sqrt(std::abs(det));
}

double lag_per_unit_drift(double contraction) {
  return contraction / (1.0 - contraction);  // [prop:nc1-main]
}

double cond_ceiling(double beta, double eta) {
  return 1.0 + eta / (1.0 - beta);  // (μ+1)/μ since λ̂ ∈ [0,1] [eq:cond-ceiling]
}

double frobenius_sq(const Vec& w) { return w.squaredNorm(); }

double weighted_mean_contraction(double beta, double eta, const Vec& w) {
  // [eq:weighted-mean] holds only for unit-sum weights; refuse others instead of
  // returning a number that is not the weighted mean.
  const double sum = w.sum();
  if (!(std::abs(sum - 1.0) <= 1e-8)) {
    throw InputError("sum of weights", show(sum), "must be 1 (unit-sum weights)");
  }
  return beta - eta * frobenius_sq(w);
}

double deployed_overhead_f(double gamma) {
  // [thm:deployed-overhead]
  if (!(gamma >= 0.0)) throw InputError("gamma", show(gamma), "must be >= 0");
  if (std::isinf(gamma)) return 4.0 / 18.0;
  return (6.0 + 4.0 * gamma) / (24.0 + 18.0 * gamma);
}

}  // namespace theory

namespace {

/// Key-dependent inputs of one direction: the memory statistic the buffer forgets by and
/// the coupling of the parameter error into the buffer [eq:iter-matrices].
struct KeyStats {
  double forget_lambda;  ///< λ̂_i (normalized) or λ_i (raw)
  double coupling;       ///< ηκ_i (normalized) or ηλ_i (raw)
};

KeyStats key_stats(Key key, double eta, double lam, double lam_hat, double kappa) {
  if (key == Key::normalized) return {lam_hat, eta * kappa};
  return {lam, eta * lam};
}

DirectionTheory direction(double beta, double eta, double alpha, Key key, double mu,
                          double lam, double lam_hat, double kappa) {
  namespace th = theory;
  const KeyStats ks = key_stats(key, eta, lam, lam_hat, kappa);
  DirectionTheory d;
  d.lambda = lam;
  d.lambda_hat = lam_hat;
  d.kappa = kappa;
  d.beta_tilde = th::beta_tilde(beta, eta, ks.forget_lambda);
  d.tau = th::horizon(d.beta_tilde);
  d.phi = th::phi(mu, ks.forget_lambda);
  d.coupling_ak = ks.coupling;
  d.coupling_ema = (1.0 - beta) * lam;
  d.det_ak = d.beta_tilde;  // [thm:detred]
  d.det_ema = beta;
  d.rho_ak = th::spectral_radius(th::iter_matrix_ak(alpha, d.coupling_ak, d.beta_tilde));
  d.rho_ema = th::spectral_radius(th::iter_matrix_ema(alpha, beta, lam));
  d.band = th::underdamped_band(d.beta_tilde);
  const double ac = alpha * d.coupling_ak;
  d.underdamped_ak = d.band && d.band->first < ac && ac < d.band->second;
  d.lag_ak_per_unit_drift = th::lag_per_unit_drift(d.beta_tilde);
  d.lag_ema_per_unit_drift = th::lag_per_unit_drift(beta);
  return d;
}

/// Weights of the weighted-mean contraction: λ̂ for the normalized key, λ/Σλ for the raw.
Vec direction_weights(Key key, const KeyMoments& km) {
  if (key == Key::normalized) return km.lambda_hat;
  return km.lambda / km.lambda.sum();
}

}  // namespace

TheoryReport make_theory_report(double beta, double eta, double alpha, Key key,
                                const Spectrum& spectrum) {
  require_beta(beta);
  require_eta(eta);
  require_alpha(alpha);
  require_at_least("n", spectrum.n(), 1);

  const KeyMoments km = gaussian_key_moments(spectrum.lambda);
  TheoryReport r;
  r.beta = beta;
  r.eta = eta;
  r.alpha = alpha;
  r.key = key;
  r.mu = theory::mu(beta, eta);
  r.cond_ceiling = theory::cond_ceiling(beta, eta);

  const Vec w = direction_weights(key, km);
  r.frobenius_sq = theory::frobenius_sq(w);
  r.weighted_mean_contraction = 0.0;
  for (int i = 0; i < spectrum.n(); ++i) {
    r.directions.push_back(direction(beta, eta, alpha, key, r.mu, km.lambda(i),
                                     km.lambda_hat(i), km.kappa(i)));
    // Summed directly: for the raw key Σ w_i β̃_i is not β − η‖w‖² [eq:weighted-mean].
    r.weighted_mean_contraction += w(i) * r.directions.back().beta_tilde;
  }
  return r;
}

namespace {

nlohmann::json to_json(const DirectionTheory& d) {
  nlohmann::json band = nullptr;
  if (d.band) band = nlohmann::json::array({d.band->first, d.band->second});
  return {{"lambda", d.lambda},
          {"lambda_hat", d.lambda_hat},
          {"kappa", d.kappa},
          {"beta_tilde", d.beta_tilde},
          {"tau", d.tau},
          {"phi", d.phi},
          {"coupling_ak", d.coupling_ak},
          {"coupling_ema", d.coupling_ema},
          {"det_ak", d.det_ak},
          {"det_ema", d.det_ema},
          {"rho_ak", d.rho_ak},
          {"rho_ema", d.rho_ema},
          {"underdamped_ak", d.underdamped_ak},
          {"band", band},
          {"lag_ak_per_unit_drift", d.lag_ak_per_unit_drift},
          {"lag_ema_per_unit_drift", d.lag_ema_per_unit_drift}};
}

}  // namespace

nlohmann::json to_json(const TheoryReport& r) {
  nlohmann::json dirs = nlohmann::json::array();
  for (const auto& d : r.directions) dirs.push_back(to_json(d));
  return {{"beta", r.beta},
          {"eta", r.eta},
          {"alpha", r.alpha},
          {"key", to_string(r.key)},
          {"mu", r.mu},
          {"weighted_mean_contraction", r.weighted_mean_contraction},
          {"frobenius_sq", r.frobenius_sq},
          {"cond_ceiling", r.cond_ceiling},
          {"directions", dirs}};
}

}  // namespace akm
