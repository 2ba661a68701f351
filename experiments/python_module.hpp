// python_module — a claim's measurement that only PyTorch can make (autograd's saved tensors),
// run as `python -m <module> <args>` and read back as the one JSON line it prints.
//
// The interpreter is AKM_PYTHON if set, else the one the Python module akm was built for
// (cmake/python.cmake), else python3; the build's package folder (build/python) goes first on
// PYTHONPATH where it exists, so the measurement runs the akm.torch of the same build.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace akm::exp {

/// The interpreter's command a claim runs (quoted for the shell).
std::string python_interpreter();

/// Runs `python -m module args…` and returns the last line of its standard output that parses
/// as JSON. Throws InputError (param AKM_PYTHON, naming what to install) when there is no such
/// interpreter or it cannot import a module; std::runtime_error naming the command, its exit
/// status and the tail of what it wrote when the measurement fails or prints no JSON.
nlohmann::json run_python_module(const std::string& module, const std::vector<std::string>& args);

}  // namespace akm::exp
