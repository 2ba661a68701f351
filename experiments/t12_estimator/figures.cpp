// T12 estimator — the figures: cos(M*, Ĝ) against cond(Σ̂) and against κ = cond(μI+Σ̂)
// [eq:cond-ceiling], and the efficiency of M*(μ) under each norm along the μ sweep.
#include <fmt/format.h>

#include "t12_estimator.hpp"

namespace akm::exp::t12 {

void figures(ExperimentContext& ctx) {
  Figure fc;
  fc.name = "cosine-vs-cond";
  fc.title = "T12 descent preserved: cos(M*, Ĝ) over 200 random Σ̂";
  fc.xlabel = "cond(Σ̂) on its range (λ̂_{max}/λ̂_{min}^+)";
  fc.ylabel = "cos(M*, Ĝ)";
  fc.logx = true;
  fc.extra = {"set yrange [0:1.05]", "set format x '10^{%T}'"};
  fc.series = {{"data_instances.csv", "cond_range", "cos_star_G", "", "full rank", "points", "deficient=full-rank"},
               {"data_instances.csv", "cond_range", "cos_star_G", "", "rank deficient", "points",
                "deficient=rank-deficient"},
               {"data_instances.csv", "cond_range", "kantorovich_floor", "", "Kantorovich floor of that instance",
                "points", ""}};
  ctx.out.figure(fc);

  Figure fk;
  fk.name = "cosine-vs-kappa";
  fk.title = "T12 cos(M*, Ĝ) ≥ 2√κ/(1+κ), κ = cond(μI+Σ̂) ≤ 1+η/(1−β)";
  fk.xlabel = "κ = (μ+λ̂_{max})/(μ+λ̂_{min})";
  fk.ylabel = "cos(M*, Ĝ)";
  fk.logx = true;
  fk.extra = {"set yrange [0:1.05]", "set key bottom left"};
  fk.series = {{"data_instances.csv", "kappa_ridge", "cos_star_G", "", "instances", "points", ""}};
  fk.functions = {"2*sqrt(x)/(1+x) title 'Kantorovich floor 2√κ/(1+κ)' lw 2"};
  ctx.out.figure(fk);

  Figure fm;
  fm.name = "mu-sweep";
  fm.title = "T12 one functional, two norms: efficiency of M*(μ) = Ĝ(μI+Σ̂)^{-1}, cond(Σ̂) = 10^6";
  fm.xlabel = "ridge μ = (1−β)/η";
  fm.ylabel = "⟨M,Ĝ⟩ / (N(M) · max_{N=1}⟨M,Ĝ⟩)";
  fm.logx = true;
  fm.extra = {"set yrange [0:1.1]", "set format x '10^{%T}'", "set key inside center right vertical"};
  fm.series = {{"data_mu_sweep.csv", "mu", "efficiency", "", "norm ‖M‖_F (J_w): optimum ∝ Ĝ", "linespoints", "norm=J_w"},
               {"data_mu_sweep.csv", "mu", "efficiency", "", "norm E‖Mx̂‖² (J_f): optimum ∝ ĜΣ̂^{-1}", "linespoints",
                "norm=J_f"},
               {"data_mu_sweep.csv", "mu", "efficiency", "", "norm μ‖M‖²+E‖Mx̂‖²: optimum ∝ M*", "lines",
                "norm=Tikhonov"}};
  ctx.out.figure(fm);
}

}  // namespace akm::exp::t12
