// phase — closed-form maps over two of (η, β, α); E1 second-moment maps.
#include "akm/theory/phase.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/base/thread_pool.hpp"

namespace akm::phase {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kMaxAxisPoints = 4096;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) return out;
    start = p + 1;
  }
}

double parse_number(const std::string& text, const std::string& param) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    throw InputError(param, text.empty() ? "''" : text, "must be a finite number");
  return v;
}

const char* kGrammar = "must be NAME:LO:HI:N[:log] with NAME in eta, beta, alpha";

// The valid range of one parameter, as the axis bounds must respect it.
void require_in_range(Param p, double v, const std::string& param) {
  switch (p) {
    case Param::beta:
      if (!(v >= 0.0 && v < 1.0)) throw InputError(param, show(v), "beta must be in [0, 1)");
      break;
    case Param::eta:
      if (!(v > 0.0)) throw InputError(param, show(v), "eta must be > 0");
      break;
    case Param::alpha:
      if (!(v > 0.0)) throw InputError(param, show(v), "alpha must be > 0");
      break;
  }
}

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

std::string to_string(Param p) {
  switch (p) {
    case Param::eta: return "eta";
    case Param::beta: return "beta";
    case Param::alpha: return "alpha";
  }
  return "?";
}

double Axis::value(int k) const {
  if (k == 0) return lo;
  if (k == n - 1) return hi;
  const double t = static_cast<double>(k) / (n - 1);
  return log ? lo * std::pow(hi / lo, t) : lo + (hi - lo) * t;
}

Axis parse_axis(const std::string& spec, const std::string& flag) {
  const auto parts = split(spec, ':');
  if (parts.size() != 4 && parts.size() != 5) throw InputError(flag, spec, kGrammar);
  Axis a;
  a.spec = spec;
  if (parts[0] == "eta") a.param = Param::eta;
  else if (parts[0] == "beta") a.param = Param::beta;
  else if (parts[0] == "alpha") a.param = Param::alpha;
  else throw InputError(flag + " name", parts[0], "must be eta, beta or alpha");
  a.lo = parse_number(parts[1], flag + " LO");
  a.hi = parse_number(parts[2], flag + " HI");
  char* end = nullptr;
  const long long n = std::strtoll(parts[3].c_str(), &end, 10);
  if (parts[3].empty() || end != parts[3].c_str() + parts[3].size())
    throw InputError(flag + " N", parts[3], "must be an integer");
  if (n < 2 || n > kMaxAxisPoints)
    throw InputError(flag + " N", parts[3], fmt::format("must be in [2, {}]", kMaxAxisPoints));
  a.n = static_cast<int>(n);
  if (parts.size() == 5) {
    if (parts[4] != "log") throw InputError(flag + " scale", parts[4], "must be log (or omitted)");
    a.log = true;
  }
  if (!(a.lo < a.hi)) throw InputError(flag, spec, "needs LO < HI");
  require_in_range(a.param, a.lo, flag + " LO");
  require_in_range(a.param, a.hi, flag + " HI");
  if (a.log && !(a.lo > 0.0)) throw InputError(flag + " LO", show(a.lo), "log spacing needs LO > 0");
  return a;
}

Metric parse_metric(const std::string& s) {
  if (s == "stable") return Metric::stable;
  if (s == "ms_stable") return Metric::ms_stable;
  if (s == "rho_ratio") return Metric::rho_ratio;
  if (s == "underdamped") return Metric::underdamped;
  if (s == "speedup") return Metric::speedup;
  if (s == "counterexample") return Metric::counterexample;
  throw InputError("--metric", s,
                   "must be stable, ms_stable, rho_ratio, underdamped, speedup or counterexample");
}

std::string to_string(Metric m) {
  switch (m) {
    case Metric::stable: return "stable";
    case Metric::ms_stable: return "ms_stable";
    case Metric::rho_ratio: return "rho_ratio";
    case Metric::underdamped: return "underdamped";
    case Metric::speedup: return "speedup";
    case Metric::counterexample: return "counterexample";
  }
  return "?";
}

namespace {
bool has_axis(const Options& o, Param p) { return o.x.param == p || o.y.param == p; }
}  // namespace

std::optional<double> parse_alpha(const std::string& s) {
  if (s == "tuned") return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !(v > 0.0 && std::isfinite(v)))
    throw InputError("--alpha", s, "must be a number > 0 or tuned");
  return v;
}

int parse_direction(const std::string& s, int n) {
  if (s == "all") return -1;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end != s.c_str() + s.size() || v < 1 || v > n)
    throw InputError("--direction", s, fmt::format("must be all or an integer in [1, {}]", n));
  return static_cast<int>(v - 1);
}

void validate_measure(const Options& o, long long trials, long long steps) {
  require_at_least("--trials", trials, 2);
  require_at_least("--steps", steps, 1);
  if (steps > 1000000) throw InputError("--steps", std::to_string(steps), "must be <= 1000000");
  if (o.x.param == Param::alpha || o.y.param == Param::alpha)
    throw InputError("--measure", "alpha axis", "the measured buffer does not depend on α: use eta and beta axes");
}

