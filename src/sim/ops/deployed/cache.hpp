// deployed/cache — the host logic of the cuda backend's cached context (cuda_cached.cu): how a
// kept buffer grows, and the conversion kernels' grid. No CUDA here, so the policy is tested
// on the host (tests/ops/test_deployed_cache.cpp) with a counting allocator in place of
// cudaMalloc / cudaMallocHost. Private to src/sim/ops/deployed.
#pragma once
#include <algorithm>
#include <cstddef>

namespace akm::cuda::deployed_detail {

/// Buffers grow in whole grains of 2¹⁸ elements (1 MiB of floats): sizes a little apart share one.
constexpr std::size_t kGrain = std::size_t(1) << 18;

/// Capacity (elements) that a kept buffer of capacity `have` takes for a call that needs
/// `need`: `have` when it fits — no reallocation, which is what the cache is for — else `need`
/// rounded up to whole grains and at least 1.5·have, so sizes that grow call by call
/// reallocate a logarithmic number of times, not every call. It never shrinks: a smaller call
/// uses the front of the buffer.
inline std::size_t grown_capacity(std::size_t have, std::size_t need) {
  if (need <= have) return have;
  const std::size_t rounded = (need + kGrain - 1) / kGrain * kGrain;
  return std::max(rounded, have + have / 2);
}

/// A buffer of T kept across calls. `Alloc` has void* acquire(bytes) (throws on failure) and
/// release(void*): cudaMalloc / cudaFree, cudaMallocHost / cudaFreeHost, or a test's counter.
template <class T, class Alloc>
class Growing {
 public:
  explicit Growing(Alloc a = {}) : a_(a) {}
  ~Growing() {
    if (p_) a_.release(p_);
  }
  Growing(const Growing&) = delete;
  Growing& operator=(const Growing&) = delete;
  /// At least `need` elements (grown_capacity); the contents are not kept when it grows.
  T* reserve(std::size_t need) {
    const std::size_t cap = grown_capacity(cap_, need);
    if (cap != cap_ || !p_) {
      if (p_) a_.release(p_);
      p_ = nullptr;  // a failed acquire leaves the buffer empty, not dangling
      cap_ = 0;
      p_ = static_cast<T*>(a_.acquire(std::max<std::size_t>(cap, 1) * sizeof(T)));
      cap_ = std::max<std::size_t>(cap, 1);
      ++grows_;
    }
    return p_;
  }
  T* data() const { return p_; }
  std::size_t capacity() const { return cap_; }
  /// How many times the buffer was (re)allocated.
  int grows() const { return grows_; }

 private:
  Alloc a_;
  T* p_ = nullptr;
  std::size_t cap_ = 0;
  int grows_ = 0;
};

/// Blocks of the conversion kernels (256 threads, a grid-stride loop): one thread per element
/// up to 65535 blocks, never 0 (a launch of 0 blocks is an error).
inline unsigned convert_blocks(std::size_t count) {
  return unsigned(std::clamp<std::size_t>((count + 255) / 256, 1, 65535));
}

}  // namespace akm::cuda::deployed_detail
