// The training protocol (akm/problems/protocol.hpp): equal budgets, disjoint seeds, a
// divergence counted as the worst outcome, and tuning that is the same for any thread count.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <set>

#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/problems/protocol.hpp"

namespace {

constexpr double kDivergedScore = std::numeric_limits<double>::infinity();

TEST(Protocol, EveryOptimizerGetsTheSameBudget) {
  // The issue R2 had: 48 AK configurations against 12 for SGD-momentum. Under the protocol
  // both run `trials` of them.
  const auto sgd = akm::budgeted_trials(12, 12, 7, "r2/sgd-m");
  const auto ak = akm::budgeted_trials(48, 12, 7, "r2/ak-sgd");
  EXPECT_EQ(sgd.size(), 12u);
  EXPECT_EQ(ak.size(), 12u);
  for (std::size_t i = 0; i < sgd.size(); ++i) EXPECT_EQ(sgd[i], i);  // the whole space, in order
  EXPECT_EQ(std::set<std::size_t>(ak.begin(), ak.end()).size(), 12u);
  EXPECT_TRUE(std::is_sorted(ak.begin(), ak.end()));
  EXPECT_LT(ak.back(), 48u);
  EXPECT_EQ(ak, akm::budgeted_trials(48, 12, 7, "r2/ak-sgd"));  // fixed by (seed, study)
  try {
    akm::budgeted_trials(5, 12, 7, "small");
    FAIL() << "a space below the budget must be refused";
  } catch (const akm::InputError& e) {
    EXPECT_EQ(e.param(), "search space");
  }
}

TEST(Protocol, BudgetedSubsetIsUniform) {
  // Each of 48 points is drawn with probability 12/48 = 1/4; over 2000 studies each count is
  // Bin(2000, 1/4): within 5.5 sd for all 48 (false alarm < 48 · 4e-8).
  std::vector<int> count(48, 0);
  for (int s = 0; s < 2000; ++s)
    for (std::size_t i : akm::budgeted_trials(48, 12, 1, "study" + std::to_string(s))) ++count[i];
  const double mean = 500, sd = std::sqrt(2000 * 0.25 * 0.75);
  for (int i = 0; i < 48; ++i) EXPECT_LT(std::abs(count[i] - mean), 5.5 * sd) << i;
}

TEST(Protocol, TuningAndEvaluationSeedsAreDisjoint) {
  const akm::ProtocolSpec spec{9, 5, 40};
  std::set<std::uint64_t> seen;
  for (std::uint64_t seed : {1ull, 2ull, 12345ull})
    for (const std::string study : {"linear/sgd-m", "linear/ak-sgd", "teacher/ak-sgd"}) {
      const auto p = akm::seed_plan(seed, study, spec);
      ASSERT_EQ(p.tuning.size(), 5u);
      ASSERT_EQ(p.evaluation.size(), 40u);
      std::set<std::uint64_t> t(p.tuning.begin(), p.tuning.end()), e(p.evaluation.begin(), p.evaluation.end());
      EXPECT_EQ(t.size() + e.size(), 45u);
      for (auto x : t) EXPECT_EQ(e.count(x), 0u);
      for (auto x : p.tuning) EXPECT_TRUE(seen.insert(x).second);  // studies never share seeds
      for (auto x : p.evaluation) EXPECT_TRUE(seen.insert(x).second);
      EXPECT_EQ(p.evaluation, akm::seed_plan(seed, study, spec).evaluation);
    }
}

TEST(Protocol, DivergenceCountsAsTheWorstOutcome) {
  auto s = akm::score_trial({1.0, kDivergedScore, 2.0});
  EXPECT_DOUBLE_EQ(s.median, 2.0);
  EXPECT_EQ(s.diverged, 1);
  s = akm::score_trial({1.0, kDivergedScore, std::nan(""), 0.5});
  EXPECT_EQ(s.median, kDivergedScore);  // diverged on half: the median is a divergence
  EXPECT_EQ(s.diverged, 2);
  // Best mean when it survives, diverged on 3 of 5 seeds: loses to a stable, worse one.
  const auto fragile = akm::score_trial({0.01, 0.01, kDivergedScore, kDivergedScore, kDivergedScore});
  const auto stable = akm::score_trial({0.5, 0.6, 0.55, 0.52, 0.58});
  EXPECT_TRUE(akm::better(stable, fragile));
  EXPECT_FALSE(akm::better(fragile, stable));
  // Equal medians: fewer divergences wins.
  EXPECT_TRUE(akm::better(akm::score_trial({1, 1, 1}), akm::score_trial({1, 1, kDivergedScore})));
  EXPECT_THROW(akm::score_trial({}), akm::InputError);
  EXPECT_THROW(akm::score_trial({-kDivergedScore}), akm::InputError);
}

TEST(Protocol, TuneRunsEachCandidateOnEachTuningSeedOnceAndPicksTheBest) {
  const akm::ProtocolSpec spec{6, 5, 10};
  const auto plan = akm::seed_plan(3, "toy", spec);
  std::mutex mu;
  std::map<std::pair<std::size_t, std::uint64_t>, int> calls;
  // Loss (c − 4)² + a seed-dependent wobble; candidate 4 diverges on the first `fragile`
  // tuning seeds.
  int fragile = 3;
  const akm::TrialRun run = [&](std::size_t c, std::uint64_t seed) {
    {
      std::lock_guard<std::mutex> lock(mu);
      ++calls[{c, seed}];
    }
    const auto pos = std::find(plan.tuning.begin(), plan.tuning.end(), seed) - plan.tuning.begin();
    if (c == 4 && pos < fragile) return kDivergedScore;
    return (double(c) - 4) * (double(c) - 4) + 0.01 * double(seed % 7);
  };
  const auto t1 = akm::tune(6, spec, plan, 3, "toy", 1, run);
  EXPECT_EQ(t1.runs, 30);
  EXPECT_EQ(calls.size(), 30u);
  for (const auto& [key, n] : calls) {
    EXPECT_EQ(n, 1);
    EXPECT_NE(std::find(plan.tuning.begin(), plan.tuning.end(), key.second), plan.tuning.end());
  }
  EXPECT_EQ(t1.scores[4].diverged, 3);
  EXPECT_EQ(t1.scores[4].median, kDivergedScore);
  EXPECT_TRUE(t1.chosen == 3 || t1.chosen == 5);  // the best-on-average candidate diverged on most seeds
  for (std::size_t c = 0; c < t1.scores.size(); ++c) EXPECT_FALSE(akm::better(t1.scores[c], t1.scores[t1.best]));
  // Diverging on 2 of 5 seeds, its median is still the best: it is chosen, with its count.
  fragile = 2;
  const auto t2 = akm::tune(6, spec, plan, 3, "toy", 1, run);
  EXPECT_EQ(t2.chosen, 4u);
  EXPECT_EQ(t2.scores[t2.best].diverged, 2);
  // Same result on two threads.
  const auto t3 = akm::tune(6, spec, plan, 3, "toy", 2, run);
  EXPECT_EQ(t3.chosen, t2.chosen);
  for (std::size_t c = 0; c < t2.scores.size(); ++c) EXPECT_EQ(t3.scores[c].median, t2.scores[c].median);
}

TEST(Protocol, BadSpecsAreRefused) {
  EXPECT_THROW(akm::seed_plan(1, "x", {0, 5, 10}), akm::InputError);
  EXPECT_THROW(akm::seed_plan(1, "x", {9, 0, 10}), akm::InputError);
  EXPECT_THROW(akm::seed_plan(1, "", {9, 5, 10}), akm::InputError);
  const auto plan = akm::seed_plan(1, "x", {3, 2, 2});
  EXPECT_THROW(akm::tune(3, {3, 5, 2}, plan, 1, "x", 1, [](std::size_t, std::uint64_t) { return 0.0; }),
               akm::InputError);
}

}  // namespace
