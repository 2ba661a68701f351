// protocol — equal budgets, disjoint seeds, divergence-aware scores (see the header).
#include "akm/problems/protocol.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/base/median.hpp"
#include "akm/base/seed.hpp"
#include "akm/base/thread_pool.hpp"
#include "akm/random/random.hpp"

namespace akm {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<std::uint64_t> tagged_seeds(std::uint64_t seed, const std::string& tag, int n) {
  std::vector<std::uint64_t> out(n);
  for (int i = 0; i < n; ++i) out[i] = derive_seed(seed, tag + std::to_string(i));
  return out;
}

}  // namespace

void validate(const ProtocolSpec& spec) {
  if (spec.trials < 1) throw InputError("trials", std::to_string(spec.trials), "must be >= 1");
  if (spec.tuning_seeds < 1) throw InputError("tuning_seeds", std::to_string(spec.tuning_seeds), "must be >= 1");
  if (spec.evaluation_seeds < 1)
    throw InputError("evaluation_seeds", std::to_string(spec.evaluation_seeds), "must be >= 1");
}

SeedPlan seed_plan(std::uint64_t seed, const std::string& study, const ProtocolSpec& spec) {
  validate(spec);
  if (study.empty()) throw InputError("study", "\"\"", "must name the task and comparison");
  SeedPlan p{tagged_seeds(seed, study + "/tune/", spec.tuning_seeds),
             tagged_seeds(seed, study + "/eval/", spec.evaluation_seeds)};
  std::set<std::uint64_t> all(p.tuning.begin(), p.tuning.end());
  all.insert(p.evaluation.begin(), p.evaluation.end());
  if (all.size() != p.tuning.size() + p.evaluation.size())
    throw std::logic_error(fmt::format("seed_plan({}, {}): two derived seeds coincide", seed, study));
  return p;
}

std::vector<std::size_t> budgeted_trials(std::size_t space_size, int trials, std::uint64_t seed,
                                         const std::string& study) {
  if (trials < 1) throw InputError("trials", std::to_string(trials), "must be >= 1");
  if (space_size < static_cast<std::size_t>(trials))
    throw InputError("search space", fmt::format("{} points", space_size),
                     fmt::format("must hold at least the budget of {} trials (budgets are equal)", trials));
  std::vector<std::size_t> idx(space_size);
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  if (space_size == static_cast<std::size_t>(trials)) return idx;
  // Partial Fisher–Yates: the first `trials` slots become a uniform subset.
  Stream stream(derive_seed(seed, study + "/space"), 0, Purpose::aux);
  for (int i = 0; i < trials; ++i) {
    const std::size_t left = space_size - i;
    const auto j = i + std::min(left - 1, static_cast<std::size_t>(stream.uniform() * static_cast<double>(left)));
    std::swap(idx[i], idx[j]);
  }
  idx.resize(trials);
  std::sort(idx.begin(), idx.end());
  return idx;
}

TrialScore score_trial(const std::vector<double>& losses) {
  if (losses.empty()) throw InputError("losses", "[]", "must hold one final loss per tuning seed");
  std::vector<double> v(losses);
  TrialScore s;
  for (double& x : v) {
    if (x == -kInf) throw InputError("loss", "-inf", "must be finite, or +inf/NaN for a diverged run");
    if (std::isnan(x) || x == kInf) x = kInf, ++s.diverged;
  }
  s.median = median_of(v);
  return s;
}

bool better(const TrialScore& a, const TrialScore& b) {
  if (a.median != b.median) return a.median < b.median;
  return a.diverged < b.diverged;
}

Tuning tune(std::size_t space_size, const ProtocolSpec& spec, const SeedPlan& seeds, std::uint64_t seed,
            const std::string& study, int threads, const TrialRun& run) {
  validate(spec);
  if (seeds.tuning.size() != static_cast<std::size_t>(spec.tuning_seeds))
    throw InputError("tuning seeds", std::to_string(seeds.tuning.size()),
                     fmt::format("must be the spec's {}", spec.tuning_seeds));
  Tuning t;
  t.candidates = budgeted_trials(space_size, spec.trials, seed, study);
  const std::size_t k = seeds.tuning.size();
  std::vector<double> losses(t.candidates.size() * k);
  parallel_for(0, losses.size(), threads,
               [&](std::size_t u) { losses[u] = run(t.candidates[u / k], seeds.tuning[u % k]); });
  t.runs = static_cast<int>(losses.size());
  for (std::size_t c = 0; c < t.candidates.size(); ++c) {
    t.scores.push_back(score_trial(std::vector<double>(losses.begin() + c * k, losses.begin() + (c + 1) * k)));
    if (c > 0 && better(t.scores[c], t.scores[t.best])) t.best = c;
  }
  t.chosen = t.candidates[t.best];
  return t;
}

}  // namespace akm
