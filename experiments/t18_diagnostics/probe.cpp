// T18 diagnostics — one probed training run: every 10 steps, on a fixed held-out probe of 512
// samples, cos(M_t, g_t), e_t = ‖M_t − g_t‖/‖g_t‖ and the input layer's retrieval cosine
// cos(M_t x̂, δ) [sec:diag-grad, sec:diag-func]; the claims: claim.cpp.
#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "t18_diagnostics.hpp"

namespace akm::exp::t18 {

Summaries summarize(const Vec& lam_in) {
  Vec lam = lam_in.cwiseMax(0.0);
  const Vec p = lam / lam.sum();
  double h = 0;
  for (Eigen::Index i = 0; i < p.size(); ++i)
    if (p[i] > 0) h -= p[i] * std::log(p[i]);
  return {lam.maxCoeff() / std::max(lam.minCoeff(), 1e-300), std::exp(h), lam.maxCoeff() / lam.sum()};
}

TrainConfig arm_config(const std::string& arm, double lr, int steps, std::uint64_t seed) {
  if (arm != "adamw-hps") return training::config(arm, lr, steps, seed);
  TrainConfig c = training::config("adamw", lr, steps, seed);
  c.beta = 0.95, c.beta2 = 0.99;  // tab:hps, AdamW's row
  return c;
}

SeedRun probe_run(const training::TaskSpec& t, const TrainConfig& cfg, bool hidden) {
  using namespace training;
  SeedRun out;
  Mlp net(t.shape, t.base_width, derive_seed(cfg.seed, "init"));
  Mat Xp, Tp;
  Stream ps(cfg.seed, 7, Purpose::aux);
  t.task.sample(ps, 512, Xp, Tp);
  std::array<double, kDiagnostics> acc{0, 0, 0, 0};
  int count = 0;
  auto hook = [&](const Trainer& tr, int step) {
    if (step % 10 != 0) return;
    MlpCache c;
    const Mat Y = net.forward(Xp, &c);
    net.backward(c, output_error(t.task.loss, Y, Tp));
    const auto g = net.gradients(c);
    double dot = 0, mm = 0, gg = 0, diff = 0;
    for (int l = 0; l < net.layers(); ++l) {
      const Mat& M = tr.buffer(l);
      dot += (M.array() * g[l].array()).sum(), mm += M.squaredNorm(), gg += g[l].squaredNorm();
      diff += (M - g[l]).squaredNorm();
    }
    if (!(mm > 0 && gg > 0) || !std::isfinite(dot)) return;
    const double cs = dot / std::sqrt(mm * gg), e = std::sqrt(diff / gg), r = std::sqrt(mm / gg);
    out.worst_identity = std::max(out.worst_identity, std::abs(e * e - (r * r - 2 * r * cs + 1)) / std::max(1.0, e * e));
    // Retrieval of the input layer: cos(M x̂_i, δ_i) over probe samples.
    const Mat& M0 = tr.buffer(0);
    double rc = 0;
    int rn = 0;
    for (Eigen::Index i = 0; i < Xp.rows(); ++i) {
      const Vec xh = Xp.row(i).transpose() / Xp.row(i).norm();
      const Vec pred = M0 * xh;
      const Vec d = c.Delta[0].row(i).transpose();
      if (pred.norm() > 0 && d.norm() > 0) rc += pred.dot(d) / (pred.norm() * d.norm()), ++rn;
    }
    const double rcos = rn ? rc / rn : 0.0;
    acc[0] += cs, acc[1] += e, acc[2] += rcos, acc[3] += r;
    ++count;
    out.points.push_back({step / 10, {cs, e, rcos, r}});
  };
  train(net, t.task, cfg, hook);
  for (int d = 0; d < kDiagnostics; ++d) out.v[static_cast<std::size_t>(d)] = count ? acc[static_cast<std::size_t>(d)] / count : 0;
  if (hidden) {
    // Hidden layer's input covariance at the end of training (probe activations).
    MlpCache c;
    net.forward(Xp, &c);
    const Mat H = c.X[1].rowwise() - c.X[1].colwise().mean();
    Eigen::SelfAdjointEigenSolver<Mat> es((H.transpose() * H) / double(H.rows()));
    out.hidden = summarize(es.eigenvalues());
  }
  return out;
}

}  // namespace akm::exp::t18
