// T1 fixed-point — [thm:fixedpoint, cor:fixedpoint-normalized, eq:dm-eigen, tab:targets]
//
// E[M_t] → M* = ηḠ((1−β)I+ηΣ)^{-1} (raw key), Ĝ(μI+Σ̂)^{-1} (normalized key); per direction
// M*u_i = φ_i Ḡu_i. Because M_{t−1} is independent of x_t, the transient is exact too:
// E[M_t]u_i = M*u_i (1 − β̃_i^t) from M_0 = 0, so every checkpoint is checked with no bias
// term. With δ = Ax + ξ: Ḡu_i = λ_i A u_i and Ĝu_i = κ_i A u_i [eq:dm-eigen].
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "akm/sim/ops/row_buffers.hpp"
#include "common.hpp"
#include "pooled.hpp"
#include "sensitivity.hpp"

namespace akm::exp {
namespace {

constexpr int kM = 2;            // rows of the buffer (value dimension)
constexpr double kEtaNorm = 0.5;
constexpr double kNoise = 0.5;   // σ of ξ
constexpr int kSteps = 150;
const std::vector<int> kCheckpoints{5, 25, kSteps};
constexpr int kGroups = 100;     // trial groups: the pooled recovery's jackknife

struct Run {
  const Setting& s;
  Key key;
  double eta;
  Mat A;
};

// Observables, ops::row_buffers' layout (simulate() checks it): for each checkpoint, M_t
// (m×n, the m rows one after another); then, for the transient figure, the A-projected ratio
// of each shown direction at every t (the op's probes).
std::size_t entry(int n, std::size_t cp, int r, int i) { return (cp * kM + static_cast<std::size_t>(r)) * n + i; }
std::size_t transient(int n, std::size_t d, int t) { return entry(n, kCheckpoints.size(), 0, 0) + d * kSteps + (t - 1); }

// The m rows of the buffer are the op's rows, sharing the key, each on its own noise normal.
McResult simulate(ExperimentContext& ctx, const Run& run, std::uint64_t seed, long long trials,
                  const std::vector<int>& shown) {
  const int n = run.s.n();
  ops::RowBuffers op;
  op.sqrt_lambda = run.s.sqrt_lambda;
  const BufferKind rule = run.key == Key::raw ? BufferKind::ak_raw : BufferKind::ak_normalized;
  for (int r = 0; r < kM; ++r) op.rows.push_back({rule, run.eta, run.A.row(r).transpose(), Vec::Zero(n), Vec::Zero(n), r});
  op.beta = kBeta;
  op.noise_sigma = kNoise;
  op.noise_slots = kM;
  op.steps = kSteps;
  op.record = kCheckpoints;
  std::vector<int> every(kSteps);
  for (int t = 1; t <= kSteps; ++t) every[t - 1] = t;
  for (int i : shown) {
    // A_iᵀM u_i / (‖A u_i‖² gain_i φ_i): mean (1 − β̃_i^t) [eq:dm-eigen + exact transient]
    const double target = run.s.gain(run.key, i) * theory::phi(theory::mu(kBeta, run.eta), run.s.lam(run.key, i));
    Mat W = Mat::Zero(kM, n);
    W.col(i) = run.A.col(i) / (run.A.col(i).squaredNorm() * target);
    op.probes.push_back({W, every, false});
  }
  if (op.n_obs() != transient(n, shown.size(), 1) || op.obs(kCheckpoints.size() - 1, kM - 1, n - 1) !=
                                                         entry(n, kCheckpoints.size() - 1, kM - 1, n - 1))
    throw std::logic_error("T1: the observable layout differs from ops::row_buffers'");
  // Only the reference and cpu paths exist: on another backend T1 runs the cpu path.
  const Backend b = ctx.backend_for(ops::row_buffers_has);
  return ops::row_buffers(op, seed, b, ctx.mc(trials, fmt::format("T1 {} {}", run.s.name, to_string(run.key)), kGroups));
}

// One (key, spectrum) pair: its step size and value map, fixed before simulating, then
// its measured moments.
struct Case {
  const Setting& s;
  Key key;
  double eta, mu;
  Mat A;
  std::vector<int> shown;
  McResult res{};
};

// E[M_t u_i]·(gain-weighted) as a function of (η, β, s): (gain_i A u_i) φ_i (1 − β̃_i^t)
// [eq:dm-eigen + exact transient], s scaling the key's eigenvalue λ_i (λ̂_i) and the gain held
// fixed — the prediction every checkpoint check makes, and its sensitivities.
double fixed_point_transient(double gain, double e, double b, double lam, int t) {
  return theory::transient_mean(gain * theory::phi(theory::mu(b, e), lam), theory::beta_tilde(b, e, lam), t);
}

// The pooled recovery's terms of one case: every checkpoint entry (m rows per direction) and
// every step of the shown directions' A-projected ratio, whose mean is
// φ_i(η, β, sλ)(1 − β̃_i^t)/φ_i at the paper's values (the probe divides by the latter).
// Steps that are checkpoints are left out of the trajectory: they repeat a checkpoint's rows.
void add_pooled_case(PooledRecovery& pooled, const Case& c) {
  const Setting& s = c.s;
  const int n = s.n();
  std::vector<PooledTerm> terms;
  for (std::size_t cp = 0; cp < kCheckpoints.size(); ++cp)
    for (int i = 0; i < n; ++i)
      for (int r = 0; r < kM; ++r) {
        const double g = s.gain(c.key, i) * c.A(r, i), lam = s.lam(c.key, i);
        const int t = kCheckpoints[cp];
        terms.push_back({entry(n, cp, r, i),
                         [g, lam, t](double e, double b, double sc) { return fixed_point_transient(g, e, b, sc * lam, t); },
                         c.eta});
      }
  for (std::size_t d = 0; d < c.shown.size(); ++d) {
    const double lam = s.lam(c.key, c.shown[d]);
    const double phi = theory::phi(c.mu, lam);
    for (int t = 1; t <= kSteps; ++t) {
      if (std::find(kCheckpoints.begin(), kCheckpoints.end(), t) != kCheckpoints.end()) continue;
      terms.push_back({transient(n, d, t),
                       [phi, lam, t](double e, double b, double sc) { return fixed_point_transient(1.0, e, b, sc * lam, t) / phi; },
                       c.eta});
    }
  }
  add_pooled(pooled, c.res, terms, kBeta);
}

// Tables and figures of one key: the A-projected ratio at the last checkpoint, the spiked
// spectrum's transient gap, the fixed-point and transient figures.
void record(ExperimentContext& ctx, Key key, const std::vector<Case>& cases,
            const std::vector<Setting>& settings) {
  CsvTable table{{"spectrum", "direction", "lambda", "lambda_hat", "kappa", "lam_key", "phi",
                  "predicted_ratio", "measured_ratio", "stderr_ratio"}, {}};
  CsvTable trans{{"spectrum", "direction", "t", "predicted_gap", "measured_gap", "stderr_gap"}, {}};
  double mu_shown = 0;
  for (const Case& c : cases) {
    if (c.key != key) continue;
    const Setting& s = c.s;
    const int n = s.n();
    if (s.name == "spiked") mu_shown = c.mu;
    const Vec mean = c.res.total.mean(), se = c.res.total.stderr_mean();
    // Figure data at the last checkpoint: the A-projected ratio M u_i / (gain_i A u_i).
    for (int i = 0; i < n; ++i) {
      const double lam = s.lam(key, i), g = s.gain(key, i);
      const double a2 = c.A.col(i).squaredNorm();
      double m_ratio = 0, var = 0;
      for (int r = 0; r < kM; ++r) {
        const std::size_t o = entry(n, kCheckpoints.size() - 1, r, i);
        m_ratio += c.A(r, i) * mean[o] / (a2 * g);
        var += std::pow(c.A(r, i) * se[o] / (a2 * g), 2);  // rows are close to independent
      }
      const double phi = theory::phi(c.mu, lam);
      table.add({s.name, i + 1, s.spectrum.lambda[i], s.moments.lambda_hat[i],
                 s.moments.kappa[i], lam, phi,
                 theory::transient_mean(phi, theory::beta_tilde(kBeta, c.eta, lam), kSteps), m_ratio,
                 std::sqrt(var)});
    }
    for (std::size_t d = 0; d < c.shown.size() && s.name == "spiked"; ++d) {
      const double bt = theory::beta_tilde(kBeta, c.eta, s.lam(key, c.shown[d]));
      for (int t = 1; t <= kSteps; ++t) {
        const std::size_t o = transient(n, d, t);
        trans.add({s.name, dir_name(c.shown[d]), t, std::pow(bt, t), 1.0 - mean[o], se[o]});
      }
    }
  }
  const std::string k = to_string(key);
  ctx.out.write_csv("data_" + k + ".csv", table);
  ctx.out.write_csv("data_transient_" + k + ".csv", trans);

  Figure fig;
  fig.name = "fixed-point-" + k;
  fig.title = fmt::format("T1 fixed point, {} key, β = {}: M*u_i / {}u_i", k, kBeta,
                          key == Key::raw ? "Ḡ" : "Ĝ");
  fig.xlabel = key == Key::raw ? "λ_i (eigenvalue of Σ)" : "λ̂_i (eigenvalue of Σ̂)";
  fig.ylabel = "ratio to the gradient along u_i";
  fig.logx = fig.logy = true;
  for (const Setting& s : settings)
    fig.series.push_back({"data_" + k + ".csv", "lam_key", "measured_ratio", "stderr_ratio",
                          "measured (" + s.name + ")", "errorbars", "spectrum=" + s.name});
  fig.series.push_back({"data_" + k + ".csv", "lam_key", "phi", "", "AK φ_i (power law)", "lines",
                        "spectrum=power"});
  fig.functions = {fmt::format("1/({:.10g}+x) title 'AK φ = 1/(μ+λ), spiked μ = {:.3g}' lw 2 dt 2", mu_shown, mu_shown),
                   "1 title 'EMA (1)' lw 2 lc rgb 'gray40'",
                   "1/x title 'Wiener (1/λ)' lw 2 lc rgb 'black' dt 3"};
  ctx.out.figure(fig);

  Figure tf;
  tf.name = "transient-" + k;
  tf.title = fmt::format("T1 transient, {} key, spiked: 1 − E[M_t u_i]/M*u_i = β̃_i^t", k);
  tf.xlabel = "step t";
  tf.ylabel = "remaining gap";
  tf.logy = true;
  for (int i : shown_directions(settings[0].n())) {
    tf.series.push_back({"data_transient_" + k + ".csv", "t", "measured_gap", "", "measured " + dir_name(i),
                         "points", "direction=" + dir_name(i)});
    tf.series.push_back({"data_transient_" + k + ".csv", "t", "predicted_gap", "", "β̃^t " + dir_name(i),
                         "lines", "direction=" + dir_name(i)});
  }
  tf.extra = {"set yrange [1e-4:2]"};
  ctx.out.figure(tf);
}

}  // namespace

static void t01_fixed_point(ExperimentContext& ctx) {
  // ---- Set-up: the spectra, each (key, spectrum) pair's step size and value map ----
  // Trials set so that the pooled recovery resolves 0.5% in η and λ̂ in full mode and 1% in
  // quick mode (docs/statistics.md, "Pooled recovery"; quick at 2000: 1.2%).
  const long long R = trials(ctx, 20000, 4000);
  const std::vector<Setting> settings{make_setting("spiked", kSpiked, ctx.opts.seed),
                                      make_setting("power", kPower, ctx.opts.seed)};
  ctx.params = {{"beta", kBeta}, {"m", kM}, {"noise_sigma", kNoise}, {"steps", kSteps},
                {"checkpoints", kCheckpoints}, {"trials", R}, {"M0", "zero"},
                {"value_stream", "delta = A x + xi, xi ~ N(0, noise_sigma^2 I), A in the eigenbasis"},
                {"settings", nlohmann::json::array()}};
  std::vector<Case> cases;
  for (const Key key : {Key::raw, Key::normalized})
    for (const Setting& s : settings) {
      const double eta = key == Key::raw ? raw_eta(s, 0.4) : kEtaNorm;
      cases.push_back({s, key, eta, theory::mu(kBeta, eta),
                       value_map(kM, s.n(), derive_seed(ctx.opts.seed, "T1/A/" + s.name)),
                       shown_directions(s.n())});
      nlohmann::json sp = setting_params(s);
      sp["key"] = to_string(key);
      sp["eta"] = eta;
      sp["A"] = nlohmann::json::array();
      for (int r = 0; r < kM; ++r) sp["A"].push_back(to_std(cases.back().A.row(r).transpose()));
      ctx.params["settings"].push_back(sp);
    }

  // ---- Simulate: every checkpoint of M_t and the shown directions' transient ----
  for (Case& c : cases)
    c.res = simulate(ctx, {c.s, c.key, c.eta, c.A},
                     derive_seed(ctx.opts.seed, "T1/" + c.s.name + to_string(c.key)), R, c.shown);

  // ---- Check: E[M_t]u_i at every checkpoint, direction and row ----
  for (const Case& c : cases) {
    const Setting& s = c.s;
    const Key key = c.key;
    const int n = s.n();
    for (std::size_t cp = 0; cp < kCheckpoints.size(); ++cp) {
      const int t = kCheckpoints[cp];
      for (int i = 0; i < n; ++i) {
        const double lam = s.lam(key, i);
        for (int r = 0; r < kM; ++r) {
          // E[M_t u_i] = (gain_i A u_i) φ_i (1 − β̃_i^t)  [eq:dm-eigen + exact transient]
          const double g = s.gain(key, i) * c.A(r, i);
          const std::size_t o = entry(n, cp, r, i);
          ctx.checks.mc(fmt::format("{}/{}/t={}/{}[{}]", to_string(key), s.name, t, dir_name(i), r),
                        fixed_point_transient(g, c.eta, kBeta, lam, t), c.res.total.estimate(static_cast<Eigen::Index>(o)));
          // Alternative: the EMA buffer fed the same stream [eq:ema-update, tab:targets],
          // E[M_t]u_i = Ḡu_i (1 − β^t) with Ḡu_i = λ_i A u_i — no φ_i shrinkage, rate β.
          ctx.checks.against(theory::transient_mean(s.spectrum.lambda[i] * c.A(r, i), kBeta, t), "EMA");
          // Resolution: the prediction as a function of (η, β, λ), the gain held fixed.
          annotate_sensitivity(ctx.checks, log_sensitivity(
              [&](double e, double b, double sc) { return fixed_point_transient(g, e, b, sc * lam, t); }, c.eta, kBeta));
        }
      }
    }
  }

  // Pooled recovery of η, β and the λ scale from every checkpoint entry and every transient
  // step of every case at once (check/pooled.hpp): the claim's resolution.
  PooledRecovery pooled;
  for (const Case& c : cases) add_pooled_case(pooled, c);
  pooled.record(ctx.checks);

  // ---- Record: per key, the fixed-point and transient tables and figures ----
  for (const Key key : {Key::raw, Key::normalized}) record(ctx, key, cases, settings);
}

const Registrar registration{{
    .id = "T1",
    .slug = "fixed-point",
    .title = "Fixed point of the AK buffer: M*u_i = φ_i Ḡu_i",
    .labels = "thm:fixedpoint cor:fixedpoint-normalized eq:dm-eigen tab:targets",
    .claim = "E[M_t]u_i = φ_i Ḡu_i (1 − β̃_i^t), φ_i = 1/(μ+λ_i), μ = (1−β)/η; normalized key: "
             "Ĝ, λ̂_i",
    .body = t01_fixed_point,
}};

}  // namespace akm::exp
