// measured_map — Monte-Carlo contraction and divergence of the AK buffer per grid point.
#include "akm/sim/measured_map.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>

#include "akm/sim/dist.hpp"
#include "akm/base/errors.hpp"
#include "akm/base/interrupt.hpp"
#include "akm/base/thread_pool.hpp"

namespace akm::phase {

const char* to_string(Keys k) { return k == Keys::shared ? "shared" : "per-point"; }

Keys parse_keys(const std::string& s, const char* flag) {
  if (s == "shared") return Keys::shared;
  if (s == "per-point") return Keys::per_point;
  throw InputError(flag, s, "must be shared or per-point");
}

int choose_lag(double abs_bt, int steps) {
  if (!(abs_bt < 1.0)) return std::min(steps, 10);
  if (abs_bt <= 0.0) return 1;
  const double k = std::round(2.0 / -std::log(abs_bt));
  return static_cast<int>(std::clamp(k, 1.0, static_cast<double>(steps)));
}

std::uint64_t point_seed(std::uint64_t seed, std::uint64_t point) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (point + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

namespace {

// A MeasurePoint as doubles (its two ints are exact), to gather points across MPI ranks.
constexpr long long kPacked = 13;

void pack(const MeasurePoint& m, std::vector<double>& v) {
  v.insert(v.end(), {m.eta, m.beta, static_cast<double>(m.direction), static_cast<double>(m.lag),
                     m.predicted_rate, m.measured_rate, m.rate_se, m.rate_z, m.mean_projection,
                     m.projection_se, m.diverged_fraction, m.growth, m.growth_se});
}

MeasurePoint unpack(const double* x) {
  MeasurePoint m;
  m.eta = x[0];
  m.beta = x[1];
  m.direction = static_cast<int>(x[2]);
  m.lag = static_cast<int>(x[3]);
  m.predicted_rate = x[4];
  m.measured_rate = x[5];
  m.rate_se = x[6];
  m.rate_z = x[7];
  m.mean_projection = x[8];
  m.projection_se = x[9];
  m.diverged_fraction = x[10];
  m.growth = x[11];
  m.growth_se = x[12];
  return m;
}

}  // namespace

std::vector<MeasurePoint> measure(const std::vector<std::pair<double, double>>& eta_beta,
                                  const Vec& lambda, const Vec& lam_key, int direction,
                                  const MeasureOptions& o) {
  require_at_least("--trials", o.trials, 2);
  require_at_least("--steps", o.steps, 1);
  if (!(o.ar_rho >= 0.0 && o.ar_rho < 1.0)) throw InputError("rho", show(o.ar_rho), "must be in [0, 1)");
  if (!(o.threshold > 1.0)) throw InputError("threshold", show(o.threshold), "must be > 1");
  const int n = static_cast<int>(lambda.size());
  if (direction < -1 || direction >= n)
    throw InputError("--direction", std::to_string(direction + 1), "must be all or in [1, n]");
  const Vec lam_sqrt = lambda.cwiseSqrt();
  const std::size_t total = eta_beta.size();
  // Shared keys read point 0's streams, so a one-point grid gives the per-point numbers.
  const std::uint64_t shared_seed = point_seed(o.seed, 0);
  // Per point: the direction (largest |β̃_i| when −1), its lag and the point's seed.
  std::vector<ops::PhasePoint> plan(total);
  for (std::size_t p = 0; p < total; ++p) {
    const auto [eta, beta] = eta_beta[p];
    int d = direction;
    if (d < 0) {
      d = 0;
      for (int i = 1; i < n; ++i)
        if (std::abs(theory::beta_tilde(beta, eta, lam_key[i])) >
            std::abs(theory::beta_tilde(beta, eta, lam_key[d])))
          d = i;
    }
    plan[p] = {eta, beta, d, choose_lag(std::abs(theory::beta_tilde(beta, eta, lam_key[d])), o.steps),
               o.keys == Keys::shared ? shared_seed : point_seed(o.seed, p)};
  }
  // The device backends run every trial of the grid in one call (point-major rows).
  const bool device_run = o.backend == Backend::cuda || o.backend == Backend::cuda_emulated;
  std::vector<ops::PhaseTrial> device;
  if (device_run) {
    device = ops::phase_measure(o, std::vector<double>(lam_sqrt.data(), lam_sqrt.data() + n), plan,
                                o.backend, {.threads = o.threads});
  }
  std::vector<MeasurePoint> out(total);
  std::atomic<long long> done{0};

  // One point's trial sums (in trial order) → its MeasurePoint; shared by both key modes.
  struct Sums {
    double sp = 0, sp2 = 0, sg = 0, sg2 = 0;
    long long div = 0, finite_g = 0;
    void add(const ops::PhaseTrial& t) {
      sp += t.projection;
      sp2 += t.projection * t.projection;
      if (std::isfinite(t.log_growth)) {
        sg += t.log_growth;
        sg2 += t.log_growth * t.log_growth;
        ++finite_g;
      }
      div += t.diverged ? 1 : 0;
    }
  };
  auto finish = [&](std::size_t p, const Sums& s) {
    const ops::PhasePoint& pp = plan[p];
    MeasurePoint m;
    m.eta = pp.eta;
    m.beta = pp.beta;
    m.direction = pp.direction;
    m.predicted_rate = std::abs(theory::beta_tilde(pp.beta, pp.eta, lam_key[pp.direction]));
    m.lag = pp.lag;
    const double R = static_cast<double>(o.trials);
    m.mean_projection = s.sp / R;
    m.projection_se = std::sqrt(std::max(0.0, (s.sp2 - s.sp * s.sp / R) / (R - 1)) / R);
    const double am = std::abs(m.mean_projection);
    m.measured_rate = std::pow(am, 1.0 / m.lag);
    // Delta method: d(|m|^{1/k}) = |m|^{1/k}/(k|m|) dm.
    m.rate_se = am > 0 ? m.measured_rate / (m.lag * am) * m.projection_se : std::numeric_limits<double>::infinity();
    m.rate_z = (m.measured_rate - m.predicted_rate) / m.rate_se;
    m.diverged_fraction = static_cast<double>(s.div) / R;
    if (s.finite_g >= 2) {
      const double G = static_cast<double>(s.finite_g);
      m.growth = s.sg / G / o.steps;
      m.growth_se = std::sqrt(std::max(0.0, (s.sg2 - s.sg * s.sg / G) / (G - 1)) / G) / o.steps;
    } else {
      m.growth = -std::numeric_limits<double>::infinity();
      m.growth_se = 0;
    }
    out[p] = m;
  };
  // Per point: its R trials (per-point keys, or any backend).
  auto one = [&](std::size_t p) {
    const ops::PhasePoint& pp = plan[p];
    Sums s;
    for (long long r = 0; r < o.trials; ++r) {
      if (r % 64 == 0) interrupt::throw_if_stop_requested();  // a point can be long
      ops::PhaseTrial t;
      if (device_run) {
        t = device[p * std::size_t(o.trials) + std::size_t(r)];
      } else if (o.backend == Backend::cpu) {
        t = ops::phase_trial_cpu(lam_sqrt.data(), n, o, pp.beta, pp.eta, pp.direction, pp.lag,
                                 pp.seed, static_cast<std::uint64_t>(r));
      } else {
        Stream keys(pp.seed, static_cast<std::uint64_t>(r), Purpose::keys);
        t = ops::phase_trial_reference(lam_sqrt, o, pp.beta, pp.eta, pp.direction, pp.lag, keys);
      }
      s.add(t);
    }
    finish(p, s);
  };
  // Shared keys on the CPU engine: a block of points [a, b) advances trial by trial on one key
  // sequence (ops::phase_trials_shared_cpu), summing each point's trials in trial order — the same
  // sums as `one`, and a point's trial does not depend on its block, so neither the blocking
  // nor the thread count changes a number.
  auto block = [&](std::size_t a, std::size_t b) {
    thread_local std::vector<ops::PhaseTrial> res;
    res.resize(b - a);
    std::vector<Sums> s(b - a);
    for (long long r = 0; r < o.trials; ++r) {
      if (r % 64 == 0) interrupt::throw_if_stop_requested();
      ops::phase_trials_shared_cpu(lam_sqrt.data(), n, o, plan.data() + a, static_cast<int>(b - a),
                                   shared_seed, static_cast<std::uint64_t>(r), res.data());
      for (std::size_t q = 0; q < b - a; ++q) s[q].add(res[q]);
    }
    for (std::size_t q = 0; q < b - a; ++q) finish(a + q, s[q]);
  };
  // Under MPI (dist.hpp) rank r measures a contiguous block of points and the blocks are
  // gathered: a point's numbers depend only on (seed, p), so every rank ends with the
  // single-process result.
  const bool split = dist::collective_here();
  const int P = split ? dist::size() : 1, me = split ? dist::rank() : 0;
  // Plain variables, not a structured binding: the worker lambda uses them, and clang 14
  // (the fuzz build) does not capture structured bindings.
  const std::pair<long long, long long> range = dist::block(static_cast<long long>(total), me, P);
  const long long lo = range.first, hi = range.second;
  const auto first = static_cast<std::size_t>(lo), last = static_cast<std::size_t>(hi);
  auto report = [&](long long points) {
    const long long d = done += points;  // this rank's points, scaled to the whole grid
    if (o.progress)
      o.progress(std::min<long long>(static_cast<long long>(total),
                                     d * static_cast<long long>(total) / std::max(1LL, hi - lo)),
                 static_cast<long long>(total));
  };
  // Shared keys: blocks of ≤ 512 points (the key is paid once per block and trial), small
  // enough that every thread gets work; the block size changes the speed only.
  const bool shared_engine = o.keys == Keys::shared && o.backend == Backend::cpu;
  const int threads = std::max(1, o.threads);
  const std::size_t bsize = std::clamp<std::size_t>(
      (last - first + 2 * std::size_t(threads) - 1) / (2 * std::size_t(threads)), 16, 512);
  if (shared_engine) {
    const std::size_t blocks = (last - first + bsize - 1) / bsize;
    parallel_for(0, blocks, threads, [&](std::size_t k) {
      const std::size_t a = first + k * bsize, b = std::min(last, a + bsize);
      block(a, b);
      report(static_cast<long long>(b - a));
    });
  } else {
    parallel_for(first, last, threads, [&](std::size_t p) {
      interrupt::throw_if_stop_requested();  // a host's Ctrl-C (interrupt.hpp)
      one(p);
      report(1);
    });
  }
  if (!split) return out;

  std::vector<double> mine;
  for (std::size_t p = first; p < last; ++p) pack(out[p], mine);
  std::vector<long long> counts;
  for (int r = 0; r < P; ++r) {
    const auto [a, b] = dist::block(static_cast<long long>(total), r, P);
    counts.push_back((b - a) * kPacked);
  }
  const std::vector<double> all = dist::allgather(mine, counts);
  for (std::size_t p = 0; p < total; ++p) out[p] = unpack(all.data() + p * kPacked);
  return out;
}

}  // namespace akm::phase
