// ledger_group — one group of a ledger entry against one experiment's recorded checks: which
// checks are evidence, their power against the group's rival, and the group's outcome (rules
// in check/ledger_verdict.hpp).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "akm/check/ledger_verdict.hpp"
#include "normal.hpp"

namespace akm {

namespace {

using check_detail::kNaN;
using check_detail::phi;

double num(const nlohmann::json& r, const char* key) {
  const auto it = r.find(key);
  return it != r.end() && it->is_number() ? it->get<double>() : kNaN;
}
std::string str(const nlohmann::json& r, const char* key) {
  const auto it = r.find(key);
  return it != r.end() && it->is_string() ? it->get<std::string>() : "";
}

double combined_se(const nlohmann::json& r) {
  const double a = num(r, "stderr"), b = num(r, "stderr_predicted");
  return std::hypot(std::isfinite(a) ? a : 0.0, std::isfinite(b) ? b : 0.0);
}

// Power of a two-sided check with tolerances (below, above) and standard error se to detect a
// true value at predicted + delta.
double power_against(const nlohmann::json& r, double delta) {
  const double tol = num(r, "tolerance"), se = combined_se(r);
  const double below = std::isfinite(num(r, "tolerance_below")) ? num(r, "tolerance_below") : tol;
  const double above = std::isfinite(num(r, "tolerance_above")) ? num(r, "tolerance_above") : tol;
  if (!(se > 0.0)) return (delta > above || -delta > below) ? 1.0 : 0.0;
  return phi((delta - above) / se) + phi((-delta - below) / se);
}

bool deterministic(const nlohmann::json& r) {
  const std::string kind = str(r, "kind");
  return kind == "exact" || (kind == "bound" && !std::isfinite(num(r, "power")));
}

bool equivalence(const nlohmann::json& r) { return r.contains("upper_limit"); }

// The worst failure as a model comparison: standard errors from the statement and the rival.
std::string model_comparison(const nlohmann::json& r, double rival, double family_z) {
  const double m = num(r, "measured"), p = num(r, "predicted"), se = combined_se(r);
  std::string out = fmt::format("{}: measured {:.4g}", str(r, "name"), m);
  if (!(se > 0.0)) return out + fmt::format(", predicted {:.4g} (exact)", p);
  out += fmt::format(" ± {:.2g} lies {:.1f} standard errors from the statement's {:.4g}", se, std::abs(m - p) / se, p);
  if (std::isfinite(rival))
    out += fmt::format(" and {:.1f} from the rival's {:.4g}", std::abs(m - rival) / se, rival);
  if (std::isfinite(family_z)) out += fmt::format(" (family z = {:.2f})", family_z);
  return out;
}

GroupResult from_params(const LedgerGroup& g, const nlohmann::json& summary) {
  GroupResult out;
  out.part = g.part;
  out.experiment = g.experiment;
  const double family_z = num(summary, "z");
  nlohmann::json arr;
  try {
    arr = summary.at("params").at(nlohmann::json::json_pointer(g.param));
  } catch (const std::exception&) {
    out.outcome = GroupOutcome::Empty;
    out.detail = "params" + g.param + " is not recorded";
    return out;
  }
  std::string field, value;
  if (const auto eq = g.param_filter.find('='); eq != std::string::npos) {
    field = g.param_filter.substr(0, eq);
    value = g.param_filter.substr(eq + 1);
  }
  double worst = 0.0;
  std::string where;
  for (const auto& el : arr) {
    if (!field.empty() && !(el.contains(field) && (el[field].is_string() ? el[field].get<std::string>() : el[field].dump()) == value))
      continue;
    const double z = std::abs(num(el, g.param_z.c_str()));
    ++out.selected;
    if (std::isfinite(z) && z > worst) {
      worst = z;
      where = el.dump();
    }
  }
  out.evidence = out.selected;
  out.best_power = out.selected > 0 ? 1.0 : 0.0;
  if (out.selected == 0) {
    out.outcome = GroupOutcome::Empty;
    out.detail = "no recorded departure matches " + g.param_filter;
  } else if (worst > family_z) {
    out.outcome = GroupOutcome::Supports;
    out.discriminating = 1;
    out.detail = fmt::format("largest recorded departure z = {:.1f} > family z = {:.2f}: {}", worst, family_z, where);
  } else {
    out.outcome = GroupOutcome::Weak;
    out.detail = fmt::format("largest recorded departure z = {:.1f} ≤ family z = {:.2f}", worst, family_z);
  }
  return out;
}

}  // namespace

GroupResult evaluate_group(const LedgerGroup& g, StatementKind kind, const LedgerRules& rules,
                           const nlohmann::json& summary) {
  GroupResult out;
  out.part = g.part;
  out.experiment = g.experiment;
  if (summary.is_null()) {
    out.outcome = GroupOutcome::NoResults;
    out.detail = "no results/" + g.experiment + "/summary.json";
    return out;
  }
  if (!g.param.empty()) return from_params(g, summary);
  const double family_z = num(summary, "z");
  if (!g.assurance.empty()) {
    try {
      const auto& a = summary.at("params").at(nlohmann::json::json_pointer(g.assurance));
      if (a.is_number()) out.assurance = a.get<double>();
    } catch (const std::exception&) {
    }
  }
  int not_established = 0;  // passed with power, but the equivalence or direction was not established
  nlohmann::json worst;  // the failed check farthest from its prediction, in standard errors
  double worst_z = -1.0;
  std::string first_failed_design;
  const auto it = summary.find("checks");
  const nlohmann::json checks = it != summary.end() && it->is_array() ? *it : nlohmann::json::array();
  for (const auto& r : checks) {
    const std::string name = str(r, "name");
    if (std::none_of(g.checks.begin(), g.checks.end(), [&](const std::string& p) { return glob_match(p, name); }))
      continue;
    const double predicted = num(r, "predicted");
    if (!(predicted >= g.predicted_min && predicted <= g.predicted_max)) continue;
    ++out.selected;
    const bool pass = r.value("pass", false);
    const bool as_design = str(r, "role") == "design" || (deterministic(r) && kind != StatementKind::Algebraic);
    if (as_design) {
      if (str(r, "role") != "design") ++out.exact_not_evidence;
      if (!pass && out.design_failed++ == 0) first_failed_design = name;
      continue;
    }
    ++out.evidence;
    double power = 0.0;
    if (deterministic(r)) {
      power = std::isnan(g.rival_value) ? 1.0 : power_against(r, g.rival_value - predicted);
    } else if (equivalence(r)) {
      power = std::isfinite(out.assurance) ? out.assurance : 0.0;
    } else if (!g.rival.empty()) {
      power = str(r, "alternative_label") == g.rival && std::isfinite(num(r, "power")) ? num(r, "power") : 0.0;
    } else if (!std::isnan(g.rival_value)) {
      power = power_against(r, g.rival_value - predicted);
    } else if (!std::isnan(g.effect)) {
      power = power_against(r, g.effect * std::abs(predicted));
    }
    out.best_power = std::max(out.best_power, power);
    // A refute-only check (a one-sided check of a two-sided claim) is never established evidence.
    const bool established = (!equivalence(r) || r.value("equivalence_established", false)) &&
                             (str(r, "kind") != "sign" || r.value("sign_established", false)) &&
                             !r.value("refute_only", false);
    if (pass && power >= rules.power_floor && established) ++out.discriminating;
    if (pass && power >= rules.power_floor && !established) ++not_established;
    if (!pass) {
      ++out.failed;
      const double se = combined_se(r);
      const double z = se > 0.0 ? std::abs(num(r, "measured") - predicted) / se : 1e300;
      if (z > worst_z) {
        worst_z = z;
        worst = r;
      }
    }
  }
  const bool has_equivalence = !g.assurance.empty();
  if (out.selected == 0) {
    out.outcome = GroupOutcome::Empty;
    out.detail = "no recorded check matches the patterns";
  } else if (out.failed > 0) {
    out.outcome = GroupOutcome::Fails;
    const double alt = std::isfinite(num(worst, "alternative")) ? num(worst, "alternative")
                       : std::isfinite(g.rival_value)           ? g.rival_value
                                                                : kNaN;
    out.detail = fmt::format("{} of {} evidence checks failed; worst: {}", out.failed, out.evidence,
                             model_comparison(worst, alt, family_z));
  } else if (out.design_failed > 0) {
    out.outcome = GroupOutcome::DesignFailed;
    out.detail = fmt::format("{} design check(s) failed, first: {}", out.design_failed, first_failed_design);
  } else if (out.evidence == 0) {
    out.outcome = GroupOutcome::Weak;
    out.detail = fmt::format("{} checks selected, none is evidence for a {} statement ({} exact or deterministic)",
                             out.selected, to_string(kind), out.exact_not_evidence);
  } else if (has_equivalence && !(out.assurance >= rules.assurance_floor)) {
    out.outcome = GroupOutcome::ByDesign;
    out.detail = fmt::format("equivalence design assurance {} < floor {}",
                             std::isfinite(out.assurance) ? fmt::format("{:.3g}", out.assurance) : "(not recorded)",
                             rules.assurance_floor);
  } else if (out.best_power < rules.design_power_floor) {
    out.outcome = GroupOutcome::ByDesign;
    out.detail = fmt::format("best power against the rival {:.3g} < design floor {}", out.best_power,
                             rules.design_power_floor);
  } else if (out.discriminating == 0 && not_established > 0) {
    out.outcome = GroupOutcome::Weak;
    out.detail = fmt::format("{} evidence checks pass with design power ≥ {} (best {:.3g}) but did not establish "
                             "their equivalence or direction",
                             not_established, rules.power_floor, out.best_power);
  } else if (out.discriminating == 0) {
    out.outcome = GroupOutcome::Weak;
    out.detail = fmt::format("{} evidence checks pass, none with power ≥ {} (best {:.3g})", out.evidence,
                             rules.power_floor, out.best_power);
  } else {
    out.outcome = GroupOutcome::Supports;
    out.detail = fmt::format("{} of {} evidence checks pass with power ≥ {} against the rival; all {} pass",
                             out.discriminating, out.evidence, rules.power_floor, out.selected);
  }
  return out;
}

}  // namespace akm
