// R2 image MLP — the parts shared by the claim's files: the design constants, the two
// search spaces, one training of a configuration on one seed's split (train.cpp), and the
// tables and figures (record.cpp).
#pragma once
#include <array>
#include <string>
#include <vector>

#include "akm/check/paired.hpp"
#include "akm/problems/classify.hpp"
#include "akm/problems/protocol.hpp"
#include "training_common.hpp"

namespace akm::exp::r02 {

constexpr int kBatch = 32;
constexpr int kEvalEvery = 11;  // three validations per epoch (33 steps)
constexpr double kTargetAccuracy = 0.90;
// The design's alternative: AK-SGD favourable on this fraction of evaluation seeds (one seed
// in twenty the other way), the alternative T18 uses; the seed count gives the sign tests
// power ≥ kDesignPower against it at the per-outcome level.
constexpr double kFavourableFraction = 0.95;
constexpr double kDesignPower = 0.9;  // the ledger's power floor
constexpr double kIntervalAlpha = 0.05;  // the reported intervals (decisions rest on the sign tests)

// Tuning seeds per configuration (full mode; --quick: kQuickTuningSeeds).
constexpr int kTuningSeeds = 5;
constexpr int kQuickTuningSeeds = 2;
// The evaluation seeds' stream. Rule, and why: the grids' widening on every axis (claim.cpp's
// header) was set after the earlier design's evaluation seeds (the study's own "eval/" stream)
// had been seen, so the evaluation draws fresh seeds from this stream, named in the ledger
// (tab:cifar/proxy's note) before the run that decides; a later change of rule needs the next
// stream.
constexpr const char* kEvalStream = "confirmatory-1";

struct Config {
  double lr, beta, eta;
};

/// One searched axis of a space: its grid, and the closed ends of the hyperparameter's domain
/// (NaN where the domain is open on that side). A chosen value on a grid edge that is not a
/// closed end of the domain means the grid did not bracket the optimum.
struct Axis {
  std::string name;  // lr | β | η
  std::vector<double> grid;
  double closed_lo, closed_hi;
  /// Strictly inside the grid, or on an edge that is a closed end of the domain (no wider
  /// grid exists on that side).
  bool brackets(double chosen) const;
};

/// An optimizer and its own search space (every point a configuration).
struct Arm {
  std::string name;  // sgd-m | ak-sgd
  std::vector<double> lr, beta, eta;
  std::vector<Config> space() const;
  /// The axes searched: lr, β, and η when the arm searches it (more than one value).
  std::vector<Axis> axes() const;
};

/// The two arms: the paper's grids widened on every axis (the rule in claim.cpp's header).
std::vector<Arm> arms();

/// The paper's own AK-SGD configuration of app:cifar-10 (lr 1.7, β 0.99, η 0.99).
constexpr Config kPaperAk{1.7, 0.99, 0.99};

struct Trial {
  ClassifyResult r;
  int steps = 0;
};

/// One training of `arm` at configuration c for `epochs` on seed's own 60/20/20 split of the
/// images; the seed fixes the split, the initialization and the batch order (the same for both
/// arms: paired).
Trial train_once(const LabelledData& data, const std::string& arm, const Config& c, int epochs, std::uint64_t seed);

/// The three paired outcomes, each "lower is better" per arm with a divergence or a target
/// never reached = +∞ (check/paired.hpp): test error (%), steps to 90% validation accuracy,
/// steps to the same seed's SGD-m final validation loss.
constexpr int kOutcomes = 3;
inline const std::array<const char*, kOutcomes> kOutcomeNames{"test error", "steps to 90% validation accuracy",
                                                             "steps to SGD-m's final validation loss"};

struct Evaluation {
  std::vector<Trial> runs;  // 2 × seeds, arm-minor
  std::array<std::array<std::vector<double>, 2>, kOutcomes> values;  // [outcome][arm][seed]
  std::array<PairedComparison, kOutcomes> paired;                    // d = SGD-m − AK-SGD
  const Trial& run(int arm, int seed) const { return runs[2 * static_cast<std::size_t>(seed) + arm]; }
};

void write_tables(ExperimentContext& ctx, const std::vector<Arm>& arms, const std::vector<Tuning>& tuned,
                  const Evaluation& ev, int seeds, int epochs, const std::vector<Trial>& paper_runs);
void figures(ExperimentContext& ctx, int seeds);

}  // namespace akm::exp::r02
