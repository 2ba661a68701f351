// random — Philox4x32-10 stream keyed by (seed, trial, purpose).
//
// Key = the 64-bit seed; counter = {block index, purpose, trial low, trial high}. Every
// (seed, trial, purpose) thus owns a disjoint sequence of counters, so a trial's numbers
// do not depend on thread count or scheduling (docs/reliability.md, "Determinism"). The
// arithmetic is akm/random/stream_hd.hpp's, which the CUDA kernels run too.
#include "akm/random/random.hpp"

#include "akm/random/stream_hd.hpp"

namespace akm {

Stream::Stream(std::uint64_t seed, std::uint64_t trial, Purpose purpose) {
  hd::philox_start(ctr_, key_, seed, trial, static_cast<std::uint32_t>(purpose));
}

std::uint64_t Stream::bits() { return hd::philox_next(gen_, ctr_, key_, out_, next_word_); }

// k·2^-53 for k drawn uniformly from 1..2^53−1: exactly the 53-bit grid inside (0, 1).
// k = 0 is redrawn (probability 2^-53) so log(u) below is always finite. A half-offset
// ((k+0.5)·2^-53) would round to 1.0 for the top k, leaving the open interval.
double Stream::uniform() {
  return hd::uniform_open<double>([this] { return bits(); });
}

// Exact Box–Muller: two uniforms give two independent N(0,1); the second is cached.
double Stream::normal() {
  return hd::box_muller<double>([this] { return uniform(); }, has_spare_, spare_);
}

double Stream::rademacher() { return (bits() >> 63) ? 1.0 : -1.0; }

}  // namespace akm
