// Small spectra and a reference spectral radius shared by the theory tests (test_theory.cpp,
// test_direction_table.cpp).
#pragma once
#include <initializer_list>

#include <Eigen/Eigenvalues>

#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/theory.hpp"

namespace akm_test::theory {

using akm::Mat2;
using akm::Vec;

/// Largest eigenvalue modulus by Eigen's general eigensolver: the reference for ρ.
inline double rho_eigen(const Mat2& A) {
  Eigen::EigenSolver<Mat2> es(A, false);
  return es.eigenvalues().cwiseAbs().maxCoeff();
}

inline akm::Spectrum spectrum_of(std::initializer_list<double> values) {
  akm::Spectrum s;
  s.kind = "list";
  s.lambda = Vec(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double v : values) s.lambda(i++) = v;
  s.basis = akm::Mat::Identity(s.n(), s.n());
  return s;
}

inline akm::Spectrum iso(int n) {
  akm::Spectrum s;
  s.kind = "iso";
  s.lambda = Vec::Constant(n, 2.0);
  s.basis = akm::Mat::Identity(n, n);
  return s;
}

}  // namespace akm_test::theory
