// E1 mean square — C. T3's second moments and predicted standard errors.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "akm/spectrum/fourth_moment.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/theory/phase.hpp"
#include "e01_mean_square.hpp"
#include "sensitivity.hpp"

namespace akm::exp::e01 {

void t3_variances(ExperimentContext& ctx, Key key, const Setting& s, long long R, CsvTable& table,
                  nlohmann::json& not_checked) {
  const std::string k = to_string(key);
  const int n = s.n();
  const double eta = key == Key::raw ? raw_eta(s, 0.4) : kT3EtaNorm;  // T3's settings
  const int L = static_cast<int>(kLags.size()), K = kLags.back();
  const std::vector<int> dirs = shown_directions(n);
  const std::size_t nd = dirs.size();
  auto kernel = [&](long long trial, double* out) {
    Stream keys(derive_seed(ctx.opts.seed, "E1/T3/" + k), static_cast<std::uint64_t>(trial), Purpose::keys);
    Mat P = Mat::Identity(n, n);
    Vec x(n), kk(n), r(n);
    int li = 0;
    for (int lag = 1; lag <= K; ++lag) {
      kern::gaussian_key(keys, s.sqrt_lambda, x);
      kern::key_for(key, x, kk);
      kern::transport_step(P, kk, kT3Beta, eta, r);
      if (lag == kLags[li]) {
        for (std::size_t d = 0; d < nd; ++d) {
          const double v = P(dirs[d], dirs[d]);
          out[(li * nd + d) * 2] = v;
          out[(li * nd + d) * 2 + 1] = v * v;
        }
        ++li;
      }
    }
  };
  const McResult res = monte_carlo(ctx.mc(R, "E1 T3 second moments " + k), static_cast<std::size_t>(L) * nd * 2, kernel);
  const Vec mean = res.total.mean(), se = res.total.stderr_mean(), var = res.total.variance();
  const Mat S = key == Key::raw ? phase::ms_matrix_raw(s.spectrum.lambda, kT3Beta, eta)
                                : phase::ms_matrix_normalized(s.moments.lambda_hat, s.moments.fourth, kT3Beta, eta);
  // E[(u_iᵀP_k u_i)²] = (S^k)_ii as a function of (η, β, spectrum multiplier m), for the
  // sensitivities: the raw map reads λ·m; the normalized one λ̂·m and Q·m² (Q_ij = E[x̂_i²x̂_j²]
  // scales as λ̂_iλ̂_j).
  auto second_moment = [&](double e, double b, double m, int i, int lag) {
    const Mat Sm = key == Key::raw ? phase::ms_matrix_raw(m * s.spectrum.lambda, b, e)
                                   : phase::ms_matrix_normalized(m * s.moments.lambda_hat, m * m * s.moments.fourth, b, e);
    Vec v = Vec::Zero(n);
    v[i] = 1.0;
    for (int t = 0; t < lag; ++t) v = Sm * v;
    return v[i];
  };
  for (std::size_t d = 0; d < nd; ++d) {
    const int i = dirs[d];
    Vec sv = Vec::Zero(n);
    sv[i] = 1.0;  // row u_iᵀ: s_0 = e_i
    const std::vector<double> fourth =
        key == Key::raw ? fourth::diagonal_fourth_raw(s.spectrum.lambda, kT3Beta, eta, i, K) : std::vector<double>{};
    int lag = 0;
    for (int li = 0; li < L; ++li) {
      while (lag < kLags[li]) sv = S * sv, ++lag;
      const double pred2 = sv[i];  // E[(u_iᵀP_k u_i)²]
      const double bt = theory::beta_tilde(kT3Beta, eta, s.lam(key, i));
      const double pred_var = pred2 - std::pow(bt, 2 * lag);
      const std::size_t o = (li * nd + d) * 2;
      MeanEstimate e = res.total.estimate(static_cast<Eigen::Index>(o + 1));
      double exact_se = std::numeric_limits<double>::quiet_NaN();
      if (key == Key::raw) {
        // Var(P_ii²) = E[P_ii⁴] − (E[P_ii²])², both exact: standardized, not studentized
        // (the skewness stays the sample's).
        exact_se = std::sqrt(std::max(0.0, fourth[static_cast<std::size_t>(lag - 1)] - pred2 * pred2) /
                             static_cast<double>(res.total.count()));
        e.se = exact_se;
        e.se_exact = true;
        e.dof = std::numeric_limits<double>::infinity();
      }
      const std::string name = fmt::format("{}/{}/lag={}/E[P_ii²]", k, dir_name(i), lag);
      if (key == Key::raw && exact_se > kMaxExactRelativeSe * pred2) {
        not_checked.push_back({{"check", name}, {"exact_relative_se", exact_se / pred2}});
        ctx.gate(name, fmt::format("E1 no-power gate (docs/statistics.md, \"Check rules\"): the exact standard error of the mean is "
                                   "{:.3g} × the prediction (> {:g}), so the check cannot tell the prediction from 0",
                                   exact_se / pred2, kMaxExactRelativeSe));
      } else {
        ctx.checks.mc(name, pred2, e);
        // EMA alternative: the EMA buffer transports every row by β^k, so E[P_ii²] = β^{2k}.
        ctx.checks.against(std::pow(kT3Beta, 2 * lag), "EMA");
        sensitivity(ctx.checks, [&](double et, double b, double m) { return second_moment(et, b, m, i, lag); }, eta,
                    kT3Beta);
      }
      table.add({dir_name(i), lag, bt, pred2, mean[o + 1], se[o + 1], exact_se,
                 std::sqrt(std::max(0.0, pred_var)), std::sqrt(var[o]),
                 std::sqrt(std::max(0.0, pred_var) / kT3Trials)});
    }
  }
}

}  // namespace akm::exp::e01
