// fit/cuda — the fitting op of `akm simulate` on the device: one thread per trial of
// a batch runs trial.hpp (float state, double moments).
#include "../../cuda/common.cuh"
#include "backends.hpp"
#include "host.hpp"

namespace akm::ops::detail {

using namespace cuda;
using namespace cuda::detail;
using namespace cuda::fit_detail;

Observations fit_cuda(const Fit& w, std::uint64_t seed, std::size_t batch_bytes) {
  require_device();
  const int n = w.n();
  const long long B = batch_trials(w, batch_bytes);
  DevBuf<float> dsl(n), dst(std::size_t(5) * n * B);
  DevBuf<double> dq(std::size_t(16) * n * B);
  upload(dsl, sqrt_lambda(w));
  Groups groups(w);
  for (long long t0 = 0; t0 < w.trials; t0 += B) {
    const int nb = int(std::min<long long>(B, w.trials - t0));
    launch_per_item(grid_per_item(nb, kThreadsPerBlock),
                    Item{w, n, w.steps, seed, dsl.p, t0, nb, dst.p, dq.p});
    groups.add(t0, nb, download(dq, std::size_t(16) * n * nb));
  }
  return groups.finish();
}

}  // namespace akm::ops::detail
