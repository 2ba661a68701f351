// simulate — run and analysis behind `akm simulate` (see akm/app/simulate.hpp).
#include "akm/app/simulate.hpp"
#include "akm/theory/phase.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "akm/sim/cuda.hpp"
#include "akm/sim/fitted_map.hpp"
#include "akm/sim/jackknife.hpp"
#include "akm/base/errors.hpp"

namespace akm::simulate {

Spectrum validate(const Options& o, const std::string& spectrum) {
  Spectrum s = parse_spectrum(spectrum, o.seed);
  validate(o, s);
  return s;
}

void validate(const Options& o, const Spectrum& s) {
  require_beta(o.beta);
  require_eta(o.eta);
  require_alpha(o.alpha);
  if (!(o.sigma >= 0.0 && std::isfinite(o.sigma)))
    throw InputError("sigma", show(o.sigma), "must be a finite number >= 0");
  // The closed forms describe a contracting buffer (as `akm theory` requires).
  require_contraction(o.beta, o.eta, o.key, s);
  if (o.key == Key::raw) {
    const double r2 = phase::ms_radius_raw(s.lambda, o.beta, o.eta);
    if (!(r2 < 1.0))
      throw InputError("eta", show(o.eta),
                       fmt::format("the raw-key buffer must be mean-square stable for Monte-Carlo "
                                   "means to have standard errors, but its second-moment radius "
                                   "is {} >= 1 at beta = {}: lower eta", show(r2), show(o.beta)));
  }
  // The run keeps 16 n doubles per trial group (200 groups) and a 2×2 map per direction.
  if (s.n() > 8192)
    throw InputError("spectrum.n", std::to_string(s.n()),
                     "must be <= 8192 for akm simulate (it keeps 16·n moments per trial group)");
  if (o.trials < 100 || o.trials > 1000000000LL)
    throw InputError("--trials", std::to_string(o.trials),
                     "must be an integer in [100, 1000000000] (standard errors come from a "
                     "jackknife over min(trials, 200) groups)");
  if (o.steps < 1 || o.steps > 1000000)
    throw InputError("--steps", std::to_string(o.steps), "must be an integer in [1, 1000000]");
  if (!(o.false_alarm > 0.0 && o.false_alarm < 1.0))
    throw InputError("--false-alarm", show(o.false_alarm), "must be a number in (0, 1)");
  if (o.threads < 0 || o.threads > 4096)
    throw InputError("--threads", std::to_string(o.threads), "must be an integer in [1, 4096]");
  if (o.backend == Backend::cuda) {
    cuda::require_usable();
    if (o.precision != engine::Precision::f32)
      throw InputError("--precision", "double", "float on --backend cuda (the device path is float)");
  }
}

std::vector<std::string> ms_warnings(const Options& o, const Spectrum& s) {
  std::vector<std::string> out;
  auto check = [&](const char* arm, double gain) {
    const double g = theory::ms_rule_load(o.alpha * gain, s.lambda);
    if (!(g < theory::kMsRuleLimit))
      out.push_back(fmt::format("{}: alpha·gain·(2 lambda_max + tr Sigma) = {:.3g} >= 2, outside the "
                                "mean-square rule of thumb: heavy-tailed trials can make |z| exceed "
                                "the limit more often than the declared false-alarm rate; lower --alpha",
                                arm, g));
  };
  check("ema", 1.0);
  if (o.key == Key::raw) check("ak", o.eta / (1.0 - o.beta));
  return out;
}

ops::Fit make_fit(const Options& o, const Spectrum& s) {
  ops::Fit w;
  w.lambda.assign(s.lambda.data(), s.lambda.data() + s.n());
  w.normalized = o.key == Key::normalized;
  w.beta = o.beta;
  w.eta = o.eta;
  w.alpha = o.alpha;
  w.sigma = o.sigma;
  w.trials = o.trials;
  w.steps = o.steps;
  w.groups = int(std::min<long long>(o.trials, 200));
  return w;
}

double Estimate::z() const {
  const double d = measured - predicted;
  if (se > 0) return d / se;
  return d == 0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), d);
}

namespace {

// The jackknife over the run's trial groups: rows of group means, weighted by group size.
Jackknife group_jackknife(const ops::Fit& w, const ops::Observations& g) {
  std::vector<double> counts(static_cast<std::size_t>(g.trials));
  for (long long k = 0; k < g.trials; ++k)
    counts[std::size_t(k)] = double(w.group_begin(int(k) + 1) - w.group_begin(int(k)));
  return Jackknife(g.values.data(), std::size_t(g.n_obs), std::move(counts));
}

}  // namespace

