// R2 image MLP — one training, the tuning of an arm on its grid (extended past an edge that
// holds the optimum, the pre-registered rule of claim.cpp), and paired statistics.
#include <cmath>
#include <map>

#include "r02_image_mlp.hpp"

namespace akm::exp::r02 {

Trial train_once(const DataSplit& data, const std::string& arm, const Config& c, int epochs, std::uint64_t seed) {
  TrainConfig tc;
  tc.optimizer = arm;
  tc.lr = c.lr;
  tc.beta = c.beta;
  tc.eta = c.eta;
  tc.batch = kBatch;
  tc.eval_every = kEvalEvery;
  tc.seed = seed;
  const MlpShape shape{static_cast<int>(data.train.X.cols()), 64, 4, data.train.classes};
  Mlp net(shape, shape.width, derive_seed(seed, "init"));  // same init for both arms of a seed
  Trial t;
  t.r = train_classifier(net, data, tc, epochs);
  t.steps = epochs * (data.train.rows() / kBatch);
  return t;
}

Tuning tune_arm(const DataSplit& data, const Arm& arm, int epochs, int tune_seeds, std::uint64_t seed, int threads,
                CsvTable& table) {
  Tuning tu;
  std::vector<double> pending = arm.lr;
  std::map<double, double> best_at_lr;  // lr → lowest mean loss over β, η
  std::map<double, Config> config_at_lr;
  while (true) {
    std::vector<Config> cfgs;
    for (double lr : pending)
      for (double b : arm.beta)
        for (double e : arm.eta) cfgs.push_back({lr, b, e});
    const auto n = cfgs.size() * static_cast<std::size_t>(tune_seeds);
    const auto finals = training::parallel_units<double>(n, threads, [&](std::size_t u) {
      const Trial t = train_once(data, arm.name, cfgs[u / tune_seeds],
                                 epochs, training::run_seed(seed, "r2/tune", static_cast<int>(u % tune_seeds)));
      return t.r.diverged ? std::numeric_limits<double>::infinity() : t.r.val_loss.back();
    });
    for (std::size_t c = 0; c < cfgs.size(); ++c) {
      double s = 0;
      for (int k = 0; k < tune_seeds; ++k) s += finals[c * tune_seeds + static_cast<std::size_t>(k)];
      const double m = s / tune_seeds;
      table.add({arm.name, cfgs[c].lr, cfgs[c].beta, cfgs[c].eta, m});
      if (!best_at_lr.count(cfgs[c].lr) || m < best_at_lr[cfgs[c].lr]) best_at_lr[cfgs[c].lr] = m, config_at_lr[cfgs[c].lr] = cfgs[c];
      if (m < tu.best_loss) tu.best_loss = m, tu.best = cfgs[c];
    }
    pending.clear();
    const double lo = best_at_lr.begin()->first, hi = best_at_lr.rbegin()->first;
    if (tu.best.lr == hi && tu.extensions_up < kMaxExtensions) pending.push_back(hi * kExtensionFactor), ++tu.extensions_up;
    else if (tu.best.lr == lo && tu.extensions_down < kMaxExtensions) pending.push_back(lo / kExtensionFactor), ++tu.extensions_down;
    if (pending.empty()) break;
  }
  for (const auto& [lr, loss] : best_at_lr) tu.lr_grid.push_back(lr);
  return tu;
}

Paired paired(const std::vector<double>& d) {
  Paired out;
  const auto [m, sd] = training::mean_sd(d);
  out.mean = m;
  out.se = sd / std::sqrt(static_cast<double>(d.size()));
  for (double v : d) out.pos += v > 0, out.neg += v < 0;
  out.p = training::sign_test_p(out.pos, out.neg);
  return out;
}

}  // namespace akm::exp::r02
