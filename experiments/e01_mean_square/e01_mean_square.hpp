// E1 mean square — the parts shared by e01_mean_square*.cpp: the measured-divergence maps
// (divergence.cpp) and T3's second moments with their predicted standard errors (t3.cpp),
// each as a measurement with its measure, check and record passes.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/check/pooled.hpp"
#include "akm/theory/phase.hpp"
#include "common.hpp"

namespace akm::exp::e01 {

/// B. The predicted mean-square boundary against measured divergence on a small spiked
/// spectrum (n = 8), one key, over the (x, y) grid (divergence.cpp): the closed-form map, the
/// measured points with their growth bounds (`table`), and the tallies the checks and the
/// findings read.
struct Divergence {
  Key key;
  std::string xspec, yspec;
  int steps;
  long long R;
  Spectrum spec;
  phase::Model model;
  phase::Options o;
  phase::Map map;
  CsvTable table;  // the map, the measured points and the growth bound per point
  double threshold, band_hi, markov_sum, worst_growth_excess;
  long long stable_points = 0, stable_diverged_trials = 0, band_points = 0, band_div = 0, far_points = 0,
            far_div = 0, far_any = 0;
};
Divergence measure_divergence(ExperimentContext& ctx, Key key, const std::string& xspec, const std::string& yspec,
                              int steps, long long R);
void check_divergence(ExperimentContext& ctx, const Divergence& d);
/// Its finding, params, tables and heat maps; its numbers into `findings`.
void record_divergence(ExperimentContext& ctx, const Divergence& d, nlohmann::json& findings);

constexpr double kT3Beta = kBeta, kT3EtaNorm = 0.5;
inline const std::vector<int> kLags{1, 2, 5, 10, 20, 40};
// A raw-key second moment is checked only where its exact standard error is below the
// predicted value itself. Beyond that the estimate's law is far from normal (the fourth
// moment grows while the second contracts: the factor on F_11 is 1.05 per step for u_1 in
// T3's setting), and a check that cannot tell the prediction from 0 cannot fail.
constexpr double kMaxExactRelativeSe = 1.0;
constexpr long long kT3Trials = 6000;  // T3's full-run trials
constexpr int kGroups = 100;           // trial groups: the pooled recovery's jackknife

/// C. T3's second moments E[(u_iᵀP_ku_i)²] against the exact map, and the predicted standard
/// errors of T3's means (t3.cpp), for one key: per shown direction and lag the prediction,
/// the Monte-Carlo estimate (with the exact raw-key standard error) and whether it is gated.
struct SecondMoment {
  std::string name;  // the check
  int i, lag;
  double bt, pred2, pred_var, exact_se;
  MeanEstimate e;  // of v², with the exact standard error for the raw key
  std::size_t o, o2;  // observables of v = u_iᵀP_k u_i and of v² (ops/transport_product_layout.hpp)
  bool gated;      // no power: the exact standard error exceeds kMaxExactRelativeSe × pred2
};
struct T3Variances {
  Key key;
  double eta;
  McResult res;
  std::vector<SecondMoment> points;
};
T3Variances measure_t3(ExperimentContext& ctx, Key key, const Setting& s, long long R);
void check_t3(ExperimentContext& ctx, const Setting& s, const T3Variances& v);
/// Adds the means and second moments of one key to the claim's pooled recovery (t3.cpp).
void add_pooled(PooledRecovery& pooled, const Setting& s, const T3Variances& v);
/// The rows of t3_variances_<key>.csv; unchecked (powerless) entries into `not_checked`.
CsvTable record_t3(const T3Variances& v, nlohmann::json& not_checked);

}  // namespace akm::exp::e01
