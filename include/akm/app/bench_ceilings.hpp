// bench_ceilings — the rule that holds `akm bench`'s machine ceilings to the workloads of the
// same run (docs/performance.md, "Contradicted ceilings").
//
// A ceiling is an upper bound on what the machine can do. A workload measured above one in
// the same run shows that the ceiling is not one (the loop that measured it ran slower than
// the hardware, or the model that combines it assumed less overlap than there is), so the
// bench names it as contradicted and divides by it nowhere: a fraction above 100% is never
// printed, and no other row's fraction rests on the contradicted figure either.
#pragma once
#include <nlohmann/json.hpp>

namespace akm::app {

/// Judges the ceilings of one `akm bench --json` run in place. Every row's "limit" (and a W4
/// row's "one_call") names the ceilings its model divides by in "ceilings" (e.g. "fma_double",
/// "normals_float", "l2", "fma_one_core_double") beside its "fraction_of_limit" (one_call:
/// "fraction_of_one_core_fma"). A fraction above 1 contradicts every ceiling its limit names.
/// Then every limit that names a contradicted ceiling keeps its ratio as
/// "measured_over_limit", its fraction becomes null and "contradicted" true, and
/// machine["contradicted_ceilings"] lists each contradicted ceiling once with the first row
/// that exceeded it. Returns how many ceilings were contradicted.
int judge_ceilings(nlohmann::json& machine, nlohmann::json& rows);

}  // namespace akm::app
