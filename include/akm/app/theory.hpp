// theory — the driver of `akm theory` and `akm.theory()`: the closed forms per direction at
// (β, η, α, key) on a covariance spectrum (akm/theory/direction_table.hpp), after the one validation
// both callers share; the program prints the table or the JSON, the module NumPy arrays.
#pragma once
#include <cstdint>
#include <string>

#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/direction_table.hpp"

namespace akm::app {

/// The spectrum a theory request read and the closed forms on it.
struct TheoryRun {
  Spectrum spectrum;  ///< the parsed spectrum
  TheoryReport report;  ///< the closed forms per direction
};

/// Validates, in the order the refusals have always come (each an InputError naming the
/// flag, the value and the valid range): β, η, α, the key text, the spectrum text (its
/// random basis drawn from `seed`), then the contraction condition of the key; then computes
/// the report. `in.key` is ignored: the key is `key_text`.
TheoryRun run_theory(const TheoryInputs& in, const std::string& key_text, const std::string& spectrum,
                     std::uint64_t seed);

}  // namespace akm::app
