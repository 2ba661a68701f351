// Synthetic check records and ledger entries for the tests of the claim ledger's rules
// (test_ledger.cpp, test_ledger_parts.cpp), judged under the floors that the header of
// experiments/ledger.toml writes.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/check/ledger.hpp"
#include "akm/check/ledger_verdict.hpp"

namespace akm_test::ledger {

using akm::GroupOutcome;
using akm::LedgerStatus;
using nlohmann::json;

inline const std::string kLedger = std::string(AKM_TESTS_DIR) + "/../experiments/ledger.toml";

// The rules as the ledger's header writes them.
inline akm::LedgerRules header_rules() { return akm::read_ledger(kLedger).rules; }

inline json mc(const std::string& name, double predicted, double measured, double se, double tol, bool pass,
        double power = NAN, const std::string& alt = "") {
  json r = {{"name", name}, {"kind", "mc"}, {"role", "evidence"}, {"predicted", predicted}, {"measured", measured},
            {"stderr", se}, {"stderr_predicted", 0.0}, {"tolerance", tol}, {"tolerance_above", tol},
            {"tolerance_below", tol}, {"pass", pass}};
  if (std::isfinite(power)) r["power"] = power;
  if (!alt.empty()) r["alternative_label"] = alt;
  return r;
}

inline json exact(const std::string& name, double predicted, bool pass, const std::string& role = "evidence") {
  return {{"name", name}, {"kind", "exact"}, {"role", role}, {"predicted", predicted}, {"measured", predicted},
          {"stderr", 0.0}, {"tolerance", 1e-10}, {"pass", pass}};
}

inline json summary(std::vector<json> checks, json params = json::object()) {
  return {{"z", 5.0}, {"checks", checks}, {"params", params}, {"findings", json::array()}};
}

inline akm::LedgerGroup group(const std::string& part, const std::string& rival = "EMA") {
  akm::LedgerGroup g;
  g.part = part;
  g.experiment = "T0";
  g.checks = {part + "/*"};
  g.rival = rival;
  return g;
}

inline akm::LedgerEntry entry(akm::StatementKind kind, std::vector<akm::LedgerGroup> groups) {
  akm::LedgerEntry e;
  e.label = "thm:test";
  e.kind = kind;
  e.statement = "s";
  e.rival = "EMA";
  e.decision = "header";
  e.evidence = std::move(groups);
  return e;
}

inline LedgerStatus verdict(const akm::LedgerEntry& e, const json& s) {
  return akm::ledger_verdict(e, header_rules(), {{"T0", s}}).status;
}

}  // namespace akm_test::ledger
