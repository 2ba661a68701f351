// T9 high-dim — the Monte-Carlo check of the claim: the projections M_t u_k of both buffers
// on the span eigenvectors against E[M_t]u_k = M*u_k(1 − β̃_k^t) (AK) and Ḡu_k(1 − β^t)
// (EMA), at the checkpoints and averaged over the window, each with its alternative and
// sensitivities, behind the design-skewness gate (t09_high_dim.hpp).
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <tuple>

#include "sensitivity.hpp"
#include "t09_high_dim.hpp"

namespace akm::exp::t09 {

ops::SpanBuffers ShapeRun::op() const {
  ops::SpanBuffers o;
  o.keys = K_hat;
  o.norms = d.norms;
  o.values = d.Delta;
  o.directions = U;
  o.beta = kBeta;
  o.eta = kEta;
  o.steps = kSteps;
  o.grid = grid;
  o.window_start = kWindowStart;
  return o;
}

// The Monte Carlo: the projections M_t u_k of both buffers on the recorded grid, then (slot G)
// their average over the window [kWindowStart, T], on ops::span_buffers (reference and cpu
// paths only: on another backend T9 runs the cpu path and reads as not on ops); the jackknifed
// gains.
void ShapeRun::simulate_projections() {
  const Backend b = ctx.backend_for(ops::span_buffers_has);
  res = ops::span_buffers(op(), mc_seed, b, ctx.mc(R, "T9 " + name, kGroups));
  mean = res.total.mean(), se = res.total.stderr_mean();
  // The improvement over the queried span, the AK gain ratio bottom/top (improvement_check),
  // and each direction's window gain (the gains table), jackknifed over trial groups.
  const std::size_t jb = D - 1;
  std::tie(impr, impr_se) = jackknife(res.groups, [&](const Vec& m) { return gain(m, G, 0, jb) / gain(m, G, 0, 0); });
  for (std::size_t j = 0; j < D; ++j)
    for (int rule = 0; rule < 2; ++rule)
      window_gain.push_back(jackknife(res.groups, [&](const Vec& m) { return gain(m, G, rule, j); }));
}

// Design skewness of the mean of projection (rule, j, r) over R trials of t_eff draws:
// γ_c/√(R·t_eff) with c_s = δ_{s,r}·(k_sᵀu_j), k = x̂ (AK) or x (EMA) (header).
double ShapeRun::design_skew(int rule, std::size_t j, int r, double t_eff) const {
  const Eigen::Index ns = K_hat.cols();
  Vec c(ns);
  for (Eigen::Index k = 0; k < ns; ++k)
    c[k] = d.Delta(r, k) * Ct(static_cast<Eigen::Index>(j), k) * (rule == 0 ? 1.0 : d.norms[k]);
  const Vec dev = c.array() - c.mean();
  const double m2 = dev.squaredNorm() / n, m3 = dev.array().cube().sum() / n;
  if (!(m2 > 0.0)) return 0.0;
  return std::abs(m3) / std::pow(m2, 1.5) / std::sqrt(static_cast<double>(R) * t_eff);
}

double ShapeRun::memory(int rule, std::size_t j) const {
  return 1.0 / (1.0 - (rule == 0 ? theory::beta_tilde(kBeta, kEta, lam[dirs[j].k]) : kBeta));
}

double ShapeRun::projection_mean(int rule, std::size_t j, int r, double e, double b, double sc,
                                 const std::function<double(double)>& f) const {
  const auto jj = static_cast<Eigen::Index>(j);
  if (rule == 1) return GbU(r, jj) * f(b);
  const double l = sc * lam[dirs[j].k];
  return GU(r, jj) / (theory::mu(b, e) + l) * f(theory::beta_tilde(b, e, l));
}

// The projections M_t u_k of both buffers against their closed forms, at the checkpoints and
// averaged over the window.
void ShapeRun::projection_checks() {
  auto grid_index = [&](int t) {
    const auto it = std::find(grid.begin(), grid.end(), t);
    if (it == grid.end()) throw std::logic_error(fmt::format("T9: checkpoint {} is not on the record grid", t));
    return static_cast<std::size_t>(it - grid.begin());
  };

  rare = 0;
  // Alternatives and sensitivities. The AK projection E[M_t]u_k = (Ĝu_k/(μ+λ̂_k))(1 − β̃_k^t)
  // is a closed form of (η, β, λ̂_k) at fixed data (Ĝ does not depend on them); its EMA
  // alternative is the same buffer without the self-correction, M ← βM + ηδx̂ᵀ, i.e. λ̂_k → 0:
  // (Ĝu_k/μ)(1 − β^t). The EMA arm's prediction (Ḡu_k)(1 − β^t) reads β only and keeps the
  // declared 10% effect. `f(t)` is the transient factor: 1 − b^t at a checkpoint, the window
  // average of it otherwise.
  auto ak_check = [&](std::size_t j, int r, const std::function<double(double)>& f) {
    const double g = GU(r, static_cast<Eigen::Index>(j));
    ctx.checks.against(g / mu * f(kBeta), "EMA");
    sensitivity(ctx.checks, [&](double e, double b, double m) { return projection_mean(0, j, r, e, b, m, f); }, kEta,
                kBeta);
  };
  auto ema_check = [&](std::size_t j, int r, const std::function<double(double)>& f) {
    sensitivity(ctx.checks, [&](double e, double b, double m) { return projection_mean(1, j, r, e, b, m, f); }, kEta,
                kBeta);
  };
  const std::string skew_reason =
      "T9 design-skewness gate (docs/statistics.md, \"Check rules\"): the exact skewness of this mean's sampling distribution, "
      "γ_c/√D, exceeds {} ({:.3g}); the first-order skew correction does not hold its rate there";
  for (int t : kCheckpoints) {
    const std::size_t g = grid_index(t);
    for (std::size_t j = 0; j < D; ++j) {
      const double bt = theory::beta_tilde(kBeta, kEta, lam[dirs[j].k]);
      for (int r = 0; r < kM; ++r) {
        const double ak_skew = design_skew(0, j, r, std::min<double>(t, memory(0, j)));
        const double ema_skew = design_skew(1, j, r, std::min<double>(t, memory(1, j)));
        const bool ak_ok = ak_skew <= kMaxDesignSkew;
        const bool ema_ok = ema_skew <= kMaxDesignSkew;
        rare += !ak_ok + !ema_ok;
        const auto at_t = [t](double b) { return 1.0 - std::pow(b, t); };
        const std::string ak_name = fmt::format("{}/AK/t={}/{}[{}]", name, t, dirs[j].label, r);
        const std::string ema_name = fmt::format("{}/EMA/t={}/{}[{}]", name, t, dirs[j].label, r);
        if (ak_ok) {
          ctx.checks.mc(ak_name,
                      theory::transient_mean(MU(r, j), bt, t), res.total.estimate(static_cast<Eigen::Index>(obs(g, 0, j, r))));
          ak_check(j, r, at_t);
        } else {
          ctx.gate(ak_name, fmt::format(fmt::runtime(skew_reason), kMaxDesignSkew, ak_skew));
        }
        if (ema_ok) {
          ctx.checks.mc(ema_name,
                      theory::transient_mean(GbU(r, j), kBeta, t), res.total.estimate(static_cast<Eigen::Index>(obs(g, 1, j, r))));
          ema_check(j, r, at_t);
        } else {
          ctx.gate(ema_name, fmt::format(fmt::runtime(skew_reason), kMaxDesignSkew, ema_skew));
        }
      }
    }
  }

  for (std::size_t j = 0; j < D; ++j) {  // time averages over the window, exact prediction
    const double bt = theory::beta_tilde(kBeta, kEta, lam[dirs[j].k]);
    for (int r = 0; r < kM; ++r) {
      const double ak_skew = design_skew(0, j, r, kWindow), ema_skew = design_skew(1, j, r, kWindow);
      const bool ak_ok = ak_skew <= kMaxDesignSkew;
      const bool ema_ok = ema_skew <= kMaxDesignSkew;
      rare += !ak_ok + !ema_ok;
      const std::string ak_name = fmt::format("{}/AK/window/{}[{}]", name, dirs[j].label, r);
      const std::string ema_name = fmt::format("{}/EMA/window/{}[{}]", name, dirs[j].label, r);
      if (ak_ok) {
        ctx.checks.mc(ak_name, MU(r, j) * window_factor(bt),
                    res.total.estimate(static_cast<Eigen::Index>(obs(G, 0, j, r))));
        ak_check(j, r, window_factor);
      } else {
        ctx.gate(ak_name, fmt::format(fmt::runtime(skew_reason), kMaxDesignSkew, ak_skew));
      }
      if (ema_ok) {
        ctx.checks.mc(ema_name, GbU(r, j) * window_factor(kBeta),
                    res.total.estimate(static_cast<Eigen::Index>(obs(G, 1, j, r))));
        ema_check(j, r, window_factor);
      } else {
        ctx.gate(ema_name, fmt::format(fmt::runtime(skew_reason), kMaxDesignSkew, ema_skew));
      }
    }
  }

}

}  // namespace akm::exp::t09
