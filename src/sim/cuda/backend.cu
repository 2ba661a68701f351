// backend.cu — CUDA launchers for W1–W4 (issue #6), float on the device.
//
// Streams: a device copy of akm::Stream (Philox4x32-10 keyed by the seed, counter {block,
// purpose, trial}; u = (bits>>11)·2⁻⁵³ with the k = 0 redraw; Box–Muller pairs, cos first)
// with the uniform rounded to float before logf/sincosf, exactly as the float CPU engine
// does — so CPU and GPU runs of one seed agree to float rounding (the transcendental
// functions and summation orders differ by ulps).
#include <cuda_runtime.h>
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <Random123/philox.h>

#include "akm/sim/cuda.hpp"

namespace akm::cuda {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check(cublasStatus_t s, const char* what) {
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

// W2: one block per trial, thread j owns column j of E and M for both optimizers (m = 8
// rows in registers). Keys and noise come from the trial's streams: thread j draws normal j
// of the step's key batch from its own copy of the key stream advanced to the step (every
// step consumes exactly n/2 blocks), which is the same number the CPU draws.
constexpr int kM = 8;

__device__ float block_sum(float v, float* sh) {
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


// Fit (akm simulate): one thread per trial of a batch of B, state and moments in global
// memory laid out [quantity·n + i]·B + b (coalesced across the batch). The float state and
// arithmetic of the float CPU engine (k = x/‖x‖, δ = e·x + σε), moments in double.
__global__ void fit_kernel(const float* sl, int n, int steps, float alpha, float beta, float eta,
                           float sigma, float omb, bool normalized, unsigned long long seed,
                           long long trial0, int B, float* st, double* q) {
  const int b = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (b >= B) return;
  const long long trial = trial0 + b;
  auto S = [&](int arr, int i) -> float& { return st[(std::size_t(arr) * n + i) * B + b]; };
  auto Q = [&](int arm, int j, int i) -> double& {
    return q[(std::size_t(8 * arm + j) * n + i) * B + b];
  };
  for (int i = 0; i < n; ++i) {
    S(0, i) = S(2, i) = 1.f;  // e (AK), e (EMA)
    S(1, i) = S(3, i) = 0.f;  // μ (AK), μ (EMA)
    for (int a = 0; a < 2; ++a)
      for (int j = 0; j < 8; ++j) Q(a, j, i) = 0.0;
  }
  DStream keys(seed, trial, kKeys), noise(seed, trial, kNoise);
  for (int step = 0; step < steps; ++step) {
    float nn = 0.f;
    for (int i = 0; i < n; ++i) {
      const float x = sl[i] * keys.normal();
      S(4, i) = x;
      nn += x * x;
    }
    const float nrm = sqrtf(nn);
    const float eps = sigma * noise.normal();
    float dak = 0.f, pak = 0.f, dema = 0.f;
    for (int i = 0; i < n; ++i) {
      const float x = S(4, i), k = normalized ? x / nrm : x;
      dak += S(0, i) * x;
      pak += S(1, i) * k;
      dema += S(2, i) * x;
    }
    const float u[2] = {eta * ((dak + eps) - pak), omb * (dema + eps)};  // omb = float(1 − β)
    for (int i = 0; i < n; ++i) {
      const float x = S(4, i), k = normalized ? x / nrm : x;
      for (int a = 0; a < 2; ++a) {
        float& e = S(2 * a, i);
        float& mu = S(2 * a + 1, i);
        const float m1 = beta * mu + u[a] * (a == 0 ? k : x);
        const float e1 = e - alpha * m1;
        const double ed = e, md = mu, e1d = e1, m1d = m1;
        Q(a, 0, i) += ed * ed;
        Q(a, 1, i) += ed * md;
        Q(a, 2, i) += md * md;
        Q(a, 3, i) += e1d * ed;
        Q(a, 4, i) += e1d * md;
        Q(a, 5, i) += m1d * ed;
        Q(a, 6, i) += m1d * md;
        e = e1;
        mu = m1;
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    Q(0, 7, i) = S(0, i);
    Q(1, 7, i) = S(2, i);
  }
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

struct PhaseArgs {
  int n, steps;
  bool normalized;
  double ar, innov, log_thr;
  long long trials, row0, nb;  ///< trials per point; this batch is rows [row0, row0 + nb)
};

// One thread per (point, trial): phase::measure_trial line for line; v, x, k in global
// scratch laid out [i·rows + row] (coalesced across threads).
__global__ void phase_kernel(const double* lam_sqrt, PhaseArgs a, const double* pbeta,
                             const double* peta, const int* pdir, const int* plag,
                             const unsigned long long* pseed, double* scratch, double* proj,
                             double* growth, int* diverged) {
  const long long local = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (local >= a.nb) return;
  const long long row = a.row0 + local;
  const long long p = row / a.trials, r = row % a.trials;
  const double beta = pbeta[p], eta = peta[p];
  const int d = pdir[p], lag = plag[p], n = a.n;
  double* v = scratch;
  double* x = scratch + std::size_t(n) * a.nb;
  double* k = scratch + 2 * std::size_t(n) * a.nb;
  auto at = [&](int i) { return std::size_t(i) * a.nb + local; };
  DStreamD keys(pseed[p], (unsigned long long)r, kKeys);
  const double v0 = 1.0 / sqrt(double(n));
  for (int i = 0; i < n; ++i) {
    v[at(i)] = v0;
    x[at(i)] = lam_sqrt[i] * keys.normal();
  }
  double log_scale = 0.0, pr = 0.0, lg = 0.0;
  int div = 0;
  for (int t = 1; t <= a.steps; ++t) {
    if (t > 1)
      for (int i = 0; i < n; ++i) x[at(i)] = a.ar * x[at(i)] + a.innov * lam_sqrt[i] * keys.normal();
    double inv = 1.0;
    if (a.normalized) {
      double nn = 0.0;
      for (int i = 0; i < n; ++i) nn += x[at(i)] * x[at(i)];
      inv = 1.0 / sqrt(nn);
    }
    double dot = 0.0;
    for (int i = 0; i < n; ++i) {
      k[at(i)] = a.normalized ? x[at(i)] * inv : x[at(i)];
      dot += v[at(i)] * k[at(i)];
    }
    double nrm2 = 0.0;
    for (int i = 0; i < n; ++i) {
      const double vi = beta * v[at(i)] - eta * dot * k[at(i)];
      v[at(i)] = vi;
      nrm2 += vi * vi;
    }
    if (t == lag) pr = v[at(d)] * exp(log_scale) / v0;
    const double log_n2 = log(nrm2) + 2.0 * log_scale;
    if (log_n2 > a.log_thr) div = 1;
    if (nrm2 == 0.0) {
      lg = -INFINITY;
      break;
    }
    if (nrm2 > 1e100 || nrm2 < 1e-100) {
      const double s = sqrt(nrm2);
      for (int i = 0; i < n; ++i) v[at(i)] /= s;
      log_scale += log(s);
    }
    if (t == a.steps) lg = log_n2;
  }
  proj[local] = pr;
  growth[local] = lg;
  diverged[local] = div;
}

std::vector<float> sqrt_power(int n, bool unit_trace) {
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

void require_device() {
  std::string why;
  if (device_name(&why).empty()) throw std::runtime_error("no CUDA device: " + why);
}

}  // namespace

bool built() { return true; }

std::string device_name(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (why) *why = e != cudaSuccess ? cudaGetErrorString(e) : "no device";
    return "";
  }
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
  return p.name;
}

double device_fp32_peak() {
  int sms = 0, khz = 0, major = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) return 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) != cudaSuccess) return 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  const int lanes = major >= 8 ? 128 : 64;  // FP32 lanes per SM (Hopper: 128)
  return 2.0 * sms * lanes * khz * 1e3;
}

double device_mem_bandwidth() {
  int khz = 0, bits = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, 0) != cudaSuccess) return 0;
  if (cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, 0) != cudaSuccess) return 0;
  return 2.0 * khz * 1e3 * bits / 8.0;  // double data rate
}

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

