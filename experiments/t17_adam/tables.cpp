// T17 adam — the record: v̂ per entry and stream (data_v.csv), the contraction of every probe
// per lag (data_contraction.csv), the parameters to recompute every prediction without akm,
// and the finding on the dependent stream (the factorization of app:second-moment against
// Isserlis' exact value).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "t17_adam.hpp"

namespace akm::exp::t17 {

void record(ExperimentContext& ctx, const Model& md, const Vec& mean, const Vec& se, long long R) {
  const Mat RU = md.R * md.U;
  CsvTable vt{{"curve", "stream", "t", "i", "j", "factorized", "isserlis", "measured", "stderr"}, {}};
  double worst_dep_rel = 0, worst_dep_fact_z = 0;
  for (std::size_t c = 0; c < kVCheckpoints.size(); ++c) {
    const int t = kVCheckpoints[c];
    for (int j = 0; j < kN; ++j)
      for (int i = 0; i < kM; ++i) {
        const int e = j * kM + i;
        const double fact = md.v_factorized(i, j);
        const std::size_t o0 = Layout::v(c, 0, e), o1 = Layout::v(c, 1, e), o2 = Layout::v(c, 2, e);
        const double dep_fact = md.v_dependent_factorized(i, j), dep_iss = md.v_dependent_isserlis(i, j);
        worst_dep_rel = std::max(worst_dep_rel, (dep_iss - dep_fact) / dep_fact);
        if (t == kSteps) worst_dep_fact_z = std::max(worst_dep_fact_z, std::abs(mean[o2] - dep_fact) / se[o2]);
        vt.add({fmt::format("indep-Sigma/t={}", t), std::string("indep-Sigma"), t, i,
                j, fact, fact, mean[o0], se[o0]});
        vt.add({fmt::format("indep-Sigma-rotated/t={}", t), std::string("indep-Sigma-rotated"), t, i,
                j, fact, fact, mean[o0] + mean[o1],
                std::sqrt(se[o0] * se[o0] + se[o1] * se[o1])});
        vt.add({fmt::format("dependent/t={}", t), std::string("dependent"), t, i,
                j, dep_fact, dep_iss, mean[o2], se[o2]});
      }
  }
  ctx.out.write_csv("data_v.csv", vt);

  CsvTable ct{{"curve", "keys", "probe", "direction", "lag", "predicted", "measured", "stderr", "ema"}, {}};
  const char* probe_short[] = {"rotated", "old", "axis"};
  for (int q = 0; q < kRotProbes; ++q) {
    const int kind = q / kN, i = q % kN;
    const Vec w = rotated_probes(md).row(q).transpose();
    for (int lag = 1; lag <= kLags; ++lag) {
      const std::size_t o = Layout::rot(q, lag);
      ct.add({fmt::format("rot/{}/{}", probe_short[kind], dir_name(i)), std::string("Sigma-rotated"),
              std::string(probe_short[kind]), dir_name(i), lag, md.contraction(w, RU, lag), mean[o], se[o],
              std::pow(kBeta, lag)});
    }
  }
  for (int q = 0; q < kBaseProbes; ++q) {
    const int kind = q / kN == 0 ? old_eig : axis, i = q % kN;
    const Vec w = base_probes(md).row(q).transpose();
    for (int lag = 1; lag <= kLags; ++lag) {
      const std::size_t o = Layout::base(q, lag);
      ct.add({fmt::format("base/{}/{}", probe_short[kind], dir_name(i)), std::string("Sigma"),
              std::string(probe_short[kind]), dir_name(i), lag,
              md.contraction(w, md.U, lag), mean[o], se[o], std::pow(kBeta, lag)});
    }
  }
  ctx.out.write_csv("data_contraction.csv", ct);

  // Parameters to recompute every prediction without akm.
  auto rows = [](const Mat& A) {
    nlohmann::json j = nlohmann::json::array();
    for (int r = 0; r < A.rows(); ++r) j.push_back(to_std(A.row(r).transpose()));
    return j;
  };
  const Mat overlap = (md.U.transpose() * RU).array().square().matrix();  // (u_iᵀ R u_l)²
  ctx.params = {{"n", kN}, {"m", kM}, {"beta", kBeta}, {"eta", kEta}, {"beta2", kBeta2}, {"key", "normalized"},
                {"theta", kTheta}, {"steps", kSteps}, {"lags", kLags}, {"trials", R},
                {"v_checkpoints", kVCheckpoints}, {"check_lags", kCheckLags},
                {"value_sd_independent", kValueSd}, {"dep_noise_sigma", kDepNoise},
                {"lambda", kLambda}, {"lambda_hat", to_std(md.lambda_hat)}, {"beta_tilde", to_std(md.beta_tilde)},
                {"U_columns_are_eigenvectors", rows(md.U)}, {"R", rows(md.R)}, {"Sigma", rows(md.sigma)},
                {"Sigma_rotated", rows(md.sigma_rot)}, {"A_dependent", rows(md.A)},
                {"overlap_sq_u_i_R_u_l", rows(overlap)},
                {"adamw", {{"lr", 1e-3}, {"beta1", kBeta}, {"beta2", kBeta2}, {"eps", 1e-8}, {"weight_decay", 0.1}}},
                {"bias_correction", "v̂ = v/(1−β2^t); AK-AdamW divides M by 1−β^t (AdamW's factor, unchanged)"},
                {"findings", nlohmann::json::array(
                     {{{"claim", "v_ij ≈ E[δ_i²]E[x_j²] (app:second-moment, heuristic)"},
                       {"setting", "δ = A x + σξ dependent on x, jointly Gaussian"},
                       {"result", "exact value E[δ_i²]Σ_jj(1 + 2ρ_ij²) (Isserlis); the factorization "
                                  "underestimates by up to this relative amount"},
                       {"max_relative_departure", worst_dep_rel},
                       {"max_z_measured_vs_factorized_at_last_step", worst_dep_fact_z}}})}};

  ctx.findings.push_back(fmt::format(
      "δ dependent on x (δ = Ax + σξ): E[v̂_ij] = E[δ_i²]Σ_jj(1 + 2ρ_ij²) (Isserlis), so the factorization of "
      "app:second-moment underestimates v by up to {:.1f}%; at t = {} the measured v̂ sits up to {:.1f} standard "
      "errors from the factorized value", 100 * worst_dep_rel, kSteps, worst_dep_fact_z));

}

}  // namespace akm::exp::t17
