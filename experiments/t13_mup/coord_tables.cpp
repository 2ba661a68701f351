// T13's coordinate check, its tables and figures (declared in mup_coord.hpp): the per-width
// means, the per-step and per-window width slopes (paired differences against each arm's
// reference), step 1's key-norm quantities, and the figures drawn from them [fig:mup-coord].
#include "mup_coord.hpp"

namespace akm::exp::coord {

Figure step_slope_figure(std::string name, std::string title, const std::string& csv,
                         const std::vector<std::string>& labels) {
  Figure f;
  f.name = std::move(name);
  f.title = std::move(title);
  f.xlabel = "training step";
  f.ylabel = "d log RMS(ΔW x) / d log n";
  f.functions = {"0 title 'collapse' dt 2", "-0.5 title 'n^{-1/2}' dt 3"};
  for (const auto& label : labels)
    f.series.push_back({csv, "step", "slope_mean", "slope_se", label, "errorbars", "optimizer=" + label});
  return f;
}

nlohmann::json write_tables(ResultDir& out, const Setup& s, const std::vector<Arm>& arms, const Layout& lay,
                            const Vec& m, const Vec& se) {
  const int A = static_cast<int>(arms.size()), L = lay.layers, cw = lay.widths, H = 1;
  const char* qname[2] = {"act_rms", "update_rms"};
  const char* lname[3] = {"input", "hidden", "output"};
  CsvTable all{{"optimizer", "width", "step", "layer", "quantity", "mean", "stderr"}, {}};
  CsvTable steps{{"optimizer", "step", "layer", "quantity", "slope_mean", "slope_se"}, {}};
  CsvTable hid{{"optimizer", "step", "slope_mean", "slope_se"}, {}};
  CsvTable win{{"optimizer", "window", "layer", "quantity", "slope_mean", "slope_se", "minus_reference_mean", "minus_reference_se"}, {}};
  nlohmann::json slopes = nlohmann::json::array();
  for (int a = 0; a < A; ++a) {
    for (int q = 0; q < 2; ++q) {  // the hidden layer alone, for the figures (fig:mup-coord)
      CsvTable h{{"width", "step", "mean", "stderr"}, {}};
      for (int w = 0; w < cw; ++w)
        for (int t = 0; t < s.steps; ++t)
          h.add({s.widths[w], t + 1, m[lay.value(a, w, t, H, q)], se[lay.value(a, w, t, H, q)]});
      out.write_csv(fmt::format("data_coord_hidden_{}_{}.csv", arms[a].label, qname[q]), h);
    }
    for (int l = 0; l < L; ++l)
      for (int q = 0; q < 2; ++q) {
        for (int t = 0; t < s.steps; ++t) {
          for (int w = 0; w < cw; ++w)
            all.add({arms[a].label, s.widths[w], t + 1, l,
                     std::string(qname[q]), m[lay.value(a, w, t, l, q)], se[lay.value(a, w, t, l, q)]});
          const int i = lay.step_slope(a, t, l, q);
          steps.add({arms[a].label, t + 1, std::string(lname[l]), std::string(qname[q]), m[i], se[i]});
          if (l == H && q == 1) hid.add({arms[a].label, t + 1, m[i], se[i]});
        }
        for (int k = 0; k < kWindows; ++k) {
          const int i = lay.window_slope(a, k, l, q);
          const bool paired = arms[a].reference >= 0;
          const int di = paired ? (q == 1 ? lay.diff(a, k, l) : lay.diff_act(a, k, l)) : 0;
          const double dm = paired ? m[di] : std::nan(""), ds = paired ? se[di] : std::nan("");
          win.add({arms[a].label, std::string(kWindowName[k]), std::string(lname[l]), std::string(qname[q]), m[i], se[i], dm, ds});
          slopes.push_back({{"optimizer", arms[a].label}, {"window", kWindowName[k]}, {"layer", lname[l]}, {"quantity", qname[q]},
                            {"slope", m[i]}, {"se", se[i]}});
        }
      }
  }
  CsvTable st1{{"width", "mean_inv_key_norm", "mean_inv_key_norm_se", "rms_R", "rms_R_se", "median_abs_R", "median_abs_R_se",
                "log_excess_over_equal_norm", "log_excess_se"}, {}};
  for (int w = 0; w < cw; ++w)
    st1.add({s.widths[w], m[lay.step1(w, 0)], se[lay.step1(w, 0)], m[lay.step1(w, 1)], se[lay.step1(w, 1)],
             m[lay.step1(w, 2)], se[lay.step1(w, 2)], m[lay.step1(w, 3)], se[lay.step1(w, 3)]});
  out.write_csv("data_coord.csv", all);
  out.write_csv("data_coord_step_slopes.csv", steps);
  out.write_csv("data_coord_step_slopes_hidden_update.csv", hid);
  out.write_csv("data_coord_slopes.csv", win);
  out.write_csv("data_coord_step1.csv", st1);

  std::vector<std::string> labels;
  for (const auto& arm : arms) labels.push_back(arm.label);
  out.figure(step_slope_figure("mup-step-slopes",
                               "T13 hidden-layer RMS(ΔW x): width slope per step (0 = collapse, −½ = key-norm scaling)",
                               "data_coord_step_slopes_hidden_update.csv", labels));
  for (const auto& arm : arms)
    for (int q = 0; q < 2; ++q) {
      Figure fc;
      fc.name = fmt::format("mup-{}-{}", q == 0 ? "act-rms" : "update-rms", arm.label);
      fc.title = fmt::format("T13 coordinate check ({}, μP): hidden-layer {} by width", arm.label,
                             q == 0 ? "pre-activation RMS" : "RMS(ΔW x)");
      fc.xlabel = "training step";
      fc.ylabel = q == 0 ? "RMS(W h)" : "RMS(ΔW x)";
      fc.logy = q == 1;
      fc.extra = {"set key outside right"};
      for (int n : s.widths)
        fc.series.push_back({fmt::format("data_coord_hidden_{}_{}.csv", arm.label, qname[q]), "step", "mean", "stderr",
                             fmt::format("n = {}", n), "errorbars", fmt::format("width={}", n)});
      out.figure(fc);
    }
  nlohmann::json arm_json = nlohmann::json::array();
  for (const auto& arm : arms)
    arm_json.push_back({{"label", arm.label}, {"optimizer", arm.optimizer}, {"lr", arm.lr}, {"width_lr_power", arm.width_lr_power},
                        {"reference", arm.reference >= 0 ? arms[arm.reference].label : ""}});
  return {{"widths", s.widths}, {"steps", s.steps}, {"probe", s.probe}, {"base_width", s.base}, {"arms", arm_json},
          {"beta", s.beta}, {"eta", s.eta}, {"beta2", s.beta2}, {"batch", s.batch}, {"depth", L}, {"d_in", 32},
          {"activation", "GELU (tanh)"}, {"biases", false}, {"slopes", slopes}};
}

}  // namespace akm::exp::coord
