// AdamW and AK-AdamW [sec:methodology "Modular instantiations", app:deployed].
//
// The three-step examples are derived by hand in the comments (exact fractions); the code
// under test never produced these numbers. Settings chosen so every √v̂ is exact:
// lr = 0.1, β1 = 0.5, β2 = 0.5, ε = 1, wd = 0.5, so each step is W ← 0.95·W − 0.1·U with
// U = m̂ ⊘ (√v̂ + 1); with β1 = β2 = 1/2 the bias factors are 1/2, 3/4, 7/8, so
//   m̂_1 = g_1,  m̂_2 = (g_1 + 2g_2)/3,  m̂_3 = (g_1 + 2g_2 + 4g_3)/7  (same for v̂ on g²).
#include <gtest/gtest.h>

#include <cmath>

#include "akm/base/errors.hpp"
#include "akm/rules/optimizers.hpp"
#include "akm/random/random.hpp"

namespace {

using akm::AdamW;
using akm::AdamWParams;
using akm::AkAdamW;
using akm::Mat;
using akm::Vec;

AdamWParams hand_params() {
  AdamWParams p;
  p.lr = 0.1;
  p.beta1 = 0.5;
  p.beta2 = 0.5;
  p.eps = 1.0;
  p.weight_decay = 0.5;
  return p;
}

Mat row(double a, double b) {
  Mat r(1, 2);
  r << a, b;
  return r;
}

Vec vec2(double a, double b) {
  Vec v(2);
  v << a, b;
  return v;
}

Vec vec1(double a) { return Vec::Constant(1, a); }

void expect_row(const Mat& W, double a, double b, double tol = 1e-14) {
  EXPECT_NEAR(W(0, 0), a, tol);
  EXPECT_NEAR(W(0, 1), b, tol);
}

// AdamW, W_0 = (1, −2), gradients g_1 = (5, 2), g_2 = (1, −2), g_3 = (−3, 2).
// Column a (5, 1, −3): v̂ = 25, (25+2)/3 = 9, (25+2+36)/7 = 9  → √v̂ = 5, 3, 3
//                      m̂ = 5, (5+2)/3 = 7/3, (5+2−12)/7 = −5/7
//                      U = 5/6, (7/3)/4 = 7/12, (−5/7)/4 = −5/28
// Column b (2, −2, 2): v̂ = 4 at every step → √v̂ = 2
//                      m̂ = 2, (2−4)/3 = −2/3, (2−4+8)/7 = 6/7
//                      U = 2/3, (−2/3)/3 = −2/9, (6/7)/3 = 2/7
// W_a: 0.95·1 − 1/12 = 13/15;  0.95·13/15 − 7/120 = 153/200;  0.95·153/200 + 1/56 = 20849/28000
// W_b: −1.9 − 1/15 = −59/30;  0.95·(−59/30) + 1/45 = −3323/1800;
//      0.95·(−3323/1800) − 1/35 = −449159/252000
TEST(AdamW, HandComputedThreeSteps) {
  AdamW opt(1, 2, hand_params());
  Mat W = row(1.0, -2.0);
  opt.step(W, row(5.0, 2.0));
  expect_row(W, 13.0 / 15.0, -59.0 / 30.0);
  expect_row(opt.first_hat(), 5.0, 2.0);
  expect_row(opt.second_hat(), 25.0, 4.0);
  opt.step(W, row(1.0, -2.0));
  expect_row(W, 153.0 / 200.0, -3323.0 / 1800.0);
  expect_row(opt.first_hat(), 7.0 / 3.0, -2.0 / 3.0);
  expect_row(opt.second_hat(), 9.0, 4.0);
  opt.step(W, row(-3.0, 2.0));
  expect_row(W, 20849.0 / 28000.0, -449159.0 / 252000.0);
  expect_row(opt.first_hat(), -5.0 / 7.0, 6.0 / 7.0);
  expect_row(opt.second_hat(), 9.0, 4.0);
  // Raw moments: m_3 = m̂_3·7/8, v_3 = v̂_3·7/8.
  expect_row(opt.m, -5.0 / 8.0, 6.0 / 8.0);
  expect_row(opt.v, 63.0 / 8.0, 28.0 / 8.0);
  EXPECT_EQ(opt.t, 3);
}

// The same gradients from factors: g = δxᵀ (δ = 1, x = g) and g = ΔᵀX/N (N = 2 rows whose
// mean is g: rows (g, 0) scaled by 2) give the same iterates.
TEST(AdamW, FactorAndBatchFormsGiveTheGradientForm) {
  AdamW a(1, 2, hand_params()), b(1, 2, hand_params()), c(1, 2, hand_params());
  Mat Wa = row(1.0, -2.0), Wb = Wa, Wc = Wa;
  for (const Vec& g : {vec2(5, 2), vec2(1, -2), vec2(-3, 2)}) {
    a.step(Wa, g.transpose());
    b.step(Wb, vec1(1.0), g);
    Mat Delta(2, 1), X(2, 2);
    Delta << 2.0, 1.0;
    X << g.transpose(), 0.0, 0.0;
    c.step_batch(Wc, Delta, X);
  }
  EXPECT_LT((Wa - Wb).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((Wa - Wc).cwiseAbs().maxCoeff(), 1e-15);
  expect_row(Wc, 20849.0 / 28000.0, -449159.0 / 252000.0);
}

// AK-AdamW per sample, β = 0.5, η = 0.5, W_0 = (1, −2), M_0 = 0.
//   t=1: x = (3, 4), ‖x‖ = 5, x̂ = (0.6, 0.8), δ = 1.   M_0x̂ = 0, residual 1,
//        M_1 = 0.5·1·(0.6, 0.8) = (0.3, 0.4).           g = δx = (3, 4).
//   t=2: x = (6, −8), ‖x‖ = 10, x̂ = (0.6, −0.8), δ = 0.5.
//        M_1x̂ = 0.18 − 0.32 = −0.14, residual 0.5 + 0.14 = 0.64,
//        M_2 = 0.5·(0.3, 0.4) + 0.5·0.64·(0.6, −0.8) = (0.15 + 0.192, 0.2 − 0.256)
//            = (0.342, −0.056).                        g = 0.5·(6, −8) = (3, −4).
//   t=3: x = (−1.5, −2), ‖x‖ = 2.5, x̂ = (−0.6, −0.8), δ = 2.
//        M_2x̂ = −0.2052 + 0.0448 = −0.1604, residual 2.1604,
//        M_3 = (0.171, −0.028) + 1.0802·(−0.6, −0.8) = (−0.47712, −0.89216).
//                                                     g = 2·(−1.5, −2) = (−3, −4).
// |g| = (3, 4) at every step, so v̂ = (9, 16), √v̂ + ε = (4, 5) throughout.
// M̂ = M/(1 − 0.5^t): (0.6, 0.8); (0.456, −0.056/0.75 = −28/375); (−0.54528, −0.89216·8/7).
// U = M̂ ⊘ (4, 5): (0.15, 0.16); (0.114, −28/1875); (−0.13632, −7.13728/35).
// W_a: 0.95 − 0.015 = 0.935;  0.88825 − 0.0114 = 0.87685;  0.8330075 + 0.013632 = 0.8466395
// W_b: −1.9 − 0.016 = −1.916;  −1.8202 + 28/18750 = −136403/75000;
//      0.95·(−136403/75000) + 7.13728/350 = −89637403/52500000
TEST(AkAdamW, HandComputedThreeStepsPerSample) {
  AdamWParams p = hand_params();
  AkAdamW opt(1, 2, p, 0.5);
  Mat W = row(1.0, -2.0);
  opt.step(W, vec1(1.0), vec2(3.0, 4.0));
  expect_row(opt.M, 0.3, 0.4);
  expect_row(W, 0.935, -1.916);
  opt.step(W, vec1(0.5), vec2(6.0, -8.0));
  expect_row(opt.M, 0.342, -0.056);
  expect_row(opt.first_hat(), 0.456, -28.0 / 375.0);
  expect_row(W, 0.87685, -136403.0 / 75000.0);
  opt.step(W, vec1(2.0), vec2(-1.5, -2.0));
  expect_row(opt.M, -0.47712, -0.89216);
  expect_row(opt.second_hat(), 9.0, 16.0);
  expect_row(W, 0.8466395, -89637403.0 / 52500000.0);
}

// AK-AdamW deployed batch form, N = 2, the same batch three times, β = η = 0.5.
//   Δ = (1, −1)ᵀ, X rows (3, 4) and (0, 2); X̂ rows (0.6, 0.8) and (0, 1).
//   G = ΔᵀX̂/2 = ((0.6 − 0)/2, (0.8 − 1)/2) = (0.3, −0.1).
//   Σ̂_B = X̂ᵀX̂/2 = [[0.36, 0.48], [0.48, 1.64]]/2 = [[0.18, 0.24], [0.24, 0.82]].
//   M_1 = η G = (0.15, −0.05).
//   M_1Σ̂_B = (0.027 − 0.012, 0.036 − 0.041) = (0.015, −0.005),
//   M_2 = 0.5·(0.15, −0.05) + 0.5·(0.285, −0.095) = (0.2175, −0.0725) = 1.45·M_1.
//   M_2Σ̂_B = 1.45·(0.015, −0.005) = (0.02175, −0.00725),
//   M_3 = 0.5·(0.2175, −0.0725) + 0.5·(0.27825, −0.09275) = (0.247875, −0.082625).
//   Raw gradient g = ΔᵀX/2 = (1.5, 1) every step: v̂ = (2.25, 1), √v̂ + ε = (2.5, 2).
//   U_1 = (0.3/2.5, −0.1/2) = (0.12, −0.05); U_2 = (0.29/2.5, −(0.0725/0.75)/2) =
//   (0.116, −0.048333…); U_3 = (0.247875/0.875/2.5, −0.082625/0.875/2).
//   W: (0.938, −1.895); (0.8795, −4309/2400); (1153871/1400000, −2857553/1680000).
TEST(AkAdamW, HandComputedThreeStepsBatch) {
  Mat Delta(2, 1), X(2, 2);
  Delta << 1.0, -1.0;
  X << 3.0, 4.0, 0.0, 2.0;
  for (const auto order : {akm::rules::Order::gram, akm::rules::Order::through_n}) {
    AkAdamW opt(1, 2, hand_params(), 0.5);
    Mat W = row(1.0, -2.0);
    opt.step_batch(W, Delta, X, order);
    expect_row(opt.M, 0.15, -0.05);
    expect_row(W, 0.938, -1.895);
    opt.step_batch(W, Delta, X, order);
    expect_row(opt.M, 0.2175, -0.0725);
    expect_row(W, 0.8795, -4309.0 / 2400.0);
    opt.step_batch(W, Delta, X, order);
    expect_row(opt.M, 0.247875, -0.082625);
    expect_row(opt.second_hat(), 2.25, 1.0);
    expect_row(W, 1153871.0 / 1400000.0, -2857553.0 / 1680000.0);
  }
}

// A batch of one sample is the per-sample rule; AdamW and AK-AdamW hold the same v on the
// same stream (the second moment is unchanged, app:second-moment).
TEST(AkAdamW, BatchOfOneIsPerSampleAndSecondMomentMatchesAdamW) {
  const int m = 3, n = 5;
  AdamWParams p;
  p.lr = 0.01;
  p.beta1 = 0.9;
  p.beta2 = 0.99;
  p.weight_decay = 0.1;
  AkAdamW per(m, n, p, 0.4), batch(m, n, p, 0.4);
  AdamW adam(m, n, p);
  akm::Stream s(7, 0);
  Mat W1 = Mat::Constant(m, n, 0.5), W2 = W1, W3 = W1;
  for (int t = 0; t < 25; ++t) {
    Vec d(m), x(n);
    for (int i = 0; i < m; ++i) d[i] = s.normal();
    for (int j = 0; j < n; ++j) x[j] = 3.0 * s.normal();
    per.step(W1, d, x);
    batch.step_batch(W2, d.transpose(), x.transpose());
    adam.step(W3, d, x);
  }
  EXPECT_LT((per.M - batch.M).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT((W1 - W2).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_EQ((per.v - adam.v).cwiseAbs().maxCoeff(), 0.0);
}

// The AK first moment is input-scale free (x̂), while v follows the raw gradient.
TEST(AkAdamW, BufferIgnoresKeyScale) {
  AdamWParams p;
  AkAdamW a(2, 3, p, 0.5), b(2, 3, p, 0.5);
  Mat Wa = Mat::Zero(2, 3), Wb = Wa;
  const Vec d = (Vec(2) << 1.0, -0.5).finished();
  const Vec x = (Vec(3) << 1.0, 2.0, -2.0).finished();
  a.step(Wa, d, x);
  b.step(Wb, d, 1000.0 * x);
  EXPECT_LT((a.M - b.M).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_NEAR(b.v(0, 0), 1e6 * a.v(0, 0), 1e-9 * b.v(0, 0));
}

TEST(Optimizers, RejectBadInput) {
  AdamWParams p;
  auto with = [&](auto f) {
    AdamWParams q = p;
    f(q);
    return q;
  };
  EXPECT_THROW(AdamW(1, 2, with([](AdamWParams& q) { q.lr = 0.0; })), akm::InputError);
  EXPECT_THROW(AdamW(1, 2, with([](AdamWParams& q) { q.beta1 = 1.0; })), akm::InputError);
  EXPECT_THROW(AdamW(1, 2, with([](AdamWParams& q) { q.beta2 = -0.1; })), akm::InputError);
  EXPECT_THROW(AdamW(1, 2, with([](AdamWParams& q) { q.eps = 0.0; })), akm::InputError);
  EXPECT_THROW(AdamW(1, 2, with([](AdamWParams& q) { q.weight_decay = NAN; })), akm::InputError);
  EXPECT_THROW(AdamW(0, 2, p), akm::InputError);
  EXPECT_THROW(AkAdamW(1, 2, p, 0.0), akm::InputError);
  try {
    AdamW(1, 2, with([](AdamWParams& q) { q.beta2 = 1.5; }));
    FAIL() << "beta2 = 1.5 accepted";
  } catch (const akm::InputError& e) {
    EXPECT_EQ(e.param(), "beta2");
    EXPECT_NE(std::string(e.what()).find("1.5"), std::string::npos);
  }
  AdamW opt(1, 2, p);
  Mat W = Mat::Zero(1, 2), bad = Mat::Zero(2, 2);
  EXPECT_THROW(opt.step(W, bad), akm::InputError);
  EXPECT_THROW(opt.step(bad, Mat::Zero(1, 2)), akm::InputError);
  EXPECT_THROW(opt.step(W, vec2(1, 1), vec2(1, 1)), akm::InputError);
  AkAdamW ak(1, 2, p, 0.5);
  EXPECT_THROW(ak.step_batch(W, Mat::Zero(2, 1), Mat::Zero(3, 2)), akm::InputError);
  EXPECT_THROW(ak.step(W, vec1(1.0), Vec::Zero(3)), akm::InputError);
  // A zero key has no direction: refused, and the state is left as it was.
  EXPECT_ANY_THROW(ak.step(W, vec1(1.0), Vec::Zero(2)));
  EXPECT_EQ(ak.t, 0);
  EXPECT_EQ(ak.M.cwiseAbs().maxCoeff(), 0.0);
}

}  // namespace
