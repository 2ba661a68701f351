// phase_map/cuda — W3 on the device: one thread per (grid point, trial) row (float).
#include "../../cuda/common.cuh"

namespace akm::cuda {
namespace {

using namespace detail;

template <int N>
__global__ void w3_kernel(const float* sl, long long trials, int n_beta, int n_eta, double eta_max,
                          int steps, int renorm, unsigned long long seed, long long rows,
                          double* out) {
  const long long row = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const int p = int(row / trials);
  const float eta = float(eta_max * (p / n_beta + 1) / n_eta);
  const float beta = float(double(p % n_beta) / n_beta);
  DStream s(seed, row, kKeys);
  float v[N], x[N];
#pragma unroll
  for (int i = 0; i < N; ++i) v[i] = rsqrtf(float(N));
  double log_norm = 0.0;
  for (int step = 0; step < steps; ++step) {
    float vx = 0.f;
#pragma unroll
    for (int i = 0; i < N; ++i) {
      x[i] = sl[i] * s.normal();
      vx += v[i] * x[i];
    }
    const float c = eta * vx;
#pragma unroll
    for (int i = 0; i < N; ++i) v[i] = beta * v[i] - c * x[i];
    if ((step + 1) % renorm == 0 || step + 1 == steps) {
      float nn = 0.f;
#pragma unroll
      for (int i = 0; i < N; ++i) nn += v[i] * v[i];
      const float nv = sqrtf(nn);
      log_norm += log(double(nv));
      const float inv = 1.f / nv;
#pragma unroll
      for (int i = 0; i < N; ++i) v[i] *= inv;
    }
  }
  out[row] = log_norm / steps;
}

}  // namespace

using namespace detail;

wl::Observations w3(const wl::W3& w, std::uint64_t seed) {
  require_device();
  const auto sl = sqrt_power(w.n, true);
  const long long rows = w.trials * w.points();
  DevBuf<float> dsl(w.n);
  DevBuf<double> dout(rows);
  upload(dsl, sl);
  const int tpb = 128;
  const unsigned blocks = unsigned((rows + tpb - 1) / tpb);
  switch (w.n) {
    case 32: w3_kernel<32><<<blocks, tpb>>>(dsl.p, w.trials, w.n_beta, w.n_eta, w.eta_max, w.steps, w.renorm, seed, rows, dout.p); break;
    case 64: w3_kernel<64><<<blocks, tpb>>>(dsl.p, w.trials, w.n_beta, w.n_eta, w.eta_max, w.steps, w.renorm, seed, rows, dout.p); break;
    default: throw std::invalid_argument("cuda::w3: n must be 32 or 64");
  }
  wl::Observations o;
  o.trials = rows;
  o.n_obs = 1;
  o.values = download(dout, std::size_t(rows));
  return o;
}

}  // namespace akm::cuda
