// T13's coordinate check [app:mup-coord, fig:mup-coord]: one seed of the μP MLP trained at
// every width by each arm, reduced to per-seed width slopes (so the slopes' errors come from
// seeds and differences between arms are paired: every arm starts from the same init and
// sees the same batches, so at step 1 all arms hold the same gradient).
//
// Step 1 in closed form. From M_0 = 0, m_0 = v_0 = 0, with the batch gradient g = ΔᵀX/N and
// its normalized-key twin Ĝ = ΔᵀX̂/N (x̂_i = x_i/‖x_i‖):
//   AdamW     m̂₁ = g,            v̂₁ = g²   →  ΔW₁ = −α_A · g/|g|         (a sign matrix)
//   AK-AdamW  M̂₁ = ηĜ/(1−β),     v̂₁ = g²   →  ΔW₁ = −α_AK · η/(1−β) · Ĝ/|g|
// (ε = 1e-8 negligible). If every key of the batch had the same norm, Ĝ = g·m̄ with
// m̄ = mean_i 1/‖x_i‖, and the AK step is the AdamW step times κ·m̄, κ = (α_AK/α_A)η/(1−β)
// (= 0.1 · 0.5/0.01 = 5 here): the step-1 width slope of AK-AdamW is AdamW's plus the slope
// of m̄ (≈ −½, ‖x‖ ∝ √n for a width-n layer input). Keys of unequal norm leave
// R = Ĝ/(|g| m̄) ≠ ±1 entrywise; where g_rj is near 0 by cancellation Ĝ_rj is not, so R has
// a heavy tail (E R² diverges logarithmically for a density of g at 0) — the seed-to-seed
// scatter of step 1. Each seed records RMS(R) and median |R| (both 1 for equal norms).
// Steps ≥ 2: the AK buffer is ≈ the EMA buffer divided by ‖x‖ while v is unchanged, so
// AK-AdamW's update carries 1/‖x‖ ∝ n^{-1/2} on every fan-in-n layer; the arm with those
// rates × √w (width_lr_power = ½) removes it. The same argument holds for AK-SGD against
// SGD-m (no v to divide by: the update is α times the buffer, so AK-SGD carries 1/‖x‖ too).
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "akm/problems/mlp.hpp"
#include "akm/problems/train.hpp"
#include "akm/report/result_dir.hpp"
#include "akm/rules/optimizers.hpp"
#include "common.hpp"
#include "line_fit.hpp"

