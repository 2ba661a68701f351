// transport_product/path_norms — the cpu path's norms of the product (TransportProduct::path_norms):
// log‖P_T‖_op and a step's term of the determinant bound [thm:unconditional-stability]. Kept out
// of cpu.cpp, which instantiates no Eigen code (it is built for the native ISA, ODR).
#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "akm/base/linalg.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

double log_op_norm(const double* P, int n) {
  using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const RowMat> M(P, n, n);
  // ‖P‖ = √λ_max(PᵀP); P is rescaled by its largest |entry| first so PᵀP stays in range.
  const double mx = M.cwiseAbs().maxCoeff();
  if (mx == 0.0) return -HUGE_VAL;
  const Mat S = M / mx;
  const Eigen::SelfAdjointEigenSolver<Mat> es(S.transpose() * S, Eigen::EigenvaluesOnly);
  return std::log(mx) + 0.5 * std::log(std::max(es.eigenvalues().maxCoeff(), 0.0));
}

double log_det_step(double beta, double eta, double key_norm_sq, int n) {
  const double rest = n > 1 ? (n - 1) * std::log(beta) : 0.0;  // the n−1 directions ⊥ k keep β
  return (rest + std::log(std::abs(beta - eta * key_norm_sq))) / n;
}

}  // namespace akm::ops::detail
