// mlp_coord/entry — ops::mlp_coord: the op checked, the backend chosen (reference or cpu), the
// path beside this file run, its rows folded into the run's statistics.
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/sim/ops/common.hpp"
#include "../host_only.hpp"
#include "backends.hpp"

namespace akm::ops {

void MlpCoord::validate() const {
  const MlpCoordSetup& s = setup;
  if (s.widths.size() < 2)
    throw InputError("widths", fmt::format("{} widths", s.widths.size()), "at least 2 (the slopes run across widths)");
  for (int n : s.widths)
    if (n < 1) throw InputError("widths", std::to_string(n), "every width ≥ 1");
  if (s.steps < 2) throw InputError("steps", std::to_string(s.steps), "at least 2 (the windows: step 1, steps 2..S)");
  if (s.probe < 1) throw InputError("probe", std::to_string(s.probe), "at least 1 probe row");
  if (s.batch < 1) throw InputError("batch", std::to_string(s.batch), "at least 1 row a batch");
  if (s.base < 1) throw InputError("base", std::to_string(s.base), "the base width n0 ≥ 1");
  if (arms.size() < 2)
    throw InputError("arms", fmt::format("{} arms", arms.size()), "at least 2 (arm 0 and arm 1 enter step 1's quantities)");
  for (std::size_t a = 0; a < arms.size(); ++a) {
    const int r = arms[a].reference;
    if (r < -1 || r >= int(arms.size()) || r == int(a))
      throw InputError("arms[" + std::to_string(a) + "].reference", std::to_string(r),
                       fmt::format("−1 (none) or another arm's index in [0, {})", arms.size()));
    akm::validate(detail::train_config(s, arms[a]));  // optimizer, lr, width_lr_power, β, η, β₂, aux_lr
  }
  if (task.d_in() < 1 || task.teacher.empty() || task.d_out() != 1)
    throw InputError("task", task.kind, "a task with inputs of dimension ≥ 1 and one output");
}

namespace {

auto paths(const MlpCoord& op, std::uint64_t seed, Backend backend) {
  op.validate();
  detail::refuse_host_only(mlp_coord_has(backend), backend, "mlp_coord has no device kernel: the MLP trains on the host");
  return detail::host_only_paths(
      backend,
      [&op, seed](long long first, long long count, int threads, double* out) {
        detail::mlp_coord_reference(op, seed, first, count, threads, out);
      },
      [&op, seed](long long first, long long count, int threads, double* out) {
        detail::mlp_coord_shared(op, seed, first, count, threads, out);
      });
}

}  // namespace

void mlp_coord_rows(const MlpCoord& op, std::uint64_t seed, Backend backend, long long first, long long count,
                    int threads, double* rows) {
  paths(op, seed, backend)(first, count, threads, rows);
}

McResult mlp_coord(const MlpCoord& op, std::uint64_t seed, Backend backend, const McOptions& mc) {
  return fold_rows(mc, op.n_obs(), backend, 1, paths(op, seed, backend));
}

}  // namespace akm::ops
