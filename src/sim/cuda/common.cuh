// common.cuh — what every CUDA operation (src/sim/ops/<op>/cuda.cu) shares on the device
// side: error checks, the block reduction, device buffers and the no-device refusal. The
// arithmetic a thread runs is not here: it is each op's trial.hpp, single-source with the
// emulated backend, and its random numbers come from akm/random/stream_hd.hpp (docs/cuda.md).
// Private to the sim layer.
#pragma once
#include <cuda_runtime.h>
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "akm/sim/cuda.hpp"
#include "akm/sim/cuda_grid.hpp"
#include "akm/random/stream_hd.hpp"
#include "host.hpp"

namespace akm::cuda::detail {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
inline void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(int(s)));
}

// Block-wide sum of one float per thread (shared scratch of ≥ 33 floats, blockDim.x a
// multiple of 32): each warp's shuffle tree, then the warps' sums in order from 0.f —
// the order the emulated backend reproduces (src/sim/ops/ak_sgd_ema/emulated.cpp).
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

// Block-wide sums of V floats per thread, v[i] replaced by value i's sum (shared scratch of
// ≥ 33·V floats, blockDim.x ≥ V): each value in block_sum's order (the warp's shuffle tree,
// then the warps' sums in order from 0.f; the emulated backend reproduces it value by value),
// all V through two barriers. None before the writes: a thread writes sh[32i + warp] only
// after the previous call's second barrier, past which nobody reads it, and sh[32V + i] only
// after this call's first, which every reader of the previous call's sums has passed.
template <int V>
__device__ inline void block_sums(float* v, float* sh) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int i = 0; i < V; ++i)
    for (int o = 16; o > 0; o >>= 1) v[i] += __shfl_down_sync(0xffffffffu, v[i], o);
  if (lane == 0) {
#pragma unroll
    for (int i = 0; i < V; ++i) sh[32 * i + warp] = v[i];
  }
  __syncthreads();
  if (int(threadIdx.x) < V) {
    float s = 0.f;
    for (int w = 0; w < int(blockDim.x + 31) / 32; ++w) s += sh[32 * threadIdx.x + w];
    sh[32 * V + threadIdx.x] = s;
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < V; ++i) v[i] = sh[32 * V + i];
}

// One thread per item: thread (block, thread) runs item(item_of(…)) unless past the last
// item. `Item` is an op's functor (src/sim/ops/<op>/trial.hpp), which the emulated backend
// runs over the same grid (src/sim/cuda/emulate.hpp).
template <class Item>
__global__ void per_item_kernel(long long items, Item item) {
  const long long i = item_of(blockIdx.x, threadIdx.x, blockDim.x);
  if (i < items) item(i);
}
template <class Item>
void launch_per_item(const Grid& g, const Item& item) {
  per_item_kernel<<<g.blocks, g.threads>>>(g.items, item);
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
