// T4 rates — the explicit underdamped condition [rem:underdamped-typicality], and the best
// rate over step sizes [lem:loss-free-det].
//
// (1) eq:underdamped-cond: the eq:iter-matrices map is underdamped (a complex eigenvalue
//     pair) iff α·c lies in ((1−√det)², (1+√det)²), det = β̃_i for the delta rule and β for
//     EMA. Each grid point compares the window predicate with the eigenvalues Eigen computes
//     for the theory layer's matrix, and names the rival window (the other rule's memory).
// (2) Matched (α, β): the main text writes the EMA row "with the same coupling" as the delta
//     row (c = ηκ_i = (1−β)κ_i), so the two windows differ only by the memory, β̃_i = β − ηλ̂_i
//     against β. A direction classified differently lies between corresponding edges of the
//     two windows, within |edge′(β̃_i)|·ηλ̂_i of the delta rule's edge (both edge slopes fall
//     in the memory, mean value theorem): the O(ηλ̂_i) of the remark, as an exact bound.
#include <array>
#include <cmath>
#include <functional>
#include <limits>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "t04_rates.hpp"

namespace akm::exp::t04 {

namespace {

// The grid, declared before anything is computed: memories on both sides of the middle,
// small and large ηλ̂ (β̃ from 0.05 to 0.985), two couplings. α·c is then placed by rule
// relative to each edge of the window under test: edge·(1 ± d), the edge itself (gated: a
// check of the gate), the window's centre 1 + det (tr A = 0) and a decade outside each edge.
constexpr std::array<double, 3> kGridBeta{0.5, 0.9, 0.99};
constexpr std::array<double, 2> kGridEta{0.1, 0.5};
constexpr std::array<double, 2> kGridLamHat{0.05, 0.9};
constexpr std::array<double, 2> kGridKappa{0.5, 2.0};
constexpr std::array<double, 3> kEdgeOffsets{1e-1, 1e-3, 1e-6};
// The sign of tr² − 4det is decided by rounding once |tr² − 4det| is within a few ulps of
// the terms it cancels; 64ε covers the roundings of the entries, of Eigen's (a−d)²/4 + bc,
// and of the edges (1 ± √det)².
constexpr double kEdgeUlps = 64.0;

struct Placement {
  std::string where;
  double alpha_c;
};

std::vector<Placement> placements(double det) {
  const auto band = *theory::underdamped_band(det);
  std::vector<Placement> out;
  for (const bool upper : {false, true}) {
    const double edge = upper ? band.second : band.first;
    const char* name = upper ? "upper" : "lower";
    out.push_back({fmt::format("{} edge", name), edge});
    for (const double d : kEdgeOffsets)
      for (const int sign : {-1, 1}) out.push_back({fmt::format("{} {:+g}", name, sign * d), edge * (1.0 + sign * d)});
  }
  out.push_back({"centre", 1.0 + det});
  out.push_back({"lower/10", band.first / 10.0});
  out.push_back({"upper*10", band.second * 10.0});
  return out;
}

bool complex_pair(const Mat2& A) {
  const Eigen::EigenSolver<Mat2> es(A, false);
  return es.eigenvalues().imag().cwiseAbs().maxCoeff() > 0.0;
}

struct Tally {
  long long checked = 0, gated = 0, rival_differs = 0;
  nlohmann::json to_json() const { return {{"checked", checked}, {"gated", gated}, {"rival_differs", rival_differs}}; }
};

// One exact check: the window predicate (1 = underdamped) against the eigenvalues of A, the
// rival window's classification named as the alternative (power 1 where it differs).
void classify(ExperimentContext& ctx, const std::string& rule, const std::string& at, const Mat2& A,
              double alpha_c, double det, double rival_det, const std::string& rival_label, Tally& n) {
  const bool window = theory::underdamped(alpha_c, det), rival = theory::underdamped(alpha_c, rival_det);
  const std::string name = fmt::format("underdamped-window/{}/rival {}/{}", rule, window != rival ? "differs" : "agrees", at);
  const double tr = A.trace(), disc = theory::discriminant(A);
  const double rounding = kEdgeUlps * std::numeric_limits<double>::epsilon() * (tr * tr + 4.0 * std::abs(A.determinant()));
  if (std::abs(disc) <= rounding) {
    ctx.gate(name, fmt::format("edge gate (design): |tr^2 - 4 det| = {:.3g} <= {} eps (tr^2 + 4|det|) = {:.3g}, "
                               "where rounding decides whether the eigenvalues are a complex pair",
                               std::abs(disc), kEdgeUlps, rounding));
    ++n.gated;
    return;
  }
  ctx.checks.exact(name, window ? 1.0 : 0.0, complex_pair(A) ? 1.0 : 0.0, 0.0, 0.5);
  ctx.checks.against(rival ? 1.0 : 0.0, rival_label);
  ++n.checked;
  n.rival_differs += window != rival;
}

// Matched (α, β, c): a direction the two windows classify differently lies within
// |edge′(β̃)|·ηλ̂ of the delta rule's nearer edge. Returns whether it disagreed.
bool leading_order(ExperimentContext& ctx, const std::string& at, double alpha_c, double beta, double eta, double lam_hat) {
  const double bt = theory::beta_tilde(beta, eta, lam_hat);
  if (theory::underdamped(alpha_c, bt) == theory::underdamped(alpha_c, beta)) return false;
  const bool upper = alpha_c > 1.0 + bt;  // the window's centre separates the two edges
  const auto band = *theory::underdamped_band(bt);
  ctx.checks.at_most(fmt::format("underdamped-match/{}: |alpha c - edge| <= edge'(beta_tilde) eta lambda_hat", at),
                     theory::underdamped_edge_slope(bt, upper) * eta * lam_hat,
                     std::abs(alpha_c - (upper ? band.second : band.first)));
  return true;
}

// [lem:loss-free-det] min over α of ρ(A(α)) = √det A, for any coupling c: ρ ≥ √det at every
// α (lem:det-bound) and = √det on the band of eq:underdamped-cond, which is non-empty. The scan
// takes α·c on 2001 log-spaced points from (1−√det)²/100 to (1+√det)²·100 and the window's
// centre 1 + det (tr A = 0); a scan below √det (the bound broken) or above it (the band empty
// or missed) fails. The rival is the other rule's best rate (√β for the delta rule, √β̃ for EMA).
void best_rate(ExperimentContext& ctx, const std::string& at, const std::function<Mat2(double)>& map_at_alpha_c,
               double det, double rival_det, const std::string& rival_label) {
  const auto band = *theory::underdamped_band(det);
  const double lo = std::log(band.first / 100.0), hi = std::log(band.second * 100.0);
  double best = theory::spectral_radius(map_at_alpha_c(1.0 + det));
  for (int q = 0; q <= 2000; ++q)
    best = std::min(best, theory::spectral_radius(map_at_alpha_c(std::exp(lo + (hi - lo) * q / 2000.0))));
  ctx.checks.exact(fmt::format("best-rate/{}: min over alpha of rho(A) = sqrt(det A)", at), std::sqrt(det), best, 1e-12);
  ctx.checks.against(std::sqrt(rival_det), rival_label);
}

std::string grid_tag(double beta, double eta, double lam_hat) {
  return fmt::format("beta={:g} eta={:g} lh={:g}", beta, eta, lam_hat);
}

}  // namespace

nlohmann::json underdamped_window(ExperimentContext& ctx, const std::vector<Setting>& settings,
                                  const std::vector<double>& alpha_norm) {
  Tally delta, ema, spectra;
  long long match_points = 0, match_disagree = 0;
  const std::string delta_rival = "EMA window (beta_tilde_i -> beta)", ema_rival = "delta-rule window (beta -> beta_tilde_i)";
  for (const double beta : kGridBeta)
    for (const double eta : kGridEta)
      for (const double lh : kGridLamHat) {
        const double bt = theory::beta_tilde(beta, eta, lh);
        const std::string tag = grid_tag(beta, eta, lh);
        for (const double kappa : kGridKappa) {
          // Delta rule: c = ηκ, memory β̃ [eq:iter-matrices].
          for (const Placement& p : placements(bt)) {
            const double c = eta * kappa, alpha = p.alpha_c / c;
            const Mat2 A = theory::iter_matrix_ak(alpha, c, bt);
            classify(ctx, "delta", fmt::format("{} kappa={:g}/{}", tag, kappa, p.where), A, alpha * A(1, 0), bt, beta,
                     delta_rival, delta);
          }
          // EMA: c = (1−β)κ (the main text's row), memory β; the rival is the delta rule's
          // memory at this (η, λ̂).
          for (const Placement& p : placements(beta)) {
            const double alpha = p.alpha_c / ((1.0 - beta) * kappa);
            const Mat2 A = theory::iter_matrix_ema(alpha, beta, kappa);
            classify(ctx, "ema", fmt::format("{} kappa={:g}/{}", tag, kappa, p.where), A, alpha * A(1, 0), beta, bt,
                     ema_rival, ema);
          }
        }
        // [lem:loss-free-det] the best rate over α, at each coupling of the grid.
        for (const double kappa : kGridKappa) {
          const double c = eta * kappa, c_ema = (1.0 - beta) * kappa;
          best_rate(ctx, fmt::format("delta/{} kappa={:g}", tag, kappa),
                    [&](double ac) { return theory::iter_matrix_ak(ac / c, c, bt); }, bt, beta,
                    "EMA's best rate sqrt(beta)");
          best_rate(ctx, fmt::format("ema/{} kappa={:g}", tag, kappa),
                    [&](double ac) { return theory::iter_matrix_ema(ac / c_ema, beta, kappa); }, beta, bt,
                    "delta rule's best rate sqrt(beta_tilde)");
        }
        // The leading-order match over both windows' placements (κ does not enter: α·c does).
        for (const auto& [rule, det] : {std::pair<const char*, double>{"delta", bt}, {"ema", beta}})
          for (const Placement& p : placements(det)) {
            ++match_points;
            match_disagree += leading_order(ctx, fmt::format("{}/{} {}", tag, rule, p.where), p.alpha_c, beta, eta, lh);
          }
      }
  // T4's simulated spectra at the normalized arm's α: the window
  // against the eigenvalues of each direction's map, and the matched-EMA disagreement count.
  nlohmann::json per_spectrum = nlohmann::json::array();
  for (std::size_t k = 0; k < settings.size(); ++k) {
    const Setting& s = settings[k];
    const double alpha = alpha_norm[k];
    long long under_delta = 0, under_ema = 0, disagree = 0;
    for (int i = 0; i < s.n(); ++i) {
      const double c = kEtaNorm * s.moments.kappa[i], lh = s.moments.lambda_hat[i];
      const double bt = theory::beta_tilde(kBeta, kEtaNorm, lh);
      const Mat2 A = theory::iter_matrix_ak(alpha, c, bt);
      classify(ctx, "delta", fmt::format("{}/{}", s.name, dir_name(i)), A, alpha * c, bt, kBeta, delta_rival, spectra);
      under_delta += theory::underdamped(alpha * c, bt);
      under_ema += theory::underdamped(alpha * c, kBeta);
      disagree += leading_order(ctx, fmt::format("{}/{}", s.name, dir_name(i)), alpha * c, kBeta, kEtaNorm, lh);
    }
    per_spectrum.push_back({{"spectrum", s.name}, {"directions", s.n()}, {"alpha", alpha},
                            {"delta_underdamped", under_delta}, {"matched_ema_underdamped", under_ema},
                            {"disagree", disagree}});
  }
  return {
      {"grid", {{"beta", kGridBeta}, {"eta", kGridEta}, {"lambda_hat", kGridLamHat}, {"kappa", kGridKappa},
                {"edge_offsets", kEdgeOffsets}, {"edge_gate_ulps", kEdgeUlps},
                {"placements", "edge*(1 +- d), the edge (gated), centre 1 + det, lower/10, upper*10"}}},
      {"delta", delta.to_json()},
      {"ema", ema.to_json()},
      {"t4_spectra", spectra.to_json()},
      {"matched", {{"points", match_points}, {"disagree", match_disagree}, {"t4_spectra", per_spectrum}}}};
}

}  // namespace akm::exp::t04
