// newton_schulz — Muon's quintic iteration, its SVD reference and its error model
// (include/akm/rules/newton_schulz.hpp) [cor:mup-base-lr, app:structured].
#include "akm/rules/newton_schulz.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm::ns {

double quintic(double s) {
  const double s2 = s * s;
  return s * (kMuon.a + s2 * (kMuon.b + s2 * kMuon.c));
}

double quintic_slope(double s) {
  const double s2 = s * s;
  return kMuon.a + s2 * (3 * kMuon.b + s2 * 5 * kMuon.c);
}

double iterate(double s, int steps) {
  for (int t = 0; t < steps; ++t) s = quintic(s);
  return s;
}

void validate(ConstMatRef G, int steps) {
  require_at_least("steps", steps, 1);
  if (G.rows() < 1 || G.cols() < 1)
    throw InputError("G", fmt::format("{}x{}", G.rows(), G.cols()), "must have at least one row and one column");
  if (!G.allFinite()) throw InputError("G", "a matrix with NaN or inf entries", "every entry must be finite");
  // A zero G has no singular vectors to keep: X₀ = G/‖G‖_F is 0/0.
  if (!(G.norm() > 0.0)) throw InputError("G", "the zero matrix", "must have ‖G‖_F > 0 (NS keeps G's direction)");
}

Mat newton_schulz(ConstMatRef G, int steps) {
  validate(G, steps);
  const bool tall = G.rows() > G.cols();
  Mat X = tall ? Mat(G.transpose()) : Mat(G);
  X /= X.norm();  // Frobenius: every singular value of X₀ in (0, 1]
  Mat A, B;
  for (int t = 0; t < steps; ++t) {
    A.noalias() = X * X.transpose();
    B.noalias() = kMuon.c * (A * A);
    B += kMuon.b * A;
    // X ← aX + (bA + cA²)X: the product first, then aX, as akm.torch's a·X + B@X.
    const Mat BX = B * X;
    X = kMuon.a * X + BX;
  }
  return tall ? Mat(X.transpose()) : X;
}

Mat newton_schulz_svd(ConstMatRef G, int steps) {
  validate(G, steps);
  const Eigen::JacobiSVD<Mat> svd(G, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const double f = G.norm();
  Vec s = svd.singularValues();
  for (Eigen::Index i = 0; i < s.size(); ++i) s[i] = iterate(s[i] / f, steps);
  return svd.matrixU() * s.asDiagonal() * svd.matrixV().transpose();
}

Band quintic_band(double floor, int steps, int points) {
  if (!(floor >= 0.0 && floor < 1.0)) throw InputError("floor", show(floor), "must be in [0, 1)");
  require_at_least("steps", steps, 1);
  require_at_least("points", points, 2);
  // The grid's values are within L^steps·h/2 of every value between two grid points, with L
  // the bound of |p'| on the iterates' range (error_model; the range of [0, 1] contains that
  // of [floor, 1]).
  const double h = (1.0 - floor) / (points - 1);
  const ErrorModel e = error_model(1, 1, steps);
  const double margin = std::pow(e.lipschitz, steps) * h / 2;
  double lo = iterate(floor, steps), hi = lo;
  for (int i = 1; i < points; ++i) {
    const double v = iterate(i == points - 1 ? 1.0 : floor + i * h, steps);
    lo = std::min(lo, v), hi = std::max(hi, v);
  }
  return {lo - margin, hi + margin};
}

ErrorModel error_model(int rows, int cols, int steps) {
  require_at_least("rows", rows, 1);
  require_at_least("cols", cols, 1);
  require_at_least("steps", steps, 1);
  // s_max: p maps [0, S] into [min p, max p]; grow S from 1 until it holds every iterate. The
  // extremes of p on [0, S] are at 0, S or its critical points σ² = (−3b ± √(9b² − 20ac))/(10c).
  const auto max_p = [](double S) {
    double m = std::max(quintic(S), 0.0);
    const double d = 9 * kMuon.b * kMuon.b - 20 * kMuon.a * kMuon.c;
    if (d >= 0)
      for (double sgn : {-1.0, 1.0}) {
        const double s2 = (-3 * kMuon.b + sgn * std::sqrt(d)) / (10 * kMuon.c);
        if (s2 > 0 && std::sqrt(s2) <= S) m = std::max(m, std::abs(quintic(std::sqrt(s2))));
      }
    return std::max(m, std::abs(quintic(S)));
  };
  double S = 1.0;
  for (int t = 0; t < steps; ++t) S = std::max(S, max_p(S));
  // L = max |p'| on [0, S]: p' is even and quadratic in σ², extreme at 0, S or σ² = −3b/(10c).
  double L = std::max(std::abs(quintic_slope(0.0)), std::abs(quintic_slope(S)));
  const double s2 = -3 * kMuon.b / (10 * kMuon.c);
  if (s2 > 0 && std::sqrt(s2) <= S) L = std::max(L, std::abs(quintic_slope(std::sqrt(s2))));
  constexpr double u = 0x1p-53;
  const double r = std::min(rows, cols), k = std::max(rows, cols), x = std::sqrt(r) * S;
  const double e0 = (r * k / 2 + 2) * u;
  // One computed step against the exact step on the same X, with ‖X‖₂ ≤ S, ‖X‖_F ≤ x, ‖A‖₂ ≤ S²,
  // ‖A‖_F ≤ Sx: A = XXᵀ errs by k·u·x², A² by u·S²x²(r + 2k), B = bA + cA² by
  // u·x²(|b|(k + 2) + |c|S²(r + 2k + 2)), which X carries with factor S; the product BX adds
  // r·u·‖B‖_F·x ≤ r·u(|b| + |c|S²)Sx², and the sum aX + BX 2u·x(|a| + |b|S² + |c|S⁴).
  const double a = std::abs(kMuon.a), b = std::abs(kMuon.b), c = std::abs(kMuon.c), S2 = S * S;
  const double e_step = 2 * u * x * (a + b * S2 + c * S2 * S2) + r * u * (b + c * S2) * S * x * x +
                        S * u * x * x * (b * (k + 2) + c * S2 * (r + 2 * k + 2));
  double total = e0;
  for (int t = 0; t < steps; ++t) total = L * total + e_step;
  return {S, L, total};
}

}  // namespace akm::ns
