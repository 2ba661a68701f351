// The error of Newton–Schulz's SVD reference (ns::newton_schulz_svd), a posteriori from its own
// factors, and the Gaussian test matrices, shared by tests/test_newton_schulz.cpp and
// tests/test_muon.cpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include "akm/rules/newton_schulz.hpp"

namespace akm_test {

// An r×c matrix of independent standard normals from `seed`.
inline akm::Mat gaussian(int r, int c, std::uint64_t seed) {
  std::mt19937_64 eng(seed);
  std::normal_distribution<double> z(0.0, 1.0);
  akm::Mat a(r, c);
  for (int j = 0; j < c; ++j)
    for (int i = 0; i < r; ++i) a(i, j) = z(eng);
  return a;
}

// (U, Σ, V) is the exact SVD of a G' with ‖G' − G‖_F ≤ (ρ + ω)‖G‖_F, ρ the relative residual
// ‖UΣVᵀ − G‖_F/‖G‖_F (plus its own rounding) and ω the orthogonality defect of U and V;
// normalising G and G' differs by at most twice that, which the k steps amplify by at most
// L^k (ns::error_model); the product U p(Σ) Vᵀ adds (ω + (r + 2)u)·√r·s_max.
inline double svd_reference_bound(const akm::Mat& G, int steps) {
  using akm::Mat;
  constexpr double u = 0x1p-53;
  const Eigen::JacobiSVD<Mat> svd(G, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Mat &U = svd.matrixU(), &V = svd.matrixV();
  const double r = static_cast<double>(svd.singularValues().size());
  const double rho = (U * svd.singularValues().asDiagonal() * V.transpose() - G).norm() / G.norm() + (r + 2) * u * std::sqrt(r);
  const double omega = std::max((U.transpose() * U - Mat::Identity(U.cols(), U.cols())).norm(),
                                (V.transpose() * V - Mat::Identity(V.cols(), V.cols())).norm());
  const akm::ns::ErrorModel e = akm::ns::error_model(static_cast<int>(G.rows()), static_cast<int>(G.cols()), steps);
  return std::pow(e.lipschitz, steps) * 2 * (rho + omega) + (omega + (r + 2) * u) * std::sqrt(r) * e.s_max;
}

// ‖newton_schulz(G) − newton_schulz_svd(G)‖_F is at most this: each side's distance to the exact NS(G).
inline double agreement_bound(const akm::Mat& G, int steps = akm::ns::kSteps) {
  return akm::ns::error_model(static_cast<int>(G.rows()), static_cast<int>(G.cols()), steps).rounding +
         svd_reference_bound(G, steps);
}

}  // namespace akm_test