Result analyze(const Options& o, const ops::Fit& w, const TheoryReport& th,
               const ops::Observations& groups) {
  Result r;
  r.opts = o;
  r.theory = th;
  r.checks = Checks(o.false_alarm);
  const Jackknife jack = group_jackknife(w, groups);
  const int n = w.n();
  // Rounding allowance (tests/test_simulate.cpp states the model): a one-step coefficient
  // is off by ≤ c·n·ε relative (reordered dot products, c = 4) plus, in float, the float
  // normals' typical error 1e-6; E[e_T] accumulates that over T steps.
  const double eps = o.precision == engine::Precision::f64 ? 1.1102230246251565e-16 : 5.9604644775390625e-08;
  r.rounding_step = 4.0 * n * eps + (o.precision == engine::Precision::f32 ? 1e-6 : 0.0);
  for (int i = 0; i < n; ++i) {
    const DirectionTheory& d = th.directions[std::size_t(i)];
    DirectionRow row;
    row.index = i + 1;
    row.lambda = d.lambda;
    row.lambda_hat = d.lambda_hat;
    row.kappa = d.kappa;
    row.underdamped_ak = d.underdamped_ak;
    for (int a = 0; a < 2; ++a) {
      const Mat2 A = a == 0 ? theory::iter_matrix_ak(o.alpha, d.coupling_ak, d.beta_tilde)
                            : theory::iter_matrix_ema(o.alpha, o.beta, d.lambda);
      std::array<std::size_t, kMapMoments> idx;
      for (int q = 0; q < kMapMoments; ++q) idx[std::size_t(q)] = w.index(a, q, i);
      ArmRow& ar = a == 0 ? row.ak : row.ema;
      auto est = [&](double pred, const MeanEstimate& m) { return Estimate{pred, m.mean, m.se, m.skew, m.dof}; };
      const FittedMapEstimate fit = fit_map(jack, idx);
      ar.contraction = est(A(1, 1), fit.contraction);
      ar.coupling = est(A(1, 0), fit.coupling);
      ar.rate = est(theory::spectral_radius(A), fit.rate);
      Vec2 s(1.0, 0.0);
      for (int t = 0; t < w.steps; ++t) s = A * s;
      ar.final_error = est(s[0], jack({w.index(a, 7, i)}, [](const Vec& q) { return q[0]; }));

      const std::string arm = a == 0 ? "ak" : "ema";
      const std::string tag = fmt::format("{}/u{}", arm, i + 1);
      const double rs = r.rounding_step;
      r.checks.mc(tag + "/contraction", ar.contraction.predicted, ar.contraction.estimate(), 0.0,
                  rs * (1.0 + std::abs(ar.contraction.predicted)));
      r.checks.mc(tag + "/coupling", ar.coupling.predicted, ar.coupling.estimate(), 0.0,
                  rs * (1.0 + std::abs(ar.coupling.predicted)));
      r.checks.mc(tag + "/final_error", ar.final_error.predicted, ar.final_error.estimate(), 0.0,
                  w.steps * rs * (1.0 + std::abs(ar.final_error.predicted)));
      for (const Estimate* e : {&ar.contraction, &ar.coupling, &ar.rate, &ar.final_error})
        r.finite = r.finite && std::isfinite(e->measured) && std::isfinite(e->se);
    }
    r.rows.push_back(row);
  }
  r.checks.finalize();
  return r;
}

Result run(const Options& o, const Spectrum& s) {
  const ops::Fit w = make_fit(o, s);
  const TheoryReport th = make_theory_report(o, s);
  const auto t0 = std::chrono::steady_clock::now();
  const ops::Observations g = ops::fit(w, o.seed, o.backend, {o.precision, o.threads, o.progress});
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Result r = analyze(o, w, th, g);
  r.seconds = secs;
  r.warnings = ms_warnings(o, s);
  return r;
}

namespace {
nlohmann::json to_json(const Estimate& e) {
  const double z = e.z();
  return {{"predicted", e.predicted}, {"measured", e.measured}, {"stderr", e.se},
          {"z", std::isfinite(z) ? nlohmann::json(z) : nlohmann::json(nullptr)}};
}
nlohmann::json to_json(const ArmRow& a) {
  return {{"contraction", to_json(a.contraction)}, {"coupling", to_json(a.coupling)},
          {"rate", to_json(a.rate)}, {"final_error", to_json(a.final_error)}};
}
}  // namespace

nlohmann::json to_json(const Result& r, const Spectrum& s) {
  const Options& o = r.opts;
  nlohmann::json dirs = nlohmann::json::array();
  for (const auto& d : r.rows)
    dirs.push_back({{"direction", d.index}, {"lambda", d.lambda}, {"lambda_hat", d.lambda_hat},
                    {"kappa", d.kappa}, {"underdamped_ak", d.underdamped_ak},
                    {"ak", to_json(d.ak)}, {"ema", to_json(d.ema)}});
  return {{"command", "akm simulate"},
          {"spectrum", s.spec},
          {"n", s.n()},
          {"key", akm::to_string(o.key)},
          {"beta", o.beta}, {"eta", o.eta}, {"alpha", o.alpha}, {"sigma", o.sigma},
          {"trials", o.trials}, {"steps", o.steps}, {"seed", o.seed},
          {"groups", std::min<long long>(o.trials, 200)},
          {"backend", to_string(o.backend)},
          {"precision", engine::to_string(o.precision)},
          {"false_alarm", o.false_alarm},
          {"z_limit", r.checks.z()},
          {"rounding_step", r.rounding_step},
          {"finite", r.finite},
          {"pass", r.finite && r.checks.all_pass()},
          {"checks", r.checks.size()},
          {"failed", [&] {
             long long f = 0;
             for (const auto& c : r.checks.records()) f += c.pass ? 0 : 1;
             return f;
           }()},
          {"seconds", r.seconds},
          {"warnings", r.warnings},
          {"directions", dirs}};
}

}  // namespace akm::simulate
