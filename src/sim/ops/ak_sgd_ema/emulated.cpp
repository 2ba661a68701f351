// ak_sgd_ema/emulated — the op on the emulated CUDA backend: the kernel's block body (trial.hpp)
// with one host thread standing for each block, the lanes run in order between barriers
// and the block sums in the device's order (docs/cuda.md).
#include <vector>

#include "akm/base/thread_pool.hpp"
#include "akm/sim/cuda_grid.hpp"
#include "../../cuda/host.hpp"
#include "backends.hpp"
#include "host.hpp"

namespace akm::ops::detail {
namespace {

using namespace cuda;
using namespace cuda::ak_sgd_ema_detail;

// A block of n lanes on one host thread. A barrier is a no-op: each() runs every lane to
// completion before the next phase starts.
struct HostBlock {
  std::vector<Lane> lanes;
  std::vector<float> vals;
  std::vector<float> all;  // sums(): value i of lane j at i·n + j
  explicit HostBlock(int n) : lanes(std::size_t(n)), vals(std::size_t(n)) {}
  template <class F>
  void each(F&& f) {
    for (int j = 0; j < int(lanes.size()); ++j) f(j, lanes[std::size_t(j)]);
  }
  template <class F>
  float sum(F&& f) {
    for (std::size_t j = 0; j < lanes.size(); ++j) vals[j] = f(lanes[j]);
    return block_sum_order(vals.data(), int(vals.size()));
  }
  template <int V, class F>
  void sums(float* s, F&& f) {
    const std::size_t n = lanes.size();
    all.resize(static_cast<std::size_t>(V) * n);
    float v[V];
    for (std::size_t j = 0; j < n; ++j) {
      f(lanes[j], v);
      for (int i = 0; i < V; ++i) all[std::size_t(i) * n + j] = v[i];
    }
    for (int i = 0; i < V; ++i) s[i] = block_sum_order(all.data() + std::size_t(i) * n, int(n));
  }
  void sync() {}
};

}  // namespace

Observations ak_sgd_ema_cuda_emulated(const AkSgdEma& w, std::uint64_t seed, int threads) {
  require_size(w);
  const Grid g = grid_block_per_item(w.trials, unsigned(w.n));
  const auto sl = cuda::detail::sqrt_power_f(w.n, false);
  const Args a = args(w, seed);
  std::vector<float> e(per_trial(w) * std::size_t(w.trials));
  parallel_for(0, g.blocks, threads, [&](std::size_t t) {
    HostBlock blk(w.n);
    std::vector<float> z(std::size_t(w.n)), eps(kM);
    if (w.fused_reduction)
      trial<true>(blk, sl.data(), a, (long long)t, z.data(), eps.data(), e.data());
    else
      trial<false>(blk, sl.data(), a, (long long)t, z.data(), eps.data(), e.data());
  });
  return gather(w, e);
}

}  // namespace akm::ops::detail
