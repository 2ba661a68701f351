// phase_measure/cuda — every trial of `akm phase --measure` on the device (double).
#include "../../cuda/common.cuh"

namespace akm::cuda {
namespace {

using namespace detail;

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

}  // namespace

using namespace detail;

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

}  // namespace akm::cuda
