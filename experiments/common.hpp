// Shared scaffolding of the core experiments: the spectra they run on, the exact
// Gaussian-key moments, parameter records and small numeric helpers.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "akm/base/seed.hpp"
#include "akm/experiments/experiment.hpp"
#include "akm/report/figure_styles.hpp"
#include "akm/rules/buffer_kind.hpp"
#include "akm/spectrum/moments.hpp"
#include "akm/random/random.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/theory.hpp"

namespace akm::exp {

/// Anisotropic spectra used by the core checks: n = 32, spikes and power law both spanning
/// more than two decades (n ≥ 32 and several spikes spanning ≥ 2 decades).
inline const char* kSpiked = "spiked:n=32,spikes=100/30/10/3,floor=0.5";
inline const char* kPower = "power:n=32,exp=1.5";

/// β of the simulated claims: the lower end of the range β ∈ [0.9, 1) the paper operates in
/// [app:setup]. One value for every experiment; each records it in its params.
inline constexpr double kBeta = 0.9;

/// A covariance model with its exact Gaussian-key moments.
struct Setting {
  std::string name;  ///< "spiked" | "power" | …
  Spectrum spectrum;
  KeyMoments moments;
  Vec sqrt_lambda;
  int n() const { return spectrum.n(); }
  /// The eigenvalue the AK buffer contracts with: λ_i (raw) or λ̂_i (normalized).
  double lam(Key key, int i) const {
    return key == Key::raw ? spectrum.lambda[i] : moments.lambda_hat[i];
  }
  /// Per-direction size of the injected gradient Ḡu_i/A u_i = λ_i (raw) or Ĝu_i/Au_i = κ_i.
  double gain(Key key, int i) const {
    return key == Key::raw ? spectrum.lambda[i] : moments.kappa[i];
  }
};

inline Setting make_setting(const std::string& name, const std::string& spec, std::uint64_t seed,
                            bool fourth = false) {
  Setting s{name, parse_spectrum(spec, seed), {}, {}};
  s.moments = gaussian_key_moments(s.spectrum.lambda, fourth);
  s.sqrt_lambda = s.spectrum.lambda.array().sqrt().matrix();
  return s;
}

inline std::vector<double> to_std(const Vec& v) { return {v.data(), v.data() + v.size()}; }

/// Everything needed to recompute predictions that depend on the spectrum.
inline nlohmann::json setting_params(const Setting& s) {
  return {{"spec", s.spectrum.spec},
          {"lambda", to_std(s.spectrum.lambda)},
          {"lambda_hat", to_std(s.moments.lambda_hat)},
          {"kappa", to_std(s.moments.kappa)}};
}

/// Trials in full and --quick mode (quick keeps every check, fewer trials), times the run's
/// --trials-scale K: every tolerance and power follows from the standard errors, so K trials
/// more resolve √K times finer with the same false-alarm rate.
inline long long trials(const ExperimentContext& ctx, long long full, long long quick) {
  ctx.trials_scaled = true;
  return (ctx.opts.quick ? quick : full) * ctx.opts.trials_scale;
}

/// Raw-key η that keeps β̃ = β − ηλ_max at β − `frac`: the raw rule needs η < β/λ_max
/// [thm:unconditional-stability], so its η is set per spectrum.
inline double raw_eta(const Setting& s, double frac) { return frac / s.spectrum.lambda.maxCoeff(); }

/// Directions shown in per-direction figures: first few spikes, a middle one, the last.
inline std::vector<int> shown_directions(int n) {
  std::vector<int> d{0, 1, 2, 3, n / 2, n - 1};
  d.erase(std::remove_if(d.begin(), d.end(), [n](int i) { return i >= n; }), d.end());
  return d;
}

inline std::string dir_name(int i) { return fmt::format("u{}", i + 1); }

}  // namespace akm::exp

namespace akm::exp {

/// A fixed m×n value map A (δ = Ax + ξ) drawn from the seed, entries N(0,1).
inline Mat value_map(int m, int n, std::uint64_t seed) {
  Stream s(seed, 0, Purpose::init);
  Mat A(m, n);
  for (int j = 0; j < n; ++j)
    for (int r = 0; r < m; ++r) A(r, j) = s.normal();
  return A;
}

}  // namespace akm::exp
