// spectrum — the driver of akm.spectrum(): a covariance spec read once and its exact
// Gaussian-key moments (akm/spectrum/moments.hpp); the module returns them as NumPy arrays.
#pragma once
#include <cstdint>
#include <string>

#include "akm/spectrum/moments.hpp"
#include "akm/spectrum/spectrum.hpp"

namespace akm::app {

/// A spectrum and the moments of the normalized Gaussian key on it.
struct SpectrumMoments {
  Spectrum spectrum;  ///< the parsed spectrum (eigenvalues descending)
  KeyMoments moments;  ///< λ_i, λ̂_i and κ_i by exact quadrature
};

/// Reads `spec` (its random basis drawn from `seed`; InputError for bad text, as every
/// command refuses it) and computes the moments of its eigenvalues.
SpectrumMoments spectrum_moments(const std::string& spec, std::uint64_t seed);

}  // namespace akm::app
