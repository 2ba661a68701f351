// Estimator and preconditioner as one object [app:estimator-and-preconditioner] (T12
// in docs/claims.md): rapidcheck properties over random PSD Σ̂ = U diag(λ) Uᵀ with unit trace, condition
// numbers up to 1e12 and exact zeros, plus unit tests of the factored paths against plain
// references and a hand-worked diagonal example.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/problems/estimator.hpp"
#include "akm/random/random.hpp"

namespace {

using akm::Mat;
using akm::Vec;
namespace est = akm::estimator;

constexpr std::int64_t kSteps = std::int64_t{1} << 40;

/// A double uniform on [lo, hi] on a grid of 2^40 points; shrinks toward lo.
double uniform(double lo, double hi) {
  const auto k = *rc::gen::inRange<std::int64_t>(0, kSteps + 1);
  return lo + (hi - lo) * (static_cast<double>(k) / static_cast<double>(kSteps));
}

/// One random instance: unit-trace Σ̂ (cond up to 1e12, rank deficient a third of the time),
/// β ∈ [0, 0.999], η ∈ [1e-3, 2], and Ĝ = G₀ projected onto range(Σ̂) — where every
/// Ĝ = E[δx̂ᵀ] lies, since x̂ has no component along a null direction of Σ̂.
struct Instance {
  est::PsdFactors s;
  Mat G;
  double beta, eta;
  double mu() const { return (1.0 - beta) / eta; }
};

Instance draw_instance() {
  const int n = *rc::gen::inRange(1, 25);
  const int m = *rc::gen::inRange(1, 6);
  const bool deficient = n > 1 && *rc::gen::inRange(0, 3) == 0;
  const int zeros = deficient ? *rc::gen::inRange(1, n) : 0;
  const double decades = *rc::gen::inRange(0, 4) == 0 ? 12.0 : uniform(0.0, 12.0);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Instance in{est::random_unit_trace_psd(n, decades, zeros, seed), Mat(m, n), uniform(0.0, 0.999),
              uniform(1e-3, 2.0)};
  akm::Stream rng(seed, 1, akm::Purpose::data);
  for (int j = 0; j < n; ++j)
    for (int r = 0; r < m; ++r) in.G(r, j) = rng.normal();
  Mat range = in.s.U.leftCols(n - zeros);  // eigenvalues are sorted, zeros last
  in.G = in.G * range * range.transpose();
  return in;
}

double max_abs(const Mat& A) { return A.cwiseAbs().maxCoeff(); }

/// Eigenvalues of a symmetric matrix, ascending.
Vec eigenvalues(const Mat& A) { return Eigen::SelfAdjointEigenSolver<Mat>(A, Eigen::EigenvaluesOnly).eigenvalues(); }

// ((1−β)I + ηΣ̂)^{-1} ≻ 0 for every PSD Σ̂: its eigenvalues are exactly 1/((1−β)+ηλ̂_i), the
// smallest 1/((1−β)+ηλ̂_max) ≥ 1/((1−β)+η) > 0 (λ̂_max ≤ tr Σ̂ = 1).
RC_GTEST_PROP(Estimator, PreconditionerIsPositiveDefinite, ()) {
  const Instance in = draw_instance();
  const Mat P_ref = est::ak_preconditioner_reference(in.s.matrix(), in.beta, in.eta);
  const Mat P = est::ak_preconditioner(in.s, in.beta, in.eta);
  RC_ASSERT(max_abs(P - P_ref) <= 1e-10 * max_abs(P));
  const Vec ev = eigenvalues(P_ref);
  std::vector<double> closed;
  for (int i = 0; i < in.s.n(); ++i) closed.push_back(1.0 / ((1.0 - in.beta) + in.eta * in.s.lambda[i]));
  std::sort(closed.begin(), closed.end());
  for (int i = 0; i < in.s.n(); ++i) RC_ASSERT(std::abs(ev[i] - closed[i]) <= 1e-10 * closed[i]);
  const double floor = 1.0 / ((1.0 - in.beta) + in.eta * in.s.lambda_max());
  RC_ASSERT(ev[0] >= floor * (1.0 - 1e-10));
  RC_ASSERT(floor >= 1.0 / ((1.0 - in.beta) + in.eta) * (1.0 - 1e-12));
}

// Descent preserved: ⟨M*, Ĝ⟩ = Σ_i ‖Ĝu_i‖²/(μ+λ̂_i) ≥ ‖Ĝ‖²/(μ+λ̂_max) > 0, and the cosine is at
// least the Kantorovich floor 2√κ/(1+κ), κ = cond(μI+Σ̂) ≤ 1 + 1/μ [eq:cond-ceiling].
RC_GTEST_PROP(Estimator, FixedPointIsADescentDirection, ()) {
  const Instance in = draw_instance();
  const Mat M = est::fixed_point(in.G, in.s, in.beta, in.eta);
  const Mat M_ref = est::fixed_point_reference(in.G, in.s.matrix(), in.beta, in.eta);
  RC_ASSERT(max_abs(M - M_ref) <= 1e-10 * max_abs(M));
  const double inner = est::frobenius_inner(M, in.G);
  RC_ASSERT(inner > 0.0);
  RC_ASSERT(inner >= in.G.squaredNorm() / (in.mu() + in.s.lambda_max()) * (1.0 - 1e-10));
  RC_ASSERT(inner <= in.G.squaredNorm() / (in.mu() + in.s.lambda_min()) * (1.0 + 1e-10));
  const double kappa = (in.mu() + in.s.lambda_max()) / (in.mu() + in.s.lambda_min());
  RC_ASSERT(kappa <= (1.0 + 1.0 / in.mu()) * (1.0 + 1e-12));
  RC_ASSERT(est::cosine(M, in.G) >= est::kantorovich_cosine(kappa) * (1.0 - 1e-10));
  // M* minimizes J_f + μJ_w: its gradient −Ĝ + M*(Σ̂ + μI) vanishes.
  const Mat grad = M * (in.s.matrix() + in.mu() * Mat::Identity(in.s.n(), in.s.n())) - in.G;
  RC_ASSERT(max_abs(grad) <= 1e-10 * (max_abs(in.G) + max_abs(M) * (in.mu() + 1.0)));
}

/// The best ⟨M,Ĝ⟩ over random feasible M: Gaussian draws and small perturbations of the
/// maximizer, each rescaled onto N(M) = 1.
double best_random(const Instance& in, est::Constraint c, const Mat& opt, std::uint64_t seed) {
  akm::Stream rng(seed, 2, akm::Purpose::aux);
  double best = -HUGE_VAL;
  for (int k = 0; k < 40; ++k) {
    Mat R(in.G.rows(), in.G.cols());
    for (Eigen::Index j = 0; j < R.size(); ++j) R.data()[j] = rng.normal();
    const Mat M = k % 2 == 0 ? R : Mat(opt + 1e-3 * R / R.norm() * opt.norm());
    const double nrm = est::constraint_norm(M, in.s, c);
    if (nrm > 0.0) best = std::max(best, est::frobenius_inner(M, in.G) / nrm);
  }
  return best;
}

// J_w and J_f maximize the same functional ⟨M,Ĝ⟩, under ‖M‖_F and E‖Mx̂‖² = tr(MΣ̂Mᵀ); the
// maximizers are ∝ Ĝ and ∝ ĜΣ̂^{+}; the Tikhonov norm μ‖M‖² + tr(MΣ̂Mᵀ) gives ∝ M*.
RC_GTEST_PROP(Estimator, SameFunctionalDifferentNorms, ()) {
  const Instance in = draw_instance();
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const Mat Mstar = est::fixed_point(in.G, in.s, in.beta, in.eta);
  for (const est::Constraint c : {est::weight_space(), est::function_space(), est::tikhonov(in.mu())}) {
    const est::Maximizer mx = est::constrained_maximizer(in.G, in.s, c);
    RC_ASSERT(std::abs(est::constraint_norm(mx.M, in.s, c) - 1.0) <= 1e-10);
    RC_ASSERT(std::abs(est::frobenius_inner(mx.M, in.G) - mx.value) <= 1e-10 * mx.value);
    RC_ASSERT(best_random(in, c, mx.M, seed) <= mx.value * (1.0 + 1e-10));
  }
  const est::Maximizer w = est::constrained_maximizer(in.G, in.s, est::weight_space());
  RC_ASSERT(std::abs(w.value - in.G.norm()) <= 1e-12 * w.value);
  RC_ASSERT(max_abs(w.M - in.G / in.G.norm()) <= 1e-12);
  const est::Maximizer t = est::constrained_maximizer(in.G, in.s, est::tikhonov(in.mu()));
  RC_ASSERT(est::cosine(t.M, Mstar) >= 1.0 - 1e-12);
}

// Full-rank Σ̂ with moderate conditioning: the J_f maximizer is ĜΣ̂^{-1}/value, compared with
// an LDLT solve whose forward error is at most ~n·u·cond.
RC_GTEST_PROP(Estimator, FunctionSpaceMaximizerIsWienerDirection, ()) {
  Instance in = draw_instance();
  RC_PRE(in.s.rank() == in.s.n() && in.s.cond_on_range() <= 1e6);
  const est::Maximizer f = est::constrained_maximizer(in.G, in.s, est::function_space());
  const Mat wiener = in.s.matrix().ldlt().solve(in.G.transpose()).transpose();  // ĜΣ̂^{-1}
  const double tol = 10.0 * in.s.n() * 2.2e-16 * in.s.cond_on_range();
  RC_ASSERT((f.M * f.value - wiener).norm() <= tol * wiener.norm());
}

// Tikhonov interpolation between the two: ‖μM* − Ĝ‖ ≤ ‖Ĝ‖ λ̂_max/(μ+λ̂_max) (→ EMA's Ĝ as
// μ → ∞) and ‖M* − ĜΣ̂^{+}‖ ≤ ‖ĜΣ̂^{+}‖ μ/(μ+λ̂_min⁺) (→ Wiener as μ → 0), per eigen-column.
RC_GTEST_PROP(Estimator, TikhonovInterpolatesBetweenGradientAndWiener, ()) {
  const Instance in = draw_instance();
  const double mu = std::pow(10.0, uniform(-14.0, 4.0));
  const est::PsdFactors& s = in.s;
  // Columns of ĜU: exact zeros on the null space (the projection leaves ~1e-16 there, which
  // a ridge μ = 1e-14 would magnify to 1e-2).
  Mat C = in.G * s.U;
  for (int i = 0; i < s.n(); ++i)
    if (s.lambda[i] == 0.0) C.col(i).setZero();
  Mat Cstar = C, Cwiener = C;
  double lmin = s.lambda_max();
  for (int i = 0; i < s.n(); ++i) {
    Cstar.col(i) /= mu + s.lambda[i];
    Cwiener.col(i) = s.lambda[i] > 0.0 ? Vec(C.col(i) / s.lambda[i]) : Vec::Zero(C.rows());
    if (s.lambda[i] > 0.0) lmin = std::min(lmin, s.lambda[i]);
  }
  // Each side is a difference of two terms formed to relative precision u, so it carries an
  // absolute floor of a few u times their size (it dominates once μ/λ̂ is below ~1e-14).
  const double lmax = s.lambda_max(), u = 2.2e-16;
  RC_ASSERT((mu * Cstar - C).norm() <= C.norm() * (lmax / (mu + lmax) * (1.0 + 1e-10) + 4.0 * u));
  RC_ASSERT((Cstar - Cwiener).norm() <= Cwiener.norm() * (mu / (mu + lmin) * (1.0 + 1e-10) + 4.0 * u));
}

// Hand example: U = I, Σ̂ = diag(3/4, 1/4), Ĝ = (1, 1), β = 3/4, η = 1 → μ = 1/4.
//   P = (μI + Σ̂)^{-1} = diag(1, 2);  M* = Ĝ P = (1, 2);  ⟨M*, Ĝ⟩ = 3.
//   J_w:  M = (1, 1)/√2, value √2.
//   J_f:  ĜΣ̂^{-1} = (4/3, 4), value √(1/(3/4) + 1/(1/4)) = √(16/3) = 4/√3,
//         M = (4/3, 4)·√3/4 = (1/√3, √3).
//   Tikhonov μ = 1/4: w = (1, 1/2), value √(1 + 2) = √3, M = (1, 2)/√3 ∝ M*.
TEST(Estimator, HandWorkedDiagonalExample) {
  const est::PsdFactors s = est::make_psd(Mat::Identity(2, 2), (Vec(2) << 0.75, 0.25).finished());
  Mat G(1, 2);
  G << 1.0, 1.0;
  const Mat P = est::ak_preconditioner(s, 0.75, 1.0);
  EXPECT_NEAR(P(0, 0), 1.0, 1e-15);
  EXPECT_NEAR(P(1, 1), 2.0, 1e-15);
  EXPECT_NEAR(P(0, 1), 0.0, 1e-15);
  const Mat M = est::fixed_point(G, s, 0.75, 1.0);
  EXPECT_NEAR(M(0, 0), 1.0, 1e-15);
  EXPECT_NEAR(M(0, 1), 2.0, 1e-15);
  const auto w = est::constrained_maximizer(G, s, est::weight_space());
  EXPECT_NEAR(w.value, std::sqrt(2.0), 1e-15);
  const auto f = est::constrained_maximizer(G, s, est::function_space());
  EXPECT_NEAR(f.value, 4.0 / std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(f.M(0, 0), 1.0 / std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(f.M(0, 1), std::sqrt(3.0), 1e-15);
  const auto t = est::constrained_maximizer(G, s, est::tikhonov(0.25));
  EXPECT_NEAR(t.value, std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(t.M(0, 1), 2.0 / std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(est::kantorovich_cosine(2.0), 2.0 * std::sqrt(2.0) / 3.0, 1e-15);
  EXPECT_NEAR(est::cosine(M, G), 3.0 / (std::sqrt(5.0) * std::sqrt(2.0)), 1e-15);
}

TEST(Estimator, RandomUnitTracePsdHasTheRequestedSpectrum) {
  for (int zeros : {0, 3}) {
    const est::PsdFactors s = est::random_unit_trace_psd(10, 12.0, zeros, 99);
    EXPECT_NEAR(s.lambda.sum(), 1.0, 1e-14);
    EXPECT_EQ(s.rank(), 10 - zeros);
    EXPECT_NEAR(s.cond_on_range(), 1e12, 1e-3);
    EXPECT_TRUE(std::is_sorted(s.lambda.data(), s.lambda.data() + 10, std::greater<>()));
    EXPECT_LT(max_abs(s.U.transpose() * s.U - Mat::Identity(10, 10)), 1e-13);
  }
  EXPECT_EQ(est::random_unit_trace_psd(1, 5.0, 0, 1).lambda[0], 1.0);
}

TEST(Estimator, RejectsBadInput) {
  const est::PsdFactors s = est::random_unit_trace_psd(4, 3.0, 1, 5);
  const Mat G = Mat::Ones(2, 4);
  EXPECT_THROW(est::ak_preconditioner(s, 1.0, 0.5), akm::InputError);
  EXPECT_THROW(est::ak_preconditioner(s, 0.9, 0.0), akm::InputError);
  EXPECT_THROW(est::fixed_point(Mat::Ones(2, 3), s, 0.9, 0.5), akm::InputError);
  EXPECT_THROW(est::constrained_maximizer(Mat::Zero(2, 4), s, est::weight_space()), akm::InputError);
  // Ĝ with a component along the null direction: E‖Mx̂‖² alone cannot bound ⟨M,Ĝ⟩.
  EXPECT_THROW(est::constrained_maximizer(G, s, est::function_space()), akm::InputError);
  EXPECT_NO_THROW(est::constrained_maximizer(G, s, est::tikhonov(1e-6)));
  EXPECT_THROW(est::tikhonov(0.0), akm::InputError);
  EXPECT_THROW(est::constraint_norm(G, s, est::Constraint{0.0, 0.0}), akm::InputError);
  EXPECT_THROW(est::make_psd(2.0 * Mat::Identity(3, 3), Vec::Ones(3)), akm::InputError);
  EXPECT_THROW(est::make_psd(Mat::Identity(3, 3), (Vec(3) << 1.0, -1e-3, 0.0).finished()), akm::InputError);
  EXPECT_THROW(est::make_psd(Mat::Identity(3, 3), Vec::Zero(3)), akm::InputError);
  EXPECT_THROW(est::random_unit_trace_psd(4, 20.0, 0, 1), akm::InputError);
  EXPECT_THROW(est::random_unit_trace_psd(4, 3.0, 4, 1), akm::InputError);
  EXPECT_THROW(est::kantorovich_cosine(0.5), akm::InputError);
}

}  // namespace
