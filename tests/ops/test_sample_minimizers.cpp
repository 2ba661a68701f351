// The sample_minimizers op (T2's least-squares Monte Carlo) held to its plain reference and to
// the definitions it computes: the cpu path (normal equations by Cholesky) against the
// reference's column-pivoted QR within the least-squares perturbation bounds, Ḡ_S on both paths
// against DᵀX/S recomputed here from the op's streams, the noise-free minimizer against A; rows
// independent of the host thread count and of which call computes them; the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/QR>
#include <Eigen/SVD>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/ops/sample_minimizers.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;

namespace {

constexpr std::uint64_t kSeed = 23;

// n keys of a spiked spectrum (λ_i = 10/(i+1)² + 0.1, T2's condition number range) in a random
// orthogonal basis, an m×n value map of unit normals.
ops::SampleMinimizers op(int m, int n, int samples, double sigma) {
  ops::SampleMinimizers o;
  Stream s(31, 0, Purpose::init);
  o.sqrt_lambda = Vec(n);
  for (int i = 0; i < n; ++i) o.sqrt_lambda[i] = std::sqrt(10.0 / ((i + 1) * (i + 1)) + 0.1);
  Mat G(n, n);
  for (Eigen::Index k = 0; k < G.size(); ++k) G.data()[k] = s.normal();
  o.basis = G.householderQr().householderQ();
  o.A = Mat(m, n);
  for (Eigen::Index k = 0; k < o.A.size(); ++k) o.A.data()[k] = s.normal();
  o.sigma = sigma;
  o.samples = samples;
  return o;
}

std::vector<double> rows(const ops::SampleMinimizers& o, Backend b, long long first, long long count, int threads) {
  std::vector<double> r(std::size_t(count) * o.n_obs());
  ops::sample_minimizers_rows(o, kSeed, b, first, count, threads, r.data());
  return r;
}

// A trial's sample as the op's header defines it, from its streams: X, D, and the absolute
// values |U||√λ∘z| and |A||U||√λ∘z| + σ|ξ| that bound their rounding.
struct Sample {
  Mat X, D, Xabs, Dabs;
};
Sample sample(const ops::SampleMinimizers& o, long long trial) {
  const int n = o.n(), m = o.m(), S = o.samples;
  Stream keys(kSeed, std::uint64_t(trial), Purpose::keys), noise(kSeed, std::uint64_t(trial), Purpose::noise);
  Sample s{Mat(S, n), Mat(S, m), Mat(S, n), Mat(S, m)};
  Vec w(n);
  for (int r = 0; r < S; ++r) {
    for (int i = 0; i < n; ++i) w[i] = o.sqrt_lambda[i] * keys.normal();
    s.X.row(r) = (o.basis * w).transpose();
    s.Xabs.row(r) = (o.basis.cwiseAbs() * w.cwiseAbs()).transpose();
  }
  s.D = s.X * o.A.transpose();
  s.Dabs = s.Xabs * o.A.cwiseAbs().transpose();
  for (int r = 0; r < S; ++r)
    for (int q = 0; q < m; ++q) {
      const double xi = noise.normal();
      s.D(r, q) += o.sigma * xi;
      s.Dabs(r, q) += o.sigma * std::abs(xi);
    }
  return s;
}

// The least-squares perturbation bounds (Higham, Accuracy and Stability, ch. 20), first order,
// γ = kC·S·n·ε: Householder QR's minimizer is within γ[κ(‖x‖ + ‖b‖/‖X‖) + κ²‖r‖/‖X‖] of the
// exact one, the normal equations' by Cholesky within γκ²(‖x‖ + ‖b‖/‖X‖) (κ = κ₂(X), r the
// residual); the two paths' different X and D (kC·n·ε in |U||√λ∘z|) are backward errors of
// size γ inside the same forms. Their distance is at most the sum, ≤ γ[2κ²(‖x‖ + ‖b‖/‖X‖) +
// κ²‖r‖/‖X‖] since κ ≥ 1.
double minimizer_bound(const Sample& s, const Vec& x, int q) {
  const Eigen::JacobiSVD<Mat> svd(s.X);
  const double smax = svd.singularValues()(0), smin = svd.singularValues()(svd.singularValues().size() - 1);
  const double kappa = smax / smin, b = s.D.col(q).norm(), r = (s.D.col(q) - s.X * x).norm();
  const double gamma = kC * double(s.X.rows()) * double(s.X.cols()) * kEps64;
  return gamma * (2 * kappa * kappa * (x.norm() + b / smax) + kappa * kappa * r / smax);
}

}  // namespace

