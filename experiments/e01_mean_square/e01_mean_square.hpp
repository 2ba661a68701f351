// E1 mean square — the parts shared by e01_mean_square*.cpp: the measured-divergence maps
// (divergence.cpp) and T3's second moments with their predicted standard
// errors (t3.cpp).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common.hpp"

namespace akm::exp::e01 {

/// B. The predicted mean-square boundary against measured divergence on a small spiked
/// spectrum (n = 8), one key, over the (x, y) grid; adds its numbers to `findings`.
void divergence_map(ExperimentContext& ctx, Key key, const std::string& xspec, const std::string& yspec,
                    int steps, long long R, nlohmann::json& findings);

constexpr double kT3Beta = kBeta, kT3EtaNorm = 0.5;
inline const std::vector<int> kLags{1, 2, 5, 10, 20, 40};
// A raw-key second moment is checked only where its exact standard error is below the
// predicted value itself. Beyond that the estimate's law is far from normal (the fourth
// moment grows while the second contracts: the factor on F_11 is 1.05 per step for u_1 in
// T3's setting), and a check that cannot tell the prediction from 0 cannot fail.
constexpr double kMaxExactRelativeSe = 1.0;
constexpr long long kT3Trials = 6000;  // T3's full-run trials

/// C. T3's second moments E[(u_iᵀP_ku_i)²] against the exact map, and the predicted standard
/// errors of T3's means; rows into `table`, unchecked (powerless) entries into `not_checked`.
void t3_variances(ExperimentContext& ctx, Key key, const Setting& s, long long R, CsvTable& table,
                  nlohmann::json& not_checked);

}  // namespace akm::exp::e01
