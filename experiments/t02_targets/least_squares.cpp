// T2 targets, sample least squares in a dense basis [app:divergent-optima]. The claims:
// claim.cpp.
#include "t02_targets.hpp"

#include "akm/sim/ops/sample_minimizers.hpp"

namespace akm::exp::t02 {
namespace {

/// argmin_M Σ_s ‖M − δ_s x_sᵀ‖_F² [def:wms] as a generic least-squares problem: the design
/// stacks one identity block per pair acting on vec(M); normal equations solved by LDLT.
Mat weight_space_minimizer(const Mat& X, const Mat& D) {
  const Eigen::Index S = X.rows(), m = D.cols(), n = X.cols(), k = m * n;
  Mat design = Mat::Zero(S * k, k);
  Vec y(S * k);
  for (Eigen::Index s = 0; s < S; ++s) {
    design.block(s * k, 0, k, k).setIdentity();
    const Mat g = D.row(s).transpose() * X.row(s);  // δ_s x_sᵀ
    y.segment(s * k, k) = Eigen::Map<const Vec>(g.data(), k);
  }
  const Vec v = (design.transpose() * design).ldlt().solve(design.transpose() * y);
  return Eigen::Map<const Mat>(v.data(), m, n);
}

/// argmin_M Σ_s ‖δ_s − M x_s‖² [def:fms]: X Mᵀ ≈ D by column-pivoted Householder QR.
Mat function_space_minimizer(const Mat& X, const Mat& D) {
  return X.colPivHouseholderQr().solve(D).transpose();
}

// [app:divergent-optima] on a finite sample: the minimizers equal Ḡ_S = DᵀX/S and
// Ḡ_S Σ_S^{-1} (Σ_S = XᵀX/S, explicit LU inverse), to rounding.
std::vector<ExactSample> exact_minimizers(ExperimentContext& ctx, const Dense& d) {
  Stream keys(derive_seed(ctx.opts.seed, "T2/ls/sample"), 0, Purpose::keys);
  Stream noise(derive_seed(ctx.opts.seed, "T2/ls/sample"), 0, Purpose::noise);
  std::vector<ExactSample> out;
  for (const int S : kSampleSizes) {
    Mat X(S, d.n()), D(S, kM);
    draw_sample(d, keys, noise, X, D);
    const Mat g_s = D.transpose() * X / S;
    const Mat sigma_s = X.transpose() * X / S;
    const Mat wiener_s = g_s * sigma_s.inverse();
    const double w = rel_dist(weight_space_minimizer(X, D), g_s);
    const double f = rel_dist(function_space_minimizer(X, D), wiener_s);
    const Eigen::SelfAdjointEigenSolver<Mat> es(sigma_s, Eigen::EigenvaluesOnly);
    out.push_back({S, es.eigenvalues().maxCoeff() / es.eigenvalues().minCoeff(), w, f});
  }
  return out;
}

// Over trials of S pairs: E[argmin J_f] = A = ḠΣ^{-1} (the sample Wiener solution is
// conditionally unbiased given X, since E[ξ | X] = 0) and E[Ḡ_S] = Ḡ = AΣ, on
// ops::sample_minimizers (its observables: argmin J_f, then Ḡ_S, each column-major).
McResult unbiased_minimizers(ExperimentContext& ctx, const Dense& d, long long R) {
  ops::SampleMinimizers op;
  op.sqrt_lambda = d.sqrt_lambda;
  op.basis = d.sp.basis;
  op.A = d.A;
  op.sigma = kNoise;
  op.samples = kMcSample;
  return ops::sample_minimizers(op, derive_seed(ctx.opts.seed, "T2/ls/mc"), ctx.backend_for(ops::sample_minimizers_has),
                                ctx.mc(R, "T2 least squares"));
}

}  // namespace

Dense make_dense(std::uint64_t seed) {
  Dense d{parse_spectrum(kDenseSpec, derive_seed(seed, "T2/basis/dense")), {}, {}, {}};
  d.sqrt_lambda = d.sp.lambda.array().sqrt().matrix();
  d.sigma = d.sp.covariance();
  d.A = value_map(kM, d.n(), derive_seed(seed, "T2/A/dense"));
  return d;
}

nlohmann::json dense_params(const Dense& d) {
  return {{"spec", d.sp.spec}, {"lambda", to_std(d.sp.lambda)}, {"U", rows_json(d.sp.basis)},
          {"A", rows_json(d.A)}};
}

/// S pairs: rows of X are keys x_sᵀ, rows of D are values δ_sᵀ = (Ax_s + ξ_s)ᵀ.
void draw_sample(const Dense& d, Stream& keys, Stream& noise, Mat& X, Mat& D) {
  Vec z(d.n()), x(d.n());
  for (Eigen::Index s = 0; s < X.rows(); ++s) {
    d.key(keys, z, x);
    X.row(s) = x.transpose();
  }
  D.noalias() = X * d.A.transpose();
  for (Eigen::Index s = 0; s < D.rows(); ++s)
    for (int q = 0; q < kM; ++q) D(s, q) += kNoise * noise.normal();
}

LeastSquaresRun measure_least_squares(ExperimentContext& ctx, const Dense& d) {
  LeastSquaresRun run{exact_minimizers(ctx, d), trials(ctx, 20000, 2000), {}};
  run.res = unbiased_minimizers(ctx, d, run.trials);
  return run;
}

void check_least_squares(ExperimentContext& ctx, const Dense& d, const LeastSquaresRun& run) {
  for (const ExactSample& e : run.exact) {
    ctx.checks.exact(fmt::format("ls/S={}/argmin J_w = G_S (rel. Frobenius)", e.S), 0.0, e.rel_dist_weight, 0.0, kRel);
    ctx.checks.exact(fmt::format("ls/S={}/argmin J_f (QR) = G_S Sigma_S^-1 (rel. Frobenius)", e.S),
                     0.0, e.rel_dist_function, 0.0, kRel);
  }
  const std::size_t k = static_cast<std::size_t>(kM) * d.n();
  const Mat gbar = d.gbar();
  for (int j = 0; j < d.n(); ++j)
    for (int r = 0; r < kM; ++r) {
      const std::size_t e = static_cast<std::size_t>(j) * kM + r;
      // Each minimizer against the other objective's (the divergence of the two optima).
      ctx.checks.mc(fmt::format("ls/unbiased/argmin J_f[{},{}] = A = G Sigma^-1", r, j), d.A(r, j),
                    run.res.total.estimate(static_cast<Eigen::Index>(e)));
      ctx.checks.against(gbar(r, j), "argmin J_w = G");
      ctx.checks.mc(fmt::format("ls/unbiased/argmin J_w[{},{}] = G", r, j), gbar(r, j),
                    run.res.total.estimate(static_cast<Eigen::Index>(k + e)));
      ctx.checks.against(d.A(r, j), "argmin J_f = A");
    }
}

void record_least_squares(ExperimentContext& ctx, const LeastSquaresRun& run) {
  nlohmann::json out = {{"exact_samples", nlohmann::json::array()}};
  for (const ExactSample& e : run.exact)
    out["exact_samples"].push_back({{"S", e.S}, {"cond_sigma_S", e.cond_sigma_S},
                                    {"rel_dist_weight", e.rel_dist_weight},
                                    {"rel_dist_function", e.rel_dist_function}});
  out["mc"] = {{"S", kMcSample}, {"trials", run.trials}};
  ctx.params["least_squares"] = out;
}

}  // namespace akm::exp::t02
