// ledger — parsing and validating experiments/ledger.toml (format in check/ledger.hpp).
#include "akm/check/ledger.hpp"

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "akm/base/errors.hpp"

namespace akm {

namespace {

const std::regex kLabel(R"([a-z]+:[A-Za-z0-9_.:-]+(/[a-z0-9][a-z0-9-]*)*)");
const std::regex kExperiment(R"([A-Z][0-9]+)");

std::string where(const std::string& label, const std::string& key) {
  return label.empty() ? key : fmt::format("statement \"{}\": {}", label, key);
}

std::string text(const toml::table& t, const std::string& label, const std::string& key,
                 bool required = false) {
  const auto* node = t.get(key);
  if (!node) {
    if (required) throw InputError(where(label, key), "(missing)", "a non-empty string is required");
    return "";
  }
  const auto v = node->value<std::string>();
  if (!v || v->empty()) throw InputError(where(label, key), "(not a string)", "a non-empty string");
  return *v;
}

double number(const toml::table& t, const std::string& label, const std::string& key, double fallback) {
  const auto* node = t.get(key);
  if (!node) return fallback;
  const auto v = node->value<double>();
  if (!v || !std::isfinite(*v)) throw InputError(where(label, key), "(not a number)", "a finite number");
  return *v;
}

std::vector<std::string> strings(const toml::table& t, const std::string& label, const std::string& key) {
  std::vector<std::string> out;
  const auto* node = t.get(key);
  if (!node) return out;
  const auto* arr = node->as_array();
  if (!arr) throw InputError(where(label, key), "(not an array)", "an array of strings");
  for (const auto& e : *arr) {
    const auto v = e.value<std::string>();
    if (!v || v->empty()) throw InputError(where(label, key), "(an element)", "non-empty strings");
    out.push_back(*v);
  }
  return out;
}

void refuse_unknown(const toml::table& t, const std::string& label, const std::vector<std::string>& known) {
  for (const auto& [k, v] : t) {
    (void)v;
    const std::string key(k.str());
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      std::string list;
      for (const auto& s : known) list += (list.empty() ? "" : ", ") + s;
      throw InputError(where(label, key), "(unknown key)", "one of " + list);
    }
  }
}

StatementKind parse_kind(const std::string& label, const std::string& s) {
  for (auto k : {StatementKind::Algebraic, StatementKind::Theorem, StatementKind::Empirical, StatementKind::Finding})
    if (to_string(k) == s) return k;
  throw InputError(where(label, "kind"), s, "algebraic, theorem, empirical or finding");
}

LedgerGroup parse_group(const toml::table& t, const std::string& label, const std::string& what) {
  refuse_unknown(t, label, {"part", "experiment", "checks", "rival", "rival_value", "effect", "reason",
                            "predicted_min", "predicted_max", "assurance", "param", "param_filter", "param_z"});
  LedgerGroup g;
  g.part = text(t, label, what + ".part");
  if (const auto* n = t.get("part")) g.part = n->value<std::string>().value_or("");
  if (g.part.empty()) throw InputError(where(label, what + ".part"), "(missing)", "a non-empty string");
  const std::string w = what + " \"" + g.part + "\"";
  g.experiment = text(t, label, "experiment", true);
  if (!std::regex_match(g.experiment, kExperiment))
    throw InputError(where(label, w + ".experiment"), g.experiment, "an experiment ID such as T4, E2 or R1");
  g.checks = strings(t, label, "checks");
  g.rival = text(t, label, "rival");
  g.rival_value = number(t, label, "rival_value", g.rival_value);
  g.effect = number(t, label, "effect", g.effect);
  g.reason = text(t, label, "reason");
  g.predicted_min = number(t, label, "predicted_min", g.predicted_min);
  g.predicted_max = number(t, label, "predicted_max", g.predicted_max);
  g.assurance = text(t, label, "assurance");
  g.param = text(t, label, "param");
  g.param_filter = text(t, label, "param_filter");
  g.param_z = text(t, label, "param_z");
  if (g.param.empty() == g.checks.empty())
    throw InputError(where(label, w + ".checks"), g.checks.empty() ? "(none)" : "(with param)",
                     "exactly one of checks (name patterns) or param (recorded departures)");
  if (!g.param.empty() && g.param_z.empty())
    throw InputError(where(label, w + ".param_z"), "(missing)", "the field holding each departure's z");
  const int rivals = (g.rival.empty() ? 0 : 1) + (std::isnan(g.rival_value) ? 0 : 1) + (std::isnan(g.effect) ? 0 : 1);
  if (rivals > 1)
    throw InputError(where(label, w + ".rival"), "(several)", "at most one of rival, rival_value, effect");
  if ((!std::isnan(g.rival_value) || !std::isnan(g.effect)) && g.reason.empty())
    throw InputError(where(label, w + ".reason"), "(missing)", "a reason for the declared rival value or effect");
  if (!std::isnan(g.effect) && !(g.effect > 0.0))
    throw InputError(where(label, w + ".effect"), show(g.effect), "a relative effect > 0");
  if (!(g.predicted_min < g.predicted_max))
    throw InputError(where(label, w + ".predicted_min"), show(g.predicted_min), "below predicted_max");
  return g;
}

std::vector<LedgerGroup> groups(const toml::table& t, const std::string& label, const std::string& key) {
  std::vector<LedgerGroup> out;
  const auto* node = t.get(key);
  if (!node) return out;
  const auto* arr = node->as_array();
  if (!arr) throw InputError(where(label, key), "(not an array of tables)", "[[statement." + key + "]] tables");
  for (const auto& e : *arr) {
    const auto* tt = e.as_table();
    if (!tt) throw InputError(where(label, key), "(not a table)", "[[statement." + key + "]] tables");
    out.push_back(parse_group(*tt, label, key));
  }
  return out;
}

LedgerEntry parse_entry(const toml::table& t) {
  LedgerEntry e;
  e.label = text(t, "", "label", true);
  if (!std::regex_match(e.label, kLabel))
    throw InputError("statement.label", e.label, "a paper label such as thm:fixedpoint, optionally /part (lower case)");
  refuse_unknown(t, e.label, {"label", "kind", "statement", "regime", "rival", "margin", "decision", "corrected",
                              "not_testable", "not_tested", "note", "evidence", "refute", "findings"});
  e.kind = parse_kind(e.label, text(t, e.label, "kind", true));
  e.statement = text(t, e.label, "statement", true);
  e.regime = text(t, e.label, "regime");
  e.rival = text(t, e.label, "rival");
  e.margin = text(t, e.label, "margin");
  e.decision = text(t, e.label, "decision");
  e.corrected = text(t, e.label, "corrected");
  e.not_testable = text(t, e.label, "not_testable");
  e.not_tested = text(t, e.label, "not_tested");
  e.note = text(t, e.label, "note");
  e.evidence = groups(t, e.label, "evidence");
  e.refute = groups(t, e.label, "refute");
  e.findings = strings(t, e.label, "findings");
  const bool untested = !e.not_testable.empty() || !e.not_tested.empty();
  if (!e.not_testable.empty() && !e.not_tested.empty())
    throw InputError(where(e.label, "not_tested"), "(with not_testable)", "at most one of not_testable, not_tested");
  if (untested && (!e.evidence.empty() || !e.refute.empty()))
    throw InputError(where(e.label, "evidence"), "(with not_testable/not_tested)",
                     "no evidence for a statement declared untested");
  if (!untested) {
    if (e.evidence.empty())
      throw InputError(where(e.label, "evidence"), "(none)", "at least one [[statement.evidence]] group");
    if (e.kind != StatementKind::Finding && e.rival.empty())
      throw InputError(where(e.label, "rival"), "(missing)", "the rival prediction the statement must rule out");
    if (e.kind != StatementKind::Finding && e.decision.empty())
      throw InputError(where(e.label, "decision"), "(missing)", "the decision rule");
  }
  if (e.corrected.empty() != e.refute.empty())
    throw InputError(where(e.label, "corrected"), e.corrected.empty() ? "(missing)" : "(without refute)",
                     "a corrected statement and [[statement.refute]] groups go together");
  return e;
}

}  // namespace

