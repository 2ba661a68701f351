// bias_factor — the Adam family's bias-correction factor, in a header without Eigen so that the
// fast engine's native-ISA files (src/sim/ops/*/cpu*.cpp) call the one definition too.
#pragma once

namespace akm::adamw {

/// 1 − β^t, the bias-correction factor after t steps (t ≥ 1).
double bias_factor(double beta, long long t);

}  // namespace akm::adamw
