// bench_ceilings — see akm/app/bench_ceilings.hpp.
#include "akm/app/bench_ceilings.hpp"

#include <set>
#include <string>

namespace akm::app {
namespace {

using json = nlohmann::json;

// The limits of one row, with the key of each one's fraction: the row's own, W4's per-call one
// (cpu) and W4's GEMMs alone (cuda).
template <class Fn>
void each_limit(json& row, Fn fn) {
  if (row.contains("limit") && row["limit"].is_object()) fn(row["limit"], "fraction_of_limit");
  if (row.contains("kernel_limit") && row["kernel_limit"].is_object()) fn(row["kernel_limit"], "fraction_of_limit");
  if (row.contains("one_call") && row["one_call"].is_object()) fn(row["one_call"], "fraction_of_one_core_fma");
}

bool judged(const json& lim, const char* key) {
  return lim.contains(key) && lim[key].is_number() && lim.contains("ceilings") && lim["ceilings"].is_object();
}

std::string row_name(const json& row) {
  std::string s = row.value("workload", std::string("?"));
  if (row.contains("gemm")) s += " " + row["gemm"].get<std::string>();
  return s + " " + row.value("precision", std::string("?"));
}

}  // namespace

int judge_ceilings(json& machine, json& rows) {
  json contradicted = json::array();
  std::set<std::string> names;
  for (auto& row : rows)
    each_limit(row, [&](json& lim, const char* key) {
      if (!judged(lim, key)) return;
      for (const auto& [name, part] : lim["ceilings"].items())
        if (part.is_number() && part.get<double>() > 1.0 && names.insert(name).second)
          contradicted.push_back({{"ceiling", name},
                                  {"exceeded_by", row_name(row)},
                                  {"measured_over_ceiling", part.get<double>()}});
    });
  for (auto& row : rows)
    each_limit(row, [&](json& lim, const char* key) {
      if (!judged(lim, key)) return;
      bool ceiling = false;
      for (const auto& [name, part] : lim["ceilings"].items()) ceiling = ceiling || names.count(name) > 0;
      const bool model = lim[key].get<double>() > 1.0;
      if (!ceiling && !model) return;
      lim["measured_over_limit"] = lim[key];
      lim[key] = nullptr;
      lim["contradicted"] = ceiling ? "ceiling" : "model";
    });
  machine["contradicted_ceilings"] = contradicted;
  return int(names.size());
}

}  // namespace akm::app
