// T13's Muon pair [cor:mup-base-lr, AK-Muon bullet]: the coordinate check of mup_coord.hpp
// run by AK-Muon, Muon and AdamW, in three passes (measure, check, record).
//
// AK-Muon orthogonalises the AK buffer, Muon its EMA buffer (rules/muon.hpp: NS(M_t), no
// Nesterov, the √(m/n) prefactor), on the hidden layer at the corollary's rate
// α = Θ(n^{-1/2}) (problems/mlp.cpp); the input and output layers of both are AdamW's at the
// AdamW arm's rate, so the pair differs only in how the hidden buffer is formed. The statement:
// AK-Muon inherits Muon's rule, i.e. the paired width slope of the hidden RMS(ΔWx) over steps
// 2–20 is 0. Newton–Schulz is scale-free (NS(cM) = NS(M)), so the key-norm factor 1/‖x‖ that
// contradicts the AK-SGD and AK-AdamW bullets cannot reach this update; what remains is the
// AK buffer's different direction (its fixed point ηĜ((1−β)I + ηΣ̂)⁻¹ against EMA's Ḡ). The
// check is the other bullets' design — 0 within kMargin, Student-t tolerance at the run's
// level — powered against a width exponent off by ½, the size of the key-norm departure.
// The second check takes the corollary's Muon rule α = Θ(n^{-1/2}) itself: Muon paired with
// AdamW (the Adam family's μP reference) = 0, against the spectral reading's −½ (NS has unit
// singular values, so RMS(ΔWx) follows α).
//
// Cost: NS is 30n³ flops a step (a 2n³ product ×3, 5 iterations) where the other arms are
// O(batch·n²), so the pair runs at widths 64–256 (quick 32–128): a seed at 64–512 would cost
// ≈ 11 s of one core, at 128–1024 ≈ 80 s, beyond the reproduce's budget at these seed counts.
#include <cmath>

#include <boost/math/distributions/students_t.hpp>
#include <fmt/format.h>

#include "akm/check/one_sided.hpp"
#include "akm/rules/muon.hpp"
#include "mup_coord.hpp"
#include "t13_mup.hpp"

