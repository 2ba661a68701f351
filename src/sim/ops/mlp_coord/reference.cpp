// mlp_coord/reference — the plain reference: every (arm, width) of a seed trained from scratch,
// its init, batches and probe drawn afresh, the probe's forward pass taken before and after
// every step. shared_work.cpp beside it is held to it by tests/ops/test_mlp_coord.cpp.
#include "akm/base/thread_pool.hpp"
#include "akm/random/random.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void mlp_coord_reference(const MlpCoord& op, std::uint64_t seed, long long first, long long count, int threads,
                         double* rows) {
  const MlpCoordLayout lay = op.layout();
  const MlpCoordSetup& s = op.setup;
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const long long trial = first + (long long)j;
    double* out = rows + j * std::size_t(lay.size());
    for (int a = 0; a < lay.arms; ++a)
      for (int w = 0; w < lay.widths; ++w) {
        Mlp net = initial_net(op, w, seed, trial);
        Trainer tr(net, train_config(s, op.arms[a]));
        Stream data(seed, std::uint64_t(trial), Purpose::data), probe_s(seed, std::uint64_t(trial), Purpose::aux);
        Mat Xp, Tp, X, T;
        op.task.sample(probe_s, s.probe, Xp, Tp);
        for (int t = 0; t < s.steps; ++t) {
          op.task.sample(data, s.batch, X, T);
          MlpCache before, after;
          net.forward(Xp, &before);
          const std::vector<Mat> W0 = net.W;
          tr.step(X, T, op.task.loss);
          net.forward(Xp, &after);
          record_step(lay, a, w, t, before, after, W0, net.W, out);
          if (t == 0 && a == 0) record_step1(lay, w, tr.cache(), out);
        }
      }
    reduce_seed(op, lay, out);
  });
}

}  // namespace akm::ops::detail
