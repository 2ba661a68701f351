// ziggurat — the exact normal method measured against the engine's Box–Muller generator:
// Marsaglia & Tsang's ziggurat with 256 layers, on the same Philox4x32-10 counters as
// akm::Stream. `akm bench` times it beside the Box–Muller kernels in the same run and the
// Google Benchmark BM_NormalQuality holds it to the same 10⁸-draw quality tests; the engine's
// streams stay Box–Muller (docs/performance.md, "The normal generator", gives the rule).
#pragma once
#include <array>
#include <cstdint>

#include "akm/random/random.hpp"
#include "akm/sim/engine/engine.hpp"

namespace akm::engine {

/// The 256-layer ziggurat of the standard normal density f(x) = exp(−x²/2) (unnormalized):
/// layer 0 is the base strip [0, x₀]×[0, f(R)] with the tail beyond R = x₁ folded in
/// (x₀ = V/f(R)); layer i ≥ 1 is the strip [0, xᵢ]×[f(xᵢ), f(xᵢ₊₁)], x₂₅₆ = 0. Every layer
/// has area V. R is solved (bisection in long double) so that the recursion
/// xᵢ₊₁ = f⁻¹(f(xᵢ) + V/xᵢ) closes at x₂₅₆ = 0.
struct ZigguratTable {
  double R = 0.0;                 ///< the base strip's inner edge x₁ (≈ 3.6541528853610088)
  double V = 0.0;                 ///< every layer's area: R f(R) + ∫_R^∞ f
  std::array<double, 257> x{};    ///< the layers' right edges x₀ > x₁ = R > … > x₂₅₆ = 0
  std::array<double, 257> f{};    ///< f(xᵢ) = exp(−xᵢ²/2)
};
/// The table, computed once on first use.
const ZigguratTable& ziggurat_table();

/// The ziggurat's normals of (seed, trial, purpose), addressable by index like Box–Muller's:
/// normal 2b + h comes from the 64-bit word h of Philox block b (counter {b, purpose, trial
/// low, trial high}, key {seed low, seed high}, the words as akm::Stream::bits forms them).
/// The word's low 8 bits pick the layer i, bit 8 the sign, its top 53 bits the uniform u; the
/// candidate x = u·xᵢ is accepted when x < xᵢ₊₁ (≈ 99% of words). Otherwise the exact wedge
/// (i ≥ 1) or tail (i = 0) test finishes it with words of a side stream of its own, counter
/// {b, purpose | s<<8 | h<<30 | 2³¹, trial low, trial high} for side block s = 0, 1, …
class ZigguratStream {
 public:
  /// The stream of (seed, trial, purpose) from normal 0.
  ZigguratStream(std::uint64_t seed, std::uint64_t trial, Purpose purpose);
  /// Writes the next `count` normals in double (AVX-512: 32 per vector batch).
  void fill(double* out, int count);
  /// Writes the next `count` normals rounded to float (the same draws as fill(double*)).
  void fill(float* out, int count);
  /// The next normal by the plain scalar path (the reference of the vector path).
  double normal();
  /// Test hook: take the scalar path for every normal.
  static void set_force_scalar(bool on);

 private:
  double at(std::uint64_t j) const;  // normal j, scalar
  template <class T>
  void fill_impl(T* out, int count);
  std::uint32_t key_[2];
  std::uint32_t ctr_[4];
  std::uint64_t next_ = 0;  // the index of the next normal
};

/// Normal variates per second of ZigguratStream on one thread.
double ziggurat_throughput(Precision p, double seconds);

}  // namespace akm::engine
