// normals — batched Philox4x32-10 + Box–Muller with the streams of akm::Stream.
//
// akm::Stream draws a normal pair from one Philox block: uniform u₁ from words {0,1},
// u₂ from words {2,3} (k = bits>>11, u = k·2⁻⁵³), then r = √(−2 log u₁), θ = 2πu₂ and
// returns r cos θ, then r sin θ. So when the stream is "aligned" (no spare cached, no half
// block pending), normal pair i of a batch comes from block ctr+i and the blocks can be
// computed independently — 16 at a time in vector registers. A uniform with k = 0 (prob.
// 2⁻⁵³) makes akm::Stream redraw, shifting all later words; a batch that meets one is
// recomputed on the scalar path, which copies akm::Stream exactly.
// The vector batch itself is normal_batch.hpp's; this file holds the stream around it.
#include <algorithm>
#include <cmath>

#include <Random123/philox.h>

#include "akm/base/errors.hpp"
#include "akm/sim/engine/engine.hpp"
#include "engine_util.hpp"
#include "normal_batch.hpp"

namespace akm::engine {

const char* to_string(Precision p) { return p == Precision::f64 ? "double" : "float"; }

Precision parse_precision(const std::string& s) {
  if (s == "double") return Precision::f64;
  if (s == "float") return Precision::f32;
  throw InputError("--precision", s, "must be double or float");
}

namespace {

using normal_batch::kLanes;
using normal_batch::kTwoPi;
using normal_batch::kUlp53;

bool g_force_scalar = false;

}  // namespace

void NormalStream::set_force_scalar(bool on) { g_force_scalar = on; }

NormalKernel engine_kernel(Precision p) {
  return p == Precision::f32 && available(NormalKernel::sleef) ? NormalKernel::sleef : NormalKernel::libmvec;
}

NormalStream::NormalStream(std::uint64_t seed, std::uint64_t trial, Purpose purpose, NormalKernel kernel)
    : kernel_(kernel) {
  stream_start(key_, ctr_, seed, trial, purpose);
}

// The scalar path: line for line akm::Stream (src/random/random.cpp).
std::uint64_t NormalStream::bits() {
  if (next_word_ > 2) {
    r123::Philox4x32 gen;
    const r123::Philox4x32::ctr_type c = {{ctr_[0], ctr_[1], ctr_[2], ctr_[3]}};
    const r123::Philox4x32::key_type k = {{key_[0], key_[1]}};
    const auto o = gen(c, k);
    for (int i = 0; i < 4; ++i) out_[i] = o[i];
    ++ctr_[0];
    next_word_ = 0;
  }
  const std::uint64_t hi = out_[next_word_], lo = out_[next_word_ + 1];
  next_word_ += 2;
  return (hi << 32) | lo;
}

double NormalStream::uniform() {
  for (;;) {
    const std::uint64_t k = bits() >> 11;
    if (k != 0) return double(k) * kUlp53;
  }
}

double NormalStream::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  const double r = std::sqrt(-2.0 * std::log(uniform()));
  const double theta = kTwoPi * uniform();
  spare_ = r * std::sin(theta);
  has_spare_ = true;
  return r * std::cos(theta);
}

namespace {
template <class T>
void fill_impl(NormalStream& self, NormalKernel k, bool aligned, bool force, std::uint32_t* ctr,
               const std::uint32_t* key, T* out, int count, double (NormalStream::*scalar)()) {
  int done = 0;
  if (aligned && !force) {
    alignas(64) T buf[2 * kLanes];
    while (done < count) {
      const int take = std::min(2 * kLanes, count - done);
      T* dst = take == 2 * kLanes ? out + done : buf;
      if (!normal_batch::pairs(k, ctr[0], ctr, key, dst)) break;  // k = 0 somewhere: scalar from here
      if (dst == buf) std::copy(buf, buf + take, out + done);
      done += take;
      ctr[0] += std::uint32_t(take / 2);  // only the blocks actually consumed
    }
  }
  for (; done < count; ++done) out[done] = T((self.*scalar)());
}
}  // namespace

void NormalStream::fill(double* out, int count) {
  const NormalKernel k = kernel_ == NormalKernel::fastest ? engine_kernel(Precision::f64) : kernel_;
  fill_impl(*this, k, aligned(), g_force_scalar || (count % 2) != 0, ctr_, key_, out, count,
            &NormalStream::normal);
}
void NormalStream::fill(float* out, int count) {
  const NormalKernel k = kernel_ == NormalKernel::fastest ? engine_kernel(Precision::f32) : kernel_;
  fill_impl(*this, k, aligned(), g_force_scalar || (count % 2) != 0, ctr_, key_, out, count,
            &NormalStream::normal);
}

double normal_throughput(Precision p, double seconds, NormalKernel kernel) {
  NormalStream s(12345, 0, Purpose::keys, kernel);
  return fill_rate(s, p, seconds);
}

}  // namespace akm::engine
