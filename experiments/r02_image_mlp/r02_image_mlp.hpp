// R2 image MLP — the parts shared by r02_image_mlp*.cpp: the design constants, one training
// of an arm, the tuning with its pre-registered grid extension, and paired statistics
// (tuning.cpp).
#pragma once
#include <limits>
#include <string>
#include <vector>

#include "akm/problems/classify.hpp"
#include "training_common.hpp"

namespace akm::exp::r02 {

constexpr int kBatch = 32;
constexpr int kEvalEvery = 11;  // three validations per epoch (33 steps)
constexpr double kTargetAccuracy = 0.90;
constexpr int kMaxExtensions = 4;
constexpr double kExtensionFactor = 3.0;

struct Arm {
  std::string name;  // sgd-m | ak-sgd
  std::vector<double> lr, beta, eta;
};

struct Config {
  double lr, beta, eta;
};

struct Trial {
  ClassifyResult r;
  int steps = 0;
};

/// One training of `arm` at configuration c for `epochs`; the seed fixes the initialization
/// and the batch order (the same for both arms: paired).
Trial train_once(const DataSplit& data, const std::string& arm, const Config& c, int epochs, std::uint64_t seed);

struct Tuning {
  Config best{};
  double best_loss = std::numeric_limits<double>::infinity();
  std::vector<double> lr_grid;   // final, sorted
  int extensions_up = 0, extensions_down = 0;
};

// Mean final validation loss of every (lr, β, η) over the tuning seeds; extends the lr grid
// past an edge holding the optimum (the pre-registered rule above).
Tuning tune_arm(const DataSplit& data, const Arm& arm, int epochs, int tune_seeds, std::uint64_t seed, int threads,
                CsvTable& table);

struct Paired {
  double mean = 0, se = 0, p = 1;
  int pos = 0, neg = 0;
};

/// Paired differences: mean, standard error, signs and the exact sign test.
Paired paired(const std::vector<double>& d);

/// The validation-curve and per-seed test-accuracy figures (figures.cpp).
void figures(ExperimentContext& ctx, int seeds);

}  // namespace akm::exp::r02
