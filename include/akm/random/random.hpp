// random — counter-based streams (Random123 Philox4x32-10).
//
// One stream per (seed, trial, purpose): the numbers a trial sees do not depend on which
// thread runs it or in which order, so results are identical for any thread count.
#pragma once
#include <cstdint>

#include <Random123/philox.h>

namespace akm {

/// Purposes separate independent streams of one trial (keys, value noise, initial state…).
enum class Purpose : std::uint32_t { keys = 1, noise = 2, init = 3, data = 4, basis = 5, aux = 6 };

/// A Philox4x32-10 counter stream, one per (seed, trial, purpose): the numbers of a trial never depend on the thread that runs it.
class Stream {
 public:
  /// The stream of (seed, trial, purpose).
  Stream(std::uint64_t seed, std::uint64_t trial, Purpose purpose = Purpose::keys);

  /// 64 random bits.
  std::uint64_t bits();
  /// Uniform on the open interval (0, 1), 53-bit resolution.
  double uniform();
  /// Standard normal by the exact Box–Muller transform (pairs cached).
  double normal();
  /// ±1 with probability 1/2 each.
  double rademacher();

 private:
  void refill();
  r123::Philox4x32 gen_;
  r123::Philox4x32::ctr_type ctr_{};
  r123::Philox4x32::key_type key_{};
  r123::Philox4x32::ctr_type out_{};
  int next_word_ = 4;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace akm
