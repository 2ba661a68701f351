// python_training — what the claims that train networks through akm.torch (T23, T24) share: the
// seed a Python training receives, and tuning under the protocol (problems/protocol.hpp) from
// final losses that one Python call computed for every (configuration, tuning seed).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "akm/base/thread_pool.hpp"  // resolve_threads: the worker processes
#include "akm/problems/protocol.hpp"

namespace akm::exp {

/// A protocol seed as the Python trainings take it (torch and NumPy seeds: [0, 2^31)).
inline long long python_seed(std::uint64_t s) { return static_cast<long long>(s % (1ULL << 31)); }

/// Tunes one arm under the protocol from the final losses already computed, keyed by
/// (configuration index, tuning seed); the protocol's selection rule, written once in tune().
inline Tuning tune_from(const std::map<std::pair<std::size_t, std::uint64_t>, double>& final_loss,
                        std::size_t space_size, const ProtocolSpec& spec, const SeedPlan& plan, std::uint64_t seed,
                        const std::string& study) {
  return akm::tune(space_size, spec, plan, seed, study, 1,
                   [&](std::size_t c, std::uint64_t s) { return final_loss.at({c, s}); });
}

}  // namespace akm::exp
