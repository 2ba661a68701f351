// T13 mup — the figures: the buffer's per-coordinate RMS against width under the three η
// schedules, and the raw key's η boundaries against width.
#include <string>

#include <fmt/format.h>

#include "t13_mup.hpp"

namespace akm::exp::t13 {

void figures(ExperimentContext& ctx, const nlohmann::json& slopes, double slope_c, double slope_ms, double slope_as) {
  Figure fb;
  fb.name = "buffer-scale";
  fb.title = fmt::format("T13 normalized AK buffer per-coordinate RMS vs width: slopes {:.3f} (η const), {:.3f} (η ∝ n^-½), "
                         "{:.3f} (η ∝ n^½)", slopes["eta-constant"]["measured"].get<double>(),
                         slopes["eta-decaying"]["measured"].get<double>(), slopes["eta-growing"]["measured"].get<double>());
  fb.xlabel = "width n";
  fb.ylabel = "RMS(M_ij)";
  fb.logx = fb.logy = true;
  for (int sch = 0; sch < kSchedules; ++sch) {
    fb.measured_vs_predicted({.csv = "data_buffer_scale.csv", .x = "n", .measured = "measured_rms", .se = "stderr_rms",
                              .predicted = "predicted_rms", .measured_title = std::string("measured, ") + kScheduleName[sch],
                              .predicted_title = std::string("exact, ") + kScheduleName[sch],
                              .where = std::string("schedule=") + kScheduleName[sch]});
  }
  ctx.out.figure(fb);

  Figure fr;
  fr.name = "raw-key-stability";
  fr.title = fmt::format("T13 raw-key η boundaries vs width: slopes {:.2f} (per-step contraction), {:.2f} (mean square), {:.2f} (a.s.)",
                         slope_c, slope_ms, slope_as);
  fr.xlabel = "width n";
  fr.ylabel = "largest stable η";
  fr.logx = fr.logy = true;
  fr.series = {{"data_raw_key.csv", "n", "eta_contraction", "", "(1+β)/n, every step a contraction", "linespoints", ""},
               {"data_raw_key.csv", "n", "eta_mean_square", "", "mean-square boundary", "linespoints", ""},
               {"data_raw_key.csv", "n", "eta_almost_sure", "", "almost-sure boundary (Lyapunov = 0)", "linespoints", ""}};
  ctx.out.figure(fr);
}

}  // namespace akm::exp::t13
