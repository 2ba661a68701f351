// ak_sgd_ema/cuda — W2 on the device: one block per trial (float).
#include "../../cuda/common.cuh"

namespace akm::cuda {
namespace {

using namespace detail;

// W2: one block per trial, thread j owns column j of E and M for both optimizers (m = 8
// rows in registers). Keys and noise come from the trial's streams: thread j draws normal j
// of the step's key batch from its own copy of the key stream advanced to the step (every
// step consumes exactly n/2 blocks), which is the same number the CPU draws.
constexpr int kM = 8;


__global__ void w2_kernel(const float* sl, int n, int steps, float alpha, float beta, float eta,
                          float sigma, unsigned long long seed, float* e_out) {
  const long long trial = blockIdx.x;
  const int j = threadIdx.x;
  __shared__ float sh[33];
  __shared__ float z[1024], eps[kM];
  float Ea[kM], Ma[kM], Ee[kM], Me[kM];
  {
    // W* column j: normals j·m … j·m + m − 1 of the init stream (pairs never straddle, m even)
    DStream si(seed, trial, kInit);
    si.ctr[0] = unsigned(j * kM / 2);
#pragma unroll
    for (int r = 0; r < kM; ++r) {
      Ea[r] = Ee[r] = -si.normal();
      Ma[r] = Me[r] = 0.f;
    }
  }
  DStream sk(seed, trial, kKeys), sn(seed, trial, kNoise);
  for (int step = 0; step < steps; ++step) {
    if ((j & 1) == 0) {  // even threads draw the pair (j, j+1) from block step·n/2 + j/2
      sk.ctr[0] = unsigned(step * (n / 2) + j / 2);
      sk.next_word = 4;
      sk.has_spare = false;
      z[j] = sk.normal();
      z[j + 1] = sk.normal();
    }
    if (j < kM / 2) {
      sn.ctr[0] = unsigned(step * (kM / 2) + j);
      sn.next_word = 4;
      sn.has_spare = false;
      eps[2 * j] = sigma * sn.normal();
      eps[2 * j + 1] = sigma * sn.normal();
    }
    __syncthreads();
    const float x = sl[j] * z[j];
    const float nrm = sqrtf(block_sum(x * x, sh));
    const float k = x / nrm;
    float ua[kM], ue[kM];
#pragma unroll
    for (int r = 0; r < kM; ++r) {
      const float d = block_sum(Ea[r] * x, sh) + eps[r];
      const float p = block_sum(Ma[r] * k, sh);
      ua[r] = eta * (d - p);
      ue[r] = (1.f - beta) * (block_sum(Ee[r] * x, sh) + eps[r]);
    }
#pragma unroll
    for (int r = 0; r < kM; ++r) {
      Ma[r] = beta * Ma[r] + ua[r] * k;
      Ea[r] -= alpha * Ma[r];
      Me[r] = beta * Me[r] + ue[r] * x;
      Ee[r] -= alpha * Me[r];
    }
    __syncthreads();
  }
  const std::size_t base = std::size_t(trial) * 2 * kM * n;
#pragma unroll
  for (int r = 0; r < kM; ++r) {
    e_out[base + std::size_t(j) * kM + r] = Ea[r];
    e_out[base + std::size_t(kM) * n + std::size_t(j) * kM + r] = Ee[r];
  }
}


}  // namespace

using namespace detail;

wl::Observations w2(const wl::W2& w, std::uint64_t seed) {
  require_device();
  if (w.m != kM || w.n % 32 != 0 || w.n > 1024)
    throw std::invalid_argument("cuda::w2: needs m = 8 and n a multiple of 32 up to 1024");
  const auto sl = sqrt_power(w.n, false);
  const std::size_t per = std::size_t(2) * kM * w.n;
  DevBuf<float> dsl(w.n), de(per * w.trials);
  upload(dsl, sl);
  w2_kernel<<<unsigned(w.trials), unsigned(w.n)>>>(dsl.p, w.n, w.steps, float(w.alpha),
                                                  float(w.beta), float(w.eta), float(w.sigma),
                                                  seed, de.p);
  const auto e = download(de, per * w.trials);
  wl::Observations o;
  o.trials = w.trials;
  o.n_obs = w.n_obs();
  o.values.resize(std::size_t(w.trials) * o.n_obs);
  for (long long t = 0; t < w.trials; ++t) {
    double* out = o.values.data() + std::size_t(t) * o.n_obs;
    const float* ea = e.data() + per * t;
    const float* ee = ea + std::size_t(kM) * w.n;
    double ta = 0.0, te = 0.0;
    for (int j = 0; j < w.n; ++j) {
      double a = 0.0, b = 0.0;
      for (int r = 0; r < kM; ++r) {
        a += double(ea[j * kM + r]) * double(ea[j * kM + r]);
        b += double(ee[j * kM + r]) * double(ee[j * kM + r]);
      }
      out[j] = a;
      out[w.n + j] = b;
      ta += a;
      te += b;
    }
    out[2 * w.n] = ta;
    out[2 * w.n + 1] = te;
  }
  return o;
}

}  // namespace akm::cuda
