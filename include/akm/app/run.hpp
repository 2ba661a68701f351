// run — what `akm run`, `akm reproduce` and `akm.run` check beyond the experiments layer's
// runner (akm/experiments/experiment.hpp): the --backend they accept.
#pragma once
#include <string>

#include "akm/sim/backend.hpp"

namespace akm::app {

/// The backend named `name` for running claims: reference, cpu, cuda or cuda-emulated (any
/// other name: InputError naming --backend with the four). `cuda` is refused (InputError, exit
/// 2) where this build has no CUDA backend or no device is usable, before any work.
Backend run_backend(const std::string& name);

}  // namespace akm::app
