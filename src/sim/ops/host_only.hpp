// ops/host_only — the entry of an op with a reference and a cpu path and no device kernel
// (row_buffers, optimizer_loop, span_buffers, batch_rule, glm_pair, sample_minimizers): the
// backend refused by name before any work, then one callable that writes a range of trials' rows
// on the path the backend names, for both the op's `_rows` function and its fold (fold_rows).
// Private to src/sim/ops/.
#pragma once
#include <string>
#include <utility>

#include "akm/base/errors.hpp"
#include "akm/sim/backend.hpp"

namespace akm::ops::detail {

/// Refuses a backend the op has no path on: InputError "backend", its value, and "reference or
/// cpu (<why>)".
inline void refuse_host_only(bool has, Backend backend, const std::string& why) {
  if (!has) throw InputError("backend", to_string(backend), "reference or cpu (" + why + ")");
}

/// rows(first, count, threads, out) on the reference path when `backend` is reference, on the
/// cpu path otherwise (the backend was refused unless it is one of the two).
template <class Reference, class Cpu>
auto host_only_paths(Backend backend, Reference reference, Cpu cpu) {
  return [backend, reference = std::move(reference), cpu = std::move(cpu)](long long first, long long count,
                                                                            int threads, double* out) {
    if (backend == Backend::reference) reference(first, count, threads, out);
    else cpu(first, count, threads, out);
  };
}

}  // namespace akm::ops::detail
