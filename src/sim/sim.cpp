// sim — the thread-pool Monte-Carlo driver with deterministic, order-fixed reductions.
#include "akm/sim/sim.hpp"

#include <algorithm>
#include <cstdlib>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>

#include "akm/base/interrupt.hpp"
#include "akm/base/thread_pool.hpp"
#include "akm/sim/dist.hpp"

namespace akm {

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

// The chunks of a run, after refusing options no run can have.
std::vector<Chunk> checked_chunks(const McOptions& opts) {
  if (opts.trials < 2) throw std::invalid_argument("monte_carlo: need at least 2 trials");
  if (opts.groups < 0 || opts.groups > opts.trials)
    throw std::invalid_argument("monte_carlo: groups must be in [0, trials]");
  return make_chunks(opts.trials, std::max(1LL, opts.chunk_trials), opts.groups);
}

// Zero statistics for all trials and for each group.
McResult empty_result(const McOptions& opts, std::size_t n_obs) {
  McResult result;
  result.total = TrialStats(n_obs);
  result.groups.assign(static_cast<std::size_t>(opts.groups), TrialStats(n_obs));
  return result;
}

// Runs chunks [first, last) on the shared pool (akm/base/thread_pool.hpp). `take(k, stats)`
// receives every finished chunk in chunk order (under a lock, so folding there is safe and
// order-fixed); `done(d)` gets the number of trials finished so far in this call.
void run_chunks(const std::vector<Chunk>& chunks, std::size_t first, std::size_t last, int threads,
                std::size_t n_obs, const TrialKernel& kernel,
                const std::function<void(std::size_t, const TrialStats&)>& take,
                const std::function<void(long long)>& done_trials) {
  std::atomic<long long> done{0};
  std::mutex mu;
  std::map<std::size_t, TrialStats> pending;  // finished chunks waiting for their turn
  std::size_t merged = first;
  parallel_for(first, last, threads, [&](std::size_t k) {
    std::vector<double> obs(n_obs);
    interrupt::throw_if_stop_requested();  // a host's Ctrl-C (interrupt.hpp)
    TrialStats st(n_obs);
    for (long long t = chunks[k].begin; t < chunks[k].end; ++t) {
      kernel(t, obs.data());
      st.add(obs.data());
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
  });
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
  const auto chunks = checked_chunks(opts);
  McResult result = empty_result(opts, n_obs);
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

McResult monte_carlo_rows(const McOptions& opts, std::size_t n_obs, const RowsKernel& rows, long long batch) {
  if (batch <= 0 || (t_depth == 0 && dist::collective_here()))
    return monte_carlo(opts, n_obs, [&](long long t, double* out) { rows(t, 1, 1, out); });
  const auto chunks = checked_chunks(opts);
  McResult result = empty_result(opts, n_obs);
  const DepthGuard depth;
  std::vector<double> buf;
  for (std::size_t k = 0; k < chunks.size();) {
    // Whole chunks from k until the call holds at least `batch` trials.
    const long long first = chunks[k].begin;
    std::size_t k1 = k + 1;
    while (k1 < chunks.size() && chunks[k1 - 1].end - first < batch) ++k1;
    const long long count = chunks[k1 - 1].end - first;
    interrupt::throw_if_stop_requested();
    buf.assign(static_cast<std::size_t>(count) * n_obs, 0.0);
    rows(first, count, opts.threads, buf.data());
    std::vector<TrialStats> st(k1 - k, TrialStats(n_obs));
    parallel_for(k, k1, opts.threads, [&](std::size_t c) {
      for (long long t = chunks[c].begin; t < chunks[c].end; ++t)
        st[c - k].add(buf.data() + static_cast<std::size_t>(t - first) * n_obs);
    });
    for (std::size_t c = k; c < k1; ++c) {  // chunk order, as monte_carlo() folds
      result.total.merge(st[c - k]);
      if (opts.groups > 0) result.groups[static_cast<std::size_t>(chunks[c].group)].merge(st[c - k]);
    }
    if (opts.progress) opts.progress(chunks[k1 - 1].end, opts.trials);
    k = k1;
  }
  return result;
}

}  // namespace akm
