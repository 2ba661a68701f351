// MLP forward/backward (finite differences), μP multipliers, tasks, and the training loop.
#include <gtest/gtest.h>

#include <cmath>

#include "akm/base/errors.hpp"
#include "akm/problems/mlp.hpp"
#include "akm/rules/rules.hpp"
#include "akm/problems/train.hpp"

namespace {

using namespace akm;

double loss_of(const Mlp& net, const Mat& X, const Mat& T, LossKind k) {
  return mean_loss(k, net.forward(X), T);
}

// Central differences on every weight against the backward pass (ΔᵀX/N per layer).
void check_gradients(LossKind kind, const std::string& task_kind, int depth) {
  const MlpShape shape{5, 7, depth, kind == LossKind::logistic ? 1 : 3};
  Mlp net(shape, 4, 11);
  // Nonzero weights everywhere (the single-layer model starts at 0).
  Stream s(3, 0, Purpose::aux);
  for (auto& W : net.W) W = W.unaryExpr([&s](double v) { return v + 0.3 * s.normal(); });
  const Task task = make_task(task_kind, spiked_sqrt_lambda(5, {4.0, 2.0}, 0.5), shape.d_out, 0.1, 5);
  Mat X, T;
  Stream d(7, 0, Purpose::data);
  task.sample(d, 6, X, T);
  MlpCache c;
  const Mat Y = net.forward(X, &c);
  net.backward(c, output_error(kind, Y, T));
  const auto G = net.gradients(c);
  const double h = 1e-5;
  double worst = 0.0;
  for (int l = 0; l < net.layers(); ++l) {
    for (Eigen::Index i = 0; i < net.W[l].size(); ++i) {
      const double w0 = net.W[l](i);
      net.W[l](i) = w0 + h;
      const double up = loss_of(net, X, T, kind);
      net.W[l](i) = w0 - h;
      const double dn = loss_of(net, X, T, kind);
      net.W[l](i) = w0;
      const double fd = (up - dn) / (2 * h);
      worst = std::max(worst, std::abs(fd - G[l](i)) / std::max(1.0, std::abs(fd)));
    }
  }
  EXPECT_LT(worst, 1e-7);
}

TEST(Mlp, GradientMatchesFiniteDifferencesMse) { check_gradients(LossKind::mse, "teacher", 3); }
TEST(Mlp, GradientMatchesFiniteDifferencesDeep) { check_gradients(LossKind::mse, "teacher", 4); }
TEST(Mlp, GradientMatchesFiniteDifferencesLogistic) { check_gradients(LossKind::logistic, "logistic", 2); }
TEST(Mlp, GradientMatchesFiniteDifferencesLinear) { check_gradients(LossKind::mse, "linear", 1); }

// Softmax cross-entropy (R2's loss): the backward pass from softmax(y) − t against central
// differences, on one-hot targets over 4 classes.
TEST(Mlp, GradientMatchesFiniteDifferencesSoftmax) {
  const MlpShape shape{5, 7, 3, 4};
  Mlp net(shape, 7, 13);
  Stream s(5, 0, Purpose::aux);
  Mat X(6, 5), T = Mat::Zero(6, 4);
  for (Eigen::Index i = 0; i < X.size(); ++i) X(i) = s.normal();
  for (int i = 0; i < 6; ++i) T(i, i % 4) = 1.0;
  MlpCache c;
  net.backward(c, output_error(LossKind::softmax_ce, net.forward(X, &c), T));
  const auto G = net.gradients(c);
  const double h = 1e-5;
  double worst = 0.0;
  for (int l = 0; l < net.layers(); ++l)
    for (Eigen::Index i = 0; i < net.W[l].size(); ++i) {
      const double w0 = net.W[l](i);
      net.W[l](i) = w0 + h;
      const double up = loss_of(net, X, T, LossKind::softmax_ce);
      net.W[l](i) = w0 - h;
      const double dn = loss_of(net, X, T, LossKind::softmax_ce);
      net.W[l](i) = w0;
      worst = std::max(worst, std::abs((up - dn) / (2 * h) - G[l](i)));
    }
  EXPECT_LT(worst, 1e-7);
}

// The loss is log Σ e^y − tᵀy, finite for logits far beyond exp's range (shifted by the max).
TEST(Mlp, SoftmaxLossIsStableForLargeLogits) {
  Mat Y(2, 3), T = Mat::Zero(2, 3);
  Y << 1000, 0, -1000, 0, 0, 0;
  T(0, 0) = 1;
  T(1, 2) = 1;
  EXPECT_NEAR(mean_loss(LossKind::softmax_ce, Y, T), 0.5 * (0.0 + std::log(3.0)), 1e-12);
  const Mat E = output_error(LossKind::softmax_ce, Y, T);
  EXPECT_NEAR(E(0, 0), 0.0, 1e-12);
  EXPECT_NEAR(E(1, 2), 1.0 / 3 - 1, 1e-12);
  EXPECT_NEAR(E.rowwise().sum().cwiseAbs().maxCoeff(), 0.0, 1e-12);  // probabilities sum to 1
}

TEST(Mlp, GeluDerivativeMatchesFiniteDifference) {
  for (double z : {-3.0, -0.7, 0.0, 0.4, 2.5}) {
    const double fd = (gelu(z + 1e-6) - gelu(z - 1e-6)) / 2e-6;
    EXPECT_NEAR(gelu_grad(z), fd, 1e-8);
  }
  EXPECT_NEAR(gelu(0.0), 0.0, 1e-15);
}

// Per-sample errors are exact: forming Δ row by row from one-sample backward passes gives
// the batch Δ, and G = ΔᵀX/N is the mean of the per-sample rank-one gradients δxᵀ.
TEST(Mlp, HooksAreThePerSampleFactors) {
  Mlp net({4, 6, 3, 2}, 6, 2);
  const Task task = make_task("teacher", Vec::Ones(4), 2, 0.1, 9);
  Mat X, T;
  Stream d(1, 0, Purpose::data);
  task.sample(d, 5, X, T);
  MlpCache c;
  net.backward(c, output_error(LossKind::mse, net.forward(X, &c), T));
  for (int i = 0; i < 5; ++i) {
    MlpCache ci;
    const Mat Yi = net.forward(X.row(i), &ci);
    net.backward(ci, output_error(LossKind::mse, Yi, T.row(i)));
    for (int l = 0; l < 3; ++l) {
      EXPECT_LT((ci.Delta[l] - c.Delta[l].row(i)).norm(), 1e-13);
      EXPECT_LT((ci.X[l] - c.X[l].row(i)).norm(), 1e-13);
    }
  }
}

TEST(Mup, MultipliersFollowCorollary) {
  // cor:mup-base-lr: SGD family Θ(1) hidden, Θ(1/n) output; Adam family 1/n hidden.
  EXPECT_DOUBLE_EQ(mup_lr_multiplier(OptimizerFamily::sgd, LayerRole::hidden, 8.0), 1.0);
  EXPECT_DOUBLE_EQ(mup_lr_multiplier(OptimizerFamily::sgd, LayerRole::output, 8.0), 1.0 / 8);
  EXPECT_DOUBLE_EQ(mup_lr_multiplier(OptimizerFamily::sgd, LayerRole::input, 8.0), 8.0);
  EXPECT_DOUBLE_EQ(mup_lr_multiplier(OptimizerFamily::adam, LayerRole::hidden, 8.0), 1.0 / 8);
  EXPECT_DOUBLE_EQ(mup_lr_multiplier(OptimizerFamily::adam, LayerRole::output, 8.0), 1.0 / 8);
  EXPECT_DOUBLE_EQ(mup_lr_multiplier(OptimizerFamily::adam, LayerRole::input, 8.0), 1.0);
  EXPECT_DOUBLE_EQ(mup_init_std(LayerRole::output, 16, 4.0), 1.0 / 8);  // √n₀/n: variance ∝ 1/n² (TP V, Table 3)
  EXPECT_DOUBLE_EQ(mup_init_std(LayerRole::hidden, 16, 4.0), 0.25);
}

TEST(Mup, InitScalesWithWidth) {
  // Hidden entries have variance 1/n, output entries 1/(n·w) = n0/n² with w = n/n0 (μP: ∝ 1/n²).
  Mlp net({8, 512, 3, 4}, 64, 3);
  const double hid = net.W[1].squaredNorm() / net.W[1].size();
  const double out = net.W[2].squaredNorm() / net.W[2].size();
  EXPECT_NEAR(hid * 512, 1.0, 0.02);
  EXPECT_NEAR(out * 512 * 8.0, 1.0, 0.15);
}

// width_lr_power multiplies the rate of the fan-in-n layers (hidden, output) by w^p only.
TEST(Mup, WidthLrPowerScalesFanInWidthLayers) {
  Mlp net({4, 32, 3, 1}, 8, 3);
  TrainConfig base, fix;
  base.optimizer = fix.optimizer = "ak-adamw";
  fix.width_lr_power = 0.5;
  Trainer a(net, base), b(net, fix);
  EXPECT_DOUBLE_EQ(b.layer_lr(0), a.layer_lr(0));
  EXPECT_DOUBLE_EQ(b.layer_lr(1), a.layer_lr(1) * 2.0);  // w = 4, √w = 2
  EXPECT_DOUBLE_EQ(b.layer_lr(2), a.layer_lr(2) * 2.0);
  fix.width_lr_power = std::nan("");
  EXPECT_THROW(Trainer(net, fix), InputError);
}

TEST(Task, Summaries) {
  const Task t = make_task("linear", spiked_sqrt_lambda(4, {9.0}, 1.0), 1, 0.0, 1);
  EXPECT_DOUBLE_EQ(t.condition_number(), 9.0);
  EXPECT_DOUBLE_EQ(t.top1_fraction(), 0.75);
  const double p1 = 0.75, p2 = 1.0 / 12;
  EXPECT_NEAR(t.effective_rank(), std::exp(-(p1 * std::log(p1) + 3 * p2 * std::log(p2))), 1e-12);
  EXPECT_THROW(make_task("cubic", Vec::Ones(3), 1, 0.0, 1), InputError);
}

// The AK-SGD layer step is exactly the deployed rule on (Δ_l, X̂_l) then W ← W − αM.
TEST(Train, AkSgdIsTheDeployedRule) {
  Mlp net({4, 8, 2, 3}, 8, 5);
  Mlp ref = net;
  const Task task = make_task("teacher", Vec::Ones(4), 3, 0.1, 2);
  TrainConfig cfg;
  cfg.optimizer = "ak-sgd";
  cfg.lr = 0.05;
  cfg.beta = 0.9;
  cfg.eta = 0.4;
  Trainer tr(net, cfg);
  std::vector<Mat> M{Mat::Zero(8, 4), Mat::Zero(3, 8)};
  Stream d(4, 0, Purpose::data);
  for (int step = 0; step < 3; ++step) {
    Mat X, T;
    task.sample(d, 10, X, T);
    MlpCache c;
    ref.backward(c, output_error(LossKind::mse, ref.forward(X, &c), T));
    tr.step(X, T, LossKind::mse);
    for (int l = 0; l < 2; ++l) {
      const Mat Xh = rules::normalize_rows(c.X[l]);
      rules::deployed(M[l], c.Delta[l], Xh, 0.9, 0.4, rules::Order::through_n);
      ref.W[l] -= tr.layer_lr(l) * M[l];
      EXPECT_LT((tr.buffer(l) - M[l]).norm(), 1e-12 * (1 + M[l].norm()));
      EXPECT_LT((net.W[l] - ref.W[l]).norm(), 1e-12 * (1 + ref.W[l].norm()));
    }
  }
}

// The trainer's AK-AdamW layer step is AkAdamW::step_batch (written out there to tolerate
// a dead key row); and AdamW's is AdamW::step_batch.
TEST(Train, AdamFamilyMatchesTheOptimizers) {
  for (const std::string name : {"ak-adamw", "adamw"}) {
    Mlp net({4, 8, 2, 3}, 4, 5);
    Mlp ref = net;
    const Task task = make_task("teacher", Vec::Ones(4), 3, 0.1, 2);
    TrainConfig cfg;
    cfg.optimizer = name;
    cfg.lr = 0.01;
    cfg.beta = 0.95;
    Trainer tr(net, cfg);
    std::vector<AkAdamW> ak;
    std::vector<AdamW> ad;
    for (int l = 0; l < 2; ++l) {
      AdamWParams p;
      p.lr = tr.layer_lr(l);
      p.beta1 = 0.95;
      p.beta2 = cfg.beta2;
      p.eps = cfg.eps;
      ak.emplace_back(int(ref.W[l].rows()), int(ref.W[l].cols()), p, cfg.eta);
      ad.emplace_back(int(ref.W[l].rows()), int(ref.W[l].cols()), p);
    }
    Stream d(4, 0, Purpose::data);
    for (int step = 0; step < 3; ++step) {
      Mat X, T;
      task.sample(d, 10, X, T);
      MlpCache c;
      ref.backward(c, output_error(LossKind::mse, ref.forward(X, &c), T));
      tr.step(X, T, LossKind::mse);
      for (int l = 0; l < 2; ++l) {
        if (name == "ak-adamw") ak[l].step_batch(ref.W[l], c.Delta[l], c.X[l], rules::Order::through_n);
        else ad[l].step_batch(ref.W[l], c.Delta[l], c.X[l]);
        EXPECT_LT((net.W[l] - ref.W[l]).norm(), 1e-12 * (1 + ref.W[l].norm())) << name;
      }
    }
  }
}

TEST(Train, EveryOptimizerLearnsTheLinearTask) {
  const Task task = make_task("linear", spiked_sqrt_lambda(8, {10.0, 3.0}, 0.5), 1, 0.05, 3);
  for (const auto& [name, lr] : std::vector<std::pair<std::string, double>>{
           {"sgd-m", 0.05}, {"ak-sgd", 0.05}, {"adamw", 0.02}, {"ak-adamw", 0.01}}) {
    Mlp net({8, 1, 1, 1}, 1, 1);
    TrainConfig cfg;
    cfg.optimizer = name;
    cfg.lr = lr;
    cfg.steps = 400;
    const auto r = train(net, task, cfg);
    EXPECT_FALSE(r.diverged) << name;
    EXPECT_LT(r.final_loss(), 0.2 * r.eval_loss.front()) << name;
  }
}

TEST(Train, DeterministicForASeed) {
  const Task task = make_task("teacher", Vec::Ones(6), 1, 0.1, 3);
  TrainConfig cfg;
  cfg.steps = 30;
  Mlp a({6, 16, 3, 1}, 16, 1), b({6, 16, 3, 1}, 16, 1);
  const auto ra = train(a, task, cfg), rb = train(b, task, cfg);
  EXPECT_EQ(ra.eval_loss, rb.eval_loss);
}

TEST(Train, RefusesBadInput) {
  TrainConfig cfg;
  cfg.optimizer = "lion";
  EXPECT_THROW(validate(cfg), InputError);
  cfg.optimizer = "ak-sgd";
  cfg.eta = 0.0;
  EXPECT_THROW(validate(cfg), InputError);
  cfg.eta = 0.4;
  cfg.lr = -1;
  EXPECT_THROW(validate(cfg), InputError);
  EXPECT_THROW(Mlp({0, 4, 2, 1}, 4, 1), InputError);
}

}  // namespace
