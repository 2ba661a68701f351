// ops/host_only — the entry of an op with a reference and a cpu path and no device kernel
// (row_buffers, optimizer_loop, span_buffers, batch_rule, glm_pair, sample_minimizers,
// mlp_coord): the backend refused by name before any work, then one callable that writes a
// range of trials' rows on the path the backend names, for both the op's `_rows` function and
// its fold (fold_rows).
// Private to src/sim/ops/.
#pragma once
#include <cstdint>
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

/// The same for an op whose paths take (op or its plain arrays, seed, first, count, threads,
/// rows): the op validated and the backend refused before any work, then the plain arrays
/// made (from a valid op only) for the cpu path.
template <class Plain, class Op>
auto host_only_paths(const Op& op, std::uint64_t seed, Backend backend, bool has, const std::string& why,
                     void (*reference)(const Op&, std::uint64_t, long long, long long, int, double*),
                     Plain (*make_plain)(const Op&),
                     void (*cpu)(const Plain&, std::uint64_t, long long, long long, int, double*)) {
  op.validate();
  refuse_host_only(has, backend, why);
  return host_only_paths(
      backend,
      [&op, seed, reference](long long first, long long count, int threads, double* out) {
        reference(op, seed, first, count, threads, out);
      },
      [plain = make_plain(op), seed, cpu](long long first, long long count, int threads, double* out) {
        cpu(plain, seed, first, count, threads, out);
      });
}

}  // namespace akm::ops::detail
