// report/ledger_report — ledger.json and the terminal table (header in report/ledger_report.hpp).
#include "akm/report/ledger_report.hpp"

#include <fmt/format.h>

#include "akm/report/files.hpp"

namespace akm {

namespace fs = std::filesystem;

std::map<std::string, nlohmann::json> load_ledger_summaries(const fs::path& root, const Ledger& ledger) {
  std::map<std::string, nlohmann::json> out;
  for (const auto& e : ledger.entries)
    for (const auto& id : e.experiments()) {
      if (out.count(id)) continue;
      const fs::path p = root / id / "summary.json";
      std::error_code ec;
      if (fs::is_regular_file(p, ec)) out[id] = nlohmann::json::parse(files::read_text(p));
    }
  return out;
}

std::vector<EntryVerdict> ledger_verdicts(const Ledger& ledger, const std::map<std::string, nlohmann::json>& summaries) {
  std::vector<EntryVerdict> out;
  for (const auto& e : ledger.entries) out.push_back(ledger_verdict(e, ledger.rules, summaries));
  return out;
}

nlohmann::json ledger_json(const Ledger& ledger, const std::vector<EntryVerdict>& verdicts,
                           const std::map<std::string, nlohmann::json>& summaries) {
  nlohmann::json statements = nlohmann::json::array();
  std::map<std::string, std::vector<LedgerStatus>> by_experiment;
  std::map<std::string, nlohmann::json> labels_of;
  std::map<std::string, int> counts;
  for (std::size_t i = 0; i < ledger.entries.size(); ++i) {
    const auto& e = ledger.entries[i];
    const auto& v = verdicts.at(i);
    auto j = v.to_json();
    j["kind"] = to_string(e.kind);
    j["statement"] = e.statement;
    for (const auto& [key, value] : {std::pair{"regime", &e.regime}, {"rival", &e.rival}, {"margin", &e.margin},
                                     {"decision", &e.decision}, {"corrected", &e.corrected}, {"note", &e.note}})
      if (!value->empty()) j[key] = *value;
    j["experiments"] = e.experiments();
    statements.push_back(j);
    counts[to_string(v.status)] += 1;
    for (const auto& id : e.experiments()) {
      by_experiment[id].push_back(v.status);
      labels_of[id].push_back(e.label);
    }
  }
  nlohmann::json exps = nlohmann::json::object();
  for (const auto& [id, list] : by_experiment)
    exps[id] = {{"roll_up", to_string(roll_up(list))}, {"statements", labels_of[id]}};
  return {{"rules",
           {{"power_floor", ledger.rules.power_floor},
            {"design_power_floor", ledger.rules.design_power_floor},
            {"assurance_floor", ledger.rules.assurance_floor}}},
          {"statements", statements},
          {"experiments", exps},
          {"counts", counts},
          {"result_hashes", result_hashes(summaries)}};
}

nlohmann::json result_hashes(const std::map<std::string, nlohmann::json>& summaries) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [id, s] : summaries) out[id] = s.value("hash", "");
  return out;
}

std::vector<std::string> stale_experiments(const nlohmann::json& ledger,
                                           const std::map<std::string, nlohmann::json>& summaries) {
  std::vector<std::string> out;  // only the experiments the verdicts were computed from matter
  const auto recorded = ledger.value("result_hashes", nlohmann::json::object());
  for (const auto& [id, hash] : recorded.items()) {
    const auto it = summaries.find(id);
    if (it == summaries.end() || it->second.value("hash", "") != hash) out.push_back(id);
  }
  return out;
}

std::string ledger_table_text(const nlohmann::json& ledger) {
  std::string out;
  for (const auto& s : ledger.at("statements")) {
    std::string ids;
    for (const auto& id : s.at("experiments")) ids += (ids.empty() ? "" : ",") + id.get<std::string>();
    out += fmt::format("{:<48} {:<29} {}\n", s.at("label").get<std::string>(), s.at("verdict").get<std::string>(),
                       ids.empty() ? "-" : ids);
  }
  std::string counts;
  for (const auto& [k, v] : ledger.at("counts").items()) counts += fmt::format("{}{} {}", counts.empty() ? "" : " · ", v.get<int>(), k);
  return out + fmt::format("{} statements: {}\n", ledger.at("statements").size(), counts);
}

}  // namespace akm
