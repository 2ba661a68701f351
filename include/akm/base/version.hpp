// version — the code version written into every result: project version + git commit.
// Defined in the file CMake generates from cmake/version.cpp.in.
#pragma once

namespace akm {
/// The version written into every result: project version + git commit ("0.2.0+abc123def456").
const char* version();
}  // namespace akm
