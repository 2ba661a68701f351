// phase_measure/backends — the op's device paths (the reference and cpu trials are public,
// akm/sim/ops/phase_measure.hpp); entry.cpp picks one. Private to src/sim/ops/phase_measure.
#pragma once
#include <vector>

#include "akm/sim/ops/phase_measure.hpp"

namespace akm::ops::detail {

/// cuda.cu: one device thread per (point, trial) row (double), point-major.
std::vector<PhaseTrial> phase_trials_cuda(const PhaseMeasure& op, const std::vector<double>& lam_sqrt,
                                          const std::vector<PhasePoint>& points);
/// emulated.cpp: the kernel's trial body over the kernel's batches and grids on `threads`
/// host threads.
std::vector<PhaseTrial> phase_trials_cuda_emulated(const PhaseMeasure& op, const std::vector<double>& lam_sqrt,
                                                   const std::vector<PhasePoint>& points, int threads);

}  // namespace akm::ops::detail
