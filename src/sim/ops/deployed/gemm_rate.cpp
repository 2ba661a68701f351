// deployed/gemm_rate — one GEMM call timed on one thread: the per-call ceiling of the cpu
// path's blocks (blocks.hpp), which `akm bench` sets beside one core's FMA rate.
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "akm/sim/ops/deployed.hpp"
#include "backends.hpp"

namespace akm::ops {
namespace {

template <class T>
double rate(HostGemm g, int m, int n, int k, int repeats) {
  // Inputs of no special value (zeros can run faster than data): a fixed ramp.
  std::vector<T> a(std::size_t(k) * m), b(std::size_t(k) * n), c(std::size_t(m) * n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = T(0.5) + T(i % 97) / T(97);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = T(0.25) + T(i % 89) / T(89);
  auto call = [&] {
    if (g == HostGemm::eigen) detail::gemm_tn_eigen<T>(m, n, k, a.data(), b.data(), c.data());
    else detail::gemm_tn_cblas<T>(g, m, n, k, a.data(), b.data(), c.data());
  };
  call();  // untimed: first-touch of C, the library's buffers
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return 2.0 * m * n * double(k) / best / 1e9;
}

}  // namespace

double host_gemm_gflops(HostGemm gemm, engine::Precision p, int m, int n, int k, int repeats) {
  if (m < 1 || n < 1 || k < 1 || repeats < 1)
    throw std::invalid_argument("host_gemm_gflops: m, n, k and repeats must be ≥ 1");
  if (gemm == HostGemm::automatic) gemm = host_gemm_default();
  std::string why;
  if (!host_gemm_available(gemm, &why))
    throw std::invalid_argument("host_gemm_gflops: gemm " + to_string(gemm) + " is not available: " + why);
  return p == engine::Precision::f64 ? rate<double>(gemm, m, n, k, repeats) : rate<float>(gemm, m, n, k, repeats);
}

}  // namespace akm::ops
