// backend — who runs a Monte-Carlo op: the one choice every op's entry point takes
// (akm/sim/ops/<op>.hpp), parsed from a command line's text only at the CLI's edge.
#pragma once
#include <initializer_list>
#include <string>

namespace akm {

/// Who runs an op's trials. Every op has all four (src/sim/ops/\<op\>/): the plain reference
/// (reference.cpp, double, Eigen), the fast CPU engine (cpu.cpp, native ISA, double or
/// float), the CUDA device (cuda.cu, float, but phase_measure in double; a build without
/// nvcc refuses it) and the CUDA trial bodies run on the host over the kernels' grids
/// (emulated.cpp, in the device's precision, docs/cuda.md).
enum class Backend { reference, cpu, cuda, cuda_emulated };

/// The command-line name: "reference", "cpu", "cuda" or "cuda-emulated".
const char* to_string(Backend b);

/// The backend named `s` among `valid`; any other text is an InputError naming `flag`
/// and listing the valid names ("must be cpu or cuda").
Backend parse_backend(const std::string& s, const char* flag, std::initializer_list<Backend> valid);

}  // namespace akm
