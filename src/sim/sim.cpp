// sim — the thread-pool Monte-Carlo driver with deterministic, order-fixed reductions.
#include "akm/sim/sim.hpp"

#include <algorithm>
#include <cstdlib>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "akm/base/interrupt.hpp"
#include "akm/sim/dist.hpp"

namespace akm {

TrialStats::TrialStats(std::size_t n_obs)
    : mean_(Vec::Zero(static_cast<Eigen::Index>(n_obs))),
      m2_(Vec::Zero(static_cast<Eigen::Index>(n_obs))),
      m3_(Vec::Zero(static_cast<Eigen::Index>(n_obs))) {}

void TrialStats::add(const double* x) {
  ++count_;
  const double n = static_cast<double>(count_), inv = 1.0 / n;
  for (Eigen::Index j = 0; j < mean_.size(); ++j) {
    const double d = x[j] - mean_[j];
    const double dn = d * inv;
    // Pébay (2008) one-pass third moment; uses M2 before this sample's update.
    m3_[j] += d * dn * dn * (n - 1.0) * (n - 2.0) - 3.0 * dn * m2_[j];
    mean_[j] += dn;
    m2_[j] += d * (x[j] - mean_[j]);
  }
}

void TrialStats::merge(const TrialStats& o) {
  if (o.count_ == 0) return;
  if (count_ == 0) {
    *this = o;
    return;
  }
  if (o.size() != size()) throw std::invalid_argument("TrialStats::merge: size mismatch");
  const double na = static_cast<double>(count_), nb = static_cast<double>(o.count_);
  const double n = na + nb;
  for (Eigen::Index j = 0; j < mean_.size(); ++j) {
    const double d = o.mean_[j] - mean_[j];
    // Pébay's pairwise merge of the third central moment (before M2 is combined).
    m3_[j] += o.m3_[j] + d * d * d * na * nb * (na - nb) / (n * n) +
              3.0 * d * (na * o.m2_[j] - nb * m2_[j]) / n;
    mean_[j] += d * nb / n;
    m2_[j] += o.m2_[j] + d * d * na * nb / n;
  }
  count_ += o.count_;
}

void TrialStats::pack(double* out) const {
  out[0] = static_cast<double>(count_);  // exact: counts stay far below 2^53
  const Eigen::Index n = mean_.size();
  for (Eigen::Index j = 0; j < n; ++j)
    out[1 + j] = mean_[j], out[1 + n + j] = m2_[j], out[1 + 2 * n + j] = m3_[j];
}

TrialStats TrialStats::unpack(const double* in, std::size_t n_obs) {
  TrialStats s(n_obs);
  s.count_ = static_cast<long long>(in[0]);
  const Eigen::Index n = s.mean_.size();
  for (Eigen::Index j = 0; j < n; ++j)
    s.mean_[j] = in[1 + j], s.m2_[j] = in[1 + n + j], s.m3_[j] = in[1 + 2 * n + j];
  return s;
}

Vec TrialStats::variance() const {
  if (count_ < 2) return Vec::Constant(mean_.size(), std::nan(""));
  return m2_ / static_cast<double>(count_ - 1);
}

Vec TrialStats::stderr_mean() const {
  return (variance() / static_cast<double>(count_)).array().sqrt().matrix();
}

Vec TrialStats::skewness_of_mean() const {
  Vec g(mean_.size());
  for (Eigen::Index j = 0; j < g.size(); ++j)
    g[j] = m2_[j] > 0.0 ? m3_[j] / std::pow(m2_[j], 1.5) : 0.0;
  return g;
}

MeanEstimate TrialStats::estimate(Eigen::Index j) const {
  MeanEstimate e;
  e.mean = mean_[j];
  e.se = count_ >= 2 ? std::sqrt(m2_[j] / static_cast<double>(count_ - 1) / static_cast<double>(count_))
                     : std::nan("");
  e.skew = m2_[j] > 0.0 ? m3_[j] / std::pow(m2_[j], 1.5) : 0.0;
  e.dof = static_cast<double>(count_ - 1);
  return e;
}

int resolve_threads(int threads) {
  if (threads > 0) return threads;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

namespace {

struct Chunk {
  long long begin, end;
  int group;
};

// Chunks never straddle a group boundary, and their layout depends only on the trial
// count, the chunk size and the number of groups — never on the thread count.
std::vector<Chunk> make_chunks(long long trials, long long chunk, int groups) {
  std::vector<Chunk> chunks;
  const int g_count = std::max(groups, 1);
  for (int g = 0; g < g_count; ++g) {
    const long long gb = trials * g / g_count, ge = trials * (g + 1) / g_count;
    for (long long b = gb; b < ge; b += chunk) chunks.push_back({b, std::min(ge, b + chunk), g});
  }
  return chunks;
}

// Runs chunks [first, last) on `threads` workers. `take(k, stats)` receives every finished
// chunk in chunk order (under a lock, so folding there is safe and order-fixed); `done(d)`
// gets the number of trials finished so far in this call.
void run_chunks(const std::vector<Chunk>& chunks, std::size_t first, std::size_t last, int threads,
                std::size_t n_obs, const TrialKernel& kernel,
                const std::function<void(std::size_t, const TrialStats&)>& take,
                const std::function<void(long long)>& done_trials) {
  std::atomic<std::size_t> next{first};
  std::atomic<long long> done{0};
  std::mutex mu;
  std::map<std::size_t, TrialStats> pending;  // finished chunks waiting for their turn
  std::size_t merged = first;
  std::exception_ptr error;

  auto worker = [&] {
    std::vector<double> obs(n_obs);
    for (;;) {
      const std::size_t k = next.fetch_add(1);
      if (k >= last) return;
      TrialStats st(n_obs);
      try {
        interrupt::throw_if_stop_requested();  // a host's Ctrl-C (interrupt.hpp)
        for (long long t = chunks[k].begin; t < chunks[k].end; ++t) {
          kernel(t, obs.data());
          st.add(obs.data());
        }
      } catch (...) {
        std::lock_guard lock(mu);
        if (!error) error = std::current_exception();
        next = last;
        return;
      }
      const long long d = done.fetch_add(chunks[k].end - chunks[k].begin) +
                          (chunks[k].end - chunks[k].begin);
      std::lock_guard lock(mu);
      pending.emplace(k, std::move(st));
      // Merge in chunk order only: the floating-point result is thread-count independent.
      for (auto it = pending.find(merged); it != pending.end(); it = pending.find(merged)) {
        take(merged, it->second);
        pending.erase(it);
        ++merged;
      }
      if (done_trials) done_trials(d);
    }
  };

  const int nt = static_cast<int>(std::min<long long>(resolve_threads(threads),
                                                      static_cast<long long>(last - first)));
  std::vector<std::thread> pool;
  for (int i = 1; i < nt; ++i) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
}

// Nesting depth of monte_carlo on this thread: only the outermost call on the MPI thread
// is split across ranks (a call inside a kernel runs wherever that trial runs).
thread_local int t_depth = 0;
struct DepthGuard {
  DepthGuard() { ++t_depth; }
  ~DepthGuard() { --t_depth; }
};

}  // namespace

std::size_t dist_round_bytes() {
  if (const char* v = std::getenv("AKM_DIST_ROUND_BYTES")) {
    char* end = nullptr;
    const unsigned long long b = std::strtoull(v, &end, 10);
    if (end != v && *end == '\0' && b > 0) return static_cast<std::size_t>(b);
  }
  return std::size_t{64} << 20;
}

McResult monte_carlo(const McOptions& opts, std::size_t n_obs, const TrialKernel& kernel) {
  if (opts.trials < 2) throw std::invalid_argument("monte_carlo: need at least 2 trials");
  if (opts.groups < 0 || opts.groups > opts.trials)
    throw std::invalid_argument("monte_carlo: groups must be in [0, trials]");
  const auto chunks = make_chunks(opts.trials, std::max(1LL, opts.chunk_trials), opts.groups);

  McResult result;
  result.total = TrialStats(n_obs);
  result.groups.assign(static_cast<std::size_t>(opts.groups), TrialStats(n_obs));
  auto fold = [&](std::size_t k, const TrialStats& st) {
    result.total.merge(st);
    if (opts.groups > 0) result.groups[static_cast<std::size_t>(chunks[k].group)].merge(st);
  };
  const bool split = t_depth == 0 && dist::collective_here();
  const DepthGuard depth;
  if (!split) {
    std::function<void(long long)> report;
    if (opts.progress) report = [&](long long d) { opts.progress(d, opts.trials); };
    run_chunks(chunks, 0, chunks.size(), opts.threads, n_obs, kernel, fold, report);
    return result;
  }

  // Across ranks (dist.hpp): the chunks are cut into rounds that fit dist_round_bytes();
  // in each round rank r runs a contiguous block of chunks, every chunk's statistics are
  // gathered on every rank, and all ranks fold them in chunk order — the same folds as the
  // single-process path above, hence bit-identical totals and groups.
  const int P = dist::size(), me = dist::rank();
  const std::size_t C = chunks.size(), per = TrialStats::packed_size(n_obs);
  const std::size_t round = std::min(C, std::max<std::size_t>({1, static_cast<std::size_t>(P),
                                                               dist_round_bytes() / (per * sizeof(double))}));
  long long mine_total = 0, mine_done = 0;  // this rank's trials, for the progress estimate
  for (std::size_t b = 0; b < C; b += round) {
    const auto [lo, hi] = dist::block(static_cast<long long>(std::min(round, C - b)), me, P);
    for (long long k = lo; k < hi; ++k)
      mine_total += chunks[b + static_cast<std::size_t>(k)].end - chunks[b + static_cast<std::size_t>(k)].begin;
  }
  for (std::size_t b = 0; b < C; b += round) {
    const std::size_t len = std::min(round, C - b);
    std::vector<long long> counts(static_cast<std::size_t>(P));
    for (int r = 0; r < P; ++r) {
      const auto [lo, hi] = dist::block(static_cast<long long>(len), r, P);
      counts[static_cast<std::size_t>(r)] = (hi - lo) * static_cast<long long>(per);
    }
    const auto [lo, hi] = dist::block(static_cast<long long>(len), me, P);
    const std::size_t first = b + static_cast<std::size_t>(lo), last = b + static_cast<std::size_t>(hi);
    std::vector<double> mine((last - first) * per);
    std::function<void(long long)> report;
    if (opts.progress)  // this rank's share, scaled to the whole run
      report = [&](long long d) {
        opts.progress(std::min(opts.trials, (mine_done + d) * opts.trials / std::max(1LL, mine_total)), opts.trials);
      };
    if (last > first)
      run_chunks(chunks, first, last, opts.threads, n_obs, kernel,
                 [&](std::size_t k, const TrialStats& st) { st.pack(mine.data() + (k - first) * per); }, report);
    for (std::size_t k = first; k < last; ++k) mine_done += chunks[k].end - chunks[k].begin;
    const std::vector<double> all = dist::allgather(mine, counts);
    for (std::size_t i = 0; i < len; ++i) fold(b + i, TrialStats::unpack(all.data() + i * per, n_obs));
  }
  return result;
}

std::pair<double, double> jackknife(const std::vector<TrialStats>& groups,
                                    const std::function<double(const Vec&)>& stat) {
  const MeanEstimate e = jackknife_estimate(groups, stat);
  return {e.mean, e.se};
}

MeanEstimate jackknife_estimate(const std::vector<TrialStats>& groups,
                                const std::function<double(const Vec&)>& stat) {
  const std::size_t g = groups.size();
  if (g < 2) throw std::invalid_argument("jackknife: need at least 2 groups");
  // Pooled sums once; each leave-one-out mean is (Σ − group sum)/(N − n_k): O(g·n_obs)
  // instead of re-merging g−1 groups g times.
  Vec sum = Vec::Zero(static_cast<Eigen::Index>(groups[0].size()));
  double n_all = 0;
  for (const auto& s : groups) {
    sum += static_cast<double>(s.count()) * s.mean();
    n_all += static_cast<double>(s.count());
  }
  const double full = stat(sum / n_all);
  std::vector<double> loo(g);
  for (std::size_t k = 0; k < g; ++k) {
    const double nk = static_cast<double>(groups[k].count());
    loo[k] = stat((sum - nk * groups[k].mean()) / (n_all - nk));
  }
  double mean = 0;
  for (double v : loo) mean += v;
  mean /= static_cast<double>(g);
  double ss = 0, s3 = 0;
  for (double v : loo) ss += (v - mean) * (v - mean), s3 += (v - mean) * (v - mean) * (v - mean);
  MeanEstimate e;
  e.se = std::sqrt(ss * static_cast<double>(g - 1) / static_cast<double>(g));
  // Bias-corrected jackknife estimate = mean of the pseudo-values g·full − (g−1)·loo_k,
  // whose deviations are −(g−1) times those of loo: the skewness of their mean is −m3/m2^{3/2}.
  e.mean = static_cast<double>(g) * full - static_cast<double>(g - 1) * mean;
  e.skew = ss > 0.0 ? -s3 / std::pow(ss, 1.5) : 0.0;
  e.dof = static_cast<double>(g - 1);
  return e;
}

}  // namespace akm
