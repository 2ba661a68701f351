// E2, the quasi-static arm [app:scope, thm:fixedpoint, thm:tracking, prop:nc1-main]: drift in
// Ĝ against drift in Σ̂ (quasistatic.cpp states the design).
#pragma once
#include "common.hpp"

namespace akm::exp::e02 {

/// One arm at one record step t. Entries i < n are along u_i(t) (the eigenvectors of Σ_t);
/// entry n is the gap along its predicted direction, g_t (exact mean ‖e_t‖, quasi-static 0).
struct QuasiPoint {
  int t;
  Vec exact, star;  // the exact mean recursion; the rival M*_t (no lag)
  Vec mean, se;     // measured
  double rel_gap;   // ‖E[M_t] − M*_t‖ / ‖M*_t‖
};

/// One arm's schedule summary and its record steps. lag_bound: the prop:nc1-main ceilings,
/// per direction (i < n, used where Ĝ drifts) and in norm (entry n, where Σ̂ drifts).
struct QuasiArm {
  std::string name;
  int period;
  bool g_drift;
  Vec lag_bound;
  std::vector<QuasiPoint> points;
};

struct Quasistatic {
  long long trials;
  double b_max;  // the slowest contraction max|β̃_i|
  std::vector<QuasiArm> arms;
};

/// Simulates the three arms; their exact predictions and ceilings come with the measurement.
Quasistatic measure_quasistatic(ExperimentContext& ctx);
/// Checks them, after every other E2 check (its one-sided lag ceilings take their z from the
/// run's two-sided count, so they come last).
void check_quasistatic(ExperimentContext& ctx, const Quasistatic& q);
/// The table, the per-arm findings and params["quasistatic"].
void record_quasistatic(ExperimentContext& ctx, const Quasistatic& q);

}  // namespace akm::exp::e02
