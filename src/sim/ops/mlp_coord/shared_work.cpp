// mlp_coord/shared_work — the cpu backend's path: the reference's arithmetic, with what the
// arms of a seed share done once. Every arm of a width starts from the same initial net and
// reads the same probe and batches (mlp_coord.hpp), so these are drawn once per width, and the
// probe's forward pass at the initial weights once; within an arm the probe's pass after step t
// is the pass before step t + 1 (the weights do not change between them), so it is taken once.
// Each result is formed by the same operations on the same operands as in reference.cpp, so the
// rows are equal bit for bit (tests/ops/test_mlp_coord.cpp); the saving is the passes not
// repeated: one of the probe's two forward passes a step, and per arm the init and the batches.
// At the library's ISA (not a cpu*.cpp of the fast engine): it runs the library's Mlp and
// Trainer, Eigen code.
#include <utility>

#include "akm/base/thread_pool.hpp"
#include "akm/random/random.hpp"
#include "backends.hpp"

namespace akm::ops::detail {

void mlp_coord_shared(const MlpCoord& op, std::uint64_t seed, long long first, long long count, int threads,
                      double* rows) {
  const MlpCoordLayout lay = op.layout();
  const MlpCoordSetup& s = op.setup;
  parallel_for(0, std::size_t(count), threads, [&](std::size_t j) {
    const long long trial = first + (long long)j;
    double* out = rows + j * std::size_t(lay.size());
    std::vector<Mat> X(std::size_t(s.steps)), T(std::size_t(s.steps));
    Mat Xp, Tp;
    {  // the batches and the probe: the same draws at every width (the streams do not depend on w)
      Stream data(seed, std::uint64_t(trial), Purpose::data), probe_s(seed, std::uint64_t(trial), Purpose::aux);
      op.task.sample(probe_s, s.probe, Xp, Tp);
      for (int t = 0; t < s.steps; ++t) op.task.sample(data, s.batch, X[std::size_t(t)], T[std::size_t(t)]);
    }
    for (int w = 0; w < lay.widths; ++w) {
      const Mlp init = initial_net(op, w, seed, trial);
      MlpCache at_init;
      init.forward(Xp, &at_init);
      for (int a = 0; a < lay.arms; ++a) {
        Mlp net = init;
        Trainer tr(net, train_config(s, op.arms[a]));
        MlpCache before = at_init, after;
        for (int t = 0; t < s.steps; ++t) {
          const std::vector<Mat> W0 = net.W;
          tr.step(X[std::size_t(t)], T[std::size_t(t)], op.task.loss);
          net.forward(Xp, &after);
          record_step(lay, a, w, t, before, after, W0, net.W, out);
          if (t == 0 && a == 0) record_step1(lay, w, tr.cache(), out);
          std::swap(before, after);
        }
      }
    }
    reduce_seed(op, lay, out);
  });
}

}  // namespace akm::ops::detail