void validate(const Options& o, int n) {
  if (o.x.param == o.y.param)
    throw InputError("--y", o.y.spec, "must name a different parameter than --x (" + to_string(o.x.param) + ")");
  if (!has_axis(o, Param::eta)) {
    if (!(o.eta > 0.0 && std::isfinite(o.eta))) throw InputError("--eta", show(o.eta), "must be > 0 and finite");
  }
  if (!has_axis(o, Param::beta)) {
    if (!(o.beta >= 0.0 && o.beta < 1.0)) throw InputError("--beta", show(o.beta), "must be in [0, 1)");
  }
  if (o.alpha && !(*o.alpha > 0.0 && std::isfinite(*o.alpha)))
    throw InputError("--alpha", show(*o.alpha), "must be > 0 and finite, or tuned");
  const bool fixed_alpha = has_axis(o, Param::alpha) || o.alpha.has_value();
  if ((o.metric == Metric::underdamped || o.metric == Metric::counterexample) && !fixed_alpha)
    throw InputError("--alpha", "tuned",
                     "metric " + to_string(o.metric) + " is defined at a fixed step: give --alpha A or an alpha axis");
  const bool uses_alpha = o.metric == Metric::rho_ratio || o.metric == Metric::underdamped ||
                          o.metric == Metric::speedup || o.metric == Metric::counterexample;
  if (has_axis(o, Param::alpha) && !uses_alpha)
    throw InputError("--x/--y", "alpha", "metric " + to_string(o.metric) + " does not depend on alpha");
  if (o.direction < -1 || o.direction >= n)
    throw InputError("--direction", std::to_string(o.direction + 1), fmt::format("must be all or in [1, {}]", n));
  if (o.metric == Metric::ms_stable && o.direction != -1)
    throw InputError("--direction", std::to_string(o.direction + 1),
                     "ms_stable couples all directions (E1): use --direction all");
}

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

// ---- E1 -------------------------------------------------------------------------------

Mat ms_matrix_raw(const Vec& lambda, double beta, double eta) {
  // s'_i = E[(βv_i − η(v·x)x_i)²] = ((β−ηλ_i)² + η²λ_i²)s_i + η²λ_i Σ_j λ_j s_j, using
  // E[x_i⁴] = 3λ_i² and E[x_j x_k x_i²] = 0 for j ≠ k (Gaussian keys, eigenbasis).
  const Eigen::Index n = lambda.size();
  Mat S = (eta * eta) * lambda * lambda.transpose();
  for (Eigen::Index i = 0; i < n; ++i) {
    const double b = beta - eta * lambda[i];
    S(i, i) += b * b + eta * eta * lambda[i] * lambda[i];
  }
  return S;
}

Mat ms_matrix_normalized(const Vec& lambda_hat, const Mat& Q, double beta, double eta) {
  // s'_i = β²s_i − 2βηλ̂_i s_i + η² Σ_j Q_ij s_j (sign symmetry kills the cross terms).
  Mat S = (eta * eta) * Q;
  for (Eigen::Index i = 0; i < lambda_hat.size(); ++i) S(i, i) += beta * beta - 2.0 * beta * eta * lambda_hat[i];
  return S;
}

std::vector<std::vector<int>> equal_groups(const Vec& lambda) {
  std::vector<std::vector<int>> g;
  for (int i = 0; i < static_cast<int>(lambda.size()); ++i) {
    auto it = std::find_if(g.begin(), g.end(), [&](const auto& grp) { return lambda[grp[0]] == lambda[i]; });
    if (it == g.end()) g.push_back({i});
    else it->push_back(i);
  }
  return g;
}

double ms_radius_normalized(const Vec& lambda_hat, const Mat& Q, const std::vector<std::vector<int>>& groups,
                            double beta, double eta) {
  const auto S = [&](int i, int j) {
    return eta * eta * Q(i, j) + (i == j ? beta * beta - 2.0 * beta * eta * lambda_hat[i] : 0.0);
  };
  const int k = static_cast<int>(groups.size());
  if (!(eta > 0.0) || k == lambda_hat.size()) return ms_radius(ms_matrix_normalized(lambda_hat, Q, beta, eta));
  Mat L(k, k);
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b) {
      const auto& G = groups[a];
      const auto& H = groups[b];
      if (a == b)
        L(a, a) = S(G[0], G[0]) + (G.size() > 1 ? (G.size() - 1.0) * S(G[0], G[1]) : 0.0);
      else
        L(a, b) = std::sqrt(static_cast<double>(G.size()) * H.size()) * S(G[0], H[0]);
    }
  Eigen::SelfAdjointEigenSolver<Mat> es(L, Eigen::EigenvaluesOnly);
  return es.eigenvalues().maxCoeff();  // the Perron root (S > 0 entrywise)
}

double ms_radius(const Mat& S) {
  // S is symmetric, so its spectral radius is the largest |eigenvalue|.
  Eigen::SelfAdjointEigenSolver<Mat> es(S, Eigen::EigenvaluesOnly);
  return es.eigenvalues().cwiseAbs().maxCoeff();
}

double ms_radius_raw(const Vec& lambda, double beta, double eta) {
  // S = D + wwᵀ, w = ηλ, D ≥ 0 diagonal: the largest eigenvalue θ > max d solves the
  // secular equation f(θ) = 1 − Σ w_i²/(θ − d_i) = 0 (f increasing on (max d, ∞)).
  // Bracket [max d, max d + ‖w‖²] and bisect to machine precision.
  const Eigen::Index n = lambda.size();
  Vec d(n), w2(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double b = beta - eta * lambda[i];
    d[i] = b * b + eta * eta * lambda[i] * lambda[i];
    w2[i] = (eta * lambda[i]) * (eta * lambda[i]);
  }
  const double dmax = d.maxCoeff();
  double lo = dmax, hi = dmax + w2.sum();
  auto f = [&](double th) {
    double s = 0;
    for (Eigen::Index i = 0; i < n; ++i) s += w2[i] / (th - d[i]);
    return 1.0 - s;
  };
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (f(mid) > 0 ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace akm::phase
