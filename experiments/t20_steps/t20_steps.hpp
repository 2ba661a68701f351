// T20 steps — the parts shared by the claim's files: one comparison (a task and an optimizer
// pair, each arm tuned under the protocol and run on the evaluation seeds), its steps-to-
// target gap (gap.cpp), and the tables, findings and figures (record.cpp).
#pragma once
#include <string>
#include <vector>

#include "akm/problems/protocol.hpp"
#include "training_common.hpp"

namespace akm::exp::t20 {

/// One task × optimizer pair: arm 0 the base optimizer, arm 1 its AK form.
struct Comparison {
  std::string task;
  training::Pair pair;
  Tuning tuning[2];
  double lr[2] = {0, 0};
  std::vector<TrainResult> runs[2];  // one per evaluation seed, in seed order
};

/// The steps-to-target gap of a comparison (claim.cpp's header).
struct Gap {
  double target = 0;                 // 1.1 × the worse arm's mean final loss (finite seeds)
  std::vector<int> steps[2];         // per seed; steps + 5 when censored
  std::vector<bool> censored[2];
  std::vector<double> reduction;     // 1 − steps_AK / steps_base, per seed
  int faster = 0, slower = 0;        // seeds where AK reaches the target in fewer / more steps
  double sign_p = 1;
  double final_mean[2] = {0, 0};     // mean final loss over the seeds that did not diverge
  int diverged[2] = {0, 0};
  std::vector<double> final_diff;    // AK − base final loss, seeds where neither diverged
};

Gap steps_gap(const Comparison& c, int steps);

/// "AK faster" / "AK slower" / "inconclusive" at the family rate over n_tests sign tests.
std::string verdict(const Gap& g, int n_tests, double family_alpha);

void record(ExperimentContext& ctx, const std::vector<Comparison>& cs, const std::vector<Gap>& gaps,
            const ProtocolSpec& spec, int steps);

}  // namespace akm::exp::t20
