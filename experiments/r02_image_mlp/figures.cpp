// R2 image MLP — the figures: mean validation loss and accuracy per arm over the epochs,
// and each seed's paired test accuracy.
#include <string>

#include <fmt/format.h>

#include "r02_image_mlp.hpp"

namespace akm::exp::r02 {

void figures(ExperimentContext& ctx, int seeds) {
  for (const char* what : {"loss", "acc"}) {
    Figure f;
    const bool loss = std::string(what) == "loss";
    f.name = loss ? "validation-loss" : "validation-accuracy";
    f.title = fmt::format("R2 digits MLP: validation {} (mean over {} seeds, tuned configurations)",
                          loss ? "loss" : "accuracy", seeds);
    f.xlabel = "epoch";
    f.ylabel = loss ? "validation cross-entropy" : "validation accuracy (%)";
    f.logy = loss;
    if (!loss) f.extra = {"set yrange [50:100]"};
    for (const char* arm : {"sgd-m", "ak-sgd"})
      f.series.push_back({"data_curves.csv", "epoch", loss ? "mean_val_loss" : "mean_val_acc", "", arm, "lines",
                          std::string("optimizer=") + arm});
    ctx.out.figure(f);
  }
  Figure fs;
  fs.name = "test-accuracy";
  fs.title = "R2 test accuracy per seed (paired: same initialization and batch order)";
  fs.xlabel = "seed";
  fs.ylabel = "test accuracy (%)";
  fs.series = {{"data_per_seed.csv", "seed", "test_acc_sgd", "", "SGD-m", "linespoints", ""},
               {"data_per_seed.csv", "seed", "test_acc_ak", "", "AK-SGD", "linespoints", ""}};
  ctx.out.figure(fs);
}

}  // namespace akm::exp::r02
