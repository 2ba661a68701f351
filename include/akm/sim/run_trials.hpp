// run_trials — akm::wl::run_trials on the shared pool (akm/base/thread_pool.hpp).
#pragma once
#include <cstddef>

#include "akm/base/interrupt.hpp"
#include "akm/base/thread_pool.hpp"
#include "akm/sim/sim.hpp"

namespace akm::wl {

template <class Fn>
Observations run_trials(long long trials, int n_obs, int threads, Fn&& fn) {
  Observations o;
  o.trials = trials;
  o.n_obs = n_obs;
  o.values.assign(std::size_t(trials) * n_obs, 0.0);
  // Each trial writes its own row, so the schedule cannot change a number.
  parallel_for(0, std::size_t(trials > 0 ? trials : 0), threads,
               [&](std::size_t t) {
                 if (t % 8 == 0) interrupt::throw_if_stop_requested();  // a host's Ctrl-C
                 fn((long long)t, o.values.data() + t * std::size_t(n_obs));
               }, 8);
  return o;
}

}  // namespace akm::wl
