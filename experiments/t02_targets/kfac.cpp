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

// (a) [eq:dm-fixedpoint] at β = 1, M* = ηḠ((1−β)I + ηΣ)^{-1} by an SPD solve, equals the
// K-FAC input-side factor ḠΣ^{-1} by explicit inversion, and the factor read off the
// Kronecker-factored Fisher (kfac_input_factor).
void kfac_exact(ExperimentContext& ctx, const Dense& d, double eta, const Mat& factor) {
  const int n = d.n();
  constexpr double beta = 1.0;
  const Mat gbar = d.gbar();
  const Mat closed = ((1.0 - beta) * Mat::Identity(n, n) + eta * d.sigma)
                         .ldlt()
                         .solve(eta * gbar.transpose())
                         .transpose();
  ctx.checks.exact("kfac/M*(beta=1) = G Sigma^-1 (explicit LU inverse)", 0.0,
                   rel_dist(closed, factor), 0.0, kRel);
  ctx.checks.exact("kfac/E[dd^T] F^-1 G (natural gradient, output side removed) = M*(beta=1)",
                   0.0, rel_dist(kfac_input_factor(d), closed), 0.0, kRel);
}

// (b) The reference rules::pure_delta in the dense basis: E[M_t] = ḠΣ^{-1}(I − (I − ηΣ)^t)
// for every entry; one family check per checkpoint reports the worst entry.
void kfac_monte_carlo(ExperimentContext& ctx, const Dense& d, double eta, const Mat& factor,
                      nlohmann::json& out) {
  const long long R = trials(ctx, 6000, 600);
  const std::uint64_t seed = derive_seed(ctx.opts.seed, "T2/kfac");
  const int n = d.n(), T = kKfacCheckpoints.back();
  const std::size_t block = static_cast<std::size_t>(kM) * n;
  auto kernel = [&](long long trial, double* obs) {
    Stream keys(seed, trial, Purpose::keys), noise(seed, trial, Purpose::noise);
    Mat M = Mat::Zero(kM, n);
    Vec z(n), x(n), delta(kM);
    std::size_t cp = 0;
    for (int t = 1; t <= T; ++t) {
      d.key(keys, z, x);
      delta.noalias() = d.A * x;
      for (int q = 0; q < kM; ++q) delta[q] += kNoise * noise.normal();
      rules::pure_delta(M, delta, x, eta);
      if (cp < kKfacCheckpoints.size() && t == kKfacCheckpoints[cp]) {
        std::copy(M.data(), M.data() + block, obs + cp * block);
        ++cp;
      }
    }
  };
  const auto res = monte_carlo(ctx.mc(R, "T2 K-FAC"), kKfacCheckpoints.size() * block, kernel);
  const Vec mean = res.total.mean(), se = res.total.stderr_mean();
  const Mat P = Mat::Identity(n, n) - eta * d.sigma;
  CsvTable table{{"t", "row", "col", "predicted", "measured", "stderr"}, {}};
  for (std::size_t cp = 0; cp < kKfacCheckpoints.size(); ++cp) {
    const int t = kKfacCheckpoints[cp];
    const Mat pred = factor * (Mat::Identity(n, n) - matrix_power(P, t));
    std::size_t worst = 0;
    double worst_z = -1;
    for (std::size_t e = 0; e < block; ++e) {
      const double z = std::abs(mean[cp * block + e] - pred(e)) / se[cp * block + e];
      if (z > worst_z) worst_z = z, worst = e;
      table.add({t, e % kM,
                 e / kM, pred(e), mean[cp * block + e], se[cp * block + e]});
    }
    ctx.checks.mc_family(
        fmt::format("kfac/t={}/E[M_t] = G Sigma^-1 (I - (I - eta Sigma)^t), worst of {} entries", t,
                    block),
        pred(worst), res.total.estimate(static_cast<Eigen::Index>(cp * block + worst)),
        static_cast<long long>(block));
    // Alternative at the reported (worst) entry: the same transient without the input-side
    // factor Σ^{-1}, i.e. the buffer converging to Ḡ as EMA's does.
    const Mat alt = d.gbar() * (Mat::Identity(n, n) - matrix_power(P, t));
    ctx.checks.against(alt(static_cast<Eigen::Index>(worst)), "G (no Sigma^-1)");
  }
  ctx.out.write_csv("data_kfac.csv", table);
  out["trials"] = R;
  out["remaining_transient_norm"] = matrix_power(P, T).norm();
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

void kfac(ExperimentContext& ctx, const Dense& d) {
  const double eta = kEtaLamMax / d.sp.lambda.maxCoeff();
  const double rho = require_mean_square_stable(d.sp.lambda, 1.0, eta, "K-FAC pure delta");
  const Mat factor = d.gbar() * d.sigma.partialPivLu().inverse();  // ḠΣ^{-1}, explicit
  nlohmann::json out = dense_params(d);
  out.update({{"beta", 1.0}, {"eta", eta}, {"checkpoints", kKfacCheckpoints},
              {"mean_square_radius", rho}, {"M0", "zero"},
              {"prediction", "E[M_t] = A Sigma Sigma^-1 (I - (I - eta Sigma)^t), Sigma = U diag(lambda) U^T"}});
  kfac_exact(ctx, d, eta, factor);
  kfac_monte_carlo(ctx, d, eta, factor, out);
  ctx.params["kfac"] = out;
}

}  // namespace akm::exp::t02
