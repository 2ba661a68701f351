// dataset_spectrum — Σ̂ of a finite data set with more input dimensions than samples
// (p > n_s), without forming or inverting a p×p matrix [app:high-dim].
//
// Keys are the columns of a p×n_s matrix K (column s is the key k_s; K = X̂ᵀ for
// normalized keys), so Σ̂ = (1/n_s) Σ_s k_s k_sᵀ = KKᵀ/n_s has rank ≤ n_s. Its nonzero
// eigenvalues are those of the n_s×n_s Gram matrix KᵀK/n_s, and a Gram eigenvector v maps
// to the eigenvector u = Kv/√(n_s λ) of Σ̂ (the Gram route, O(n_s² p + n_s³)). Beside it:
// the plain reference (dense p×p Σ̂, SelfAdjointEigenSolver) and a matrix-free Lanczos
// route (Spectra on v ↦ K(Kᵀv)/n_s); tests hold the three together.
#pragma once
#include <Eigen/QR>

#include "akm/base/linalg.hpp"

namespace akm {

/// x̂_s = x_s/‖x_s‖ for every column. InputError for an empty matrix, a non-finite entry
/// or a zero column (a zero key has no direction).
Mat normalize_columns(ConstMatRef X);

/// Eigenvalues (descending) with their unit eigenvectors as columns (signs arbitrary).
struct EigenPairs {
  Vec values;  ///< eigenvalues, descending
  Mat vectors;  ///< unit eigenvectors as columns
};

/// The nonzero spectrum of Σ̂ = KKᵀ/n_s by the Gram route. Keeps a copy of the keys so
/// eigenvectors and products are formed on demand, never as p×p matrices.
class DatasetSpectrum {
 public:
  /// Gram eigenvalues at or below rank_tol·λ̂_max count as zero (duplicate or collinear
  /// keys); rank_tol ∈ [0, 1).
  explicit DatasetSpectrum(ConstMatRef keys, double rank_tol = 1e-10);

  /// Key dimension p.
  int p() const { return static_cast<int>(keys_.rows()); }
  /// Number of keys n_s.
  int n_s() const { return static_cast<int>(keys_.cols()); }
  /// Number of nonzero eigenvalues.
  int rank() const { return static_cast<int>(lambda_.size()); }
  /// The keys (p × n_s, one per column).
  const Mat& keys() const { return keys_; }
  /// Nonzero eigenvalues λ̂_k of Σ̂, descending.
  const Vec& lambda_hat() const { return lambda_; }
  /// Gram eigenvectors v_k (n_s × rank), the coordinates of u_k in the key basis.
  const Mat& gram_vectors() const { return v_; }
  /// u_k = K v_k/√(n_s λ̂_k), O(p n_s); 0 ≤ k < rank.
  Vec eigenvector(int k) const;
  /// All u_k as columns (p × rank), O(p n_s rank).
  Mat eigenvectors() const;
  /// Σ̂v = K(Kᵀv)/n_s without forming Σ̂.
  Vec apply(ConstVecRef v) const;
  /// B(μI+Σ̂)^{-1} = B/μ − Σ_k (Bu_k)u_kᵀ/(μ(μ+λ̂_k))·λ̂_k, evaluated in Gram coordinates as
  /// B/μ − (BK)V diag(1/(n_s μ(μ+λ̂_k))) Vᵀ Kᵀ: well posed for rank-deficient Σ̂ with no
  /// pseudo-inverse [cor:fixedpoint-normalized]. B is m×p, μ > 0; cost O(m p n_s + m n_s²).
  Mat ridge_solve(ConstMatRef B, double mu) const;

 private:
  Mat keys_;
  Vec lambda_;
  Mat v_;
};

/// Reference: the dense p×p Σ̂ = KKᵀ/n_s and SelfAdjointEigenSolver (small p only); the
/// eigenpairs above rank_tol·λ̂_max, descending.
EigenPairs dataset_spectrum_dense(ConstMatRef keys, double rank_tol = 1e-10);

/// Top `k` eigenpairs of Σ̂ by Lanczos (Spectra SymEigsSolver) on the matrix-free product
/// v ↦ K(Kᵀv)/n_s, O(p n_s) per product. Needs 1 ≤ k ≤ n_s and k < p; `tol` is Spectra's
/// relative convergence tolerance.
EigenPairs dataset_top_eigenpairs(ConstMatRef keys, int k, double tol = 1e-13);

/// Woodbury: B(μI + KKᵀ/n_s)^{-1} = (1/μ)B[I − K(n_s μI + KᵀK)^{-1}Kᵀ], an n_s×n_s
/// solve instead of a p×p one.
Mat ridge_solve_woodbury(ConstMatRef keys, ConstMatRef B, double mu);

/// Reference: B(μI+Σ̂)^{-1} by a dense p×p Cholesky solve (small p only).
Mat ridge_solve_dense(ConstMatRef keys, ConstMatRef B, double mu);

/// The orthogonal complement of the span of the keys, from the Householder QR K = QR:
/// ‖B P_⊥‖_F = ‖rows n_s..p of QᵀBᵀ‖ with Qᵀ applied as reflectors (Q never formed).
/// Needs n_s < p and linearly independent keys (|R_ss| > 1e-12·max|R_jj|), else InputError.
class SpanComplement {
 public:
  /// The QR of the keys (p × n_s, one per column).
  explicit SpanComplement(ConstMatRef keys);
  /// Key dimension p.
  int p() const { return p_; }
  /// Dimension of the span, n_s.
  int dim_span() const { return n_s_; }
  /// ‖B P_⊥‖_F for B m×p.
  double off_span_norm(ConstMatRef B) const;

 private:
  int p_ = 0, n_s_ = 0;
  Eigen::HouseholderQR<Mat> qr_;
};

}  // namespace akm
