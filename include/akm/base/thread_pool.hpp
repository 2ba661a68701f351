// thread_pool — the one worker pool of akm: every engine (Monte Carlo, workloads, phase maps,
// the closed-form phase grid) hands out its tasks here.
//
// Determinism is the caller's half of the contract and the pool's shape makes it easy: a
// task is an index into a work split the caller fixed beforehand (chunks of trials, grid
// points, row blocks), never "whatever a thread grabs", and each task writes its own slot
// (or is folded in index order by the caller, as monte_carlo does). The split, hence every
// number, is the same whatever the thread count; only the schedule changes.
#pragma once
#include <cstddef>
#include <functional>

namespace akm {

/// Number of worker threads `threads` resolves to (0 → hardware concurrency, ≥ 1).
int resolve_threads(int threads);

/// Runs task(k) for every k in [first, last) on resolve_threads(threads) workers (the calling
/// thread is one of them; never more workers than tasks). Workers take the next `grain`
/// indices in ascending order as they free up. If a task throws, no new tasks start, the
/// running ones finish, and the first exception is rethrown here.
void parallel_for(std::size_t first, std::size_t last, int threads,
                  const std::function<void(std::size_t)>& task, std::size_t grain = 1);

}  // namespace akm
