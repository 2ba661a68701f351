// E1 mean square — C. T3's second moments and predicted standard errors.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "akm/spectrum/fourth_moment.hpp"
#include "akm/sim/ops/transport_product.hpp"
#include "akm/theory/phase.hpp"
#include "e01_mean_square.hpp"
#include "pooled.hpp"
#include "sensitivity.hpp"

namespace akm::exp::e01 {

namespace {

// The transport's second-moment map S of row u_iᵀP [E1, akm/theory/phase.hpp] at (η, β) with
// the spectrum scaled by m: the raw map reads λ·m; the normalized one λ̂·m and Q·m² (Q_ij =
// E[x̂_i²x̂_j²] scales as λ̂_iλ̂_j).
Mat second_moment_map(Key key, const Setting& s, double e, double b, double m) {
  return key == Key::raw ? phase::ms_matrix_raw(m * s.spectrum.lambda, b, e)
                         : phase::ms_matrix_normalized(m * s.moments.lambda_hat, m * m * s.moments.fourth, b, e);
}

// E[(u_iᵀP_k u_i)²] = (S^k)_ii as a function of (η, β, spectrum multiplier m): the checks'
// prediction and sensitivities, and the pooled recovery's.
double second_moment(Key key, const Setting& s, double e, double b, double m, int i, int lag) {
  const Mat Sm = second_moment_map(key, s, e, b, m);
  Vec u = Vec::Zero(s.n());
  u[i] = 1.0;
  for (int t = 0; t < lag; ++t) u = Sm * u;
  return u[i];
}

}  // namespace

T3Variances measure_t3(ExperimentContext& ctx, Key key, const Setting& s, long long R) {
  const std::string k = to_string(key);
  const int n = s.n();
  const double eta = key == Key::raw ? raw_eta(s, 0.4) : kT3EtaNorm;  // T3's settings
  const int L = static_cast<int>(kLags.size()), K = kLags.back();
  const std::vector<int> dirs = shown_directions(n);
  const std::size_t nd = dirs.size();
  // T3's transport product from the identity with the squared diagonals, lags 1..K (ops/transport_product.hpp).
  ops::TransportProduct op;
  op.sqrt_lambda = s.sqrt_lambda;
  op.key = key;
  op.beta = kT3Beta;
  op.eta = eta;
  op.second_moment = Vec(n);  // E[k_i²], the control variates' centring (unread here)
  for (int i = 0; i < n; ++i) op.second_moment[i] = s.lam(key, i);
  op.steps = op.lags = K;
  op.full_lags = {};
  op.squares = true;
  const ops::TransportProductLayout layout = op.layout();
  T3Variances out{key, eta,
                  ops::transport_product(op, derive_seed(ctx.opts.seed, "E1/T3/" + k), ctx.backend(),
                                         ctx.mc(R, "E1 T3 second moments " + k, kGroups)),
                  {}};
  const McResult& res = out.res;
  const Mat S = second_moment_map(key, s, eta, kT3Beta, 1.0);
  for (std::size_t d = 0; d < nd; ++d) {
    const int i = dirs[d];
    Vec sv = Vec::Zero(n);
    sv[i] = 1.0;  // row u_iᵀ: s_0 = e_i
    const std::vector<double> fourth =
        key == Key::raw ? fourth::diagonal_fourth_raw(s.spectrum.lambda, kT3Beta, eta, i, K) : std::vector<double>{};
    int lag = 0;
    for (int li = 0; li < L; ++li) {
      while (lag < kLags[li]) sv = S * sv, ++lag;
      SecondMoment pt{fmt::format("{}/{}/lag={}/E[P_ii²]", k, dir_name(i), lag), i, lag, theory::beta_tilde(kT3Beta, eta, s.lam(key, i)), sv[i], 0.0,
                      std::numeric_limits<double>::quiet_NaN(), {}, layout.diag(lag, i), layout.square(lag, i), false};
      pt.pred_var = pt.pred2 - std::pow(pt.bt, 2 * lag);  // pred2 = E[(u_iᵀP_k u_i)²]
      pt.e = res.total.estimate(static_cast<Eigen::Index>(pt.o2));
      if (key == Key::raw) {
        // Var(P_ii²) = E[P_ii⁴] − (E[P_ii²])², both exact: standardized, not studentized
        // (the skewness stays the sample's).
        pt.exact_se = std::sqrt(std::max(0.0, fourth[static_cast<std::size_t>(lag - 1)] - pt.pred2 * pt.pred2) /
                                static_cast<double>(res.total.count()));
        pt.e.se = pt.exact_se;
        pt.e.se_exact = true;
        pt.e.dof = std::numeric_limits<double>::infinity();
        pt.gated = pt.exact_se > kMaxExactRelativeSe * pt.pred2;
      }
      out.points.push_back(pt);
    }
  }
  return out;
}

void check_t3(ExperimentContext& ctx, const Setting& s, const T3Variances& v) {
  for (const SecondMoment& pt : v.points) {
    const int i = pt.i, lag = pt.lag;
    if (pt.gated) {
      ctx.gate(pt.name, fmt::format("E1 no-power gate (docs/statistics.md, \"Check rules\"): the exact standard error of the mean is "
                                 "{:.3g} × the prediction (> {:g}), so the check cannot tell the prediction from 0",
                                 pt.exact_se / pt.pred2, kMaxExactRelativeSe));
    } else {
      ctx.checks.mc(pt.name, pt.pred2, pt.e);
      // EMA alternative: the EMA buffer transports every row by β^k, so E[P_ii²] = β^{2k}.
      ctx.checks.against(std::pow(kT3Beta, 2 * lag), "EMA");
      sensitivity(ctx.checks, [&](double et, double b, double m) { return second_moment(v.key, s, et, b, m, i, lag); }, v.eta,
                  kT3Beta);
    }
  }
}

void add_pooled(PooledRecovery& pooled, const Setting& s, const T3Variances& v) {
  // Every shown direction and lag: the mean E[u_iᵀP_k u_i] = β̃_i^k [lem:transport] and the
  // second moment (S^k)_ii. The raw key's second moments are left out: their sample error is
  // unreliable (header), and the check replaces it by the exact one, which the jackknife of a
  // pooled recovery cannot use; so are its means at gated points, whose sample error reads
  // the same unreliable second moment.
  const bool raw = v.key == Key::raw;
  std::vector<PooledTerm> terms;
  for (const SecondMoment& pt : v.points) {
    const int i = pt.i, lag = pt.lag;
    const double lam = s.lam(v.key, i);
    if (!(raw && pt.gated))
      terms.push_back({pt.o, [lam, lag](double e, double b, double m) { return std::pow(theory::beta_tilde(b, e, m * lam), lag); },
                       v.eta});
    if (!raw)
      terms.push_back({pt.o2,
                       [&s, key = v.key, i, lag](double e, double b, double m) { return second_moment(key, s, e, b, m, i, lag); },
                       v.eta});
  }
  akm::exp::add_pooled(pooled, v.res, terms, kT3Beta);
}

CsvTable record_t3(const T3Variances& v, nlohmann::json& not_checked) {
  CsvTable table{{"direction", "lag", "beta_tilde", "predicted_second_moment", "measured_second_moment", "stderr",
                  "exact_stderr", "predicted_sd", "observed_sd", "predicted_se_T3"},
                 {}};
  const Vec mean = v.res.total.mean(), se = v.res.total.stderr_mean(), var = v.res.total.variance();
  for (const SecondMoment& pt : v.points) {
    const std::size_t o = pt.o, o2 = pt.o2;
    if (pt.gated)
      not_checked.push_back({{"check", pt.name},
                             {"exact_relative_se", pt.exact_se / pt.pred2}});
    table.add({dir_name(pt.i), pt.lag, pt.bt, pt.pred2, mean[o2], se[o2], pt.exact_se,
               std::sqrt(std::max(0.0, pt.pred_var)), std::sqrt(var[o]),
               std::sqrt(std::max(0.0, pt.pred_var) / kT3Trials)});
  }
  return table;
}

}  // namespace akm::exp::e01
