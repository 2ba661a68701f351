// transport/cuda — W1 on the device: one thread per trial, v in registers (float).
#include "../../cuda/common.cuh"

namespace akm::cuda {
namespace {

using namespace detail;

template <int N>
__global__ void w1_kernel(const float* sl, long long trials, int steps, float beta, float eta,
                          unsigned long long seed, float* v_out) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= trials) return;
  DStream s(seed, t, kKeys);
  float v[N], x[N];
#pragma unroll
  for (int i = 0; i < N; ++i) v[i] = rsqrtf(float(N));
  for (int step = 0; step < steps; ++step) {
    float nn = 0.f, vx = 0.f;
#pragma unroll
    for (int i = 0; i < N; ++i) {
      x[i] = sl[i] * s.normal();
      nn += x[i] * x[i];
      vx += v[i] * x[i];
    }
    const float c = eta * vx / nn;
#pragma unroll
    for (int i = 0; i < N; ++i) v[i] = beta * v[i] - c * x[i];
  }
#pragma unroll
  for (int i = 0; i < N; ++i) v_out[t * N + i] = v[i];
}

}  // namespace

using namespace detail;

wl::Observations w1(const wl::W1& w, std::uint64_t seed) {
  require_device();
  const auto sl = sqrt_power(w.n, false);
  DevBuf<float> dsl(w.n), dv(std::size_t(w.trials) * w.n);
  upload(dsl, sl);
  const int tpb = 128;
  const unsigned blocks = unsigned((w.trials + tpb - 1) / tpb);
  switch (w.n) {
    case 32: w1_kernel<32><<<blocks, tpb>>>(dsl.p, w.trials, w.steps, float(w.beta), float(w.eta), seed, dv.p); break;
    case 64: w1_kernel<64><<<blocks, tpb>>>(dsl.p, w.trials, w.steps, float(w.beta), float(w.eta), seed, dv.p); break;
    default: throw std::invalid_argument("cuda::w1: n must be 32 or 64");
  }
  const auto v = download(dv, std::size_t(w.trials) * w.n);
  wl::Observations o;
  o.trials = w.trials;
  o.n_obs = w.n_obs();
  o.values.resize(std::size_t(w.trials) * o.n_obs);
  for (long long t = 0; t < w.trials; ++t) {
    double sq = 0.0;
    for (int i = 0; i < w.n; ++i) {
      const double x = v[std::size_t(t) * w.n + i];
      o.values[std::size_t(t) * o.n_obs + i] = x;
      sq += x * x;
    }
    o.values[std::size_t(t) * o.n_obs + w.n] = sq;
  }
  return o;
}

}  // namespace akm::cuda
