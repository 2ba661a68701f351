// transport_control — the linearized transport recursion as a control variate (mean exactly 0).
//
// With independent keys the transport product P_k = Π_{j≤k}(βI − ηk_jk_jᵀ) has the mean B^k,
// B = βI − ηE[kkᵀ] [lem:transport], diagonal in the eigenbasis with entries β̃_i. Writing each
// factor as B + F_j, F_j = −η(k_jk_jᵀ − E[kkᵀ]) (mean 0), the first-order term of the product is
// Σ_j B^{k−j}F_jB^{j−1}, whose (i,i) entry is
//   C_k(i) = −η β̃_i^{k−1} Σ_{j≤k} (k_{j,i}² − E[k_i²]).
// It has mean exactly 0 (each F_j has), and it carries most of P_k(i,i)'s fluctuation when ηλ is
// small, so P_k(i,i) − C_k(i) estimates β̃_i^k with the same mean and a smaller variance
// (docs/statistics.md, "Variance reduction"). Coefficient 1, not a fitted one: the estimator stays
// exactly unbiased and its error is the plain standard error of the difference.
#pragma once
#include "akm/base/linalg.hpp"
#include "akm/theory/theory.hpp"

namespace akm {

/// The control variates C_k(i) of one trial, advanced one key at a time.
class TransportControl {
 public:
  /// second_moment[i] = E[k_i²] along the eigenbasis (λ_i for the raw key, λ̂_i normalized).
  TransportControl(const Vec& second_moment, double beta, double eta)
      : m_(second_moment), bt_(second_moment.size()), eta_(eta), sum_(Vec::Zero(second_moment.size())),
        power_(Vec::Ones(second_moment.size())) {
    for (Eigen::Index i = 0; i < m_.size(); ++i) bt_[i] = theory::beta_tilde(beta, eta, m_[i]);
  }

  /// The next key k_j (eigen-coordinates): after the k-th push, at(i) is C_k(i).
  void push(const Vec& k) {
    if (pushed_++ > 0) power_ = power_.cwiseProduct(bt_);  // β̃^{k−1}
    sum_ += (k.array().square() - m_.array()).matrix();
  }
  /// C_k(i) after k pushes (0 before the first).
  double at(Eigen::Index i) const { return -eta_ * power_[i] * sum_[i]; }

 private:
  Vec m_, bt_;
  double eta_;
  Vec sum_, power_;
  int pushed_ = 0;
};

}  // namespace akm
