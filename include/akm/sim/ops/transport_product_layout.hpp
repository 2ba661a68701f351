// ops/transport_product_layout — where each observable of one transport_product trial sits in
// its row; plain arithmetic that the host and the device (trial.hpp) both compile.
#pragma once
#include <cstddef>

#include "akm/base/hd.hpp"

namespace akm::ops {

/// Row layout of a TransportProduct trial (n directions, `lags` recorded lag diagonals,
/// `n_full` lags with every entry of P). In order: the lag diagonals P_k(i,i), k = 1..lags;
/// the full matrices (column-major); the horizon sums Σ_{k=0}^{steps} P_k(i,i); then the same
/// diagonals and horizon sums less their control variates C_k(i) (transport_control.hpp); and,
/// when `squares`, the squared diagonals P_k(i,i)² (the second moments of [E1]); then the
/// quadratic forms b_qᵀP_kb_q at the form lags; then, with `path_norms`, log‖P_steps‖_op and the
/// determinant bound (host paths only).
struct TransportProductLayout {
  int n = 0;  ///< directions
  int lags = 0;  ///< recorded lag diagonals, k = 1..lags
  int n_full = 0;  ///< lags with every entry of P
  bool squares = false;  ///< the squared diagonals follow
  int n_forms = 0;  ///< quadratic forms b_qᵀP_kb_q recorded at each form lag
  int n_form_lags = 0;  ///< lags at which the forms are recorded
  bool path_norms = false;  ///< log‖P_steps‖_op and the determinant bound follow
  /// P_k(i,i) at lag k in [1, lags].
  AKM_HD std::size_t diag(int lag, int i) const { return std::size_t(lag - 1) * n + i; }
  /// P_k(r,c) at the f-th full lag.
  AKM_HD std::size_t full(int f, int r, int c) const {
    return std::size_t(lags) * n + (std::size_t(f) * n + c) * n + r;
  }
  /// Σ_{k=0}^{steps} P_k(i,i).
  AKM_HD std::size_t horizon(int i) const { return std::size_t(lags) * n + std::size_t(n_full) * n * n + i; }
  /// P_k(i,i) − C_k(i).
  AKM_HD std::size_t cv_diag(int lag, int i) const { return horizon(n) + std::size_t(lag - 1) * n + i; }
  /// Σ_k (P_k(i,i) − C_k(i)).
  AKM_HD std::size_t cv_horizon(int i) const { return cv_diag(lags + 1, 0) + i; }
  /// P_k(i,i)² (squares only).
  AKM_HD std::size_t square(int lag, int i) const { return cv_horizon(n) + std::size_t(lag - 1) * n + i; }
  /// b_qᵀP_kb_q at the f-th form lag.
  AKM_HD std::size_t form(int f, int q) const {
    return (squares ? square(lags + 1, 0) : cv_horizon(n)) + std::size_t(f) * n_forms + q;
  }
  /// log‖P_steps‖_op (path_norms only).
  AKM_HD std::size_t log_norm() const { return form(n_form_lags, 0); }
  /// (1/n)Σ_{t≤steps} log|det(βI − ηk_tk_tᵀ)| (path_norms only).
  AKM_HD std::size_t log_det() const { return log_norm() + 1; }
  /// Observables per trial.
  AKM_HD std::size_t size() const { return log_norm() + (path_norms ? 2 : 0); }
};

}  // namespace akm::ops
