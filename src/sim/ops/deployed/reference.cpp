// deployed/reference — the plain reference: rules::deployed [eq:deployed] in both orders
// (Eigen, double). cpu.cpp (native GEMM), cuda.cu (cuBLAS) and emulated.cpp beside it are
// held to it by tests/ops/test_deployed.cpp.
#include <cmath>

#include "akm/rules/kernels.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/rules.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

DeployedResult deployed_reference(const Deployed& w, const Mat& M0, const Mat& Delta, const Mat& Xhat) {
  DeployedResult r{M0, M0};
  rules::deployed(r.gram, Delta, Xhat, w.beta, w.eta, rules::Order::gram);
  rules::deployed(r.through_n, Delta, Xhat, w.beta, w.eta, rules::Order::through_n);
  return r;
}

}  // namespace akm::ops::detail
