// Muon and AK-Muon (akm/rules/muon.hpp) against the rule written out with the plain references
// (the deployed buffer of rules::deployed, the EMA by hand, NS by its SVD form), the √(m/n)
// prefactor and decoupled decay [cor:mup-base-lr, AK-Muon], the scale invariance that makes
// the AK buffer's key-norm factor vanish under NS, the trainer's Muon family (hidden layers on
// Muon at α·w^{-1/2}, the rest on AdamW at aux_lr), and bad input refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "akm/base/errors.hpp"
#include "akm/problems/mlp.hpp"
#include "akm/problems/train.hpp"
#include "akm/rules/muon.hpp"
#include "ns_bounds.hpp"

namespace {

using akm::Mat;
namespace ns = akm::ns;

using akm_test::gaussian;

// NS's two paths differ by at most akm_test::agreement_bound (tests/ns_bounds.hpp); the update
// scales that by lr·√(m/n) per step, and the decay factor (≤ 1) does not grow it.
double ns_tol(const Mat& M) { return akm_test::agreement_bound(M); }
// Both sides round W(1 − lr·wd) − c·NS once per step: at most 2u(‖W‖_F + c·‖NS‖_F) each, with
// ‖NS‖_F ≤ √r·s_max.
double step_rounding(const Mat& W, double c) {
  const auto e = ns::error_model(int(W.rows()), int(W.cols()));
  return 4 * 0x1p-53 * (W.norm() + c * std::sqrt(double(std::min(W.rows(), W.cols()))) * e.s_max);
}

akm::MuonParams params(double lr, double beta, double wd) {
  akm::MuonParams p;
  p.lr = lr, p.beta = beta, p.weight_decay = wd;
  return p;
}

TEST(Muon, PrefactorIsSqrtRowsOverCols) {
  EXPECT_DOUBLE_EQ(akm::muon::prefactor(4, 16), 0.5);
  EXPECT_DOUBLE_EQ(akm::muon::prefactor(16, 4), 2.0);  // not max(1, m/n)^½ of Muon's reference code
  EXPECT_DOUBLE_EQ(akm::muon::prefactor(9, 9), 1.0);
}

TEST(Muon, AkMuonIsTheDeployedBufferThenNewtonSchulz) {
  const int m = 5, n = 12, N = 8;
  const double lr = 0.03, beta = 0.9, eta = 0.4, wd = 0.1;
  Mat W = gaussian(m, n, 1), W_ref = W, M_ref = Mat::Zero(m, n);
  akm::AkMuon opt(m, n, params(lr, beta, wd), eta);
  for (int t = 0; t < 4; ++t) {
    const Mat D = gaussian(N, m, 10 + t), X = gaussian(N, n, 20 + t);
    opt.step_batch(W, D, X);
    akm::rules::deployed(M_ref, D, akm::rules::normalize_rows(X), beta, eta,
                         akm::rules::dispatch(n, m));  // [eq:deployed]
    ASSERT_EQ(opt.M, M_ref);
    W_ref = W_ref * (1 - lr * wd) - lr * std::sqrt(double(m) / n) * ns::newton_schulz_svd(M_ref);
    // The two sides differ only in the NS path (the same buffer bits, the same decay).
    EXPECT_LE((W - W_ref).norm(), (t + 1) * (lr * std::sqrt(double(m) / n) * ns_tol(M_ref) + step_rounding(W, lr * std::sqrt(double(m) / n))));
  }
  EXPECT_EQ(opt.t, 4);
}

TEST(Muon, MuonIsTheEmaBufferThenNewtonSchulz) {
  const int m = 6, n = 4;
  const double lr = 0.02, beta = 0.95;
  Mat W = gaussian(m, n, 2), W_ref = W, mom = Mat::Zero(m, n);
  akm::Muon opt(m, n, params(lr, beta, 0.0));
  for (int t = 0; t < 3; ++t) {
    const Mat g = gaussian(m, n, 30 + t);
    opt.step(W, g);
    mom = beta * mom + (1 - beta) * g;  // [eq:ema-update]
    ASSERT_EQ(opt.m, mom);
    W_ref -= lr * std::sqrt(double(m) / n) * ns::newton_schulz_svd(mom);
    EXPECT_LE((W - W_ref).norm(), (t + 1) * (lr * std::sqrt(double(m) / n) * ns_tol(mom) + step_rounding(W, lr * std::sqrt(double(m) / n))));
  }
}

TEST(Muon, ScalingTheErrorsLeavesAkMuonsUpdateUnchanged) {
  // M is linear in the Δ stream from M₀ = 0 and NS is scale-free: Δ × 2^k gives the same W bit
  // for bit. This is why the AK buffer's key-norm factor 1/‖x‖ (T13, cor:mup-base-lr/ak-sgd,
  // ak-adamw) cannot reach AK-Muon's update.
  const int m = 4, n = 9, N = 6;
  Mat W1 = gaussian(m, n, 3), W2 = W1;
  akm::AkMuon a(m, n, params(0.02, 0.99, 0.0), 0.5), b(m, n, params(0.02, 0.99, 0.0), 0.5);
  for (int t = 0; t < 3; ++t) {
    const Mat D = gaussian(N, m, 40 + t), X = gaussian(N, n, 50 + t);
    a.step_batch(W1, D, X);
    b.step_batch(W2, std::ldexp(1.0, -7) * D, X);
  }
  EXPECT_EQ(W1, W2);
}

TEST(Muon, AZeroBufferLeavesWToTheDecay) {
  Mat W = gaussian(3, 3, 4);
  const Mat W0 = W;
  akm::Muon opt(3, 3, params(0.1, 0.9, 0.5));
  opt.step(W, Mat::Zero(3, 3));
  EXPECT_EQ(W, Mat(W0 * (1 - 0.1 * 0.5)));
}

template <class F>
void expect_refused(F&& f, const std::string& param, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "not refused: " << param;
  } catch (const akm::InputError& e) {
    EXPECT_EQ(e.param(), param);
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Muon, BadInputIsRefusedNamingParameterValueAndRange) {
  expect_refused([] { akm::Muon(3, 3, params(0.0, 0.9, 0)); }, "lr", "lr = 0 is invalid: must be > 0 and finite");
  expect_refused([] { akm::Muon(3, 3, params(0.1, 1.0, 0)); }, "beta", "beta = 1 is invalid: must be in [0, 1)");
  expect_refused([] { akm::Muon(3, 3, params(0.1, 0.9, -1)); }, "weight_decay", "must be >= 0 and finite");
  expect_refused([] { akm::AkMuon(3, 3, params(0.1, 0.9, 0), 0.0); }, "eta", "eta = 0 is invalid: must be > 0");
  expect_refused([] { akm::Muon(0, 3, params(0.1, 0.9, 0)); }, "rows", "rows = 0 is invalid: must be >= 1");
  expect_refused([] {
    auto p = params(0.1, 0.9, 0);
    p.ns_steps = 0;
    akm::AkMuon(3, 3, p, 0.5);
  }, "ns_steps", "ns_steps = 0 is invalid: must be >= 1");
  expect_refused([] {
    Mat W = Mat::Ones(3, 4), g = Mat::Ones(3, 4);
    g(0, 1) = std::numeric_limits<double>::quiet_NaN();
    akm::Muon(3, 4, params(0.1, 0.9, 0)).step(W, g);
  }, "g", "every entry must be finite");
  expect_refused([] {
    Mat W = Mat::Ones(3, 4);
    akm::AkMuon(3, 4, params(0.1, 0.9, 0), 0.5).step_batch(W, Mat::Ones(2, 3), Mat::Ones(2, 5));
  }, "X", "must be 2x4");
}

TEST(Muon, TrainerPutsHiddenLayersOnMuonAndTheRestOnAdamW) {
  // μP [cor:mup-base-lr]: the Muon family's hidden rate is lr·w^{-1/2}; input and output layers
  // are AdamW's at aux_lr with AdamW's multipliers (input 1, output 1/w).
  EXPECT_DOUBLE_EQ(akm::mup_lr_multiplier(akm::OptimizerFamily::muon, akm::LayerRole::hidden, 4.0), 0.5);
  for (const char* o : {"muon", "ak-muon"}) {
    akm::Mlp net({8, 64, 3, 1}, 16, 5);  // w = 4
    akm::TrainConfig c;
    c.optimizer = o, c.lr = 0.02, c.aux_lr = 1e-3, c.beta = 0.9, c.eta = 0.5;
    akm::Trainer tr(net, c);
    EXPECT_DOUBLE_EQ(tr.layer_lr(0), 1e-3);
    EXPECT_DOUBLE_EQ(tr.layer_lr(1), 0.02 / 2);
    EXPECT_DOUBLE_EQ(tr.layer_lr(2), 1e-3 / 4);
    const Mat W1 = net.W[1];
    const Mat X = gaussian(16, 8, 6), T = gaussian(16, 1, 7);
    tr.step(X, T, akm::LossKind::mse);
    // The hidden update is lr·√(m/n)·NS(buffer): Frobenius norm lr·‖NS‖_F, every σ in NS's range.
    // (W − c·NS) − W rounds to within 2u(‖W‖_F + c‖NS‖_F) of c·NS (c = lr·√(m/n), m = n here).
    const double lr1 = tr.layer_lr(1), nsn = ns::newton_schulz(tr.buffer(1)).norm();
    EXPECT_NEAR((net.W[1] - W1).norm() / lr1, nsn, 2 * 0x1p-53 * (W1.norm() + lr1 * nsn) / lr1);
    EXPECT_TRUE(akm::is_ak("ak-muon"));
    EXPECT_FALSE(akm::is_ak("muon"));
  }
  akm::TrainConfig bad;
  bad.optimizer = "muon", bad.aux_lr = -1;
  expect_refused([&] { akm::validate(bad); }, "aux_lr", "aux_lr = -1 is invalid: must be > 0 and finite");
  bad.optimizer = "shampoo";
  expect_refused([&] { akm::validate(bad); }, "optimizer", "one of sgd-m, ak-sgd, adamw, ak-adamw, muon, ak-muon");
}

}  // namespace
