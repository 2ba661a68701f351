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
