// T21 ratio — [eq:ratio, eq:horizon]
//
// "Along direction u_i the delta rule forgets at (1−β) + ηλ̂_i per step against EMA's (1−β), a
// ratio of 1 + r_i, r_i := ηλ̂_i/(1−β) [eq:ratio] … It shortens the memory window." Two parts,
// both on the normalized key the ratio is stated for:
//  forgetting  the share of a stored association along u_i lost in one step,
//              1 − E[u_iᵀ(βI − ηx̂x̂ᵀ)u_i], over EMA's 1 − β: predicted 1 + r_i;
//  window      the memory window Σ_k E[u_iᵀP_k u_i] = τ_i [eq:horizon] over EMA's
//              1/(1−β): predicted 1/(1 + r_i).
// The rival is EMA momentum [eq:ema-update], which forgets every direction at 1 − β: ratio 1 in
// both parts. Keys are independent Gaussian vectors drawn in the eigenbasis (docs/architecture.md,
// "Simulating in the eigenbasis"), so direction u_i is coordinate i and the transport of the
// identity, P_k = Π_{j≤k}(βI − ηx̂_jx̂_jᵀ), carries every direction at once.
#include "akm/rules/kernels.hpp"
#include "common.hpp"
#include "sensitivity.hpp"

namespace akm::exp {
namespace {

constexpr double kEta = 0.5;  // r_i = 5λ̂_i at β = 0.9
constexpr int kSteps = 150;   // the window's sum stops here; its tail is a bias bound below

/// One trial's observables: forgetting ratio f_i at lag 1, then window fraction w_i.
std::size_t forgetting_at(int i) { return static_cast<std::size_t>(i); }
std::size_t window_at(int n, int i) { return static_cast<std::size_t>(n + i); }

/// eq:ratio's closed forms from theory (one source of truth), as functions of (η, β, λ̂ scale)
/// so that sensitivity() differentiates the same formula the check uses.
double forgetting_ratio(double eta, double beta, double lam_hat) { return 1.0 + theory::ratio_r(beta, eta, lam_hat); }
double window_ratio(double eta, double beta, double lam_hat) { return 1.0 / forgetting_ratio(eta, beta, lam_hat); }

}  // namespace

static void t21_ratio(ExperimentContext& ctx) {
  // ---- Set-up: the spectrum, its exact λ̂_i and every prediction ----
  const Setting s = make_setting("power", kPower, ctx.opts.seed);
  const int n = s.n();
  const Vec& lh = s.moments.lambda_hat;
  const long long R = trials(ctx, 20000, 2000);
  ctx.params = setting_params(s);
  ctx.params.update({{"beta", kBeta}, {"eta", kEta}, {"steps", kSteps}, {"trials", R}, {"key", "normalized"},
                     {"prediction", "forgetting ratio 1 + r_i, window ratio 1/(1 + r_i), r_i = eta lambda_hat_i/(1-beta)"}});

  // ---- Simulate: the transport of the identity, normalized keys ----
  const std::uint64_t seed = derive_seed(ctx.opts.seed, "T21/power");
  auto kernel = [&](long long trial, double* out) {
    Stream keys(seed, trial, Purpose::keys);
    Mat P = Mat::Identity(n, n);
    Vec x(n), k(n), r(n);
    for (int i = 0; i < n; ++i) out[window_at(n, i)] = 1.0 - kBeta;  // k = 0 term of Σ_k P_k, times 1−β
    for (int step = 1; step <= kSteps; ++step) {
      kern::gaussian_key(keys, s.sqrt_lambda, x);
      kern::key_for(Key::normalized, x, k);
      kern::transport_step(P, k, kBeta, kEta, r);
      for (int i = 0; i < n; ++i) {
        if (step == 1) out[forgetting_at(i)] = (1.0 - P(i, i)) / (1.0 - kBeta);
        out[window_at(n, i)] += (1.0 - kBeta) * P(i, i);
      }
    }
  };
  const McResult res = monte_carlo(ctx.mc(R, "T21 transport"), static_cast<std::size_t>(2 * n), kernel);

  // ---- Check: per direction, both parts against EMA's ratio 1 ----
  for (int i = 0; i < n; ++i) {
    ctx.checks.mc(fmt::format("forgetting/{}", dir_name(i)), forgetting_ratio(kEta, kBeta, lh[i]),
                  res.total.estimate(static_cast<Eigen::Index>(forgetting_at(i))));
    ctx.checks.against(1.0, "EMA");
    sensitivity(ctx.checks, [&](double e, double b, double m) { return forgetting_ratio(e, b, m * lh[i]); }, kEta, kBeta);
    // The sum stops at kSteps: (1−β)·Σ_{k>K} β̃^k = (1−β)|β̃|^{K+1}/(1−β̃) is the deterministic tail.
    const double bt = theory::beta_tilde(kBeta, kEta, lh[i]);
    ctx.checks.mc(fmt::format("window/{}", dir_name(i)), window_ratio(kEta, kBeta, lh[i]),
                  res.total.estimate(static_cast<Eigen::Index>(window_at(n, i))), 0.0,
                  (1.0 - kBeta) * std::pow(std::abs(bt), kSteps + 1) / (1.0 - bt));
    ctx.checks.against(1.0, "EMA");
    sensitivity(ctx.checks, [&](double e, double b, double m) { return window_ratio(e, b, m * lh[i]); }, kEta, kBeta);
  }

  // ---- Record: one table, one figure ----
  const Vec mean = res.total.mean(), se = res.total.stderr_mean();
  CsvTable t{{"part", "direction", "lam_hat", "r", "predicted", "measured", "stderr"}, {}};
  for (int i = 0; i < n; ++i) {
    const double r = theory::ratio_r(kBeta, kEta, lh[i]);
    t.add({"forgetting", dir_name(i), lh[i], r, forgetting_ratio(kEta, kBeta, lh[i]), mean[forgetting_at(i)],
           se[forgetting_at(i)]});
    t.add({"window", dir_name(i), lh[i], r, window_ratio(kEta, kBeta, lh[i]), mean[window_at(n, i)],
           se[window_at(n, i)]});
  }
  ctx.out.write_csv("data_ratio.csv", t);
  Figure fig;
  fig.name = "ratio";
  fig.title = "T21: AK against EMA per direction, forgetting 1 + r_i and window 1/(1 + r_i)";
  fig.xlabel = "λ̂_i";
  fig.ylabel = "AK / EMA";
  fig.logx = true;
  for (const char* part : {"forgetting", "window"})
    fig.measured_vs_predicted({.csv = "data_ratio.csv", .x = "lam_hat", .measured_title = fmt::format("measured {}", part),
                               .predicted_title = fmt::format("predicted {}", part), .where = fmt::format("part={}", part)});
  fig.functions = {"1 title 'EMA (ratio 1)' lc rgb 'gray40' dt 2"};
  ctx.out.figure(fig);
}

const Registrar registration{{
    .id = "T21",
    .slug = "ratio",
    .title = "One ratio organizes the gains: AK forgets (1−β) + ηλ̂_i per step against EMA's 1 − β",
    .labels = "eq:ratio eq:horizon",
    .claim = "forgetting AK/EMA = 1 + r_i and memory window AK/EMA = 1/(1 + r_i), r_i = ηλ̂_i/(1−β)",
    .body = t21_ratio,
}};

}  // namespace akm::exp
