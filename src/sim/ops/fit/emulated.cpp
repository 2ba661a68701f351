// fit/emulated — the fitting op on the emulated CUDA backend: the kernel's trial body
// (trial.hpp) over the kernel's batches and grids, on the host (docs/cuda.md).
#include <vector>

#include "../../cuda/emulate.hpp"
#include "backends.hpp"
#include "host.hpp"

namespace akm::ops::detail {

Observations fit_cuda_emulated(const Fit& w, std::uint64_t seed, int threads, std::size_t batch_bytes) {
  using namespace cuda;
  using namespace cuda::fit_detail;
  const int n = w.n();
  const auto sl = sqrt_lambda(w);
  const long long B = batch_trials(w, batch_bytes);
  Groups groups(w);
  for (long long t0 = 0; t0 < w.trials; t0 += B) {
    const int nb = int(std::min<long long>(B, w.trials - t0));
    std::vector<float> st(std::size_t(5) * n * nb);
    std::vector<double> q(std::size_t(16) * n * nb);
    cuda::detail::emulate_grid(grid_per_item(nb, kThreadsPerBlock), threads,
                               Item{w, n, w.steps, seed, sl.data(), t0, nb, st.data(), q.data()});
    groups.add(t0, nb, q);
  }
  return groups.finish();
}

}  // namespace akm::ops::detail
