// cuda/ceilings — the device's measured ceilings (akm/sim/cuda_ceilings.hpp): an FMA kernel, a
// triad and a copy over 1 GiB arrays, and a normals-only kernel per precision of akm's stream,
// each timed with CUDA events (best of several launches after a warm-up) and its result
// checked against the same body run on the host.
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "akm/sim/cuda_ceilings.hpp"
#include "common.cuh"

namespace akm::cuda {

using namespace detail;

namespace {

constexpr unsigned kThreads = 256;
constexpr std::uint64_t kSeed = 0x5eed;

__global__ void fma_kernel(float* out, float x0, float a, float b, int iters) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = fma_chains(x0, a, b, iters);
}

__global__ void fill_kernel(float* b, float* c, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    b[i] = triad_b(i);
    c[i] = triad_c(i);
  }
}

// float4 accesses (n a multiple of 4), a grid-stride loop over the whole array.
__global__ void triad_kernel(float4* a, const float4* b, const float4* c, float s, long long n4) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
    const float4 x = b[i], y = c[i];
    a[i] = make_float4(triad(x.x, s, y.x), triad(x.y, s, y.y), triad(x.z, s, y.z), triad(x.w, s, y.w));
  }
}

__global__ void copy_kernel(float4* a, const float4* b, long long n4) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x)
    a[i] = b[i];
}

template <class T>
__global__ void normals_kernel(T* out, long long items, int count) {
  const long long i = item_of(blockIdx.x, threadIdx.x, blockDim.x);
  if (i < items) out[i] = normals_sum<T>(kSeed, i, count);
}

// Times `launch` (one kernel launch) with CUDA events: one untimed warm-up, then the best of
// `repeats` launches.
template <class Launch>
Rate timed(Launch&& launch, double work, int repeats, unsigned blocks, unsigned threads) {
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "cudaEventCreate");
  check(cudaEventCreate(&e1), "cudaEventCreate");
  launch();
  check(cudaGetLastError(), "kernel launch");
  check(cudaDeviceSynchronize(), "warm-up");
  float best_ms = 0.f;
  for (int r = 0; r < repeats; ++r) {
    check(cudaEventRecord(e0), "cudaEventRecord");
    launch();
    check(cudaEventRecord(e1), "cudaEventRecord");
    check(cudaEventSynchronize(e1), "cudaEventSynchronize");
    check(cudaGetLastError(), "kernel launch");
    float ms = 0.f;
    check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
    if (r == 0 || ms < best_ms) best_ms = ms;
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  Rate rt;
  rt.best_seconds = best_ms * 1e-3;
  rt.work = work;
  rt.per_s = work / rt.best_seconds;
  rt.repeats = repeats;
  rt.blocks = blocks;
  rt.threads = threads;
  return rt;
}

void fail(const std::string& what) { throw std::runtime_error("device ceiling check failed: " + what); }

// The normals kernel of precision T over `items` threads of `count` normals each; the sums of a
// sample of threads are compared with the host's: each normal off by at most `ulps` of its
// magnitude (the device's log/sincos against the host's libm), so the sum by ulps·ε·Σ|zᵢ|,
// Σ|zᵢ| bounded by the sum of |normals| drawn on the host. Returns the worst ratio.
template <class T>
Rate normals_rate(long long items, int count, int repeats, double ulps, double* worst) {
  const Grid g = grid_per_item(items, kThreads);
  DevBuf<T> out{std::size_t(items)};
  const Rate rt = timed([&] { normals_kernel<T><<<g.blocks, g.threads>>>(out.p, items, count); },
                        double(items) * count, repeats, g.blocks, g.threads);
  const std::vector<T> d = download(out, std::size_t(items));
  const double eps = std::is_same_v<T, float> ? 5.9604644775390625e-08 : 1.1102230246251565e-16;
  *worst = 0;
  for (long long i = 0; i < items; i += std::max(1LL, items / 64)) {
    hd::Stream<T> s(kSeed, std::uint64_t(i), hd::kKeys);
    double abs_sum = 0;
    for (int k = 0; k < count; ++k) abs_sum += std::fabs(double(s.normal()));
    double bound = ulps * eps * abs_sum + 4.0 * count * eps * abs_sum;  // draws + the running sum
    // The device's fast Box–Muller angle (an A/B build): ≤ kFastSincosBound more per normal.
    if (std::is_same_v<T, float> && hd::kFastSincos) bound += count * hd::kFastSincosBound;
    const double err = std::fabs(double(d[i]) - double(normals_sum<T>(kSeed, i, count)));
    *worst = std::max(*worst, err / bound);
    if (!(err <= bound)) fail("normals sum of thread " + std::to_string(i) + " off by " + std::to_string(err));
  }
  return rt;
}

}  // namespace

