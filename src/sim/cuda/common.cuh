// common.cuh — what every CUDA operation shares (src/sim/ops/<op>/cuda.cu): error checks, the
// device twins of akm::Stream, block reductions and device buffers. Private to the sim layer.
//
// Streams: a device copy of akm::Stream (Philox4x32-10 keyed by the seed, counter {block,
// purpose, trial}; u = (bits>>11)·2⁻⁵³ with the k = 0 redraw; Box–Muller pairs, cos first)
// with the uniform rounded to float before logf/sincosf, exactly as the float CPU engine
// does — so CPU and GPU runs of one seed agree to float rounding (the transcendental
// functions and summation orders differ by ulps).
#pragma once
#include <cuda_runtime.h>
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <Random123/philox.h>

#include "akm/sim/cuda.hpp"

namespace akm::cuda::detail {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
inline void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(int(s)));
}

// The 64-bit word stream of akm::Stream (src/random/random.cpp) on the device: Philox4x32-10 keyed
// by the seed, counter (block, purpose, trial), two words per draw.
struct DBits {
  r123::Philox4x32::key_type key;
  r123::Philox4x32::ctr_type ctr, out;
  int next_word;

  __device__ DBits(unsigned long long seed, unsigned long long trial, unsigned purpose) {
    key[0] = unsigned(seed);
    key[1] = unsigned(seed >> 32);
    ctr[0] = 0;
    ctr[1] = purpose;
    ctr[2] = unsigned(trial);
    ctr[3] = unsigned(trial >> 32);
    next_word = 4;
  }
  __device__ unsigned long long bits() {
    if (next_word > 2) {
      r123::Philox4x32 gen;
      out = gen(ctr, key);
      ++ctr[0];
      next_word = 0;
    }
    const unsigned long long hi = out[next_word], lo = out[next_word + 1];
    next_word += 2;
    return (hi << 32) | lo;
  }
};

// Device twin of akm::Stream (src/random/random.cpp), float transform.
struct DStream : DBits {
  bool has_spare = false;
  float spare = 0.f;

  __device__ DStream(unsigned long long seed, unsigned long long trial, unsigned purpose)
      : DBits(seed, trial, purpose) {}
  __device__ float uniform() {
    for (;;) {
      const unsigned long long k = bits() >> 11;
      // float(k·2⁻⁵³) = round_to_float(k)·2⁻⁵³ (power-of-two scaling is exact)
      if (k != 0) return __ull2float_rn(k) * 1.1102230246251565e-16f;
    }
  }
  __device__ float normal() {
    if (has_spare) {
      has_spare = false;
      return spare;
    }
    const float r = sqrtf(-2.0f * logf(uniform()));
    const float theta = 6.28318530717958647692f * uniform();
    float s, c;
    sincosf(theta, &s, &c);
    spare = r * s;
    has_spare = true;
    return r * c;
  }
};

constexpr unsigned kKeys = 1, kNoise = 2, kInit = 3;

// Block-wide sum of one float per thread (shared scratch of ≥ 33 floats).
__device__ inline float block_sum(float v, float* sh) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  __syncthreads();
  if (lane == 0) sh[warp] = v;
  __syncthreads();
  float s = 0.f;
  if (threadIdx.x == 0) {
    for (int w = 0; w < int(blockDim.x + 31) / 32; ++w) s += sh[w];
    sh[32] = s;
  }
  __syncthreads();
  return sh[32];
}

// Double twin of akm::Stream for `phase --measure` (the CPU paths are double there).
struct DStreamD : DBits {
  bool has_spare = false;
  double spare = 0.0;
  __device__ DStreamD(unsigned long long seed, unsigned long long trial, unsigned purpose)
      : DBits(seed, trial, purpose) {}
  __device__ double uniform() {
    for (;;) {
      const unsigned long long k = bits() >> 11;
      if (k != 0) return double(k) * 1.1102230246251565e-16;
    }
  }
  __device__ double normal() {
    if (has_spare) {
      has_spare = false;
      return spare;
    }
    const double r = sqrt(-2.0 * log(uniform()));
    const double theta = 6.283185307179586 * uniform();
    spare = r * sin(theta);
    has_spare = true;
    return r * cos(theta);
  }
};

inline std::vector<float> sqrt_power(int n, bool unit_trace) {
  std::vector<double> l(n);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += (l[i] = 1.0 / (i + 1.0));
  std::vector<float> out(n);
  for (int i = 0; i < n; ++i) out[i] = float(std::sqrt(unit_trace ? l[i] / s : l[i]));
  return out;
}

template <class T>
struct DevBuf {
  T* p = nullptr;
  explicit DevBuf(std::size_t n) { check(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc"); }
  ~DevBuf() { cudaFree(p); }
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
};

template <class T>
void upload(DevBuf<T>& d, const std::vector<T>& h) {
  check(cudaMemcpy(d.p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
}
template <class T>
std::vector<T> download(const DevBuf<T>& d, std::size_t n) {
  std::vector<T> h(n);
  check(cudaGetLastError(), "kernel launch");
  check(cudaMemcpy(h.data(), d.p, n * sizeof(T), cudaMemcpyDeviceToHost), "download");
  return h;
}

inline void require_device() {
  std::string why;
  if (device_name(&why).empty()) throw std::runtime_error("no CUDA device: " + why);
}

}  // namespace akm::cuda::detail