wl::Observations fit(const wl::Fit& w, std::uint64_t seed) {
  require_device();
  const int n = w.n();
  std::vector<float> sl(n);
  for (int i = 0; i < n; ++i) sl[i] = float(std::sqrt(w.lambda[i]));
  // Batch size: state (5n floats) and moments (16n doubles) per trial within ~1 GiB.
  const std::size_t per_trial = std::size_t(n) * (5 * sizeof(float) + 16 * sizeof(double));
  const long long B = std::max(1LL, std::min<long long>(w.trials, (1LL << 30) / (long long)per_trial));
  DevBuf<float> dsl(n), dst(std::size_t(5) * n * B);
  DevBuf<double> dq(std::size_t(16) * n * B);
  upload(dsl, sl);
  wl::Observations o;
  o.trials = w.groups;
  o.n_obs = w.n_obs();
  o.values.assign(std::size_t(w.groups) * o.n_obs, 0.0);
  int g = 0;
  for (long long t0 = 0; t0 < w.trials; t0 += B) {
    const int nb = int(std::min<long long>(B, w.trials - t0));
    const int tpb = 128;
    fit_kernel<<<unsigned((nb + tpb - 1) / tpb), tpb>>>(
        dsl.p, n, w.steps, float(w.alpha), float(w.beta), float(w.eta), float(w.sigma),
        float(1.0 - w.beta), w.normalized, seed, t0, nb, dst.p, dq.p);
    const auto q = download(dq, std::size_t(16) * n * nb);
    // Group sums in trial order (as the CPU engine adds them), so the result is fixed.
    for (int b = 0; b < nb; ++b) {
      while (t0 + b >= w.group_begin(g + 1)) ++g;
      double* out = o.values.data() + std::size_t(g) * o.n_obs;
      for (int j = 0; j < o.n_obs; ++j) out[j] += q[std::size_t(j) * nb + b];
    }
  }
  for (int k = 0; k < w.groups; ++k) {
    const double c = double(w.group_begin(k + 1) - w.group_begin(k));
    for (int j = 0; j < o.n_obs; ++j) o.values[std::size_t(k) * o.n_obs + j] /= c;
  }
  return o;
}