std::string LedgerEntry::base_label() const { return label.substr(0, label.find('/')); }

std::vector<std::string> LedgerEntry::experiments() const {
  std::vector<std::string> out;
  for (const auto* gs : {&evidence, &refute})
    for (const auto& g : *gs)
      if (std::find(out.begin(), out.end(), g.experiment) == out.end()) out.push_back(g.experiment);
  return out;
}

std::string to_string(StatementKind k) {
  switch (k) {
    case StatementKind::Algebraic: return "algebraic";
    case StatementKind::Theorem: return "theorem";
    case StatementKind::Empirical: return "empirical";
    case StatementKind::Finding: return "finding";
  }
  return "?";
}

Ledger parse_ledger(const std::string& text_in, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text_in, source);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw InputError(source, fmt::format("line {} column {}", b.line, b.column),
                     fmt::format("valid TOML ({})", e.description()));
  }
  refuse_unknown(root, "", {"rules", "statement"});
  Ledger out;
  const auto* rules = root["rules"].as_table();
  if (!rules) throw InputError("rules", "(missing)", "a [rules] table with the decision floors");
  refuse_unknown(*rules, "", {"power_floor", "design_power_floor", "assurance_floor", "description"});
  const auto floor = [&](const char* key) {
    const auto* node = rules->get(key);
    const auto v = node ? node->value<double>() : std::nullopt;
    if (!v) throw InputError(std::string("rules.") + key, "(missing)", "a number in (0, 1)");
    if (!(*v > 0.0 && *v < 1.0)) throw InputError(std::string("rules.") + key, show(*v), "a number in (0, 1)");
    return *v;
  };
  out.rules.power_floor = floor("power_floor");
  out.rules.design_power_floor = floor("design_power_floor");
  out.rules.assurance_floor = floor("assurance_floor");
  if (out.rules.design_power_floor > out.rules.power_floor)
    throw InputError("rules.design_power_floor", show(out.rules.design_power_floor), "at most rules.power_floor");
  const auto* arr = root["statement"].as_array();
  if (!arr || arr->empty()) throw InputError("statement", "(none)", "[[statement]] entries");
  for (const auto& n : *arr) {
    const auto* t = n.as_table();
    if (!t) throw InputError("statement", "(not a table)", "[[statement]] tables");
    auto e = parse_entry(*t);
    for (const auto& prev : out.entries)
      if (prev.label == e.label) throw InputError("statement.label", e.label, "unique (it appears twice)");
    out.entries.push_back(std::move(e));
  }
  return out;
}

Ledger read_ledger(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError("--ledger", file.string(), "a readable ledger file (experiments/ledger.toml)");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_ledger(ss.str(), file.string());
}

const Ledger& compiled_ledger() {
  static const Ledger ledger = parse_ledger(std::string(compiled_ledger_text()), "experiments/ledger.toml (compiled in)");
  return ledger;
}

namespace {
// One UTF-8 code point's length from its lead byte.
std::size_t cp_len(unsigned char c) { return c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1; }
}  // namespace

bool glob_match(const std::string& p, const std::string& s) {
  std::size_t pi = 0, si = 0, star = std::string::npos, mark = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = si;
    } else if (pi < p.size() && p[pi] == '?') {
      ++pi;
      si += cp_len(static_cast<unsigned char>(s[si]));
    } else if (pi < p.size() && p[pi] == s[si]) {
      ++pi;
      ++si;
    } else if (star != std::string::npos) {
      pi = star + 1;
      mark += cp_len(static_cast<unsigned char>(s[mark]));
      si = mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

}  // namespace akm
