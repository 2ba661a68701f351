// T19 eta — the figures: the final held-out loss against η, one figure per optimizer with a
// curve per task, the basin's edge η = 0.1 marked.
#include <string>

#include <fmt/format.h>

#include "t19_eta.hpp"

namespace akm::exp::t19 {

void figures(ExperimentContext& ctx, const std::vector<std::string>& opts,
             const std::vector<training::TaskSpec>& tasks) {
  for (const auto& opt : opts) {
    Figure f;
    f.name = "eta-sweep-" + opt;
    f.title = fmt::format("T19 final held-out loss vs η ({}, β = 0.99, own tuned lr; mean ± sd over seeds)", opt);
    f.xlabel = "η";
    f.ylabel = "final held-out loss";
    f.logx = f.logy = true;
    for (const auto& t : tasks)
      f.series.push_back({"data_eta.csv", "eta", "mean_final", "sd_final", t.name, "errorbars", "curve=" + t.name + "/" + opt});
    f.extra = {"set arrow from 0.1, graph 0 to 0.1, graph 1 nohead dt 2 lc rgb 'gray40'"};
    ctx.out.figure(f);
  }
}

}  // namespace akm::exp::t19
