// phase — closed-form maps over two of (η, β, α): one metric per grid point, from the iteration
// matrices of the AK and EMA buffers (include/akm/theory/phase.hpp). The options are parsed in
// phase_options.cpp, the E1 second-moment radii computed in phase_second_moment.cpp.
#include "akm/theory/phase.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "akm/base/thread_pool.hpp"

namespace akm::phase {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Per-direction inputs of the closed forms for one key [eq:iter-matrices].
struct Dir {
  double lam;    ///< λ_i of Σ (the EMA coupling uses it: the EMA buffer sees the raw gradient)
  double lamk;   ///< λ_i (raw) or λ̂_i (normalized): what the AK buffer forgets by
  double gain;   ///< λ_i (raw) or κ_i (normalized): coupling c = η·gain
};

double rho_ak(double alpha_or_nan, double eta, double beta, const Dir& d) {
  const double bt = theory::beta_tilde(beta, eta, d.lamk);
  if (std::isnan(alpha_or_nan)) return theory::min_alpha_rho(bt);  // tuned α [lem:loss-free-det]
  return theory::spectral_radius(theory::iter_matrix_ak(alpha_or_nan, eta * d.gain, bt));
}

double rho_ema(double alpha_or_nan, double beta, const Dir& d) {
  if (std::isnan(alpha_or_nan)) return theory::min_alpha_rho(beta);
  return theory::spectral_radius(theory::iter_matrix_ema(alpha_or_nan, beta, d.lam));
}

/// Steps-to-ε ratio EMA/AK = ln ρ^AK / ln ρ^EMA (both rates in (0,1)); NaN otherwise.
double steps_ratio(double r_ak, double r_ema) {
  if (!(r_ak > 0 && r_ak < 1 && r_ema > 0 && r_ema < 1)) return kNaN;
  return std::log(r_ak) / std::log(r_ema);
}

}  // namespace

Model make_model(const Spectrum& s, bool with_fourth) {
  Model m{s, gaussian_key_moments(s.lambda, with_fourth), with_fourth, equal_groups(s.lambda)};
  return m;
}

std::vector<std::string> column_names(const Options& o) {
  const bool all = o.direction < 0;
  switch (o.metric) {
    case Metric::stable:
      return all ? std::vector<std::string>{"max_abs_beta_tilde", "stable"}
                 : std::vector<std::string>{"abs_beta_tilde", "stable"};
    case Metric::ms_stable:
      return {"ms_radius", "ms_stable", "max_abs_beta_tilde"};
    case Metric::rho_ratio:
      return all ? std::vector<std::string>{"rho_ratio_worst", "rho_ratio_mean", "rho_ak_max", "rho_ema_max"}
                 : std::vector<std::string>{"rho_ratio", "rho_ak", "rho_ema"};
    case Metric::underdamped:
      return all ? std::vector<std::string>{"underdamped_fraction"}
                 : std::vector<std::string>{"underdamped", "alpha_c", "band_lo", "band_hi"};
    case Metric::speedup:
      return all ? std::vector<std::string>{"horizon_ratio_min", "horizon_ratio_mean", "steps_ratio"}
                 : std::vector<std::string>{"horizon_ratio", "steps_ratio"};
    case Metric::counterexample:
      return all ? std::vector<std::string>{"counterexample_fraction", "max_rho_ak_minus_ema"}
                 : std::vector<std::string>{"counterexample", "rho_ak_minus_ema"};
  }
  return {};
}

