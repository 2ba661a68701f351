// T2 targets, the K-FAC input-side factor [rem:kfac]. The claims: claim.cpp.
#include "t02_targets.hpp"

namespace akm::exp::t02 {
namespace {

// ------------------------------------------------ K-FAC input-side factor [rem:kfac]

/// P^t by repeated multiplication, in whatever basis P is given (no eigendecomposition).
Mat matrix_power(const Mat& P, int t) {
  Mat R = Mat::Identity(P.rows(), P.cols());
  for (int s = 0; s < t; ++s) R = R * P;
  return R;
}

// (a) [eq:dm-fixedpoint] at β = 1, M* = ηḠ((1−β)I + ηΣ)^{-1} by an SPD solve, against the
// K-FAC input-side factor ḠΣ^{-1} by explicit inversion, and the factor read off the
// Kronecker-factored Fisher (kfac_input_factor): the two relative distances.
void kfac_exact(const Dense& d, KfacRun& run) {
  const int n = d.n();
  constexpr double beta = 1.0;
  const Mat gbar = d.gbar();
  const Mat closed = ((1.0 - beta) * Mat::Identity(n, n) + run.eta * d.sigma)
                         .ldlt()
                         .solve(run.eta * gbar.transpose())
                         .transpose();
  run.closed_vs_factor = rel_dist(closed, run.factor);
  run.kron_vs_closed = rel_dist(kfac_input_factor(d), closed);
}

// (b) The pure delta rule [eq:delta-rule] (AK raw key at β = 1) in the dense basis, M_t at
// every checkpoint (dense_buffer: ops::row_buffers).
McResult simulate_kfac(ExperimentContext& ctx, const Dense& d, double eta, long long R) {
  return dense_buffer(ctx, d, {BufferKind::ak_raw, 1.0, eta, kKfacCheckpoints, false},
                      derive_seed(ctx.opts.seed, "T2/kfac"), R, "T2 K-FAC");
}

}  // namespace

// [rem:kfac] With F = E[xxᵀ] ⊗ E[δδᵀ] acting on column-major vec(M), F vec(X) = vec(ΓXΣ)
// (Γ = E[δδᵀ]), so F^{-1}vec(Ḡ) = vec(Γ^{-1}ḠΣ^{-1}): removing the output side Γ leaves the
// input-side factor. Built entry by entry from the Kronecker product, never from Σ^{-1}.
Mat kfac_input_factor(const Dense& d) {
  const int n = d.n();
  const Mat gbar = d.gbar();
  const Mat gamma = d.A * d.sigma * d.A.transpose() + kNoise * kNoise * Mat::Identity(kM, kM);
  Mat F(kM * n, kM * n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) F.block(a * kM, b * kM, kM, kM) = d.sigma(a, b) * gamma;
  const Vec ng = F.ldlt().solve(Eigen::Map<const Vec>(gbar.data(), gbar.size()));
  const Mat natural = Eigen::Map<const Mat>(ng.data(), kM, n);
  return gamma * natural;
}

KfacRun measure_kfac(ExperimentContext& ctx, const Dense& d) {
  KfacRun run;
  const int n = d.n();
  run.eta = kEtaLamMax / d.sp.lambda.maxCoeff();
  run.rho = require_mean_square_stable(d.sp.lambda, 1.0, run.eta, "K-FAC pure delta");
  run.factor = d.gbar() * d.sigma.partialPivLu().inverse();  // ḠΣ^{-1}, explicit
  kfac_exact(d, run);
  // E[M_t] = ḠΣ^{-1}(I − (I − ηΣ)^t) for every entry; the rival is the same transient
  // without the input-side factor Σ^{-1}, i.e. the buffer converging to Ḡ as EMA's does.
  const Mat P = Mat::Identity(n, n) - run.eta * d.sigma;
  for (const int t : kKfacCheckpoints) {
    run.pred.push_back(run.factor * (Mat::Identity(n, n) - matrix_power(P, t)));
    run.alt.push_back(d.gbar() * (Mat::Identity(n, n) - matrix_power(P, t)));
  }
  run.trials = trials(ctx, 6000, 600);
  run.res = simulate_kfac(ctx, d, run.eta, run.trials);
  return run;
}

// (a) exact; (b) one family check per checkpoint reports the worst entry.
void check_kfac(ExperimentContext& ctx, const Dense& d, const KfacRun& run) {
  ctx.checks.exact("kfac/M*(beta=1) = G Sigma^-1 (explicit LU inverse)", 0.0, run.closed_vs_factor, 0.0, kRel);
  ctx.checks.exact("kfac/E[dd^T] F^-1 G (natural gradient, output side removed) = M*(beta=1)",
                   0.0, run.kron_vs_closed, 0.0, kRel);
  const Vec mean = run.res.total.mean(), se = run.res.total.stderr_mean();
  const std::size_t block = static_cast<std::size_t>(kM) * d.n();
  for (std::size_t cp = 0; cp < kKfacCheckpoints.size(); ++cp) {
    const Mat& pred = run.pred[cp];
    std::size_t worst = 0;
    double worst_z = -1;
    for (std::size_t e = 0; e < block; ++e) {
      const double z = std::abs(mean[cp * block + e] - pred(e)) / se[cp * block + e];
      if (z > worst_z) worst_z = z, worst = e;
    }
    ctx.checks.mc_family(
        fmt::format("kfac/t={}/E[M_t] = G Sigma^-1 (I - (I - eta Sigma)^t), worst of {} entries",
                    kKfacCheckpoints[cp], block),
        pred(worst), run.res.total.estimate(static_cast<Eigen::Index>(cp * block + worst)),
        static_cast<long long>(block));
    ctx.checks.against(run.alt[cp](static_cast<Eigen::Index>(worst)), "G (no Sigma^-1)");
  }
}

void record_kfac(ExperimentContext& ctx, const Dense& d, const KfacRun& run) {
  const int n = d.n();
  const Vec mean = run.res.total.mean(), se = run.res.total.stderr_mean();
  const std::size_t block = static_cast<std::size_t>(kM) * n;
  CsvTable table{{"t", "row", "col", "predicted", "measured", "stderr"}, {}};
  for (std::size_t cp = 0; cp < kKfacCheckpoints.size(); ++cp)
    for (std::size_t e = 0; e < block; ++e)
      table.add({kKfacCheckpoints[cp], e % kM, e / kM, run.pred[cp](static_cast<Eigen::Index>(e)),
                 mean[cp * block + e], se[cp * block + e]});
  ctx.out.write_csv("data_kfac.csv", table);
  nlohmann::json out = dense_params(d);
  out.update({{"beta", 1.0}, {"eta", run.eta}, {"checkpoints", kKfacCheckpoints},
              {"mean_square_radius", run.rho}, {"M0", "zero"},
              {"prediction", "E[M_t] = A Sigma Sigma^-1 (I - (I - eta Sigma)^t), Sigma = U diag(lambda) U^T"}});
  out["trials"] = run.trials;
  const Mat P = Mat::Identity(n, n) - run.eta * d.sigma;
  out["remaining_transient_norm"] = matrix_power(P, kKfacCheckpoints.back()).norm();
  ctx.params["kfac"] = out;
}

}  // namespace akm::exp::t02
