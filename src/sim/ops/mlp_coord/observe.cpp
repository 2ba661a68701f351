// mlp_coord/observe — what both paths record after a step, and the seed's reduction to width
// slopes (mlp_coord.hpp): one definition of every observable, so the paths differ only in
// which work they share.
#include <algorithm>
#include <cmath>
#include <utility>

#include "akm/base/line_fit.hpp"
#include "backends.hpp"

namespace akm::ops {

MlpCoordLayout::MlpCoordLayout(const std::vector<MlpCoordArm>& a, int widths_, int steps_)
    : arms(static_cast<int>(a.size())), widths(widths_), steps(steps_) {
  for (int i = 0; i < arms; ++i)
    if (a[i].reference >= 0) paired.push_back(i);
}

int MlpCoordLayout::diff(int a, int k, int l) const {
  const int p = static_cast<int>(std::find(paired.begin(), paired.end(), a) - paired.begin());
  return mbar_slope() + 1 + (p * kWindows + k) * layers + l;
}

namespace detail {

namespace {

/// Entrywise R = Ĝ/(|g| m̄) of a batch (X rows keys, Delta rows errors): {RMS, median |R|}.
std::pair<double, double> ratio_stats(const Mat& X, const Mat& Delta, double mbar) {
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

}  // namespace

TrainConfig train_config(const MlpCoordSetup& s, const MlpCoordArm& arm) {
  TrainConfig cfg;
  cfg.optimizer = arm.optimizer;
  cfg.lr = arm.lr;
  cfg.width_lr_power = arm.width_lr_power;
  cfg.beta = s.beta, cfg.eta = s.eta, cfg.beta2 = s.beta2, cfg.aux_lr = s.aux_lr;
  return cfg;
}

Mlp initial_net(const MlpCoord& op, int w, std::uint64_t root, long long seed) {
  return Mlp({op.task.d_in(), op.setup.widths[w], 3, 1}, op.setup.base, root + 1000 * seed + w);
}

void record_step(const MlpCoordLayout& lay, int a, int w, int t, const MlpCache& before, const MlpCache& after,
                 const std::vector<Mat>& W0, const std::vector<Mat>& W, double* out) {
  for (int l = 0; l < lay.layers; ++l) {
    const Mat dz = before.X[l] * (W[l] - W0[l]).transpose();
    out[lay.value(a, w, t, l, 0)] = std::sqrt(after.Z[l].squaredNorm() / after.Z[l].size());
    out[lay.value(a, w, t, l, 1)] = std::sqrt(dz.squaredNorm() / dz.size());
  }
}

void record_step1(const MlpCoordLayout& lay, int w, const MlpCache& batch, double* out) {
  const Mat& Xk = batch.X[1];  // the hidden layer's keys
  double mbar = 0;
  for (Eigen::Index i = 0; i < Xk.rows(); ++i) mbar += 1.0 / Xk.row(i).norm() / Xk.rows();
  const auto [rms, med] = ratio_stats(Xk, batch.Delta[1], mbar);
  out[lay.step1(w, 0)] = mbar, out[lay.step1(w, 1)] = rms, out[lay.step1(w, 2)] = med;
}

void reduce_seed(const MlpCoord& op, const MlpCoordLayout& lay, double* out) {
  const MlpCoordSetup& s = op.setup;
  const int L = lay.layers, S = s.steps, cw = lay.widths;
  std::vector<double> lxw;
  for (int n : s.widths) lxw.push_back(std::log(n));
  auto slope_of = [&](auto&& value_at_width) {
    std::vector<double> ly;
    for (int w = 0; w < cw; ++w) ly.push_back(std::log(value_at_width(w)));
    return ols_slope(lxw, ly);
  };
  for (int a = 0; a < lay.arms; ++a) {
    for (int t = 0; t < S; ++t)
      for (int l = 0; l < L; ++l)
        for (int q = 0; q < 2; ++q) out[lay.step_slope(a, t, l, q)] = slope_of([&](int w) { return out[lay.value(a, w, t, l, q)]; });
    const int lo[MlpCoordLayout::kWindows] = {0, 1, 0}, hi[MlpCoordLayout::kWindows] = {1, S, S};
    for (int k = 0; k < MlpCoordLayout::kWindows; ++k)
      for (int l = 0; l < L; ++l)
        for (int q = 0; q < 2; ++q)
          out[lay.window_slope(a, k, l, q)] = slope_of([&](int w) {
            double m = 0;
            for (int t = lo[k]; t < hi[k]; ++t) m += out[lay.value(a, w, t, l, q)] / (hi[k] - lo[k]);
            return m;
          });
  }
  out[lay.mbar_slope()] = slope_of([&](int w) { return out[lay.step1(w, 0)]; });
  const double kappa = op.arms[0].lr / op.arms[1].lr * s.eta / (1 - s.beta);
  for (int w = 0; w < cw; ++w)
    out[lay.step1(w, 3)] = std::log(out[lay.value(0, w, 0, 1, 1)] / out[lay.value(1, w, 0, 1, 1)]) -
                           std::log(kappa * out[lay.step1(w, 0)]);
  for (int a : lay.paired)
    for (int k = 0; k < MlpCoordLayout::kWindows; ++k)
      for (int l = 0; l < L; ++l) {
        const int r = op.arms[a].reference;
        out[lay.diff(a, k, l)] = out[lay.window_slope(a, k, l, 1)] - out[lay.window_slope(r, k, l, 1)];
        out[lay.diff_act(a, k, l)] = out[lay.window_slope(a, k, l, 0)] - out[lay.window_slope(r, k, l, 0)];
      }
}

}  // namespace detail

}  // namespace akm::ops
