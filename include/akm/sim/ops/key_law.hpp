// ops/key_law — a key law other than an op's Gaussian x = √λ ∘ z, read in given coordinates:
// what transport_product and row_buffers take for T16's mixture (any KeySampler law: also
// Student-t, Rademacher) and R1's data sets (rows drawn uniformly, DataKeys). Where the law is
// not diagonal in one basis, the op runs along chosen directions (the columns of `coords`):
// the key it sees is coordsᵀx, so its buffers and products are the law's read along those
// directions (coords orthogonal: xᵀy = (coordsᵀx)ᵀ(coordsᵀy)).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>

#include "akm/base/linalg.hpp"
#include "akm/random/random.hpp"
#include "akm/spectrum/data_keys.hpp"
#include "akm/spectrum/keys.hpp"

namespace akm::ops {

/// The law's draws on a trial's keys stream, read in `coords`. Empty (neither law nor data):
/// the op's own Gaussian keys. The reference paths draw key by key (draw), the cpu paths a
/// trial's keys at once (batch): the same draws, in the same order.
struct LawKeys {
  std::shared_ptr<const KeySampler> law;  ///< a key law; null: none
  std::shared_ptr<const DataKeys> data;  ///< or a data set's rows, drawn uniformly; null: none
  Mat coords;  ///< n×n orthogonal, columns the directions read along; empty: the law's own coordinates

  /// Whether a law or a data set is set.
  explicit operator bool() const { return law != nullptr || data != nullptr; }
  /// Refuses (InputError "law" or "coords") both a law and a data set, one not of dimension n,
  /// coordinates not n×n, or coordinates without either.
  void validate(int n) const;
  /// One key x (size n): law->draw (or data->draw) on `keys`, then coordsᵀx; `work` (size n) is scratch.
  void draw(Stream& keys, Vec& x, Vec& work) const;
  /// The cpu paths' draws: writes trial `trial`'s first `steps` keys on the stream (seed, trial,
  /// keys) into xs (steps × n, row-major). A law's keys are draw()'s bit for bit; a data set's
  /// rows are read in coords once, up front (N × n, one product instead of one per key), so
  /// they differ from draw()'s by the rounding of the two products.
  using Batch = std::function<void(std::uint64_t seed, long long trial, int steps, double* xs)>;
  /// The Batch for this law (a data set's rotated rows made here, once).
  Batch batch() const;
};

}  // namespace akm::ops
