// theory/direction_table — every closed form of akm/theory/theory.hpp evaluated per direction.
#include "akm/theory/direction_table.hpp"

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/spectrum/moments.hpp"

namespace akm {

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

TheoryReport make_theory_report(const TheoryInputs& in, const Spectrum& spectrum) {
  const double beta = in.beta, eta = in.eta, alpha = in.alpha;
  const Key key = in.key;
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

// Normalized key: ‖βI − ηx̂x̂ᵀ‖ = max(β, |β−η|), so η < 1+β contracts surely
// [thm:unconditional-stability]; raw key: η·λ_max < 1+β in expectation (T7).
void require_contraction(double beta, double eta, Key key, const Spectrum& s) {
  const double bound = 1.0 + beta;
  if (key == Key::normalized && !(eta < bound))
    throw InputError("eta", show(eta),
                     fmt::format("must be < 1 + beta = {} for the normalized key to contract "
                                 "(thm:unconditional-stability)", show(bound)));
  const double lmax = s.lambda.maxCoeff();
  if (key == Key::raw && !(eta * lmax < bound))
    throw InputError("eta", show(eta),
                     fmt::format("must be < (1 + beta)/lambda_max = {} for the raw key to "
                                 "contract in expectation (lambda_max = {})",
                                 show(bound / lmax), show(lmax)));
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
