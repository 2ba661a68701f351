// random — Philox4x32-10 stream keyed by (seed, trial, purpose).
//
// Key = the 64-bit seed; counter = {block index, purpose, trial low, trial high}. Every
// (seed, trial, purpose) thus owns a disjoint sequence of counters, so a trial's numbers
// do not depend on thread count or scheduling (docs/reliability.md, "Determinism").
#include "akm/random/random.hpp"

#include <cmath>
#include <numbers>

namespace akm {

Stream::Stream(std::uint64_t seed, std::uint64_t trial, Purpose purpose) {
  key_[0] = static_cast<std::uint32_t>(seed);
  key_[1] = static_cast<std::uint32_t>(seed >> 32);
  ctr_[0] = 0;
  ctr_[1] = static_cast<std::uint32_t>(purpose);
  ctr_[2] = static_cast<std::uint32_t>(trial);
  ctr_[3] = static_cast<std::uint32_t>(trial >> 32);
}

void Stream::refill() {
  out_ = gen_(ctr_, key_);
  ++ctr_[0];  // 2^32 blocks (2^33 draws of 64 bits) per stream before the index wraps
  next_word_ = 0;
}

std::uint64_t Stream::bits() {
  if (next_word_ > 2) refill();  // a block holds two 64-bit draws: words {0,1} and {2,3}
  const std::uint64_t hi = out_[next_word_];
  const std::uint64_t lo = out_[next_word_ + 1];
  next_word_ += 2;
  return (hi << 32) | lo;
}

// k·2^-53 for k drawn uniformly from 1..2^53−1: exactly the 53-bit grid inside (0, 1).
// k = 0 is redrawn (probability 2^-53) so log(u) below is always finite. A half-offset
// ((k+0.5)·2^-53) would round to 1.0 for the top k, leaving the open interval.
double Stream::uniform() {
  constexpr double ulp = 1.0 / 9007199254740992.0;  // 2^-53
  for (;;) {
    const std::uint64_t k = bits() >> 11;
    if (k != 0) return static_cast<double>(k) * ulp;
  }
}

// Exact Box–Muller: two uniforms give two independent N(0,1); the second is cached.
double Stream::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  const double r = std::sqrt(-2.0 * std::log(uniform()));
  const double theta = 2.0 * std::numbers::pi * uniform();
  spare_ = r * std::sin(theta);
  has_spare_ = true;
  return r * std::cos(theta);
}

double Stream::rademacher() { return (bits() >> 63) ? 1.0 : -1.0; }

}  // namespace akm
