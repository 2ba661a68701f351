// fourth_moment — E1's fourth-moment map of a transport row, for exact standard errors.
//
// E1 checks the second moments E[(u_iᵀP_k u_i)²] of the transport product against S^k
// (akm/theory/phase.hpp). The Monte-Carlo error of that check is set by the fourth moment
// E[(u_iᵀP_k u_i)⁴]; estimated from the sample it is too small whenever the sample misses
// the rare large trials of a raw key, so it is computed here exactly.
#pragma once
#include <vector>

#include "akm/base/linalg.hpp"

namespace akm::fourth {

/// One step of F_ab = E[(v u_a)²(v u_b)²] for a row v ← v(βI − ηxxᵀ), raw Gaussian key
/// x ~ N(0, diag λ), eigenbasis coordinates. Started from v = e_iᵀ (a row of P_0 = I), the
/// law of v is unchanged by flipping the sign of any coordinate other than i, so every
/// fourth moment with an odd exponent vanishes and F (n×n, symmetric) is the whole state.
/// Coefficients by Isserlis over (x_a, x_b, `r = Σ_{j∉{a,b}} v_j x_j ~ N(0, Σ λ_j v_j²)`):
///
///     F'_aa = (β⁴ − 4β³ηλ_a + 18β²η²λ_a² − 60βη³λ_a³ + 105η⁴λ_a⁴) F_aa
///           + 6η²λ_a(β² − 6βηλ_a + 15η²λ_a²) Σ_{j≠a} λ_j F_aj + 9η⁴λ_a² Σ_{j,k≠a} λ_jλ_k F_jk,
///
/// and for a ≠ b the six-term form in fourth_moment.cpp. O(n²) per step.
Mat step_raw(const Vec& lambda, double beta, double eta, const Mat& F);

/// E[(u_iᵀP_k u_i)⁴] for k = 1..K (index k−1), raw Gaussian key, P_0 = I.
std::vector<double> diagonal_fourth_raw(const Vec& lambda, double beta, double eta, int i, int K);

}  // namespace akm::fourth
