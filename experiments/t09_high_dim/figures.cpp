// T9 high-dim — the figures over all shapes: buffer gains against 1/(μ+λ̂), the spectra of
// Σ̂, and the preconditioner weights under the ceiling [eq:cond-ceiling].
#include "t09_high_dim.hpp"

namespace akm::exp::t09 {

void shared_figures(ExperimentContext& ctx) {
  const double mu = theory::mu(kBeta, kEta), ceiling = theory::cond_ceiling(kBeta, kEta);
  Figure fg;
  fg.name = "gains";
  fg.title = "T9 buffer gain along span eigenvectors, all (p, n_s), window average over t ∈ [51, 200]";
  fg.xlabel = "λ̂_k (eigenvalue of Σ̂ of the data set)";
  fg.ylabel = "w_kᵀE[M]u_k / w_kᵀGu_k,  w_k = Gu_k,  G = Ĝ (AK), Ḡ (EMA)";
  fg.logx = fg.logy = true;
  fg.series = {{"data_gains.csv", "lambda_hat", "measured_window_gain", "stderr", "AK measured", "errorbars", "rule=AK"},
               {"data_gains.csv", "lambda_hat", "measured_window_gain", "stderr", "EMA measured", "errorbars",
                "rule=EMA"}};
  fg.functions = {fmt::format("1/({:.10g}+x) title 'AK 1/(μ+λ̂), μ = {:.3g}' lw 2 dt 2", mu, mu),
                  "1 title 'EMA (1)' lw 2 lc rgb 'gray40'"};
  fg.extra = {"set xrange [5e-5:0.5]", "set format x '10^{%L}'", "set yrange [0.5:12]", "set key inside left bottom vertical"};
  ctx.out.figure(fg);

  Figure fs;
  fs.name = "spectrum";
  fs.title = "T9 eigenvalues of Σ̂ for a data set of n_s keys in R^p (spiked covariance)";
  fs.xlabel = "k (span eigen-directions, descending)";
  fs.ylabel = "λ̂_k";
  fs.logx = fs.logy = true;
  for (const Shape& sh : kShapes)
    fs.series.push_back({"data_spectrum.csv", "k", "lambda_hat", "", fmt::format("p = {}, n_s = {}", sh.p, sh.n_s),
                         "lines", "setting=" + shape_name(sh)});
  fs.extra = {"set xrange [1:1100]", "set format y '10^{%L}'"};
  fs.functions = {fmt::format("{:.10g} title 'μ = (1−β)/η = {:.3g}' lw 2 dt 2 lc rgb 'black'", mu, mu)};
  ctx.out.figure(fs);

  Figure fw;
  fw.name = "preconditioner";
  fw.title = fmt::format("T9 preconditioner weights 1/(μ+λ̂_k), β = {}, η = {}: every ratio ≤ 1 + η/(1−β) = {:.3g}",
                         kBeta, kEta, ceiling);
  fw.xlabel = "k (span eigen-directions, descending)";
  fw.ylabel = "1/(μ+λ̂_k)";
  fw.logx = fw.logy = true;
  for (const Shape& sh : kShapes)
    fw.series.push_back({"data_spectrum.csv", "k", "weight", "", fmt::format("p = {}, n_s = {}", sh.p, sh.n_s),
                         "lines", "setting=" + shape_name(sh)});
  // λ̂ ∈ [0, 1] confines every weight to [1/(μ+1), 1/μ]; 1/μ is also the weight off the span.
  fw.functions = {fmt::format("{:.10g} title '1/μ (λ̂ = 0, off the span)' lw 2 dt 2 lc rgb 'black'", 1.0 / mu),
                  fmt::format("{:.10g} title '1/(μ+1) (λ̂ = 1)' lw 2 dt 3 lc rgb 'black'", 1.0 / (mu + 1.0))};
  fw.extra = {fmt::format("set yrange [{}:{}]", 0.7 / (mu + 1.0), 1.4 / mu), "set xrange [1:1100]"};
  ctx.out.figure(fw);
}

}  // namespace akm::exp::t09
