// T2 targets, RMSNorm's output norm — [cor:fixedpoint-normalized, sec:fixed-point's condition]
//
// The paper: the normalized key's fixed point is the raw one rescaled when ‖x‖ is deterministic,
// "which pre-normalization transformers enforce at every linear layer reading directly from an
// RMSNorm output". RMSNorm [Llama] writes x_j = γ_j z_j / √(mean_k z_k² + ε), so
//   ‖x‖² = Σ_j γ_j² z_j² / (mean z² + ε).
// With one gain magnitude |γ_j| = g (initialization: γ = 1) and ε = 0 this is n g² for every z;
// ε > 0 leaves the relative ε/(mean z² + ε); learned unequal gains make ‖x‖²/n a weighted mean
// of γ_j², between min γ_j² and max γ_j², each attained at z = e_j. Computed here on draws of z
// (anisotropic Gaussian coordinates, overall scale log-uniform over two decades) at the 67M
// proxy's width; the unequal gains γ_j = 1 + 0.1u_j are an illustration (any two unequal
// magnitudes make the norm depend on z's direction), not a measurement of a trained model.
#include "t02_targets.hpp"

namespace akm::exp::t02 {
namespace {

constexpr int kDraws = 4000;
constexpr double kLlamaEps = 1e-5;  // RMSNorm's ε in Llama-2's configuration
constexpr double kRounding = 1e-12;  // a sum of 384 squares in double, relative

/// RMSNorm of z with gains γ and stabilizer ε.
Vec rms_norm(const Vec& z, const Vec& gamma, double eps) {
  return gamma.cwiseProduct(z) / std::sqrt(z.squaredNorm() / double(z.size()) + eps);
}

}  // namespace

RmsNormRun measure_rmsnorm(std::uint64_t seed) {
  Stream draw(derive_seed(seed, "T2/rmsnorm"), 0, Purpose::keys);
  RmsNormRun r;
  r.equal = Vec::Ones(kProxyWidth);
  r.signs = Vec(kProxyWidth);
  r.unequal = Vec(kProxyWidth);
  Vec coord_scale(kProxyWidth);
  for (int j = 0; j < kProxyWidth; ++j) {
    r.signs[j] = draw.uniform() < 0.5 ? -1.0 : 1.0;
    r.unequal[j] = 1.0 + 0.1 * draw.normal();
    coord_scale[j] = std::exp(draw.normal());  // anisotropic coordinates
  }
  const double gmin2 = r.unequal.cwiseAbs2().minCoeff(), gmax2 = r.unequal.cwiseAbs2().maxCoeff();
  r.norm2_lo = std::numeric_limits<double>::infinity();
  r.norm2_hi = -std::numeric_limits<double>::infinity();
  for (int d = 0; d < kDraws; ++d) {
    const double scale = std::pow(10.0, -1.0 + 2.0 * draw.uniform());
    Vec z(kProxyWidth);
    for (int j = 0; j < kProxyWidth; ++j) z[j] = scale * coord_scale[j] * draw.normal();
    r.equal_err = std::max(r.equal_err, std::abs(rms_norm(z, r.equal, 0.0).squaredNorm() / kProxyWidth - 1.0));
    r.signs_err = std::max(r.signs_err, std::abs(rms_norm(z, r.signs, 0.0).squaredNorm() / kProxyWidth - 1.0));
    const double u = rms_norm(z, r.unequal, 0.0).squaredNorm() / kProxyWidth;
    r.norm2_lo = std::min(r.norm2_lo, u);
    r.norm2_hi = std::max(r.norm2_hi, u);
    const double m = z.squaredNorm() / kProxyWidth;
    r.eps_err = std::max(r.eps_err, std::abs(rms_norm(z, r.equal, kLlamaEps).squaredNorm() / kProxyWidth / (m / (m + kLlamaEps)) - 1.0));
    r.eps_spread_lo = std::min(r.eps_spread_lo, m / (m + kLlamaEps));
  }
  Eigen::Index jmin = 0, jmax = 0;
  r.unequal.cwiseAbs2().minCoeff(&jmin);
  r.unequal.cwiseAbs2().maxCoeff(&jmax);
  const Vec e_min = Vec::Unit(kProxyWidth, jmin), e_max = Vec::Unit(kProxyWidth, jmax);
  r.basis_ratio = rms_norm(e_max, r.unequal, 0.0).squaredNorm() / rms_norm(e_min, r.unequal, 0.0).squaredNorm();
  r.gamma_ratio2 = gmax2 / gmin2;
  r.gmin2 = gmin2;
  r.gmax2 = gmax2;
  return r;
}

void check_rmsnorm(ExperimentContext& ctx, const RmsNormRun& r) {
  const std::string at = fmt::format("rmsnorm/d={}", kProxyWidth);
  ctx.checks.at_most(at + "/gains 1, eps 0/max |‖x‖²/n - 1| over draws", kRounding, r.equal_err);
  ctx.checks.at_most(at + "/gains ±1, eps 0/max |‖x‖²/n - 1| over draws", kRounding, r.signs_err);
  ctx.checks.at_most(at + "/gains 1, eps 1e-5/max |‖x‖²/n over mean z²/(mean z² + eps) - 1|", kRounding, r.eps_err);
  // The written "holds exactly" predicts one norm for every z: ratio 1 between the extremes.
  ctx.checks.exact(at + "/gains 1+0.1u, eps 0/‖x‖² at e_max over at e_min = (γ_max/γ_min)²", r.gamma_ratio2,
                   r.basis_ratio, 1e-12);
  ctx.checks.at_most(at + "/gains 1+0.1u, eps 0/min γ² - min ‖x‖²/n over draws (bound from below)", kRounding * r.gmin2,
                     r.gmin2 - r.norm2_lo);
  ctx.checks.at_most(at + "/gains 1+0.1u, eps 0/max ‖x‖²/n - max γ² over draws (bound from above)", kRounding * r.gmax2,
                     r.norm2_hi - r.gmax2);
}

void record_rmsnorm(ExperimentContext& ctx, const RmsNormRun& r) {
  ctx.params["rmsnorm"] = {{"width", kProxyWidth}, {"draws", kDraws}, {"eps", kLlamaEps},
                           {"gains", "1; random signs; 1 + 0.1 u_j, u_j ~ N(0, 1)"},
                           {"z", "coordinate j: scale * exp(g_j) * N(0, 1), scale log-uniform on [0.1, 10]"},
                           {"unequal_gain_sq_min", r.gmin2}, {"unequal_gain_sq_max", r.gmax2},
                           {"unequal_norm2_over_n_min", r.norm2_lo}, {"unequal_norm2_over_n_max", r.norm2_hi},
                           {"eps_norm2_over_n_min", r.eps_spread_lo}};
}

}  // namespace akm::exp::t02
