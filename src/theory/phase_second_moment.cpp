// phase_second_moment — E1: the second-moment (mean-square) maps of the buffer and their
// spectral radii, raw and normalized keys (include/akm/theory/phase.hpp).
#include "akm/theory/phase.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Eigenvalues>

namespace akm::phase {

Mat ms_matrix_raw(const Vec& lambda, double beta, double eta) {
  // s'_i = E[(βv_i − η(v·x)x_i)²] = ((β−ηλ_i)² + η²λ_i²)s_i + η²λ_i Σ_j λ_j s_j, using
  // E[x_i⁴] = 3λ_i² and E[x_j x_k x_i²] = 0 for j ≠ k (Gaussian keys, eigenbasis).
  const Eigen::Index n = lambda.size();
  Mat S = (eta * eta) * lambda * lambda.transpose();
  for (Eigen::Index i = 0; i < n; ++i) {
    const double b = beta - eta * lambda[i];
    S(i, i) += b * b + eta * eta * lambda[i] * lambda[i];
  }
  return S;
}

Mat ms_matrix_normalized(const Vec& lambda_hat, const Mat& Q, double beta, double eta) {
  // s'_i = β²s_i − 2βηλ̂_i s_i + η² Σ_j Q_ij s_j (sign symmetry kills the cross terms).
  Mat S = (eta * eta) * Q;
  for (Eigen::Index i = 0; i < lambda_hat.size(); ++i) S(i, i) += beta * beta - 2.0 * beta * eta * lambda_hat[i];
  return S;
}

std::vector<std::vector<int>> equal_groups(const Vec& lambda) {
  std::vector<std::vector<int>> g;
  for (int i = 0; i < static_cast<int>(lambda.size()); ++i) {
    auto it = std::find_if(g.begin(), g.end(), [&](const auto& grp) { return lambda[grp[0]] == lambda[i]; });
    if (it == g.end()) g.push_back({i});
    else it->push_back(i);
  }
  return g;
}

double ms_radius_normalized(const Vec& lambda_hat, const Mat& Q, const std::vector<std::vector<int>>& groups,
                            double beta, double eta) {
  const auto S = [&](int i, int j) {
    return eta * eta * Q(i, j) + (i == j ? beta * beta - 2.0 * beta * eta * lambda_hat[i] : 0.0);
  };
  const int k = static_cast<int>(groups.size());
  if (!(eta > 0.0) || k == lambda_hat.size()) return ms_radius(ms_matrix_normalized(lambda_hat, Q, beta, eta));
  Mat L(k, k);
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b) {
      const auto& G = groups[a];
      const auto& H = groups[b];
      if (a == b)
        L(a, a) = S(G[0], G[0]) + (G.size() > 1 ? (G.size() - 1.0) * S(G[0], G[1]) : 0.0);
      else
        L(a, b) = std::sqrt(static_cast<double>(G.size()) * H.size()) * S(G[0], H[0]);
    }
  Eigen::SelfAdjointEigenSolver<Mat> es(L, Eigen::EigenvaluesOnly);
  return es.eigenvalues().maxCoeff();  // the Perron root (S > 0 entrywise)
}

double ms_radius(const Mat& S) {
  // S is symmetric, so its spectral radius is the largest |eigenvalue|.
  Eigen::SelfAdjointEigenSolver<Mat> es(S, Eigen::EigenvaluesOnly);
  return es.eigenvalues().cwiseAbs().maxCoeff();
}

double ms_radius_raw(const Vec& lambda, double beta, double eta) {
  // S = D + wwᵀ, w = ηλ, D ≥ 0 diagonal: the largest eigenvalue θ > max d solves the
  // secular equation f(θ) = 1 − Σ w_i²/(θ − d_i) = 0 (f increasing on (max d, ∞)).
  // Bracket [max d, max d + ‖w‖²] and bisect to machine precision.
  const Eigen::Index n = lambda.size();
  Vec d(n), w2(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double b = beta - eta * lambda[i];
    d[i] = b * b + eta * eta * lambda[i] * lambda[i];
    w2[i] = (eta * lambda[i]) * (eta * lambda[i]);
  }
  const double dmax = d.maxCoeff();
  double lo = dmax, hi = dmax + w2.sum();
  auto f = [&](double th) {
    double s = 0;
    for (Eigen::Index i = 0; i < n; ++i) s += w2[i] / (th - d[i]);
    return 1.0 - s;
  };
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (f(mid) > 0 ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace akm::phase