DeviceCeilings measure_device_ceilings(bool quick) {
  require_device();
  DeviceCeilings dc;
  dc.device = device_name();
  check(cudaDeviceGetAttribute(&dc.multiprocessors, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
  const unsigned sms = unsigned(dc.multiprocessors);
  const int repeats = quick ? 3 : 7;

  {  // FMA: 16 blocks of 256 per SM (the most threads an SM holds, 2048, twice over)
    const unsigned blocks = 16 * sms;
    const int iters = 1 << 16;  // 8·65536 + 28 < 2²⁴: the sums stay exact
    DevBuf<float> out(std::size_t(blocks) * kThreads);
    dc.fma = timed([&] { fma_kernel<<<blocks, kThreads>>>(out.p, 0.f, 1.f, 1.f, iters); },
                   2.0 * kFmaChains * double(iters) * blocks * kThreads, repeats, blocks, kThreads);
    const std::vector<float> d = download(out, std::size_t(blocks) * kThreads);
    const float want = fma_chains(0.f, 1.f, 1.f, iters);
    for (std::size_t i = 0; i < d.size(); ++i)
      if (d[i] != want) fail("FMA chains of thread " + std::to_string(i));
  }
  {  // memory: arrays of 1 GiB each (far past any L2)
    const long long n = 1LL << 28;
    dc.array_bytes = n * 4;
    DevBuf<float> a(n), b(n), c(n);
    const unsigned blocks = 16 * sms;
    fill_kernel<<<blocks, kThreads>>>(b.p, c.p, n);
    check(cudaGetLastError(), "fill launch");
    const float s = 3.f;
    auto* a4 = reinterpret_cast<float4*>(a.p);
    const auto* b4 = reinterpret_cast<const float4*>(b.p);
    const auto* c4 = reinterpret_cast<const float4*>(c.p);
    dc.copy = timed([&] { copy_kernel<<<blocks, kThreads>>>(a4, b4, n / 4); }, 2.0 * 4 * n, repeats, blocks, kThreads);
    std::vector<float> h(1);
    for (long long i = 0; i < n; i += n / 61 + 1) {
      check(cudaMemcpy(h.data(), a.p + i, 4, cudaMemcpyDeviceToHost), "copy check");
      if (h[0] != triad_b(i)) fail("copy element " + std::to_string(i));
    }
    dc.triad = timed([&] { triad_kernel<<<blocks, kThreads>>>(a4, b4, c4, s, n / 4); }, 3.0 * 4 * n, repeats,
                     blocks, kThreads);
    for (long long i = 0; i < n; i += n / 61 + 1) {
      check(cudaMemcpy(h.data(), a.p + i, 4, cudaMemcpyDeviceToHost), "triad check");
      if (h[0] != triad(triad_b(i), s, triad_c(i))) fail("triad element " + std::to_string(i));
    }
  }
  // Normals: 2048 threads per SM (a full SM), each drawing its own trial's stream.
  const long long items = 2048LL * sms;
  dc.normals_float = normals_rate<float>(items, quick ? 1024 : 4096, repeats, 8.0, &dc.normals_check_float);
  dc.normals_double = normals_rate<double>(items, quick ? 128 : 512, repeats, 8.0, &dc.normals_check_double);
  return dc;
}

}  // namespace akm::cuda
