// The statistics core: the shared thread pool, the one jackknife (held to a plain
// re-merging reference), and the fitted 2×2 map with its errors.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/fitted_map.hpp"
#include "akm/sim/jackknife.hpp"
#include "akm/sim/sim.hpp"
#include "akm/theory/theory.hpp"

using namespace akm;

TEST(ThreadPool, EveryIndexOnceForAnyThreadCountAndGrain) {
  for (int threads : {1, 2, 3, 8, 64})
    for (std::size_t grain : {std::size_t{1}, std::size_t{3}, std::size_t{64}}) {
      std::vector<std::atomic<int>> hits(1000);
      parallel_for(17, 1000, threads, [&](std::size_t k) { ++hits[k]; }, grain);
      for (std::size_t k = 0; k < hits.size(); ++k) ASSERT_EQ(hits[k].load(), k >= 17 ? 1 : 0) << k;
    }
  parallel_for(5, 5, 4, [](std::size_t) { FAIL() << "empty range ran a task"; });
}

TEST(ThreadPool, FirstExceptionReachesTheCaller) {
  // Several workers: the exception reaches the caller. (How many other tasks start before
  // the failure is seen depends on the schedule, so it is not asserted here: on a loaded
  // machine the other workers may finish every task first.)
  std::atomic<int> ran{0};
  EXPECT_THROW(parallel_for(0, 10000, 4,
                            [&](std::size_t k) {
                              ++ran;
                              if (k == 10) throw std::runtime_error("task 10");
                            }),
               std::runtime_error);
  // One worker: no task starts after the failing one.
  ran = 0;
  EXPECT_THROW(parallel_for(0, 10000, 1,
                            [&](std::size_t k) {
                              ++ran;
                              if (k == 10) throw std::runtime_error("task 10");
                            }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 11);
  EXPECT_GE(resolve_threads(0), 1);
  EXPECT_EQ(resolve_threads(3), 3);
}

namespace {

// Groups of a skewed observable pair (x, x² + y): a nonlinear statistic has bias and skew.
McResult skewed_run(int groups) {
  McOptions o;
  o.trials = 2400;
  o.groups = groups;
  o.threads = 3;
  return monte_carlo(o, 3, [](long long t, double* out) {
    Stream s(11, t);
    const double x = std::exp(0.5 * s.normal()), y = s.normal();
    out[0] = x, out[1] = x * x + y, out[2] = y;
  });
}

double ratio(const Vec& m) { return m[1] / (m[0] * m[0]); }

// Plain reference: leave-one-out means by re-merging the other groups' TrialStats.
MeanEstimate reference_jackknife(const std::vector<TrialStats>& g, double (*stat)(const Vec&)) {
  const std::size_t G = g.size();
  TrialStats all;
  for (const auto& s : g) all.merge(s);
  std::vector<double> loo(G);
  double mean = 0;
  for (std::size_t k = 0; k < G; ++k) {
    TrialStats rest;
    for (std::size_t j = 0; j < G; ++j)
      if (j != k) rest.merge(g[j]);
    mean += loo[k] = stat(rest.mean());
  }
  mean /= double(G);
  double ss = 0;
  for (double v : loo) ss += (v - mean) * (v - mean);
  return {double(G) * stat(all.mean()) - double(G - 1) * mean, std::sqrt(ss * double(G - 1) / double(G)), 0,
          double(G - 1), false};
}

}  // namespace

TEST(JackknifeCore, MatchesTheReMergingReference) {
  const McResult r = skewed_run(30);
  const MeanEstimate fast = Jackknife(r.groups)(ratio), ref = reference_jackknife(r.groups, ratio);
  EXPECT_NEAR(fast.mean, ref.mean, 1e-12 * std::abs(ref.mean));
  EXPECT_NEAR(fast.se, ref.se, 1e-9 * ref.se);
  EXPECT_EQ(fast.dof, 29.0);
  EXPECT_NE(fast.skew, 0.0);
}

TEST(JackknifeCore, EveryEntryPointGivesTheSameBits) {
  const McResult r = skewed_run(40);
  const Jackknife jack(r.groups);
  const MeanEstimate all = jack(ratio);
  // Selected observables: the statistic sees only (x, x² + y).
  const MeanEstimate sel = jack({0, 1}, [](const Vec& v) { return v[1] / (v[0] * v[0]); });
  // Rows of group means with their counts (the ops::Observations form).
  std::vector<double> rows, counts;
  for (const auto& g : r.groups) {
    rows.insert(rows.end(), g.mean().data(), g.mean().data() + g.size());
    counts.push_back(double(g.count()));
  }
  const MeanEstimate from_rows = Jackknife(rows.data(), 3, counts)(ratio);
  // Several statistics in one pass.
  const auto many = jack.many({}, 2, [](const Vec& v, double* out) {
    out[0] = v[2];
    out[1] = ratio(v);
  });
  const MeanEstimate lib = jackknife_estimate(r.groups, ratio);
  for (const MeanEstimate* e : {&sel, &from_rows, &many[1], &lib}) {
    EXPECT_EQ(e->mean, all.mean);
    EXPECT_EQ(e->se, all.se);
    EXPECT_EQ(e->skew, all.skew);
    EXPECT_EQ(e->dof, all.dof);
  }
  EXPECT_EQ(many[0].mean, jack([](const Vec& v) { return v[2]; }).mean);
  EXPECT_THROW(jack({3}, ratio), std::invalid_argument);
  EXPECT_THROW(Jackknife(std::vector<TrialStats>(1, TrialStats(3))), std::invalid_argument);
}

TEST(FittedMap, RecoversTheMapAndEachFunctionIsItsOwnJackknife) {
  // Trajectories s_{t+1} = A s_t + noise in the second component: the pooled fit recovers A
  // within a few standard errors, and fit_map's entries equal the scalar jackknifes.
  const Mat2 A = akm::theory::iter_matrix_ak(0.3, 0.5, 0.6);
  McOptions o;
  o.trials = 2000;
  o.groups = 100;
  o.threads = 2;
  const auto r = monte_carlo(o, kMapMoments, [&](long long t, double* out) {
    Stream s(5, t);
    std::fill(out, out + kMapMoments, 0.0);
    Vec2 st(1.0, 0.0);
    for (int k = 0; k < 30; ++k) {
      Vec2 nx = A * st;
      nx[1] += 0.1 * s.normal();
      add_map_moments(out, st[0], st[1], nx[0], nx[1]);
      st = nx;
    }
  });
  const Jackknife jack(r.groups);
  const std::array<std::size_t, kMapMoments> idx{0, 1, 2, 3, 4, 5, 6};
  const FittedMapEstimate f = fit_map(jack, idx);
  const double z = 6.0;
  EXPECT_NEAR(f.contraction.mean, A(1, 1), z * f.contraction.se);
  EXPECT_NEAR(f.coupling.mean, A(1, 0), z * f.coupling.se);
  EXPECT_NEAR(f.trace.mean, A.trace(), z * f.trace.se);
  EXPECT_NEAR(f.det.mean, A.determinant(), z * f.det.se);
  EXPECT_GT(f.contraction.se, 0.0);
  auto same = [](const MeanEstimate& a, const MeanEstimate& b) { EXPECT_EQ(a.mean, b.mean); EXPECT_EQ(a.se, b.se); };
  const std::vector<std::size_t> sel(idx.begin(), idx.end());
  same(f.rate, jack(sel, [](const Vec& q) { return akm::theory::spectral_radius(fitted_map(q.data())); }));
  same(f.disc, jack(sel, [](const Vec& q) { return akm::theory::discriminant(fitted_map(q.data())); }));
  same(f.contraction, jack(sel, [](const Vec& q) { return fitted_map(q.data())(1, 1); }));
  // The fit of exact moments is the map itself.
  double q[kMapMoments] = {};
  add_map_moments(q, 1.0, 0.0, A(0, 0), A(1, 0));
  add_map_moments(q, 0.0, 1.0, A(0, 1), A(1, 1));
  EXPECT_LT((fitted_map(q) - A).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(MeanSquareRule, ScaleIsTwiceTheTopEigenvaluePlusTheTrace) {
  const Vec lam = (Vec(3) << 4.0, 1.0, 0.5).finished();
  EXPECT_EQ(akm::theory::ms_rule_scale(lam), 13.5);
  EXPECT_EQ(akm::theory::ms_rule_load(0.1, lam), 0.1 * 13.5);
  EXPECT_LT(akm::theory::ms_rule_load(0.1, lam), akm::theory::kMsRuleLimit);
}
