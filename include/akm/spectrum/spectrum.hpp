// spectrum — covariance models Σ = U diag(λ) Uᵀ parsed from a spec string.
//
// Grammar (keys after the kind, comma separated):
//   iso:n=64[,scale=1]                  λ_i = scale
//   spiked:n=64,spikes=10/5/2,floor=1   λ = spikes then floor for the rest
//   power:n=64,exp=1[,scale=1]          λ_i = scale · i^{-exp}, i = 1..n
//   list:10/5/2/1                       explicit eigenvalues
//   data:digits[,standardize]           a real data set's covariance (akm/spectrum/data_keys.hpp:
//                                       digits, breast_cancer, wine, diabetes, iris or a CSV path)
// Any kind but data accepts ",basis=random" (Haar rotation drawn from the seed) else the identity.
// Eigenvalues are stored in descending order; all must be finite and > 0.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "akm/base/linalg.hpp"

namespace akm {

/// A covariance model Σ = U diag(λ) Uᵀ parsed from a spec string.
struct Spectrum {
  std::string spec;        ///< the string it was parsed from (normalized form)
  std::string kind;        ///< iso | spiked | power | list | data
  Vec lambda;              ///< eigenvalues λ_i of Σ, descending
  bool random_basis = false;  ///< U is a Haar-random rotation (else the identity)
  /// U (n×n, orthogonal) when random_basis; empty for the identity basis, so that large
  /// identity-basis spectra (n up to 65536) never allocate an n×n matrix.
  Mat basis;

  /// Dimension n.
  int n() const { return static_cast<int>(lambda.size()); }
  /// U as a dense matrix (the identity when the basis is the identity).
  Mat basis_matrix() const { return random_basis ? basis : Mat::Identity(n(), n()); }
  /// Σ = U diag(λ) Uᵀ.
  Mat covariance() const;
};

/// Parses a spec string; throws InputError naming the offending key, its value and the
/// valid range (unknown kind or key, n = 0, negative/NaN/zero eigenvalues, …).
Spectrum parse_spectrum(std::string_view spec, std::uint64_t seed = 0);

/// Builds a spectrum from explicit eigenvalues (validated like list:…).
Spectrum spectrum_from_eigenvalues(const Vec& lambda);

/// Haar-distributed orthogonal n×n matrix from the seed (QR of a Gaussian matrix with
/// the sign fix of Mezzadri 2007).
Mat haar_orthogonal(int n, std::uint64_t seed);

}  // namespace akm
