// bench_ceilings — the rule that holds `akm bench`'s machine ceilings to the workloads of the
// same run (docs/performance.md, "Contradicted ceilings").
//
// A ceiling is an upper bound on what the machine can do. A workload measured above one in
// the same run shows that the ceiling is not one (the loop that measured it ran slower than
// the hardware allows), so the bench names it as contradicted and divides by it nowhere: a
// fraction above 100% is never printed, and no other row's fraction rests on the contradicted
// figure either. A limit that adds several ceilings' times (normals + flops) can be beaten
// while each ceiling alone stands: then the model, not a ceiling, is contradicted (the parts
// overlap more than it assumes), and only that row loses its fraction.
#pragma once
#include <nlohmann/json.hpp>

namespace akm::app {

/// Judges the ceilings of one `akm bench --json` run in place. Every row's "limit" (and a W4
/// row's "one_call") holds its "fraction_of_limit" (one_call: "fraction_of_one_core_fma") and,
/// in "ceilings", the fraction of each ceiling it divides by that the row reaches on that
/// ceiling's part alone (e.g. {"normals_float": 0.8, "fma_float": 0.05}; a single-ceiling limit:
/// its fraction). A part above 1 contradicts its ceiling. Then every limit that names a
/// contradicted ceiling, or whose own fraction is above 1, keeps its ratio as
/// "measured_over_limit", its fraction becomes null and "contradicted" says why ("ceiling" or
/// "model"); machine["contradicted_ceilings"] lists each contradicted ceiling once with the
/// first row that exceeded it. Returns how many ceilings were contradicted.
int judge_ceilings(nlohmann::json& machine, nlohmann::json& rows);

}  // namespace akm::app
