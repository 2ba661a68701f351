// Pooled recovery (akm/check/pooled.hpp): it recovers a planted error in η or β from simulated
// transport, resolves better than the best single observable, and its jackknife error carries
// the correlations between observables that share trials (a naive error would not).
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "akm/check/pooled.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/sim/sim.hpp"
#include "akm/sim/transport_control.hpp"
#include "akm/theory/theory.hpp"

namespace {

using akm::Mat;
using akm::PooledObservable;
using akm::PooledParam;
using akm::PooledRecovery;
using akm::Vec;

constexpr double kPoolBeta = 0.9, kPoolEta = 0.05;
constexpr int kLags = 20;
const Vec kPoolLambda = (Vec(4) << 4.0, 2.0, 1.0, 0.5).finished();

// E[u_iᵀP_k u_i] for k = 1..kLags (lem:transport), simulated at (eta, beta): observable
// (k−1)·n + i.
akm::McResult transport(double eta, double beta, std::uint64_t seed, long long trials) {
  const int n = static_cast<int>(kPoolLambda.size());
  const Vec root = kPoolLambda.cwiseSqrt();
  akm::McOptions o;
  o.trials = trials;
  o.groups = 100;
  return akm::monte_carlo(o, static_cast<std::size_t>(kLags * n), [&](long long t, double* out) {
    akm::Stream keys(seed, static_cast<std::uint64_t>(t));
    Mat P = Mat::Identity(n, n);
    Vec x(n), r(n);
    for (int k = 1; k <= kLags; ++k) {
      akm::kern::gaussian_key(keys, root, x);
      akm::kern::transport_step(P, x, beta, eta, r);
      for (int i = 0; i < n; ++i) out[(k - 1) * n + i] = P(i, i);
    }
  });
}

// β̃_i^k at the paper's (η, β, λ scale s) and its log-derivatives by central differences.
double predicted(double eta, double beta, double s, int i, int k) {
  return std::pow(akm::theory::beta_tilde(beta, eta, s * kPoolLambda[i]), k);
}

struct Recovered {
  PooledRecovery pooled;
  double best_single_eta = INFINITY;  // min over observables of se/|∂p/∂ln η|
};

void recover(const akm::McResult& res, akm::Jackknife& jk, Recovered& out) {
  const int n = static_cast<int>(kPoolLambda.size());
  const Vec se = res.total.stderr_mean();
  std::vector<std::size_t> idx;
  std::vector<PooledObservable> obs;
  const double h = 1e-5;
  for (int k = 1; k <= kLags; ++k)
    for (int i = 0; i < n; ++i) {
      const std::size_t j = static_cast<std::size_t>((k - 1) * n + i);
      auto d = [&](double de, double db, double ds) {
        return (predicted(kPoolEta * std::exp(de * h), kPoolBeta * std::exp(db * h), std::exp(ds * h), i, k) -
                predicted(kPoolEta * std::exp(-de * h), kPoolBeta * std::exp(-db * h), std::exp(-ds * h), i, k)) /
               (2 * h);
      };
      PooledObservable o{predicted(kPoolEta, kPoolBeta, 1.0, i, k), se[static_cast<Eigen::Index>(j)], d(1, 0, 0), d(0, 1, 0),
                         d(0, 0, 1), 0.0};
      out.best_single_eta = std::min(out.best_single_eta, o.se / std::abs(o.d_ln_eta));
      idx.push_back(j);
      obs.push_back(o);
    }
  out.pooled.add_means(jk, idx, obs);
}

TEST(Pooled, RecoversAPlantedErrorInEta) {
  for (const double eps : {0.0, 0.02}) {
    const akm::McResult res = transport(kPoolEta * std::exp(eps), kPoolBeta, 11, 4000);
    akm::Jackknife jk(res.groups);
    Recovered r;
    recover(res, jk, r);
    const auto e = r.pooled.estimate(PooledParam::eta);
    ASSERT_TRUE(e.has_value());
    EXPECT_LE(std::abs(e->mean - eps), 5 * e->se) << "planted " << eps << ": recovered " << e->mean << " ± " << e->se;
    EXPECT_LT(e->se, r.best_single_eta) << "pooling must resolve better than the best single observable";
    if (eps > 0) {
      EXPECT_GT(e->mean / e->se, 5.0) << "a 2% error in η must be detected";
    }
    // λ̂ enters only through ηλ̂ here: its estimate sees the same planted error.
    const auto l = r.pooled.estimate(PooledParam::lambda);
    ASSERT_TRUE(l.has_value());
    EXPECT_NEAR(l->mean, e->mean, 1e-6);
    EXPECT_EQ(r.pooled.informative(PooledParam::eta), static_cast<std::size_t>(kLags * kPoolLambda.size()));
  }
}

TEST(Pooled, RecoversAPlantedErrorInBeta) {
  const double eps = 0.004;
  const akm::McResult res = transport(kPoolEta, kPoolBeta * std::exp(eps), 12, 4000);
  akm::Jackknife jk(res.groups);
  Recovered r;
  recover(res, jk, r);
  const auto e = r.pooled.estimate(PooledParam::beta);
  ASSERT_TRUE(e.has_value());
  EXPECT_LE(std::abs(e->mean - eps), 5 * e->se) << e->mean << " ± " << e->se;
  EXPECT_GT(e->mean / e->se, 5.0) << "a 0.4% error in β must be detected";
}

// Observables o_j = d_j ε + u + e_j with a shock u common to every observable of a trial:
// the jackknife error of ε̂ must match ε̂'s spread over independent replicates, while the
// error that treats the observables as independent is several times too small.
TEST(Pooled, JackknifeErrorCarriesSharedTrials) {
  constexpr int kObs = 30, kReps = 300;
  const double eps = 0.01;
  std::vector<double> z;
  double ratio_naive = 0;
  for (int rep = 0; rep < kReps; ++rep) {
    akm::McOptions o;
    o.trials = 400;
    o.groups = 50;
    o.threads = 1;
    const auto res = akm::monte_carlo(o, kObs, [&](long long t, double* out) {
      akm::Stream s(1000 + static_cast<std::uint64_t>(rep), static_cast<std::uint64_t>(t));
      const double u = s.normal();
      for (int j = 0; j < kObs; ++j) out[j] = (1.0 + 0.1 * j) * eps + u + 0.5 * s.normal();
    });
    akm::Jackknife jk(res.groups);
    std::vector<std::size_t> idx;
    std::vector<PooledObservable> obs;
    const Vec se = res.total.stderr_mean();
    double info = 0;
    for (int j = 0; j < kObs; ++j) {
      idx.push_back(static_cast<std::size_t>(j));
      obs.push_back({0.0, se[j], 1.0 + 0.1 * j, 0.0, 0.0, 0.0});
      info += std::pow((1.0 + 0.1 * j) / se[j], 2);
    }
    PooledRecovery p;
    p.add_means(jk, idx, obs);
    const auto e = p.estimate(PooledParam::eta);
    ASSERT_TRUE(e.has_value());
    z.push_back((e->mean - eps) / e->se);
    ratio_naive += e->se * std::sqrt(info) / kReps;
  }
  double m = 0, v = 0;
  for (double x : z) m += x / kReps;
  for (double x : z) v += (x - m) * (x - m) / (kReps - 1);
  // sd of a sample sd over 300 normal draws ≈ 0.04; ±0.2 is 5 of them (t_49 widens sd by ~2%).
  EXPECT_NEAR(std::sqrt(v), 1.0, 0.2);
  EXPECT_NEAR(m, 0.0, 5.0 / std::sqrt(kReps));
  EXPECT_GT(ratio_naive, 3.0) << "the naive error must be far too small here, or the test cannot fail";
}

TEST(Pooled, RefusesBadObservables) {
  akm::McOptions o;
  o.trials = 20;
  o.groups = 4;
  const auto res = akm::monte_carlo(o, 1, [](long long t, double* out) { out[0] = static_cast<double>(t); });
  akm::Jackknife jk(res.groups);
  PooledRecovery p;
  EXPECT_THROW(p.add_means(jk, {0}, {{NAN, 1.0, 1.0, 0.0, 0.0, 0.0}}), std::invalid_argument);
  EXPECT_THROW(p.add_means(jk, {0, 0}, {{0.0, 1.0, 1.0, 0.0, 0.0, 0.0}}), std::invalid_argument);
  EXPECT_THROW(p.add_means(jk, {}, {}), std::invalid_argument);
  EXPECT_FALSE(p.estimate(PooledParam::beta).has_value());
}

TEST(Pooled, RecordsOneCheckPerInformedParameter) {
  const akm::McResult res = transport(kPoolEta, kPoolBeta, 13, 1000);
  akm::Jackknife jk(res.groups);
  Recovered r;
  recover(res, jk, r);
  akm::Checks checks;
  r.pooled.record(checks, "pooled");
  checks.finalize();
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_EQ(checks.records()[0].name, "pooled/ln-eta");
  EXPECT_EQ(checks.records()[0].recovers, "eta");
  EXPECT_EQ(checks.records()[1].recovers, "beta");
  EXPECT_TRUE(checks.all_pass());
}

}  // namespace

