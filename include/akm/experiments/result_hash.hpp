// result_hash — what `reproduce --resume` compares to decide a result is up to date.
#pragma once
#include <string>

#include "akm/experiments/experiment.hpp"

namespace akm {

/// The "hash" field of summary.json: FNV-1a 64 (hex) of everything that determines an
/// experiment's numbers — code version, ID, seed, quick flag and declared false-alarm
/// rate (the experiment's own parameters are fixed by the code). `--resume` skips an
/// experiment whose summary.json carries the current hash.
std::string result_hash(const ExperimentInfo& info, const RunOptions& opts);

}  // namespace akm
