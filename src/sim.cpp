// sim — the thread-pool Monte-Carlo driver with deterministic, order-fixed reductions.
#include "akm/sim.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace akm {

TrialStats::TrialStats(std::size_t n_obs)
    : mean_(Vec::Zero(static_cast<Eigen::Index>(n_obs))),
      m2_(Vec::Zero(static_cast<Eigen::Index>(n_obs))) {}

void TrialStats::add(const double* x) {
  ++count_;
  const double inv = 1.0 / static_cast<double>(count_);
  for (Eigen::Index j = 0; j < mean_.size(); ++j) {
    const double d = x[j] - mean_[j];
    mean_[j] += d * inv;
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
    mean_[j] += d * nb / n;
    m2_[j] += o.m2_[j] + d * d * na * nb / n;
  }
  count_ += o.count_;
}

Vec TrialStats::variance() const {
  if (count_ < 2) return Vec::Constant(mean_.size(), std::nan(""));
  return m2_ / static_cast<double>(count_ - 1);
}

Vec TrialStats::stderr_mean() const {
  return (variance() / static_cast<double>(count_)).array().sqrt().matrix();
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

}  // namespace

McResult monte_carlo(const McOptions& opts, std::size_t n_obs, const TrialKernel& kernel) {
  if (opts.trials < 2) throw std::invalid_argument("monte_carlo: need at least 2 trials");
  if (opts.groups < 0 || opts.groups > opts.trials)
    throw std::invalid_argument("monte_carlo: groups must be in [0, trials]");
  const auto chunks = make_chunks(opts.trials, std::max(1LL, opts.chunk_trials), opts.groups);

  McResult result;
  result.total = TrialStats(n_obs);
  result.groups.assign(static_cast<std::size_t>(opts.groups), TrialStats(n_obs));

  std::atomic<std::size_t> next{0};
  std::atomic<long long> done{0};
  std::mutex mu;
  std::map<std::size_t, TrialStats> pending;  // finished chunks waiting for their turn
  std::size_t merged = 0;
  std::exception_ptr error;

  auto worker = [&] {
    std::vector<double> obs(n_obs);
    for (;;) {
      const std::size_t k = next.fetch_add(1);
      if (k >= chunks.size()) return;
      TrialStats st(n_obs);
      try {
        for (long long t = chunks[k].begin; t < chunks[k].end; ++t) {
          kernel(t, obs.data());
          st.add(obs.data());
        }
      } catch (...) {
        std::lock_guard lock(mu);
        if (!error) error = std::current_exception();
        next = chunks.size();
        return;
      }
      const long long d = done.fetch_add(chunks[k].end - chunks[k].begin) +
                          (chunks[k].end - chunks[k].begin);
      std::lock_guard lock(mu);
      pending.emplace(k, std::move(st));
      // Merge in chunk order only: the floating-point result is thread-count independent.
      for (auto it = pending.find(merged); it != pending.end(); it = pending.find(merged)) {
        result.total.merge(it->second);
        if (opts.groups > 0) result.groups[static_cast<std::size_t>(chunks[merged].group)].merge(it->second);
        pending.erase(it);
        ++merged;
      }
      if (opts.progress) opts.progress(d, opts.trials);
    }
  };

  const int nt = std::min<long long>(resolve_threads(opts.threads), static_cast<long long>(chunks.size()));
  std::vector<std::thread> pool;
  for (int i = 1; i < nt; ++i) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
  return result;
}

std::pair<double, double> jackknife(const std::vector<TrialStats>& groups,
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
  double ss = 0;
  for (double v : loo) ss += (v - mean) * (v - mean);
  const double se = std::sqrt(ss * static_cast<double>(g - 1) / static_cast<double>(g));
  // Bias-corrected jackknife estimate.
  const double est = static_cast<double>(g) * full - static_cast<double>(g - 1) * mean;
  return {est, se};
}

}  // namespace akm
