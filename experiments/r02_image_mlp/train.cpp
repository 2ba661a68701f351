// R2 image MLP — the search spaces and one training on one seed's split.
#include <limits>

#include "r02_image_mlp.hpp"

namespace akm::exp::r02 {

std::vector<Config> Arm::space() const {
  std::vector<Config> s;
  for (double l : lr)
    for (double b : beta)
      for (double e : eta) s.push_back({l, b, e});
  return s;
}

bool Axis::brackets(double chosen) const {
  return (chosen > grid.front() || chosen == closed_lo) && (chosen < grid.back() || chosen == closed_hi);
}

std::vector<Axis> Arm::axes() const {
  constexpr double kOpen = std::numeric_limits<double>::quiet_NaN();
  // Domains: lr ∈ (0, ∞); β ∈ [0, 1) [eq:ema-update, eq:dm-update]; η ∈ (0, 1] [eq:dm-update].
  std::vector<Axis> a{{"lr", lr, kOpen, kOpen}, {"β", beta, 0.0, kOpen}};
  if (eta.size() > 1) a.push_back({"η", eta, kOpen, 1.0});
  return a;
}

std::vector<Arm> arms() {
  // β: the paper's {0.9, 0.95, 0.99} and 0.8, 0.5 below (1 − β doubled, then ×2.5: the paper's
  // own steps in 1 − β are ×2 and ×5), the same for both arms.
  const std::vector<double> betas{0.5, 0.8, 0.9, 0.95, 0.99};
  // η: the paper's {0.1, 0.5, 0.9, 0.99}, about two factor-3 steps below (0.03, 0.01),
  // and the domain's closed end 1 above [eq:dm-update].
  return {{"sgd-m", {0.05 / 9, 0.05 / 3, 0.05, 0.1, 0.3, 0.9, 2.7}, betas, {0.0}},
          {"ak-sgd", {0.1, 0.3, 0.9, 1.3, 1.7, 2.1, 6.3, 18.9}, betas, {0.01, 0.03, 0.1, 0.5, 0.9, 0.99, 1.0}}};
}

Trial train_once(const LabelledData& data, const std::string& arm, const Config& c, int epochs, std::uint64_t seed) {
  const DataSplit split = split_data(data, 0.2, 0.2, derive_seed(seed, "split"));
  TrainConfig tc;
  tc.optimizer = arm;
  tc.lr = c.lr;
  tc.beta = c.beta;
  tc.eta = c.eta;
  tc.batch = kBatch;
  tc.eval_every = kEvalEvery;
  tc.seed = seed;
  const MlpShape shape{static_cast<int>(split.train.X.cols()), 64, 4, split.train.classes};
  Mlp net(shape, shape.width, derive_seed(seed, "init"));  // same init for both arms of a seed
  Trial t;
  t.r = train_classifier(net, split, tc, epochs);
  t.steps = epochs * (split.train.rows() / kBatch);
  return t;
}

}  // namespace akm::exp::r02
