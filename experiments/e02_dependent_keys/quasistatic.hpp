// E2, the quasi-static arm [app:scope, thm:fixedpoint, thm:tracking, prop:nc1-main]: drift in
// Ĝ against drift in Σ̂ (quasistatic.cpp states the design).
#pragma once
#include "common.hpp"

namespace akm::exp::e02 {

/// Runs the three arms and records their checks, after every other E2 check (its one-sided
/// lag ceilings take their z from the run's two-sided count, so they come last).
void quasistatic_arm(ExperimentContext& ctx);

}  // namespace akm::exp::e02
