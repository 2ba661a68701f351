// random_basis — the size limit on a random (Haar) basis, shared by the covariance models
// (spectrum.cpp, spectrum.basis=random) and the key laws' mixture components (keys.cpp,
// keys.bases=random); private to src/spectrum/*.cpp.
#pragma once
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm::spectrum_detail {

// A random basis costs an O(n³) Householder QR (about 4 s at n = 2048), so it is refused
// above kMaxRandomBasisN instead of running for minutes.
inline constexpr int kMaxRandomBasisN = 4096;

/// Refuses a random basis of dimension n above kMaxRandomBasisN, naming `param`.
inline void require_random_basis_size(const std::string& param, int n) {
  if (n > kMaxRandomBasisN)
    throw InputError(param, "random",
                     fmt::format("needs n <= {} (QR of an n x n Gaussian matrix), got n = {}",
                                 kMaxRandomBasisN, n));
}

}  // namespace akm::spectrum_detail