std::vector<phase::TrialResult> phase_trials(const std::vector<double>& lam_sqrt,
                                             const phase::MeasureOptions& o,
                                             const std::vector<phase::PointPlan>& points) {
  require_device();
  const int n = int(lam_sqrt.size());
  const long long P = (long long)points.size(), rows = P * o.trials;
  std::vector<double> beta(P), eta(P);
  std::vector<int> dir(P), lag(P);
  std::vector<unsigned long long> seed(P);
  for (long long p = 0; p < P; ++p) {
    beta[p] = points[p].beta;
    eta[p] = points[p].eta;
    dir[p] = points[p].direction;
    lag[p] = points[p].lag;
    seed[p] = points[p].seed;
  }
  std::vector<phase::TrialResult> out(static_cast<std::size_t>(rows));
  // Rows in batches whose scratch (3n doubles each) fits in ~1 GiB.
  const long long B = std::max(1LL, std::min<long long>(rows, (1LL << 30) / (24LL * n)));
  DevBuf<double> dsl(n), dbeta(P), deta(P), dscr(std::size_t(3) * n * B), dproj(B), dgrowth(B);
  DevBuf<int> ddir(P), dlag(P), ddiv(B);
  DevBuf<unsigned long long> dseed(P);
  upload(dsl, lam_sqrt);
  upload(dbeta, beta);
  upload(deta, eta);
  upload(ddir, dir);
  upload(dlag, lag);
  upload(dseed, seed);
  for (long long r0 = 0; r0 < rows; r0 += B) {
    const long long nb = std::min(B, rows - r0);
    const PhaseArgs a{n, o.steps, o.key == Key::normalized, o.ar_rho,
                      std::sqrt(1.0 - o.ar_rho * o.ar_rho), std::log(o.threshold), o.trials, r0, nb};
    const int tpb = 128;
    phase_kernel<<<unsigned((nb + tpb - 1) / tpb), tpb>>>(dsl.p, a, dbeta.p, deta.p, ddir.p, dlag.p,
                                                         dseed.p, dscr.p, dproj.p, dgrowth.p, ddiv.p);
    const auto pr = download(dproj, std::size_t(nb));
    const auto gr = download(dgrowth, std::size_t(nb));
    const auto dv = download(ddiv, std::size_t(nb));
    for (long long b = 0; b < nb; ++b)
      out[std::size_t(r0 + b)] = {pr[std::size_t(b)], gr[std::size_t(b)], dv[std::size_t(b)] != 0};
  }
  return out;
}

wl::W4Result w4(const wl::W4& w, const Mat& M0, const Mat& Delta, const Mat& Xhat) {
  require_device();
  const int m = int(M0.rows()), n = int(M0.cols()), N = int(Xhat.rows());
  auto to_f = [](const Mat& a) { return std::vector<float>(a.data(), a.data() + a.size()); };
  DevBuf<float> dM(std::size_t(m) * n), dD(std::size_t(N) * m), dX(std::size_t(N) * n),
      dR(std::size_t(m) * n), dS(std::size_t(n) * n), dT(std::size_t(m) * N);
  upload(dM, to_f(M0));
  upload(dD, to_f(Delta));
  upload(dX, to_f(Xhat));
  cublasHandle_t h;
  check(cublasCreate(&h), "cublasCreate");
  wl::W4Result res{Mat(m, n), Mat(m, n)};
  const float beta = float(w.beta), eta = float(w.eta), inv_n = 1.f / float(N);
  for (int gram = 1; gram >= 0; --gram) {
    // R = βM;  R += (η/N) ΔᵀX̂  [G];  then R −= η M Σ̂_B in the chosen order [eq:dispatch].
    check(cudaMemcpy(dR.p, dM.p, sizeof(float) * m * n, cudaMemcpyDeviceToDevice), "copy");
    check(cublasSscal(h, m * n, &beta, dR.p, 1), "sscal");
    const float a_g = eta * inv_n, one = 1.f, zero = 0.f, minus_eta = -eta, mi = -eta * inv_n;
    check(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, N, &a_g, dD.p, N, dX.p, N, &one, dR.p, m), "G");
    if (gram) {
      check(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, N, &inv_n, dX.p, N, dX.p, N, &zero, dS.p, n), "Σ̂");
      check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, n, &minus_eta, dM.p, m, dS.p, n, &one, dR.p, m), "MΣ̂");
    } else {
      check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, N, n, &one, dM.p, m, dX.p, N, &zero, dT.p, m), "MX̂ᵀ");
      check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, N, &mi, dT.p, m, dX.p, N, &one, dR.p, m), "(MX̂ᵀ)X̂");
    }
    const auto r = download(dR, std::size_t(m) * n);
    Mat& dst = gram ? res.gram : res.through_n;
    for (std::size_t i = 0; i < r.size(); ++i) dst.data()[i] = r[i];
  }
  cublasDestroy(h);
  return res;
}

}  // namespace akm::cuda
