// T9 high-dim — one (p, n_s) data set (ShapeRun, t09_high_dim.hpp): its set-up (the queried
// directions, the values, the fixed point), the exact measurements (the second numerical
// routes, the off-span sample paths) and their checks — the spectrum, the fixed point and
// the span, the conditioning ceiling, the improvement. The Monte-Carlo projections and their
// checks are in projections.cpp, the record pass in record.cpp, the passes' order in claim.cpp.
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "sensitivity.hpp"
#include "t09_high_dim.hpp"

namespace akm::exp::t09 {

// The queried eigen-directions; values, Ĝ and Ḡ; the fixed point in the span; the
// conditioning [eq:cond-ceiling]: on the span λ̂ ∈ [λ̂_min, λ̂_max]; overall the null space
// (dimension p − n_s > 0) adds the eigenvalue μ of μI+Σ̂.
void ShapeRun::setup() {
  dirs = queried_directions(rank);
  D = dirs.size();
  per_t = 2 * D * kM;
  U.resize(sh.p, static_cast<Eigen::Index>(D));
  for (std::size_t j = 0; j < D; ++j) U.col(j) = S.eigenvector(dirs[j].k);
  d.Delta = value_rows(d, U.col(D - 2), lam[dirs[D - 2].k], U.col(D - 1), lam[dirs[D - 1].k], ctx.opts.seed);
  G_hat = d.Delta * K_hat.transpose() / n;                          // Ĝ = (1/n_s) Σ δ_s x̂_sᵀ
  G_bar = d.Delta * d.norms.asDiagonal() * K_hat.transpose() / n;   // Ḡ = (1/n_s) Σ δ_s x_sᵀ
  M_star = S.ridge_solve(G_hat, mu);  // the fixed point in the span (Gram route)
  MU = M_star * U, GU = G_hat * U, GbU = G_bar * U;
  mc_seed = derive_seed(ctx.opts.seed, "T9/mc/" + name);
  Ct = U.transpose() * K_hat;  // D × n_s, Ct(j, s) = u_jᵀx̂_s
  cond_span = (mu + lam[0]) / (mu + lam[rank - 1]);
  cond_all = (mu + lam[0]) / mu;
}

// The second numerical routes and the off-span sample paths.
void ShapeRun::measure_exact() {
  // Independent route: Lanczos on the matrix-free p×p operator, top three eigenvalues.
  lanczos_top = dataset_top_eigenpairs(K_hat, 3).values;
  // Σ̂u = λ̂u with Σ̂ applied matrix-free (not through the Gram eigenvectors).
  for (std::size_t j = 0; j < D; ++j)
    eigen_residual.push_back((S.apply(U.col(j)) - lam[dirs[j].k] * U.col(j)).norm() / lam[0]);
  // Fixed point, second route (Woodbury); the fixed-point equation with Σ̂ matrix-free.
  const Mat M_wood = ridge_solve_woodbury(K_hat, G_hat, mu);
  woodbury_miss = (M_star - M_wood).norm() / M_star.norm();
  double resid = 0;
  for (int r = 0; r < kM; ++r) {
    const Vec row = M_star.row(r).transpose();
    resid += (mu * row + S.apply(row) - G_hat.row(r).transpose()).squaredNorm();
  }
  fixed_point_residual = std::sqrt(resid) / G_hat.norm();
  for (std::size_t j = 0; j < dirs.size(); ++j)  // [eq:dm-eigen] along span eigenvectors
    dm_eigen_miss.push_back((MU.col(j) - GU.col(j) / (mu + lam[dirs[j].k])).norm() / MU.col(j).norm());
  // Off the span: P_⊥ from the QR of the raw keys (same span as the normalized ones).
  const SpanComplement perp(d.X);
  G_hat_off = perp.off_span_norm(G_hat);
  M_star_off = perp.off_span_norm(M_star);
  const ops::SpanBuffers o = op();
  for (int path = 0; path < kPathsOffSpan; ++path) {
    Mat last_ak, last_ema, y_ak, y_ema;
    ops::span_path(o, Ct, mc_seed, path, [&](int t, const Mat& a, const Mat& e, const Mat& ya, const Mat& ye) {
      if (t == kSteps) {
        last_ak = a;
        last_ema = e;
        y_ak = ya;
        y_ema = ye;
      }
    });
    paths.push_back({last_ak.norm(), last_ema.norm(), perp.off_span_norm(last_ak), perp.off_span_norm(last_ema),
                     (y_ak - last_ak * U).norm(), (y_ema - last_ema * U).norm()});
  }
}

// The data set's spectrum, two numerical routes, and the queried eigen-directions.
void ShapeRun::spectrum_checks() {
  // Set-up checks (.design()): the data set's spectrum and its two numerical routes.
  ctx.checks.exact(name + "/rank Sigma_hat = n_s", n, rank, 0.0);
  ctx.checks.design();
  ctx.checks.exact(name + "/tr Sigma_hat = sum lambda_hat = 1", 1.0, lam.sum());
  ctx.checks.design();
  ctx.checks.at_most(name + "/lambda_hat_max <= 1", 1.0, lam[0]);
  ctx.checks.design();
  for (int k = 0; k < 3; ++k) {
    ctx.checks.exact(fmt::format("{}/lambda_hat_{} Gram = Lanczos", name, k + 1), lanczos_top[k], lam[k]);
    ctx.checks.design();
  }
  for (std::size_t j = 0; j < D; ++j) {
    ctx.checks.at_most(fmt::format("{}/{} eigen-residual |Sigma_hat u - lambda u| / lambda_max", name, dirs[j].label),
                       1e-10, eigen_residual[j]);
    ctx.checks.design();
  }
}

// The fixed point in the span (two routes); both buffers confined to the key span.
void ShapeRun::fixed_point_and_span_checks() {
  ctx.checks.at_most(name + "/M* spectral vs Woodbury (relative)", 1e-10, woodbury_miss);
  ctx.checks.design();  // two numerical routes to one solve
  ctx.checks.at_most(name + "/M*(mu I + Sigma_hat) = G_hat (relative residual)", 1e-10, fixed_point_residual);
  for (std::size_t j = 0; j < dirs.size(); ++j)  // [eq:dm-eigen] along span eigenvectors
    ctx.checks.at_most(fmt::format("{}/{} M* u = G_hat u/(mu+lambda) (relative)", name, dirs[j].label), 1e-10,
                       dm_eigen_miss[j]);
  ctx.checks.at_most(name + "/|G_hat P_perp| <= 1e-12 |G_hat|", 1e-12 * G_hat.norm(), G_hat_off);
  ctx.checks.design();  // Ĝ is a combination of data keys by construction
  ctx.checks.at_most(name + "/|M* P_perp| <= 1e-12 |M*|", 1e-12 * M_star.norm(), M_star_off);
  for (std::size_t path = 0; path < paths.size(); ++path) {
    const OffSpanPath& pp = paths[path];
    ctx.checks.at_most(fmt::format("{}/path {} AK |M_T P_perp| <= 1e-12 |M_T|", name, path),
                       1e-12 * pp.ak_norm, pp.ak_off);
    ctx.checks.at_most(fmt::format("{}/path {} EMA |M_T P_perp| <= 1e-12 |M_T|", name, path),
                       1e-12 * pp.ema_norm, pp.ema_off);
    // The O(mD) projection recursion against the direct product M_T U.
    ctx.checks.at_most(fmt::format("{}/path {} AK |Y_T - M_T U| <= 1e-12 |M_T|", name, path),
                       1e-12 * pp.ak_norm, pp.ak_proj_miss);
    ctx.checks.design();  // the fast projection recursion against its reference
    ctx.checks.at_most(fmt::format("{}/path {} EMA |Y_T - M_T U| <= 1e-12 |M_T|", name, path),
                       1e-12 * pp.ema_norm, pp.ema_proj_miss);
    ctx.checks.design();
  }
}

// The conditioning ceiling [eq:cond-ceiling].
void ShapeRun::conditioning_checks() {
  ctx.checks.at_most(name + "/cond on span <= 1 + eta/(1-beta)", ceiling, cond_span);
  ctx.checks.at_most(name + "/cond overall <= 1 + eta/(1-beta)", ceiling, cond_all);
}

// The improvement over the queried span.
void ShapeRun::improvement_check() {
  // Gain of a buffer along u_k, projected on w_k = Ĝu_k (AK) or Ḡu_k (EMA):
  // E = (1 − β̃_k^t)/(μ+λ̂_k) for AK, 1 − β^t for EMA.
  // Improvement over the queried span: the AK gain ratio bottom/top against
  // (μ+λ̂_max)/(μ+λ̂_min) (EMA's ratio is 1). The bottom eigenvector of Σ̂ is carried by few
  // keys (those most aligned with a spike; their near-duplicate directions make the
  // smallest Gram eigenvalues), so a snapshot of M_T u_bottom rests on the few draws of
  // those keys in its last ~1/(1−β̃) steps; the window average over 150 steps sees ~15× as
  // many. The transient over the window is the known remainder.
  // (impr, impr_se: the jackknifed ratio, projections.cpp.)
  const double exact_w = window_factor(theory::beta_tilde(kBeta, kEta, lam[rank - 1])) /
                         window_factor(theory::beta_tilde(kBeta, kEta, lam[0])) * cond_span;
  ctx.checks.mc(name + "/improvement (mu+lambda_max)/(mu+lambda_min)", cond_span, impr, impr_se, 0.0,
                std::abs(exact_w - cond_span));
  ctx.checks.against(1.0, "EMA");  // the EMA buffer's gain is 1 along every direction
  sensitivity(ctx.checks,
              [&](double e, double b, double m) {
                return (theory::mu(b, e) + m * lam[0]) / (theory::mu(b, e) + m * lam[rank - 1]);
              },
              kEta, kBeta);
}

}  // namespace akm::exp::t09