std::vector<double> evaluate(const Options& o, const Model& model, double eta, double beta,
                             std::optional<double> alpha_opt) {
  const KeyMoments& km = model.moments;
  const int n = static_cast<int>(km.lambda.size());
  const double alpha = alpha_opt ? *alpha_opt : kNaN;
  auto dir = [&](int i) {
    return o.key == Key::raw ? Dir{km.lambda[i], km.lambda[i], km.lambda[i]}
                             : Dir{km.lambda[i], km.lambda_hat[i], km.kappa[i]};
  };
  const int lo = o.direction < 0 ? 0 : o.direction, hi = o.direction < 0 ? n : o.direction + 1;
  const double cnt = hi - lo;
  switch (o.metric) {
    case Metric::stable: {
      // Expectation contraction: |β̃_i| < 1 for every direction [lem:transport].
      double worst = 0;
      for (int i = lo; i < hi; ++i) worst = std::max(worst, std::abs(theory::beta_tilde(beta, eta, dir(i).lamk)));
      return {worst, worst < 1.0 ? 1.0 : 0.0};
    }
    case Metric::ms_stable: {
      double worst = 0;
      for (int i = 0; i < n; ++i) worst = std::max(worst, std::abs(theory::beta_tilde(beta, eta, dir(i).lamk)));
      double r;
      if (o.key == Key::raw) {
        r = ms_radius_raw(km.lambda, beta, eta);
      } else {
        if (!model.has_fourth) throw std::logic_error("phase: ms_stable needs Q (make_model with_fourth)");
        r = ms_radius_normalized(km.lambda_hat, km.fourth, model.groups, beta, eta);
      }
      return {r, r < 1.0 ? 1.0 : 0.0, worst};
    }
    case Metric::rho_ratio: {
      if (o.direction >= 0) {
        const double a = rho_ak(alpha, eta, beta, dir(lo)), e = rho_ema(alpha, beta, dir(lo));
        return {a / e, a, e};
      }
      double worst = 0, mean = 0, amax = 0, emax = 0;
      for (int i = lo; i < hi; ++i) {
        const double a = rho_ak(alpha, eta, beta, dir(i)), e = rho_ema(alpha, beta, dir(i));
        worst = std::max(worst, a / e);
        mean += a / e / cnt;
        amax = std::max(amax, a);
        emax = std::max(emax, e);
      }
      return {worst, mean, amax, emax};
    }
    case Metric::underdamped: {
      // αc ∈ ((1−√β̃)², (1+√β̃)²) [eq:underdamped-cond, rem:underdamped-typicality].
      double frac = 0;
      double ac = 0, blo = kNaN, bhi = kNaN;
      for (int i = lo; i < hi; ++i) {
        const Dir d = dir(i);
        const auto band = theory::underdamped_band(theory::beta_tilde(beta, eta, d.lamk));
        ac = alpha * eta * d.gain;
        if (band) blo = band->first, bhi = band->second;
        else blo = bhi = kNaN;
        if (band && band->first < ac && ac < band->second) frac += 1.0 / cnt;
      }
      if (o.direction >= 0) return {frac, ac, blo, bhi};
      return {frac};
    }
    case Metric::speedup: {
      // Horizon ratio τ^EMA/τ^AK = 1 + ηλ_i/(1−β) [eq:ratio]; steps-to-ε from the rates.
      double hmin = std::numeric_limits<double>::infinity(), hmean = 0, amax = 0, emax = 0;
      for (int i = lo; i < hi; ++i) {
        const Dir d = dir(i);
        const double h = 1.0 + theory::ratio_r(beta, eta, d.lamk);
        hmin = std::min(hmin, h);
        hmean += h / cnt;
        amax = std::max(amax, rho_ak(alpha, eta, beta, d));
        emax = std::max(emax, rho_ema(alpha, beta, d));
      }
      if (o.direction >= 0) return {hmin, steps_ratio(amax, emax)};
      return {hmin, hmean, steps_ratio(amax, emax)};
    }
    case Metric::counterexample: {
      // The overdamped caveat of T4: at fixed α a smaller determinant can give a larger ρ.
      double frac = 0, worst = -std::numeric_limits<double>::infinity();
      for (int i = lo; i < hi; ++i) {
        const double diff = rho_ak(alpha, eta, beta, dir(i)) - rho_ema(alpha, beta, dir(i));
        if (diff > 0) frac += 1.0 / cnt;
        worst = std::max(worst, diff);
      }
      return {frac, worst};
    }
  }
  return {};
}

Map compute(const Options& o, const Model& model, int threads) {
  validate(o, model.spectrum.n());
  if (o.metric == Metric::ms_stable && o.key == Key::normalized && !model.has_fourth)
    throw std::logic_error("phase: ms_stable with the normalized key needs Q");
  const auto t0 = std::chrono::steady_clock::now();
  Map map;
  map.opts = o;
  map.names = column_names(o);
  const std::size_t total = static_cast<std::size_t>(o.x.n) * o.y.n;
  map.points.resize(total);
  auto work = [&](std::size_t k) {
    const int ix = static_cast<int>(k % o.x.n), iy = static_cast<int>(k / o.x.n);
    double eta = o.eta, beta = o.beta;
    std::optional<double> alpha = o.alpha;
    for (const auto& [ax, v] : {std::pair{&o.x, o.x.value(ix)}, std::pair{&o.y, o.y.value(iy)}}) {
      if (ax->param == Param::eta) eta = v;
      if (ax->param == Param::beta) beta = v;
      if (ax->param == Param::alpha) alpha = v;
    }
    map.points[k] = Point{eta, beta, alpha ? *alpha : kNaN, evaluate(o, model, eta, beta, alpha)};
  };
  // Each point writes its own slot. threads ≤ 0 means one worker here (callers resolve 0).
  parallel_for(0, total, std::max(1, threads), work, 64);
  map.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return map;
}

}  // namespace akm::phase