namespace akm::exp::t13 {

namespace {
constexpr int H = 1;  // the hidden layer
}  // namespace

MuonCoord measure_muon_coord(ExperimentContext& ctx, const Task& task, bool quick) {
  MuonCoord r;
  r.setup.widths = quick ? std::vector<int>{32, 64, 128} : std::vector<int>{64, 128, 256};
  r.setup.aux_lr = 10 * kCoordLr;  // the AdamW arm's rate: input and output layers as in that arm
  r.seeds = quick ? kMuonQuickSeeds : kMuonFullSeeds;
  r.arms = {{"ak-muon", "ak-muon", kMuonLr, 0.0, 1}, {"muon", "muon", kMuonLr, 0.0, 2}, {"adamw", "adamw", 10 * kCoordLr, 0.0}};
  // A seed stream of its own: these arms were added after the other arms' runs.
  const std::uint64_t seed = derive_seed(ctx.opts.seed, "T13/coord/muon");
  const auto res = ops::mlp_coord({r.setup, r.arms, task}, seed, ctx.backend_for(ops::mlp_coord_has),
                                  ctx.mc(r.seeds, "T13 coordinate check, Muon pair"));
  r.mean = res.total.mean(), r.se = res.total.stderr_mean();
  return r;
}

void check_muon_coord(ExperimentContext& ctx, const MuonCoord& r, double p_each) {
  const coord::Layout lay(r.arms, static_cast<int>(r.setup.widths.size()), r.setup.steps);
  boost::math::students_t tdist(r.seeds - 1);
  const double t_over_z = boost::math::quantile(boost::math::complement(tdist, p_each / 2)) / z_two_sided(p_each);
  ctx.checks.mc(fmt::format("coord-muon/hidden ΔWx, steps 2-20: width slope AK-Muon − Muon = 0 within ±{} [cor:mup-base-lr] "
                            "(paired, t-corrected, {} seeds, widths {}-{})",
                            kMargin, r.seeds, r.setup.widths.front(), r.setup.widths.back()),
                0.0, r.mean[lay.diff(0, 1, H)], r.se[lay.diff(0, 1, H)] * t_over_z, 0.0, kMargin);
  ctx.checks.against(-0.5, kMuonRival);
  // The corollary's Muon rule itself ("matching Muon under μP"), paired with AdamW, the Adam
  // family's μP reference, which carries the shared finite-width drift.
  ctx.checks.mc(fmt::format("coord-muon/hidden ΔWx, steps 2-20: width slope Muon − AdamW = 0 within ±{} [cor:mup-base-lr: "
                            "Muon's rule α = Θ(n^-½)] (paired, t-corrected, {} seeds, widths {}-{})",
                            kMargin, r.seeds, r.setup.widths.front(), r.setup.widths.back()),
                0.0, r.mean[lay.diff(1, 1, H)], r.se[lay.diff(1, 1, H)] * t_over_z, 0.0, kMargin);
  ctx.checks.against(-0.5, kMuonRuleRival);
}

nlohmann::json record_muon_coord(ExperimentContext& ctx, const MuonCoord& r) {
  const coord::Layout lay(r.arms, static_cast<int>(r.setup.widths.size()), r.setup.steps);
  const int A = static_cast<int>(r.arms.size()), cw = lay.widths;
  CsvTable curves{{"optimizer", "width", "step", "update_rms", "update_rms_se", "act_rms", "act_rms_se"}, {}};
  CsvTable steps{{"optimizer", "step", "slope_mean", "slope_se"}, {}};
  CsvTable win{{"optimizer", "window", "quantity", "slope_mean", "slope_se", "minus_reference_mean", "minus_reference_se"}, {}};
  const char* qname[2] = {"act_rms", "update_rms"};
  for (int a = 0; a < A; ++a) {
    for (int w = 0; w < cw; ++w)
      for (int t = 0; t < r.setup.steps; ++t)
        curves.add({r.arms[a].label, r.setup.widths[w], t + 1, r.mean[lay.value(a, w, t, H, 1)], r.se[lay.value(a, w, t, H, 1)],
                    r.mean[lay.value(a, w, t, H, 0)], r.se[lay.value(a, w, t, H, 0)]});
    for (int t = 0; t < r.setup.steps; ++t)
      steps.add({r.arms[a].label, t + 1, r.mean[lay.step_slope(a, t, H, 1)], r.se[lay.step_slope(a, t, H, 1)]});
    for (int k = 0; k < coord::kWindows; ++k)
      for (int q = 0; q < 2; ++q) {
        const bool paired = r.arms[a].reference >= 0;
        const int di = paired ? (q == 1 ? lay.diff(a, k, H) : lay.diff_act(a, k, H)) : 0;
        win.add({r.arms[a].label, std::string(coord::kWindowName[k]), std::string(qname[q]), r.mean[lay.window_slope(a, k, H, q)],
                 r.se[lay.window_slope(a, k, H, q)], paired ? r.mean[di] : std::nan(""), paired ? r.se[di] : std::nan("")});
      }
  }
  ctx.out.write_csv("data_coord_muon.csv", curves);
  ctx.out.write_csv("data_coord_muon_step_slopes.csv", steps);
  ctx.out.write_csv("data_coord_muon_slopes.csv", win);
  std::vector<std::string> labels;
  for (const auto& arm : r.arms) labels.push_back(arm.label);
  ctx.out.figure(coord::step_slope_figure(
      "mup-step-slopes-muon",
      "T13 Muon pair: hidden-layer RMS(ΔW x) width slope per step (AK-Muon − Muon = 0: inherited rule)",
      "data_coord_muon_step_slopes.csv", labels));
  const auto pm = [&](int i) { return fmt::format("{:.3f} ± {:.3f}", r.mean[i], r.se[i]); };
  ctx.findings.push_back(fmt::format(
      "Muon pair ({} seeds, widths {}-{}, hidden rate {}·w^-½, √(m/n) = 1): hidden RMS(ΔWx) width slope over steps 2-20 AK-Muon {}, "
      "Muon {}, AdamW {}; paired AK-Muon − Muon {} (the statement: 0), Muon − AdamW {} (the corollary's Muon rule against "
      "AdamW's μP reference); step 1 alone: AK-Muon − Muon {}; hidden activation RMS paired "
      "AK-Muon − Muon {}",
      r.seeds, r.setup.widths.front(), r.setup.widths.back(), kMuonLr, pm(lay.window_slope(0, 1, H, 1)),
      pm(lay.window_slope(1, 1, H, 1)), pm(lay.window_slope(2, 1, H, 1)), pm(lay.diff(0, 1, H)), pm(lay.diff(1, 1, H)),
      pm(lay.diff(0, 0, H)), pm(lay.diff_act(0, 1, H))));
  nlohmann::json arms = nlohmann::json::array();
  for (const auto& arm : r.arms)
    arms.push_back({{"label", arm.label}, {"optimizer", arm.optimizer}, {"lr", arm.lr},
                    {"reference", arm.reference >= 0 ? r.arms[arm.reference].label : ""}});
  return {{"widths", r.setup.widths}, {"seeds", r.seeds}, {"seed_stream", "T13/coord/muon"}, {"arms", arms},
          {"aux_lr", r.setup.aux_lr}, {"hidden_rate_rule", "lr * (n/128)^(-1/2) * sqrt(m/n) [cor:mup-base-lr]"},
          {"ns", {{"coefficients", {ns::kMuon.a, ns::kMuon.b, ns::kMuon.c}}, {"steps", ns::kSteps}, {"nesterov", false}}},
          {"rival", kMuonRival}, {"rule_rival", kMuonRuleRival}, {"margin", kMargin}};
}

}  // namespace akm::exp::t13
