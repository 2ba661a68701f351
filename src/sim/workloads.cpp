// workloads — what W1–W4 share: their spectrum, their observables' means, and W4's data. Each
// workload's plain reference, fast CPU path and CUDA kernel live side by side in
// src/sim/ops/<op>/{reference.cpp, cpu.cpp, cuda.cu}.
#include "akm/sim/workloads.hpp"

#include <cmath>

#include "akm/rules/kernels.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/rules.hpp"

namespace akm::wl {

Vec power_spectrum(int n, bool unit_trace) {
  Vec l(n);
  for (int i = 0; i < n; ++i) l[i] = 1.0 / (i + 1.0);
  if (unit_trace) l /= l.sum();
  return l;
}

std::pair<double, double> Observations::mean_se(int j, long long t0, long long t1) const {
  if (t1 < 0) t1 = trials;
  const double cnt = double(t1 - t0);
  double s = 0.0;
  for (long long t = t0; t < t1; ++t) s += at(t, j);
  const double mean = s / cnt;
  double ss = 0.0;
  for (long long t = t0; t < t1; ++t) ss += (at(t, j) - mean) * (at(t, j) - mean);
  return {mean, cnt > 1 ? std::sqrt(ss / (cnt - 1) / cnt) : 0.0};
}


void w4_data(const W4& w, std::uint64_t seed, Mat& M0, Mat& Delta, Mat& Xhat) {
  const Vec sl = power_spectrum(w.n, false).cwiseSqrt();
  M0.resize(w.m, w.n);
  Delta.resize(w.batch, w.m);
  Xhat.resize(w.batch, w.n);
  Stream si(seed, 0, Purpose::init);
  for (Eigen::Index j = 0; j < M0.cols(); ++j)
    for (Eigen::Index r = 0; r < M0.rows(); ++r) M0(r, j) = si.normal();
  for (int b = 0; b < w.batch; ++b) {
    Stream sk(seed, std::uint64_t(b), Purpose::keys), sn(seed, std::uint64_t(b), Purpose::noise);
    double nn = 0.0;
    for (int i = 0; i < w.n; ++i) {
      Xhat(b, i) = sl[i] * sk.normal();
      nn += Xhat(b, i) * Xhat(b, i);
    }
    Xhat.row(b) /= std::sqrt(nn);
    for (int i = 0; i < w.m; ++i) Delta(b, i) = sn.normal();
  }
}


}  // namespace akm::wl
