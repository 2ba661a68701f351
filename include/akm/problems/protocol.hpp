// protocol — the one tuning-and-evaluation protocol of the training claims, written once.
//
// A comparison of optimizers on a task is only as fair as its tuning. The protocol fixes
// the rules before any evaluation seed runs:
//  - Equal budget. Every optimizer gets the same number of tuning trials (configurations)
//    from its own search space: the whole space when it has exactly `trials` points, a
//    seeded random subset of `trials` distinct points when it is larger (random search, the
//    AlgoPerf way); a space smaller than the budget is refused, never silently favoured.
//  - Disjoint seeds. Tuning seeds and evaluation seeds are derived from the run's seed under
//    different tags and checked to be disjoint: the evaluation never sees the data, the
//    initialization or the batches the configuration was chosen on.
//  - A criterion that counts a divergence as the worst outcome. A configuration is scored by
//    the median over the tuning seeds of its final loss with a diverged run = +∞ (so a
//    configuration that diverges on most seeds scores +∞), and its divergence count is kept;
//    lower median wins, then fewer divergences, then the earlier trial.
//  - Evaluation on paired seeds: every optimizer runs its chosen configuration on the same
//    evaluation seeds, compared with check/paired.hpp (sign test, order-statistics interval).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace akm {

/// The protocol's declared sizes (fixed before any run).
struct ProtocolSpec {
  int trials = 9;             ///< tuning trials per optimizer (the equal budget)
  int tuning_seeds = 5;       ///< seeds each trial is scored on
  int evaluation_seeds = 20;  ///< paired evaluation seeds
};

/// Throws InputError naming the first invalid field (every count ≥ 1; tuning_seeds ≥ 1).
void validate(const ProtocolSpec& spec);

/// The seeds of one study (a task × comparison), tuning and evaluation, disjoint.
struct SeedPlan {
  std::vector<std::uint64_t> tuning;      ///< the seeds configurations are chosen on
  std::vector<std::uint64_t> evaluation;  ///< the paired seeds the chosen ones are compared on
};

/// Tuning seed i = derive_seed(seed, study + "/tune/" + i), evaluation seed i =
/// derive_seed(seed, study + "/eval/" + i); std::logic_error if any two coincide (a 64-bit
/// collision: never seen, but checked, because the protocol promises it).
SeedPlan seed_plan(std::uint64_t seed, const std::string& study, const ProtocolSpec& spec);

/// The candidates (indices into a search space of space_size points) a budget of `trials`
/// runs: all of them, in order, when space_size == trials; otherwise `trials` distinct
/// indices drawn without replacement from the stream of (seed, study), in ascending order.
/// space_size < trials is refused (InputError): budgets must be equal.
std::vector<std::size_t> budgeted_trials(std::size_t space_size, int trials, std::uint64_t seed,
                                         const std::string& study);

/// One trial's score over the tuning seeds.
struct TrialScore {
  double median = 0;  ///< median final loss, a diverged run counting +∞
  int diverged = 0;   ///< tuning seeds on which it diverged (+∞ or NaN)
};

/// The score of the header from one loss per tuning seed (+∞ or NaN = diverged).
TrialScore score_trial(const std::vector<double>& losses);

/// True when score a is preferred to score b (lower median, then fewer divergences).
bool better(const TrialScore& a, const TrialScore& b);

/// The outcome of tuning one optimizer.
struct Tuning {
  std::vector<std::size_t> candidates;  ///< the budgeted candidates, ascending
  std::vector<TrialScore> scores;       ///< one per candidate
  std::size_t best = 0;                 ///< position of the chosen one in candidates
  std::size_t chosen = 0;               ///< candidates[best]: the index into the space
  int runs = 0;                         ///< trainings run: trials × tuning seeds
};

/// A training: the final held-out loss of candidate `candidate` trained on `seed` (+∞ or
/// NaN when it diverged). It must depend on nothing else, so that the runs can be spread
/// over threads.
using TrialRun = std::function<double(std::size_t candidate, std::uint64_t seed)>;

/// Tunes one optimizer under the protocol: the budgeted candidates of a space of space_size
/// points, each run on every tuning seed (all runs in parallel on `threads` workers, the
/// scores combined in index order, so the result is the same for any thread count).
Tuning tune(std::size_t space_size, const ProtocolSpec& spec, const SeedPlan& seeds, std::uint64_t seed,
            const std::string& study, int threads, const TrialRun& run);

}  // namespace akm
