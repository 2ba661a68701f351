// run — what `akm run` and `akm reproduce` check beyond the experiments layer's runner
// (akm/experiments/experiment.hpp): the --backend they accept.
#pragma once
#include <string>

namespace akm::app {

/// Experiments run their Monte Carlo on the CPU reference engine (akm/rules/kernels.hpp per
/// trial, akm/sim/sim.hpp): none of them is built on a workload with a CUDA launcher, so
/// `run` accepts --backend cpu only. The name is parsed as every command parses it
/// (parse_backend, one refusal for unknown names); cuda is then refused (InputError) with
/// where the CUDA backend does apply.
void require_cpu_backend(const std::string& backend);

}  // namespace akm::app
