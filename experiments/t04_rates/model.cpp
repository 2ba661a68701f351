// T4 rates — the model: one arm's Monte-Carlo run (on ops::optimizer_loop), each direction's
// predictions, the fitted map's moment indices, and the fixed-α counterexample map.
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "akm/sim/ops/optimizer_loop.hpp"
#include "t04_rates.hpp"

namespace akm::exp::t04 {

McResult simulate(ExperimentContext& ctx, const Setting& s, const Arm& arm, std::uint64_t seed, long long R) {
  const int n = s.n();
  ops::OptimizerLoop op;
  op.sqrt_lambda = s.sqrt_lambda;
  op.rule = arm.rule;
  op.eta = arm.eta;
  op.beta = kBeta;
  op.alpha = arm.alpha;
  op.noise_sigma = kLabelNoise;
  op.steps = kSteps;
  // The header's layout (at, mom) is the op's.
  if (op.state(kSteps, n - 1, 1) != at(n, kSteps, n - 1, 1) || op.moment(n - 1, 6) != mom(n, n - 1, 6))
    throw std::logic_error("T4: the observable layout differs from ops::optimizer_loop's");
  // Only the reference and cpu paths exist: on another backend T4 runs the cpu path.
  const Backend b = ctx.backend_for(ops::optimizer_loop_has);
  return ops::optimizer_loop(op, seed, b, ctx.mc(R, fmt::format("T4 {} {}", s.name, to_string(arm.rule)), kGroups));
}

DirPrediction predict(const Setting& s, const Arm& arm, int i) {
  DirPrediction d;
  d.A = arm.A(s, i);
  // The alternative each check must rule out. AK arms: the same map with EMA's memory
  // (β̃_i → β, same coupling and α), i.e. det = β instead of β̃_i [thm:detred]. EMA arm
  // (the control): the main text's EMA row with coupling (1−β)κ_i instead of the
  // appendix's (1−β)λ_i (the κ/λ finding); its determinant β does not depend on the
  // coupling, so the EMA det check is set against AK's memory β̃_i (normalized η).
  const bool ema = arm.rule == BufferKind::ema;
  d.A_alt = ema ? theory::iter_matrix_ema(arm.alpha, kBeta, s.moments.kappa[i])
                : arm.A_at(s, i, arm.eta, kBeta, 1.0, kBeta);
  // The mean state follows A_i^t s_0 exactly, s_0 = (1, 0).
  Vec2 st(1.0, 0.0), st_alt(1.0, 0.0);
  d.path.push_back(st);
  d.path_alt.push_back(st_alt);
  for (int t = 1; t <= kSteps; ++t) {
    st = d.A * st;
    st_alt = d.A_alt * st_alt;
    d.path.push_back(st);
    d.path_alt.push_back(st_alt);
  }
  d.rho = theory::spectral_radius(d.A);
  const double c = ema ? (1 - kBeta) * s.spectrum.lambda[i] : d.A(1, 0);
  const auto band = theory::underdamped_band(arm.det(s, i));
  d.under = band && arm.alpha * c > band->first && arm.alpha * c < band->second;
  return d;
}

std::array<std::size_t, kMapMoments> map_moments(int n, int i) {
  std::array<std::size_t, kMapMoments> idx{};
  for (int k = 0; k < kMapMoments; ++k) idx[static_cast<std::size_t>(k)] = mom(n, i, k);
  return idx;
}

void counterexample_map(ExperimentContext& ctx, const Setting& s) {
  // Fixed α: ρ^Δ vs ρ^EMA over (αc, η) for the top direction of the spiked spectrum.
  CsvTable t{{"log10_alpha_c", "eta", "rho_ratio"}, {}};
  long long worse = 0, total = 0;
  const double kap = s.moments.kappa[0], lh = s.moments.lambda_hat[0], lam = s.spectrum.lambda[0];
  for (int a = 0; a < 61; ++a) {
    const double lac = -2.0 + 3.0 * a / 60.0;   // α·(ηκ) at η = 0.5 from 1e-2 to 10
    const double alpha = std::pow(10.0, lac) / (kEtaNorm * kap);
    for (int e = 1; e <= 45; ++e) {
      const double eta = 0.9 * e / 45.0;
      const double ra = theory::spectral_radius(
          theory::iter_matrix_ak(alpha, eta * kap, theory::beta_tilde(kBeta, eta, lh)));
      const double re = theory::spectral_radius(theory::iter_matrix_ema(alpha, kBeta, lam));
      t.add({lac, eta, ra / re});
      worse += ra > re;
      ++total;
    }
  }
  ctx.out.write_csv("data_counterexample.csv", t);
  ctx.params["counterexample_fraction_rho_ak_gt_rho_ema"] = static_cast<double>(worse) / static_cast<double>(total);
  Figure f;
  f.name = "counterexample";
  f.title = "T4 caveat at fixed α (spiked u1): ρ^Δ/ρ^{EMA}; > 1 where the overdamped AK map is slower";
  f.xlabel = "log_{10}(α·ηκ_1 / η) at η = 0.5 scale";
  f.ylabel = "η";
  f.extra = {"set palette defined (0 '#2166ac', 1 '#f7f7f7', 2 '#b2182b')", "set cbrange [0:2]",
             "set cblabel 'ρ^Δ / ρ^{EMA}'", "set xrange [-2:1]", "set yrange [0:0.9]"};
  f.functions = {"'data_counterexample.csv' every ::1 using 1:2:3 with points pt 5 ps 1.2 lc palette notitle"};
  ctx.out.figure(f);
}

}  // namespace akm::exp::t04
