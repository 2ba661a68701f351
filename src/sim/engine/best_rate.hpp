// best_rate — the timing rule the machine's ceilings share (limits.cpp: the FMA peak;
// clock.cpp: the clock and the FMA latency). Private to the engine.
#pragma once
#include <algorithm>
#include <chrono>

namespace akm::engine {

inline double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The best rate of `chain` (ops per call) over ten slices of seconds/10: preemption, frequency
// dips and anything else sharing the core (a hypervisor's neighbour on the same physical core)
// only lower a slice's rate, so the maximum is the core's own. The clock and the FMA peak use it.
inline constexpr int kSlices = 10;
template <class Chain>
inline double best_rate(double seconds, long long ops_per_call, Chain chain) {
  double best = 0.0;
  for (int slice = 0; slice < kSlices; ++slice) {
    long long ops = 0;
    const auto t0 = std::chrono::steady_clock::now();
    double el = 0.0;
    do {
      chain();
      ops += ops_per_call;
      el = since(t0);
    } while (el < seconds / kSlices);
    best = std::max(best, double(ops) / el);
  }
  return best;
}

}  // namespace akm::engine
