// fourth_moment — closed-form fourth-moment step of a transport row (raw Gaussian key).
// The coefficients were derived by expanding (βv_a − ηs x_a)²(βv_b − ηs x_b)², s = v·x,
// and taking Gaussian moments in x_a, x_b and the remainder r = s − v_a x_a − v_b x_b;
// tests/test_fourth_moment.cpp holds them to exact Gauss–Hermite quadrature of the product.
#include "akm/spectrum/fourth_moment.hpp"

namespace akm::fourth {

Mat step_raw(const Vec& lambda, double beta, double eta, const Mat& F) {
  const Eigen::Index n = lambda.size();
  const Vec Fl = F * lambda;        // (Fλ)_a = Σ_j λ_j F_aj
  const double lFl = lambda.dot(Fl);  // λᵀFλ = Σ_jk λ_jλ_k F_jk
  const double b2 = beta * beta, e2 = eta * eta;
  Mat G(n, n);
  for (Eigen::Index a = 0; a < n; ++a) {
    const double la = lambda[a];
    // Sums over j, k outside {a}: E[v_a²ρ²] and E[ρ⁴] with ρ² = Σ_{j≠a} λ_j v_j².
    const double ra = Fl[a] - la * F(a, a);
    const double rr = lFl - 2 * la * Fl[a] + la * la * F(a, a);
    G(a, a) = (b2 * b2 - 4 * b2 * beta * eta * la + 18 * b2 * e2 * la * la - 60 * beta * e2 * eta * la * la * la +
               105 * e2 * e2 * la * la * la * la) * F(a, a) +
              6 * e2 * la * (b2 - 6 * beta * eta * la + 15 * e2 * la * la) * ra + 9 * e2 * e2 * la * la * rr;
    for (Eigen::Index b = 0; b < a; ++b) {
      const double lb = lambda[b];
      // Outside {a, b}: Σ_j λ_j F_aj, Σ_j λ_j F_bj and Σ_jk λ_jλ_k F_jk.
      const double rab = Fl[a] - la * F(a, a) - lb * F(a, b);
      const double rba = Fl[b] - la * F(a, b) - lb * F(b, b);
      const double rr2 = lFl - 2 * la * Fl[a] - 2 * lb * Fl[b] + la * la * F(a, a) + lb * lb * F(b, b) +
                         2 * la * lb * F(a, b);
      const double c22 = b2 * b2 - 2 * b2 * beta * eta * (la + lb) + b2 * e2 * (3 * la * la + 8 * la * lb + 3 * lb * lb) -
                         18 * beta * e2 * eta * la * lb * (la + lb) + 54 * e2 * e2 * la * la * lb * lb;
      const double c40 = e2 * la * lb * (b2 - 6 * beta * eta * la + 15 * e2 * la * la);
      const double c04 = e2 * la * lb * (b2 - 6 * beta * eta * lb + 15 * e2 * lb * lb);
      const double c202 = e2 * lb * (b2 - 6 * beta * eta * la + 18 * e2 * la * la);
      const double c022 = e2 * la * (b2 - 6 * beta * eta * lb + 18 * e2 * lb * lb);
      const double c004 = 3 * e2 * e2 * la * lb;
      G(a, b) = G(b, a) = c22 * F(a, b) + c40 * F(a, a) + c04 * F(b, b) + c202 * rab + c022 * rba + c004 * rr2;
    }
  }
  return G;
}

std::vector<double> diagonal_fourth_raw(const Vec& lambda, double beta, double eta, int i, int K) {
  Mat F = Mat::Zero(lambda.size(), lambda.size());
  F(i, i) = 1.0;  // v_0 = e_iᵀ
  std::vector<double> out(static_cast<std::size_t>(K));
  for (int k = 0; k < K; ++k) {
    F = step_raw(lambda, beta, eta, F);
    out[static_cast<std::size_t>(k)] = F(i, i);
  }
  return out;
}

}  // namespace akm::fourth