TEST(SampleMinimizers, CpuMatchesReference) {
  for (auto [m, n, S] : {std::tuple{2, 8, 50}, std::tuple{1, 3, 3}, std::tuple{3, 5, 200}}) {
    const auto o = op(m, n, S, 0.5);
    const long long first = 2, count = 5;
    const auto ref = rows(o, Backend::reference, first, count, 1);
    const auto cpu = rows(o, Backend::cpu, first, count, 2);
    double worst_f = 0, worst_g = 0;  // |difference| over its bound, every trial and entry
    for (long long t = 0; t < count; ++t) {
      const Sample s = sample(o, first + t);
      const double* r = ref.data() + t * o.n_obs();
      const double* c = cpu.data() + t * o.n_obs();
      for (int q = 0; q < m; ++q) {
        Vec x(n), dx(n);
        for (int j = 0; j < n; ++j) x[j] = r[o.obs(false, q, j)], dx[j] = c[o.obs(false, q, j)] - x[j];
        worst_f = std::max(worst_f, dx.norm() / minimizer_bound(s, x, q));
      }
      // Ḡ_S = DᵀX/S: an S-term sum of products of entries that each path rounds within kC·n·ε
      // of |U||√λ∘z| (X) and of |A|·that (D): within kC(S + 2n + 1)ε Σ_s|D|_sq|X|_sj / S.
      const Mat g = s.D.transpose() * s.X / S, gabs = s.Dabs.transpose() * s.Xabs / S;
      for (int q = 0; q < m; ++q)
        for (int j = 0; j < n; ++j) {
          const double bound = kC * (S + 2 * n + 1) * kEps64 * gabs(q, j);
          worst_g = std::max({worst_g, std::abs(r[o.obs(true, q, j)] - g(q, j)) / bound,
                              std::abs(c[o.obs(true, q, j)] - g(q, j)) / bound});
        }
    }
    RecordProperty("worst_over_bound_minimizer", sci(worst_f));
    RecordProperty("worst_over_bound_gbar", sci(worst_g));
    EXPECT_LE(worst_f, 1.0) << "m = " << m << ", n = " << n << ", S = " << S;
    EXPECT_LE(worst_g, 1.0) << "m = " << m << ", n = " << n << ", S = " << S;
    EXPECT_NE(ref, cpu) << "n = " << n;  // QR against Cholesky: equal bits would mean one ran twice
    EXPECT_EQ(cpu, rows(o, Backend::cpu, first, count, 1)) << "n = " << n;  // threads change nothing
    EXPECT_EQ(ref, rows(o, Backend::reference, first, count, 3)) << "n = " << n;
    const auto one = rows(o, Backend::cpu, first + 1, 1, 1);
    EXPECT_TRUE(std::equal(one.begin(), one.end(), cpu.begin() + o.n_obs())) << "n = " << n;
  }
}

// Without noise the function-space minimizer is A itself [def:fms] (D = XAᵀ exactly solvable),
// on both paths, within the same bound with r = 0 (b = XAᵀ_q, x = A_q).
TEST(SampleMinimizers, NoiseFreeMinimizerIsTheValueMap) {
  const auto o = op(2, 6, 20, 0.0);
  for (Backend b : {Backend::reference, Backend::cpu}) {
    const auto r = rows(o, b, 0, 3, 1);
    for (long long t = 0; t < 3; ++t) {
      const Sample s = sample(o, t);
      for (int q = 0; q < o.m(); ++q) {
        Vec dx(o.n());
        for (int j = 0; j < o.n(); ++j) dx[j] = r[t * o.n_obs() + o.obs(false, q, j)] - o.A(q, j);
        EXPECT_LE(dx.norm(), minimizer_bound(s, o.A.row(q).transpose(), q)) << to_string(b) << " trial " << t;
      }
    }
  }
}

TEST(SampleMinimizers, StatisticsIndependentOfThreads) {
  const auto o = op(2, 4, 12, 0.5);
  expect_statistics_independent_of_threads(
      [&](const McOptions& mc) { return ops::sample_minimizers(o, 3, Backend::cpu, mc); });
}

TEST(SampleMinimizers, RefusesWhatNoBackendCanRun) {
  auto refused = [](auto change, const char* param) { expect_refused(op(2, 4, 12, 0.5), change, param); };
  refused([](auto& o) { o.sigma = -1.0; }, "sigma");
  refused([](auto& o) { o.sigma = std::nan(""); }, "sigma");
  refused([](auto& o) { o.sqrt_lambda = Vec(); }, "sqrt_lambda");
  refused([](auto& o) { o.sqrt_lambda[1] = 0.0; }, "sqrt_lambda");
  refused([](auto& o) { o.basis = Mat::Identity(3, 3); }, "basis");
  refused([](auto& o) { o.basis(0, 1) = 0.5; }, "basis");
  refused([](auto& o) { o.A = Mat::Zero(2, 5); }, "A");
  refused([](auto& o) { o.A(0, 0) = std::nan(""); }, "A");
  refused([](auto& o) { o.samples = 3; }, "samples");
  const auto o = op(2, 4, 12, 0.5);  // no device kernel: refused by name, before any work
  std::vector<double> r(o.n_obs());
  expect_no_device_path([&](Backend b) { ops::sample_minimizers_rows(o, 1, b, 0, 1, 1, r.data()); });
}