namespace {

// The linearized transport as a control variate (akm/sim/transport_control.hpp): over trials,
// C_k(i) has mean 0 (so P_k(i,i) − C_k(i) keeps the mean β̃_i^k), the difference has a smaller
// variance than P_k(i,i) itself, and a wrong second moment gives C a mean that is seen.
struct ControlRun {
  akm::McResult res;
  int n;
};

ControlRun control_run(const Vec& m, std::uint64_t seed) {
  const int n = static_cast<int>(kPoolLambda.size());
  const Vec root = kPoolLambda.cwiseSqrt();
  akm::McOptions o;
  o.trials = 20000;
  // Observables: P_k(i,i) at (k−1)n + i, C_k(i) after them.
  const auto res = akm::monte_carlo(o, static_cast<std::size_t>(2 * kLags * n), [&](long long t, double* out) {
    akm::Stream keys(seed, static_cast<std::uint64_t>(t));
    Mat P = Mat::Identity(n, n);
    Vec x(n), r(n);
    akm::TransportControl control(m, kPoolBeta, kPoolEta);
    for (int k = 1; k <= kLags; ++k) {
      akm::kern::gaussian_key(keys, root, x);
      akm::kern::transport_step(P, x, kPoolBeta, kPoolEta, r);
      control.push(x);
      for (int i = 0; i < n; ++i) {
        out[(k - 1) * n + i] = P(i, i);
        out[(kLags + k - 1) * n + i] = control.at(i);
      }
    }
  });
  return {res, n};
}

}  // namespace