namespace akm::exp::coord {

struct Arm {
  std::string label, optimizer;
  double lr, width_lr_power;
  int reference = -1;  ///< index of the arm this one is paired with (its base optimizer), −1 none
};

/// Windows of the 20 steps whose mean enters a slope: step 1, steps 2..S, all S.
inline constexpr int kWindows = 3;
inline const char* kWindowName[kWindows] = {"step 1", "steps 2-20", "steps 1-20"};

/// Index layout of one seed's observables.
struct Layout {
  int arms, widths, steps, layers = 3;
  std::vector<int> paired;  ///< the arms with a reference, in arm order
  Layout(const std::vector<Arm>& a, int widths_, int steps_)
      : arms(static_cast<int>(a.size())), widths(widths_), steps(steps_) {
    for (int i = 0; i < arms; ++i)
      if (a[i].reference >= 0) paired.push_back(i);
  }
  int per_width() const { return steps * layers * 2; }
  int per_arm() const { return widths * per_width() + steps * layers * 2 + kWindows * layers * 2; }
  /// RMS of quantity q (0 pre-activation, 1 ΔWx) of layer l at step t, width w, arm a.
  int value(int a, int w, int t, int l, int q) const { return a * per_arm() + w * per_width() + (t * layers + l) * 2 + q; }
  /// Per-seed OLS width slope of log value at step t.
  int step_slope(int a, int t, int l, int q) const { return a * per_arm() + widths * per_width() + (t * layers + l) * 2 + q; }
  /// Per-seed width slope of log(mean over window k).
  int window_slope(int a, int k, int l, int q) const {
    return a * per_arm() + widths * per_width() + steps * layers * 2 + (k * layers + l) * 2 + q;
  }
  int shared() const { return arms * per_arm(); }
  /// Step-1 hidden layer, per width: m̄ = mean 1/‖x_i‖, RMS(R), median |R|, and the
  /// log excess log(RMS_AK/RMS_A) − log(κ m̄) of the AK arm (arm 0) over its equal-norm value.
  int step1(int w, int k) const { return shared() + w * 4 + k; }
  int mbar_slope() const { return shared() + widths * 4; }
  /// Paired slope differences arm a − its reference arm of ΔWx, window k, layer l (a paired).
  int diff(int a, int k, int l) const {
    const int p = static_cast<int>(std::find(paired.begin(), paired.end(), a) - paired.begin());
    return mbar_slope() + 1 + (p * kWindows + k) * layers + l;
  }
  /// The same paired difference of the pre-activation RMS (the activation part of app:mup-coord).
  int diff_act(int a, int k, int l) const { return diff(a, k, l) + static_cast<int>(paired.size()) * kWindows * layers; }
  int size() const { return mbar_slope() + 1 + 2 * static_cast<int>(paired.size()) * kWindows * layers; }
};

struct Setup {
  std::vector<int> widths;
  int steps = 20, probe = 64, base = 128, batch = 32;
  double beta = 0.99, eta = 0.5, beta2 = 0.999, aux_lr = 1e-2;  // aux_lr: the Muon family's AdamW layers
};

/// Entrywise R = Ĝ/(|g| m̄) of a batch (X rows keys, Delta rows errors): {RMS, median |R|}.
inline std::pair<double, double> ratio_stats(const Mat& X, const Mat& Delta, double mbar) {
  Mat Xh = X;
  for (Eigen::Index i = 0; i < X.rows(); ++i) Xh.row(i) /= X.row(i).norm();
  const Mat g = Delta.transpose() * X, gh = Delta.transpose() * Xh;  // both ×N: N cancels
  std::vector<double> r(g.size());
  double s2 = 0;
  for (Eigen::Index k = 0; k < g.size(); ++k) {
    r[k] = std::abs(gh.data()[k] / (std::abs(g.data()[k]) * mbar));
    s2 += r[k] * r[k];
  }
  std::nth_element(r.begin(), r.begin() + r.size() / 2, r.end());
  return {std::sqrt(s2 / r.size()), r[r.size() / 2]};
}

/// One seed: every arm at every width; writes lay.size() observables.
inline void run_seed(const Setup& s, const std::vector<Arm>& arms, const Layout& lay, const Task& task,
                     std::uint64_t seed_root, long long seed, double* out) {
  const int L = lay.layers, S = s.steps, cw = static_cast<int>(s.widths.size());
  std::vector<double> lxw;
  for (int n : s.widths) lxw.push_back(std::log(n));
  auto slope_of = [&](auto&& value_at_width) {
    std::vector<double> ly;
    for (int w = 0; w < cw; ++w) ly.push_back(std::log(value_at_width(w)));
    return ols_slope(lxw, ly);
  };
  for (int a = 0; a < static_cast<int>(arms.size()); ++a) {
    for (int w = 0; w < cw; ++w) {
      Mlp net({32, s.widths[w], L, 1}, s.base, seed_root + 1000 * seed + w);
      TrainConfig cfg;
      cfg.optimizer = arms[a].optimizer;
      cfg.lr = arms[a].lr;
      cfg.width_lr_power = arms[a].width_lr_power;
      cfg.beta = s.beta, cfg.eta = s.eta, cfg.beta2 = s.beta2, cfg.aux_lr = s.aux_lr;
      Trainer tr(net, cfg);
      Stream data(seed_root, seed, Purpose::data), probe_s(seed_root, seed, Purpose::aux);
      Mat Xp, Tp, X, T;
      task.sample(probe_s, s.probe, Xp, Tp);
      for (int t = 0; t < S; ++t) {
        task.sample(data, s.batch, X, T);
        MlpCache before, after;
        net.forward(Xp, &before);
        const std::vector<Mat> W0 = net.W;
        tr.step(X, T, task.loss);
        net.forward(Xp, &after);
        for (int l = 0; l < L; ++l) {
          const Mat dz = before.X[l] * (net.W[l] - W0[l]).transpose();
          out[lay.value(a, w, t, l, 0)] = std::sqrt(after.Z[l].squaredNorm() / after.Z[l].size());
          out[lay.value(a, w, t, l, 1)] = std::sqrt(dz.squaredNorm() / dz.size());
        }
        if (t == 0 && a == 0) {  // the hidden layer's batch keys and errors of step 1
          const Mat& Xk = tr.cache().X[1];
          double mbar = 0;
          for (Eigen::Index i = 0; i < Xk.rows(); ++i) mbar += 1.0 / Xk.row(i).norm() / Xk.rows();
          const auto [rms, med] = ratio_stats(Xk, tr.cache().Delta[1], mbar);
          out[lay.step1(w, 0)] = mbar, out[lay.step1(w, 1)] = rms, out[lay.step1(w, 2)] = med;
        }
      }
    }
    for (int t = 0; t < S; ++t)
      for (int l = 0; l < L; ++l)
        for (int q = 0; q < 2; ++q) out[lay.step_slope(a, t, l, q)] = slope_of([&](int w) { return out[lay.value(a, w, t, l, q)]; });
    const int lo[kWindows] = {0, 1, 0}, hi[kWindows] = {1, S, S};
    for (int k = 0; k < kWindows; ++k)
      for (int l = 0; l < L; ++l)
        for (int q = 0; q < 2; ++q)
          out[lay.window_slope(a, k, l, q)] = slope_of([&](int w) {
            double m = 0;
            for (int t = lo[k]; t < hi[k]; ++t) m += out[lay.value(a, w, t, l, q)] / (hi[k] - lo[k]);
            return m;
          });
  }
  out[lay.mbar_slope()] = slope_of([&](int w) { return out[lay.step1(w, 0)]; });
  const double kappa = arms[0].lr / arms[1].lr * s.eta / (1 - s.beta);
  for (int w = 0; w < cw; ++w)
    out[lay.step1(w, 3)] = std::log(out[lay.value(0, w, 0, 1, 1)] / out[lay.value(1, w, 0, 1, 1)]) -
                           std::log(kappa * out[lay.step1(w, 0)]);
  for (int a : lay.paired)
    for (int k = 0; k < kWindows; ++k)
      for (int l = 0; l < L; ++l) {
        out[lay.diff(a, k, l)] = out[lay.window_slope(a, k, l, 1)] - out[lay.window_slope(arms[a].reference, k, l, 1)];
        out[lay.diff_act(a, k, l)] = out[lay.window_slope(a, k, l, 0)] - out[lay.window_slope(arms[a].reference, k, l, 0)];
      }
}

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
