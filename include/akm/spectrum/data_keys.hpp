// data_keys — keys drawn uniformly, with replacement, from the rows of a real data set
// (experiment R1, "the theory on real inputs").
//
// Grammar:
//   data:NAME[,standardize]        NAME ∈ digits | breast_cancer | wine | diabetes | iris: the
//                                  files Debian's python3-sklearn installs under
//                                  /usr/lib/python3/dist-packages/sklearn/datasets/data/
//                                  (read from there, never from the network; the class-label
//                                  column of digits, breast_cancer, wine and iris is dropped)
//   data:PATH[,standardize][,header]  any numeric CSV (comma or whitespace separated, .gz
//                                  read through zlib); `header` skips its first line; blank
//                                  lines and lines starting with '#' are skipped
// The columns are centred (always) and divided by their standard deviation (`standardize`
// only; a constant column is then refused). Directions the centred data do not span
// (covariance eigenvalue ≤ 1e-12·λ_max, e.g. digits' constant border pixels) are dropped:
// the keys live in the span, n = its dimension.
//
// Keys are drawn in the eigenbasis of the sample covariance C = (1/N)Σ_s x_s x_sᵀ (rows
// rotated by its eigenvectors, eigenvalues λ descending), as for every other key law
// (docs/architecture.md, "Simulating in the eigenbasis"). Because a draw is uniform over N rows, the
// key law's moments are finite sums, exact: E[xxᵀ] = C = diag(λ), Σ̂ = (1/N)Σ_s x̂_s x̂_sᵀ,
// K = (1/N)Σ_s ‖x_s‖ x̂_s x̂_sᵀ — not diagonal in the drawing coordinates in general (the
// T9 machinery of [app:high-dim]: the key law *is* the empirical law of a finite data set).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/random/random.hpp"

namespace akm {

/// A parsed `data:` spec.
struct DataKeysSpec {
  std::string spec;          ///< normalized spec string
  std::string name;          ///< built-in name, or the path as given
  std::string path;          ///< file read
  bool builtin = false;  ///< one of the built-in data sets
  bool standardize = false;  ///< columns centred and scaled to unit variance
  bool header = false;       ///< the first line is skipped (built-ins: by their format)
};

/// Directory of the sklearn data files (env AKM_SKLEARN_DATA overrides the Debian path).
std::string sklearn_data_dir();

/// Parses `data:NAME[,standardize]` or `data:PATH[,standardize][,header]`; InputError
/// naming "keys" for anything else. Does not read the file.
DataKeysSpec parse_data_keys(std::string_view spec);

/// The numeric table of a file: rows × columns, read with zlib (plain or gzip). InputError
/// naming file:line for a non-numeric or non-finite cell, a ragged row, and for zero rows;
/// a missing file names `what`, the path looked at and "install python3-sklearn" when
/// `builtin`. `drop_last` removes a label column.
Mat read_numeric_table(const std::string& path, bool header, bool drop_last, bool builtin,
                       const std::string& what);

/// Keys sampled from the rows of a data set. Thread-safe: draw() is const.
class DataKeys {
 public:
  /// Loads the file named by the spec.
  explicit DataKeys(const DataKeysSpec& spec);
  /// From rows already in memory (N × d); `source` names them in messages.
  DataKeys(const Mat& rows, bool standardize, const std::string& source);

  /// Key dimension n (the spanned directions).
  int n() const { return static_cast<int>(keys_.cols()); }
  /// Number of rows N.
  int rows() const { return static_cast<int>(keys_.rows()); }
  int columns() const { return columns_; }  ///< columns of the file (after a dropped label)
  /// What the rows came from (for messages).
  const std::string& source() const { return source_; }
  /// N × n: centred (and standardized) rows in the covariance eigenbasis.
  const Mat& keys() const { return keys_; }
  /// Eigenvalues of C (descending, the spanned ones).
  const Vec& lambda() const { return lambda_; }
  /// d × n eigenvectors of C in the file's (centred, standardized) coordinates.
  const Mat& basis() const { return basis_; }

  /// Draws one row uniformly into x (size n).
  void draw(Stream& s, Vec& x) const;
  /// Index of a uniform draw in [0, N).
  int draw_index(Stream& s) const;

  /// Exact E[xxᵀ] = (1/N)Σ x_s x_sᵀ in the drawing coordinates (= diag λ up to rounding).
  Mat covariance() const;
  /// Exact Σ̂ = (1/N)Σ x̂_s x̂_sᵀ.
  Mat sigma_hat() const;
  /// Exact K = (1/N)Σ ‖x_s‖ x̂_s x̂_sᵀ.
  Mat kappa_matrix() const;

 private:
  void build(const Mat& rows, bool standardize);
  std::string source_;
  int columns_ = 0;
  Mat keys_, basis_;
  Vec lambda_;
};

}  // namespace akm