TEST(TransportControl, HasMeanZeroAndReducesVariance) {
  const ControlRun c = control_run(kPoolLambda, 21);
  const Vec mean = c.res.total.mean(), var = c.res.total.variance();
  const double R = static_cast<double>(c.res.total.count());
  const int n = c.n;
  for (int k = 1; k <= kLags; ++k)
    for (int i = 0; i < n; ++i) {
      const Eigen::Index o = (kLags + k - 1) * n + i;
      // 80 comparisons at z = 5: a false alarm has probability ≈ 5e-5.
      EXPECT_LE(std::abs(mean[o]), 5 * std::sqrt(var[o] / R)) << "E[C_" << k << "(" << i << ")] = " << mean[o];
    }
  // The variance of P − C against that of P at lag 2 on the strongest direction (ηλ = 0.2):
  // C removes the first-order fluctuation, leaving the second order.
  // var(P − C) = var(P) + var(C) − 2cov(P, C) needs the cross moment: recompute it per trial.
  akm::McOptions o;
  o.trials = 20000;
  const auto d = akm::monte_carlo(o, 3, [&](long long t, double* out) {
    akm::Stream keys(21, static_cast<std::uint64_t>(t));
    Mat P = Mat::Identity(n, n);
    Vec x(n), r(n);
    akm::TransportControl control(kPoolLambda, kPoolBeta, kPoolEta);
    for (int k = 1; k <= 2; ++k) {
      akm::kern::gaussian_key(keys, kPoolLambda.cwiseSqrt(), x);
      akm::kern::transport_step(P, x, kPoolBeta, kPoolEta, r);
      control.push(x);
    }
    out[0] = P(0, 0);
    out[1] = P(0, 0) - control.at(0);
    out[2] = control.at(0);
  });
  // The two means differ by the mean of C, whose own standard error sets the tolerance.
  EXPECT_NEAR(d.total.mean()[0], d.total.mean()[1], 5 * std::sqrt(d.total.variance()[2] / R));
  EXPECT_GT(d.total.variance()[0] / d.total.variance()[1], 4.0) << "the control variate must reduce the variance";
}

TEST(TransportControl, AWrongSecondMomentShowsAsAMean) {
  const ControlRun c = control_run(1.05 * kPoolLambda, 22);
  const Vec mean = c.res.total.mean(), se = c.res.total.stderr_mean();
  // C_k(0) then has mean −η β̃^{k−1} k (λ − 1.05λ) ≠ 0: seen at lag 10 far beyond 5 se.
  const Eigen::Index o = (kLags + 10 - 1) * c.n + 0;
  EXPECT_GT(std::abs(mean[o]) / se[o], 5.0);
}
