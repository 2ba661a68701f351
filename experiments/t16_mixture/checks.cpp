// T16 mixture — the checks of one key variant [app:multimodal]: the transport along the
// eigenvectors of S (diagonal and off-diagonal), along each component's top spike, and the
// tracking of the fixed point M* = G(μI + S)^{-1}, each against the other weighting.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "sensitivity.hpp"
#include "t16_mixture.hpp"

namespace akm::exp::t16 {

void check_variant(ExperimentContext& ctx, const VariantRun& run, const Mat& B1, const std::vector<double>& sc) {
  const Variant* v = run.v;
  const int n = static_cast<int>(v->ev.size()), C = static_cast<int>(B1.cols());
  const std::string k = to_string(v->key);
  const TLayout L{n, C};
  const Vec mean = run.transport.total.mean(), se = run.transport.total.stderr_mean();
  const Mat F_alt = kBeta * Mat::Identity(n, n) - v->eta * v->S_alt;  // the rival mean factor
  for (std::size_t l = 0; l < kLags.size(); ++l) {
    const Mat Q_alt = v->V.transpose() * matrix_power(F_alt, kLags[l]) * v->V;
    std::vector<double> p, m, e, alt;
    for (int j = 0; j < n; ++j) {
      p.push_back(std::pow(v->beta_tilde(j), kLags[l])), m.push_back(mean[L.diag(l, j)]), e.push_back(se[L.diag(l, j)]);
      alt.push_back(Q_alt(j, j));
    }
    const std::size_t j = family(ctx, fmt::format("{}/transport lag={}: E[v_jᵀP_kv_j] = β̃_j^k along the eigenvectors of {}", k, kLags[l],
                                                  v->key == Key::raw ? "Σ_mix" : "Σ̂_mix"), p, m, e, alt, v->alt_label);
    const int lag = kLags[l];
    const double ev_j = v->ev[static_cast<Eigen::Index>(j)];
    sensitivity(ctx.checks, [&](double et, double b, double scale) { return std::pow(theory::beta_tilde(b, et, scale * ev_j), lag); },
                v->eta, kBeta);
  }
  {  // E[P_5] is diagonal in the eigenbasis: every off-diagonal entry has mean 0.
    const Mat Q_alt = v->V.transpose() * matrix_power(F_alt, kLags[kOffLag]) * v->V;
    std::vector<double> p, m, e, alt;
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r)
        if (r != c) p.push_back(0.0), m.push_back(mean[L.off(r, c)]), e.push_back(se[L.off(r, c)]), alt.push_back(Q_alt(r, c));
    family(ctx, fmt::format("{}/transport lag={}: off-diagonal v_rᵀP_kv_c = 0", k, kLags[kOffLag]), p, m, e, alt,
           v->alt_label);
  }
  // Each component's top spike b_c: E[b_cᵀP_kb_c] = b_cᵀ(βI − ηS)^k b_c.
  for (std::size_t l = 0; l < 2; ++l) {
    const Mat F = v->mean_factor();
    Mat Fk = Mat::Identity(n, n);
    for (int t = 0; t < kLags[l]; ++t) Fk = Fk * F;
    for (int c = 0; c < C; ++c) {
      const double p = B1.col(c).dot(Fk * B1.col(c));
      const double m = mean[L.comp(l, c)], e = se[L.comp(l, c)];
      ctx.checks.mc(fmt::format("{}/transport lag={}: component {} (s={}) top spike b_c: E[b_cᵀP_kb_c] = b_cᵀ(βI−ηS)^k b_c",
                                k, kLags[l], c + 1, sc[static_cast<std::size_t>(c)]), p, m, e);
      ctx.checks.against(B1.col(c).dot(matrix_power(F_alt, kLags[l]) * B1.col(c)), v->alt_label);
      const Vec b = B1.col(c);
      const int lag = kLags[l];
      sensitivity(ctx.checks,
                  [&](double et, double bb, double scale) {
                    return b.dot(matrix_power(bb * Mat::Identity(n, n) - et * scale * v->S, lag) * b);
                  },
                  v->eta, kBeta);
    }
  }
  // Tracking with a value stream: E[M_t v_j] = (1 − β̃_j^t) M*v_j. The EMA buffer fed the same
  // stream converges to G itself at rate β [eq:ema-update]: E[m_t]v_j = Gv_j(1 − β^t) — no
  // (μI + S)^{-1}, no β̃_j.
  const Vec tm = run.tracking.total.mean(), ts = run.tracking.total.stderr_mean();
  for (int t : {5, 20, 60}) {
    std::vector<double> p, m, e, alt;
    for (int j = 0; j < n; ++j) {
      const std::size_t o = static_cast<std::size_t>(t - 1) * n + j;
      p.push_back((1.0 - std::pow(v->beta_tilde(j), t)) * run.Mv[j]), m.push_back(tm[o]), e.push_back(ts[o]);
      alt.push_back(theory::transient_mean(run.Gv[j], kBeta, t));
    }
    const std::size_t j = family(ctx, fmt::format("{}/tracking t={}: E[M_tv_j] = (1 − β̃_j^t) M*v_j", k, t), p, m, e, alt, "EMA");
    // Resolution: the entry as a function of (η, β, λ_j(S)), the gain Gv_j held fixed.
    const double ev_j = v->ev[static_cast<Eigen::Index>(j)], g_j = run.Gv[static_cast<Eigen::Index>(j)];
    sensitivity(ctx.checks,
                [&](double et, double b, double scale) {
                  const double l = scale * ev_j;
                  return theory::transient_mean(g_j * theory::phi(theory::mu(b, et), l), theory::beta_tilde(b, et, l), t);
                },
                v->eta, kBeta);
  }
}

}  // namespace akm::exp::t16
