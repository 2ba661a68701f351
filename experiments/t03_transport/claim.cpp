// T3 transport — [lem:transport, eq:transport-expansion, eq:horizon]
//
// For independent keys E[P_{ℓ→t}] = (βI − ηΣ)^{t−ℓ}, so a row vector u_iᵀ pushed through
// the factors βI − ηxxᵀ keeps, in the mean, only its u_i component, scaled by β̃_i^k, and
// the summed impulse response Σ_k β̃_i^k is the horizon τ_i = 1/(1−β̃_i). Pushing all n
// rows at once is pushing the identity: P_k = Π_{j≤k}(βI − ηx_jx_jᵀ), in the eigenbasis.
#include <fmt/format.h>

#include "akm/rules/kernels.hpp"
#include "akm/rules/rules.hpp"
#include "akm/sim/ops/transport_product.hpp"
#include "common.hpp"
#include "pooled.hpp"
#include "sensitivity.hpp"

namespace akm::exp {
namespace {

constexpr double kEtaNorm = 0.5;
constexpr int kSteps = 150;   // total pushes; the horizon sum is truncated here
constexpr int kLags = 60;     // lags whose diagonal is recorded for the figure and the pooled recovery
constexpr int kGroups = 100;  // trial groups: the jackknife of the pooled recovery
const std::vector<int> kCheckLags{1, 2, 5, 10, 20, 40};
const std::vector<int> kFullLags{1, 5, 20};  // lags where every entry of P is recorded

/// Where a trial's observables sit (the op's row layout at T3's lags).
ops::TransportProductLayout layout(int n) { return {n, kLags, int(kFullLags.size())}; }

/// The op of one (spectrum, key): P_k from the identity, its lag diagonals up to kLags, full
/// matrices at kFullLags, horizon sums to kSteps and their control variates (ops/transport_product.hpp).
ops::TransportProduct product(const Setting& s, Key key, double eta) {
  ops::TransportProduct op;
  op.sqrt_lambda = s.sqrt_lambda;
  op.key = key;
  op.beta = kBeta;
  op.eta = eta;
  op.second_moment = Vec(s.n());  // E[k_i²] along the eigenbasis: λ_i (raw key) or λ̂_i (normalized)
  for (int i = 0; i < s.n(); ++i) op.second_moment[i] = s.lam(key, i);
  op.steps = kSteps;
  op.lags = kLags;
  op.full_lags = kFullLags;
  return op;
}

McResult simulate(ExperimentContext& ctx, const Setting& s, Key key, double eta, std::uint64_t seed,
                  long long trials) {
  return ops::transport_product(product(s, key, eta), seed, ctx.backend(),
                                ctx.mc(trials, fmt::format("T3 {} {}", s.name, to_string(key)), kGroups));
}

// [eq:transport-expansion] equals the recursion: one path, random basis, exact arithmetic
// up to rounding. Returns the max entry difference relative to ‖M_t‖_F.
double expansion_vs_recursion(Key key, std::uint64_t seed) {
  const int n = 8, m = 3, T = 40;
  const double beta = kBeta, eta = key == Key::raw ? 0.05 : kEtaNorm;
  const Spectrum s = parse_spectrum("spiked:n=8,spikes=10/3,floor=1,basis=random", seed);
  const Mat root = s.basis * s.lambda.cwiseSqrt().asDiagonal();
  Stream st(seed, 0, Purpose::keys);
  std::vector<Vec> keys, deltas;
  Mat M = Mat::Zero(m, n);
  for (int t = 0; t < T; ++t) {
    Vec z(n), d(m);
    for (int i = 0; i < n; ++i) z[i] = st.normal();
    for (int r = 0; r < m; ++r) d[r] = st.normal();
    Vec x = root * z;
    if (key == Key::normalized) x /= x.norm();
    keys.push_back(x);
    deltas.push_back(d);
    rules::ak_raw(M, d, x, beta, eta);  // the recursion (x already normalized if asked)
  }
  Mat E = Mat::Zero(m, n);
  for (int l = 0; l < T; ++l) {
    Mat P = Mat::Identity(n, n);
    for (int j = l + 1; j < T; ++j) P = P * (beta * Mat::Identity(n, n) - eta * keys[j] * keys[j].transpose());
    E += eta * deltas[l] * keys[l].transpose() * P;
  }
  return (E - M).cwiseAbs().maxCoeff() / M.norm();
}

/// One simulated (key, spectrum) pair: its step size and the trials' transport diagonals,
/// full matrices at kFullLags and horizon sums.
struct Run {
  Key key;
  const Setting* s;
  double eta;
  McResult res;
};

/// The pooled terms of one run: every recorded lag's diagonal β̃_i^k and every horizon sum τ_i
/// (its truncation tail as the bias bound), plain or less the control variate (same closed form).
/// The control variate is used for the raw key only: its mean is 0 only when E[k_i²] is the true
/// second moment, and only the raw key's λ_i is known apart from the claim (it is the law the
/// keys are drawn from); the normalized key's λ̂_i comes from the same key moments the claim's
/// predictions use, so an error in them would cancel in the difference and go unseen.
std::vector<PooledTerm> transport_terms(const Run& run, bool control) {
  const ops::TransportProductLayout L = layout(run.s->n());
  control = control && run.key == Key::raw;
  std::vector<PooledTerm> terms;
  for (int i = 0; i < run.s->n(); ++i) {
    const double lam = run.s->lam(run.key, i);
    for (int lag = 1; lag <= kLags; ++lag)
      terms.push_back({control ? L.cv_diag(lag, i) : L.diag(lag, i),
                       [lam, lag](double e, double b, double sc) { return std::pow(theory::beta_tilde(b, e, sc * lam), lag); },
                       run.eta});
    const double bt = theory::beta_tilde(kBeta, run.eta, lam);
    terms.push_back({control ? L.cv_horizon(i) : L.horizon(i),
                     [lam](double e, double b, double sc) { return theory::horizon(theory::beta_tilde(b, e, sc * lam)); },
                     run.eta, std::pow(std::abs(bt), kSteps + 1) / (1.0 - bt)});
  }
  return terms;
}

/// Tables and figures of one key: the spiked lag curves and the horizon sums against τ_i.
void record(ExperimentContext& ctx, Key key, const std::vector<Setting>& settings, const std::vector<Run>& runs) {
  const std::string k = to_string(key);
  CsvTable lags{{"spectrum", "direction", "lag", "predicted", "measured", "stderr"}, {}};
  CsvTable hz{{"spectrum", "direction", "lam_key", "tau", "measured_sum", "stderr_sum"}, {}};
  for (const Run& run : runs) {
    if (run.key != key) continue;
    const Setting& s = *run.s;
    const int n = s.n();
    const ops::TransportProductLayout L = layout(n);
    const Vec mean = run.res.total.mean(), se = run.res.total.stderr_mean();
    for (int i = 0; i < n; ++i)
      hz.add({s.name, dir_name(i), s.lam(key, i), theory::horizon(theory::beta_tilde(kBeta, run.eta, s.lam(key, i))),
              mean[L.horizon(i)], se[L.horizon(i)]});
    if (s.name == "spiked")
      for (int i : shown_directions(n)) {
        const double bt = theory::beta_tilde(kBeta, run.eta, s.lam(key, i));
        for (int lag = 1; lag <= kLags; ++lag)
          lags.add({s.name, dir_name(i), lag, std::pow(bt, lag), mean[L.diag(lag, i)], se[L.diag(lag, i)]});
      }
  }
  ctx.out.write_csv("data_lags_" + k + ".csv", lags);
  ctx.out.write_csv("data_horizon_" + k + ".csv", hz);
  Figure fig;
  fig.name = "transport-" + k;
  fig.title = fmt::format("T3 transport, {} key, spiked: E[u_iᵀP_k u_i] vs β̃_i^k", k);
  fig.xlabel = "lag k";
  fig.ylabel = "mean projection on u_i";
  fig.logy = true;
  fig.extra = {"set yrange [1e-5:1.5]"};
  for (int i : shown_directions(settings[0].n())) {
    fig.measured_vs_predicted({.csv = "data_lags_" + k + ".csv", .x = "lag",
                               .measured_title = "measured " + dir_name(i),
                               .predicted_title = "β̃^k " + dir_name(i), .where = "direction=" + dir_name(i)});
  }
  ctx.out.figure(fig);

  Figure hf;
  hf.name = "horizon-" + k;
  hf.title = fmt::format("T3 horizon, {} key: summed impulse response vs τ_i = 1/(1−β̃_i)", k);
  hf.xlabel = key == Key::raw ? "λ_i" : "λ̂_i";
  hf.ylabel = "Σ_k E[u_iᵀP_k u_i]";
  hf.logx = true;
  for (const Setting& s : settings) {
    hf.measured_vs_predicted({.csv = "data_horizon_" + k + ".csv", .x = "lam_key", .measured = "measured_sum",
                              .se = "stderr_sum", .predicted = "tau", .measured_title = "measured (" + s.name + ")",
                              .predicted_title = "τ_i (" + s.name + ")", .where = "spectrum=" + s.name});
  }
  hf.functions = {fmt::format("{} title 'EMA 1/(1−β)' lc rgb 'gray40' dt 2", 1.0 / (1.0 - kBeta))};
  ctx.out.figure(hf);
}

}  // namespace

static void t03_transport(ExperimentContext& ctx) {
  // ---- Set-up: the two spectra, each key's step size ----
  const long long R = trials(ctx, 6000, 800);
  const std::vector<Setting> settings{make_setting("spiked", kSpiked, ctx.opts.seed),
                                      make_setting("power", kPower, ctx.opts.seed)};
  const std::vector<Key> keys{Key::raw, Key::normalized};
  ctx.params = {{"beta", kBeta}, {"steps", kSteps}, {"check_lags", kCheckLags}, {"full_lags", kFullLags},
                {"trials", R}, {"P0", "identity"}, {"settings", nlohmann::json::array()}};

  // ---- Simulate: transport of the identity per (key, spectrum); the expansion on one path ----
  std::vector<Run> runs;
  std::vector<double> expansion_rel;
  for (const Key key : keys) {
    const std::string k = to_string(key);
    for (const Setting& s : settings) {
      const double eta = key == Key::raw ? raw_eta(s, 0.4) : kEtaNorm;
      runs.push_back({key, &s, eta, simulate(ctx, s, key, eta, derive_seed(ctx.opts.seed, "T3/" + s.name + k), R)});
      nlohmann::json sp = setting_params(s);
      sp["key"] = k;
      sp["eta"] = eta;
      ctx.params["settings"].push_back(sp);
    }
    expansion_rel.push_back(expansion_vs_recursion(key, derive_seed(ctx.opts.seed, "T3/expansion" + k)));
  }

  // ---- Check: per key, each spectrum's lags, horizons and off-diagonals, then the expansion ----
  for (std::size_t kk = 0; kk < keys.size(); ++kk) {
    const Key key = keys[kk];
    const std::string k = to_string(key);
    for (const Run& run : runs) {
      if (run.key != key) continue;
      const Setting& s = *run.s;
      const double eta = run.eta;
      const int n = s.n();
      const ops::TransportProductLayout L = layout(n);
      const Vec mean = run.res.total.mean(), se = run.res.total.stderr_mean();
      for (int i = 0; i < n; ++i) {
        const double lam = s.lam(key, i);
        const double bt = theory::beta_tilde(kBeta, eta, lam);
        // Alternative: EMA transports u_iᵀ by β per step [eq:ema-update], E[P_k]u_i = β^k u_i,
        // horizon 1/(1−β). Resolution: derivatives of the same closed forms in (η, β, λ).
        for (int lag : kCheckLags) {
          ctx.checks.mc(fmt::format("{}/{}/{}/lag={}", k, s.name, dir_name(i), lag), std::pow(bt, lag),
                        run.res.total.estimate(static_cast<Eigen::Index>(L.diag(lag, i))));
          ctx.checks.against(std::pow(kBeta, lag), "EMA");
          annotate_sensitivity(ctx.checks, log_sensitivity(
              [&](double e, double b, double sc) { return std::pow(theory::beta_tilde(b, e, sc * lam), lag); },
              eta, kBeta));
        }
        // Σ_{k=0}^{K} β̃^k differs from τ by the deterministic tail |β̃|^{K+1}/(1−β̃).
        ctx.checks.mc(fmt::format("{}/{}/{}/horizon", k, s.name, dir_name(i)), theory::horizon(bt),
                      mean[L.horizon(i)], se[L.horizon(i)], 0.0, std::pow(std::abs(bt), kSteps + 1) / (1.0 - bt));
        ctx.checks.against(theory::horizon(kBeta), "EMA");
        annotate_sensitivity(ctx.checks, log_sensitivity(
            [&](double e, double b, double sc) { return theory::horizon(theory::beta_tilde(b, e, sc * lam)); },
            eta, kBeta));
      }
      // Off-diagonal entries: E[P_k] is diagonal in the eigenbasis, so every u_j component
      // (j ≠ i) of the pushed u_iᵀ has mean 0. Summarized by the worst |z| of n(n−1).
      for (std::size_t f = 0; f < kFullLags.size(); ++f) {
        double worst_z = -1, wm = 0, wse = 0;
        for (int c = 0; c < n; ++c)
          for (int r = 0; r < n; ++r) {
            if (r == c) continue;
            const std::size_t o = L.full(f, r, c);
            const double z = std::abs(mean[o]) / se[o];
            if (z > worst_z) worst_z = z, wm = mean[o], wse = se[o];
          }
        // EMA transports by βI, diagonal too, so EMA is no alternative here; the prediction is 0
        // and no relative effect is defined: the check makes no power claim (check/power.hpp).
        // It can still fail the claim (a non-diagonal E[P_k] contradicts lem:transport).
        ctx.checks.mc_family(fmt::format("{}/{}/offdiag/lag={}", k, s.name, kFullLags[f]), 0.0, wm, wse,
                             static_cast<long long>(n) * (n - 1));
      }
    }
    ctx.checks.exact(k + "/expansion-equals-recursion (max entry diff / ‖M‖)", 0.0, expansion_rel[kk], 0.0, 1e-10);
  }
  // Pooled recovery of η, β and the λ scale from every recorded lag (1–60) and horizon of
  // every run at once (check/pooled.hpp), the claim's resolution; read from the control-variate
  // observables (same means, smaller variance), with the plain ones kept for the reduction factor.
  PooledRecovery pooled, plain;
  for (const Run& run : runs) {
    add_pooled(pooled, run.res, transport_terms(run, true), kBeta);
    add_pooled(plain, run.res, transport_terms(run, false), kBeta);
  }
  pooled.record(ctx.checks);

  // ---- Record: per key, the lag and horizon tables and their figures ----
  for (const Key key : keys) record(ctx, key, settings, runs);
  ctx.params["pooled_control_variate"] = variance_reduction(plain, pooled);
}

const Registrar registration{{
    .id = "T3",
    .slug = "transport",
    .title = "Anisotropic memory transport: E[P_{ℓ→t}]u_i = β̃_i^{t−ℓ}u_i",
    .labels = "lem:transport eq:transport-expansion eq:horizon",
    .claim = "E[u_iᵀP_k] = β̃_i^k u_iᵀ (other components 0), Σ_k β̃_i^k = τ_i = 1/(1−β̃_i)",
    .body = t03_transport,
}};

}  // namespace akm::exp
