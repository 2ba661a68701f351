// deployed/reference — W4, the plain reference: rules::deployed [eq:deployed] in both orders
// (Eigen, double). cpu.cpp (native GEMM) and cuda.cu (cuBLAS) beside it are held to it by
// tests/test_engine.cpp and test_cuda.cpp.
#include <cmath>

#include "akm/sim/workloads.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/rules.hpp"

namespace akm::wl {

W4Result w4_reference(const W4& w, const Mat& M0, const Mat& Delta, const Mat& Xhat) {
  W4Result r{M0, M0};
  rules::deployed(r.gram, Delta, Xhat, w.beta, w.eta, rules::Order::gram);
  rules::deployed(r.through_n, Delta, Xhat, w.beta, w.eta, rules::Order::through_n);
  return r;
}

}  // namespace akm::wl
