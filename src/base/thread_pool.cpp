// thread_pool — see akm/base/thread_pool.hpp.
#include "akm/base/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace akm {

int resolve_threads(int threads) {
  if (threads > 0) return threads;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(hw);
}

void parallel_for(std::size_t first, std::size_t last, int threads,
                  const std::function<void(std::size_t)>& task, std::size_t grain) {
  if (last <= first) return;
  grain = std::max<std::size_t>(grain, 1);
  const std::size_t blocks = (last - first + grain - 1) / grain;
  const int nt = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(resolve_threads(threads)), blocks));
  std::atomic<std::size_t> next{first};
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::exception_ptr error;
  auto worker = [&] {
    for (;;) {
      if (stop.load(std::memory_order_relaxed)) return;
      const std::size_t b = next.fetch_add(grain);
      if (b >= last) return;
      try {
        for (std::size_t k = b; k < std::min(last, b + grain); ++k) task(k);
      } catch (...) {
        std::lock_guard lock(mu);
        if (!error) error = std::current_exception();
        stop = true;
        return;
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(std::max(0, nt - 1)));
  for (int i = 1; i < nt; ++i) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace akm
