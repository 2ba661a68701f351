// layer_inputs — what the optimizers' sources share (private to src/rules/*.cpp): the checks of
// a layer's shape and of a batch's, raised as InputError before any state changes, and the
// ordinary batch gradient. One definition, so AdamW (optimizers.cpp) and Muon (muon.cpp) refuse
// the same inputs with the same words, and a unity build of the folder sees each name once.
#pragma once
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/base/linalg.hpp"

namespace akm::rules_detail {

inline std::string shape(Eigen::Index r, Eigen::Index c) { return fmt::format("{}x{}", r, c); }

inline void require_shape(const std::string& param, ConstMatRef A, Eigen::Index rows, Eigen::Index cols) {
  if (A.rows() != rows || A.cols() != cols)
    throw InputError(param, shape(A.rows(), A.cols()), fmt::format("must be {}", shape(rows, cols)));
}

/// A batch is Δ (N x rows) and X (N x cols), N ≥ 1, for a rows x cols layer.
inline void require_batch(ConstMatRef Delta, ConstMatRef X, Eigen::Index rows, Eigen::Index cols) {
  if (Delta.rows() < 1 || Delta.cols() != rows)
    throw InputError("Delta", shape(Delta.rows(), Delta.cols()),
                     fmt::format("must be N x {} with N >= 1", rows));
  if (X.rows() != Delta.rows() || X.cols() != cols)
    throw InputError("X", shape(X.rows(), X.cols()),
                     fmt::format("must be {} (N rows as Delta)", shape(Delta.rows(), cols)));
}

// Rejects empty layers before any state is allocated.
inline void require_layer(int rows, int cols) {
  require_at_least("rows", rows, 1);
  require_at_least("cols", cols, 1);
}

/// The ordinary weight gradient of a batch, g = ΔᵀX/N (raw keys) [app:deployed].
inline Mat batch_gradient(ConstMatRef Delta, ConstMatRef X) {
  return (Delta.transpose() * X) / static_cast<double>(X.rows());
}

}  // namespace akm::rules_detail
