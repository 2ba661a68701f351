// fit/cuda — the fitting workload of `akm simulate` on the device (float state).
#include "../../cuda/common.cuh"

namespace akm::cuda {
namespace {

using namespace detail;

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

}  // namespace

using namespace detail;

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

}  // namespace akm::cuda
