// version — the code version written into every result: project version + git commit.
// Defined in the file CMake generates from cmake/version.cpp.in.
#pragma once

namespace akm {
const char* version();
}  // namespace akm
