// workloads — plain reference implementations of W1–W4 (double, Eigen, akm::Stream).
//
// These are the slow, obviously-right versions: the per-trial kernels of akm/rules/kernels.hpp
// driven one trial at a time. The fast engine (src/sim/engine/) is tested against them.
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

Observations w1_reference(const W1& w, std::uint64_t seed, int threads) {
  const Vec sl = power_spectrum(w.n, false).cwiseSqrt();
  return run_trials(w.trials, w.n_obs(), threads, [&](long long trial, double* out) {
    Stream s(seed, std::uint64_t(trial), Purpose::keys);
    Mat P = Mat::Constant(1, w.n, 1.0 / std::sqrt(double(w.n)));
    Vec x(w.n), k(w.n), r(1);
    for (int t = 0; t < w.steps; ++t) {
      kern::gaussian_key(s, sl, x);
      kern::key_for(Key::normalized, x, k);
      kern::transport_step(P, k, w.beta, w.eta, r);
    }
    for (int i = 0; i < w.n; ++i) out[i] = P(0, i);
    out[w.n] = P.squaredNorm();
  });
}

Observations w2_reference(const W2& w, std::uint64_t seed, int threads) {
  const Vec sl = power_spectrum(w.n, false).cwiseSqrt();
  return run_trials(w.trials, w.n_obs(), threads, [&](long long trial, double* out) {
    Stream si(seed, std::uint64_t(trial), Purpose::init);
    Stream sk(seed, std::uint64_t(trial), Purpose::keys);
    Stream sn(seed, std::uint64_t(trial), Purpose::noise);
    Mat E0(w.m, w.n);
    for (int j = 0; j < w.n; ++j)
      for (int r = 0; r < w.m; ++r) E0(r, j) = -si.normal();  // E₀ = −W*
    Mat Eak = E0, Eema = E0;
    Mat Mak = Mat::Zero(w.m, w.n), Mema = Mat::Zero(w.m, w.n);
    Vec x(w.n), k(w.n), eps(w.m), d(w.m), r(w.m);
    for (int t = 0; t < w.steps; ++t) {
      kern::gaussian_key(sk, sl, x);
      for (int i = 0; i < w.m; ++i) eps[i] = w.sigma * sn.normal();
      kern::key_for(Key::normalized, x, k);
      d.noalias() = Eak * x;
      d += eps;
      kern::ak_step(Mak, d, k, w.beta, w.eta, r);
      Eak -= w.alpha * Mak;
      d.noalias() = Eema * x;
      d += eps;
      kern::ema_step(Mema, d, x, w.beta);
      Eema -= w.alpha * Mema;
    }
    double tot_ak = 0.0, tot_ema = 0.0;
    for (int i = 0; i < w.n; ++i) {
      out[i] = Eak.col(i).squaredNorm();
      out[w.n + i] = Eema.col(i).squaredNorm();
      tot_ak += out[i];
      tot_ema += out[w.n + i];
    }
    out[2 * w.n] = tot_ak;
    out[2 * w.n + 1] = tot_ema;
  });
}

Observations w3_reference(const W3& w, std::uint64_t seed, int threads) {
  const Vec sl = power_spectrum(w.n, true).cwiseSqrt();
  const long long total = w.trials * w.points();
  return run_trials(total, 1, threads, [&](long long row, double* out) {
    const int p = int(row / w.trials);
    const double eta = w.eta(p / w.n_beta), beta = w.beta(p % w.n_beta);
    Stream s(seed, std::uint64_t(row), Purpose::keys);
    Mat P = Mat::Constant(1, w.n, 1.0 / std::sqrt(double(w.n)));
    Vec x(w.n), r(1);
    double log_norm = 0.0;
    for (int t = 0; t < w.steps; ++t) {
      kern::gaussian_key(s, sl, x);
      kern::transport_step(P, x, beta, eta, r);  // raw key: v(βI − ηxxᵀ)
      if ((t + 1) % w.renorm == 0 || t + 1 == w.steps) {
        const double nv = P.norm();
        log_norm += std::log(nv);
        P /= nv;
      }
    }
    out[0] = log_norm / w.steps;
  });
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

W4Result w4_reference(const W4& w, const Mat& M0, const Mat& Delta, const Mat& Xhat) {
  W4Result r{M0, M0};
  rules::deployed(r.gram, Delta, Xhat, w.beta, w.eta, rules::Order::gram);
  rules::deployed(r.through_n, Delta, Xhat, w.beta, w.eta, rules::Order::through_n);
  return r;
}

}  // namespace akm::wl
