// run_trials — the thread pool behind akm::wl::run_trials (header-only: a template).
#pragma once
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "akm/base/interrupt.hpp"
#include "akm/sim/sim.hpp"

namespace akm::wl {

template <class Fn>
Observations run_trials(long long trials, int n_obs, int threads, Fn&& fn) {
  Observations o;
  o.trials = trials;
  o.n_obs = n_obs;
  o.values.assign(std::size_t(trials) * n_obs, 0.0);
  const int nt = std::max(1, std::min<int>(resolve_threads(threads), int(std::max(1LL, trials))));
  std::atomic<long long> next{0};
  constexpr long long chunk = 8;
  std::mutex mu;
  std::exception_ptr error;  // the first error of any worker, rethrown after the join
  auto worker = [&] {
    for (;;) {
      const long long b = next.fetch_add(chunk);
      if (b >= trials) return;
      try {
        interrupt::throw_if_stop_requested();  // a host's Ctrl-C (interrupt.hpp)
        for (long long t = b; t < std::min(trials, b + chunk); ++t)
          fn(t, o.values.data() + std::size_t(t) * n_obs);
      } catch (...) {
        std::lock_guard lock(mu);
        if (!error) error = std::current_exception();
        next = trials;
        return;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < nt; ++i) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
  return o;
}

}  // namespace akm::wl
