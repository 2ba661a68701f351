// T13's coordinate check [app:mup-coord, fig:mup-coord]: the μP MLP trained at every width by
// each arm, one seed a trial, on ops::mlp_coord (akm/sim/ops/mlp_coord.hpp, where the per-seed
// observables and step 1's closed form are set out); here step 1's exact check at an
// RMSNorm-fed layer and the tables and figures of the check.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "akm/problems/mlp.hpp"
#include "akm/report/result_dir.hpp"
#include "akm/rules/optimizers.hpp"
#include "akm/sim/ops/mlp_coord.hpp"
#include "common.hpp"

namespace akm::exp::coord {

using Arm = ops::MlpCoordArm;
using Setup = ops::MlpCoordSetup;
using Layout = ops::MlpCoordLayout;
inline constexpr int kWindows = Layout::kWindows;
inline constexpr const char* const* kWindowName = Layout::kWindowName;

/// Step 1 at an RMSNorm-fed hidden layer, exactly [app:mup-coord]: one batch step of the
/// library's AdamW and AK-AdamW (rules/optimizers.hpp) from zero moments on the same batch,
/// keys of norm exactly √n (RMSNorm with unit gains), rates by AdamW's μP hidden rule
/// (α_A = lr_a/w, α_AK = lr_ak/w). Both hold v̂₁ = g², so with M̂₁ = ηĜ/(1−β) = ηg/((1−β)√n)
/// the ε-shifted denominators √v̂ + ε are identical and ΔW_AK = ΔW_A·(α_AK/α_A)η/((1−β)√n)
/// entrywise, to rounding. Returns the largest relative deviation from that and the ratio
/// ‖ΔW_AK‖/‖ΔW_A‖ (= RMS(ΔW_AK x)/RMS(ΔW_A x) for every probe x). "To rounding" is judged per
/// entry against the floating-point bound of its batch sum: both optimizers form
/// Σ_i δ_ij x_ik over N samples, so an entry whose sum cancels carries the relative error
/// u·cond_jk, cond_jk = Σ_i|δ_ij x_ik| / |Σ_i δ_ij x_ik| (u = 2⁻⁵³); the bound used is
/// (N + 8)·u·cond_jk (recursive summation, plus the key normalization and the few scalar
/// operations after it). `rounding_units` is the largest |ratio/predicted − 1| in units of that bound.
struct Step1Exact {
  double max_rel_dev, rounding_units, frobenius_rel_dev, ratio, predicted;
};
inline Step1Exact step1_exact(int n, const Setup& s, double lr_ak, double lr_a, std::uint64_t seed) {
  const int m = 16, N = s.batch;  // rows do not enter the entrywise ratio
  Stream st(seed, static_cast<long long>(n), Purpose::aux);
  Mat X(N, n), D(N, m);
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < n; ++j) X(i, j) = st.normal();
    X.row(i) *= std::sqrt(static_cast<double>(n)) / X.row(i).norm();
    for (int r = 0; r < m; ++r) D(i, r) = st.normal();
  }
  const double mult = mup_lr_multiplier(OptimizerFamily::adam, LayerRole::hidden, n / static_cast<double>(s.base));
  AdamWParams pa;
  pa.lr = lr_a * mult, pa.beta1 = s.beta, pa.beta2 = s.beta2;
  AdamWParams pk = pa;
  pk.lr = lr_ak * mult;
  Mat Wa = Mat::Zero(m, n), Wk = Mat::Zero(m, n);  // from W = 0 the update is W itself (no cancellation)
  AdamW A(m, n, pa);
  AkAdamW K(m, n, pk, s.eta);
  A.step_batch(Wa, D, X);
  K.step_batch(Wk, D, X);
  const double pred = (lr_ak / lr_a) * s.eta / ((1 - s.beta) * std::sqrt(static_cast<double>(n)));
  const Mat sum = D.transpose() * X, abs_sum = D.cwiseAbs().transpose() * X.cwiseAbs();
  constexpr double u = 0x1p-53;
  double dev = 0, units = 0;
  for (Eigen::Index c = 0; c < Wa.cols(); ++c)
    for (Eigen::Index r = 0; r < Wa.rows(); ++r) {
      const double d = std::abs(Wk(r, c) / (Wa(r, c) * pred) - 1);
      dev = std::max(dev, d);
      units = std::max(units, d / ((N + 8) * u * abs_sum(r, c) / std::abs(sum(r, c))));
    }
  return {dev, units, (Wk - pred * Wa).norm() / (pred * Wa).norm(), Wk.norm() / Wa.norm(), pred};
}

/// The hidden-layer update's width slope per training step, one error-bar series per
/// optimizer (coord_tables.cpp): the AdamW arms and the Muon pair draw the same figure.
Figure step_slope_figure(std::string name, std::string title, const std::string& csv,
                         const std::vector<std::string>& labels);

/// CSVs and figures of the coordinate check (coord_tables.cpp); returns its params.
nlohmann::json write_tables(ResultDir& out, const Setup& s, const std::vector<Arm>& arms, const Layout& lay,
                            const Vec& m, const Vec& se);

}  // namespace akm::exp::coord
