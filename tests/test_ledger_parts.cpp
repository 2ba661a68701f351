// The claim ledger judged per experiment and parsed (check/ledger.hpp): a statement's part in
// one experiment, an experiment's status as the roll-up of its statements, the compiled ledger,
// the glob of check names, and the refusals of malformed ledgers.
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/check/ledger.hpp"
#include "akm/check/ledger_verdict.hpp"
#include "ledger_records.hpp"

namespace {

using namespace akm_test::ledger;

// A two-experiment statement (parts a in T0, b in T9) and a T9-only one, as a ledger.
akm::Ledger two_experiment_ledger() {
  akm::Ledger l;
  l.rules = header_rules();
  auto b = group("b");
  b.experiment = "T9";
  auto shared = entry(akm::StatementKind::Theorem, {group("a"), b});
  shared.label = "thm:shared";
  auto other = entry(akm::StatementKind::Theorem, {b});
  other.label = "thm:other";
  l.entries = {shared, other};
  return l;
}

TEST(LedgerPart, AStatementIsJudgedFromThisExperimentsPartAndNamesTheOthers) {
  const auto l = two_experiment_ledger();
  const auto s = summary({mc("a/1", 1, 1, 0.1, 0.5, true, 0.99, "EMA")});
  const auto parts = akm::statement_parts(l, "T0", s);
  ASSERT_EQ(parts.size(), 1u);  // thm:other names T9 alone
  EXPECT_EQ(parts[0].verdict.label, "thm:shared");
  EXPECT_EQ(parts[0].verdict.status, LedgerStatus::Supported);
  ASSERT_EQ(parts[0].verdict.evidence.size(), 1u);  // T9's group is not judged here
  EXPECT_EQ(parts[0].checks, std::vector<std::string>{"a/*"});
  EXPECT_EQ(parts[0].also_needs, std::vector<std::string>{"T9"});
  EXPECT_NE(parts[0].line_reason().find("part: T0 only; also needs T9"), std::string::npos) << parts[0].line_reason();
  // The same code, given the entry whole, needs T9's results too (what `akm ledger` says).
  EXPECT_EQ(akm::ledger_verdict(l.entries[0], l.rules, {{"T0", s}}).status, LedgerStatus::Inconclusive);
  const auto j = parts[0].to_json();
  EXPECT_EQ(j.at("verdict"), "SUPPORTED");
  EXPECT_EQ(j.at("also_needs"), json::array({"T9"}));
  EXPECT_EQ(j.at("checks"), json::array({"a/*"}));
  // A statement whose every part is here has nothing else to need.
  const auto whole = akm::statement_parts(l, "T9", summary({mc("b/1", 1, 1, 0.1, 0.5, true, 0.99, "EMA")}));
  ASSERT_EQ(whole.size(), 2u);
  EXPECT_TRUE(whole[1].also_needs.empty());
  EXPECT_EQ(whole[1].line_reason(), akm::short_reason(whole[1].verdict));
}

akm::ClaimVerdict from_checks(akm::ClaimStatus s) {
  akm::ClaimVerdict v;
  v.status = s;
  v.reason = "from the checks";
  v.n_evidence = 7;
  return v;
}

TEST(LedgerPart, ExperimentStatusIsTheRollUpOfItsStatements) {
  auto l = two_experiment_ledger();
  auto third = entry(akm::StatementKind::Theorem, {group("c")});
  third.label = "thm:third";
  l.entries.push_back(third);
  // thm:shared supported by its T0 part, thm:third contradicted by a failing check.
  auto s = summary({mc("a/1", 1, 1, 0.1, 0.5, true, 0.99, "EMA"), mc("c/1", 1, 3, 0.1, 0.5, false, 0.99, "EMA")});
  auto v = akm::experiment_status(from_checks(akm::ClaimStatus::Supported), akm::statement_parts(l, "T0", s), s);
  EXPECT_EQ(v.status, LedgerStatus::Contradicted);
  EXPECT_EQ(v.basis, "ledger");
  EXPECT_EQ(v.checks_status, "SUPPORTED");
  EXPECT_EQ(v.n_evidence, 7);  // the counts of the checks are kept
  EXPECT_NE(v.reason.find("thm:third"), std::string::npos) << v.reason;
  EXPECT_EQ(v.to_json().at("basis"), "ledger");
  // Both pass: SUPPORTED, though the checks alone said otherwise.
  s["checks"][1] = mc("c/1", 1, 1, 0.1, 0.5, true, 0.99, "EMA");
  v = akm::experiment_status(from_checks(akm::ClaimStatus::Inconclusive), akm::statement_parts(l, "T0", s), s);
  EXPECT_EQ(v.status, LedgerStatus::Supported);
  EXPECT_EQ(v.checks_status, "INCONCLUSIVE");
}

TEST(LedgerPart, AFailingCheckNoStatementNamesMakesTheStatusInconclusive) {
  const auto l = two_experiment_ledger();
  const auto s = summary({mc("a/1", 1, 1, 0.1, 0.5, true, 0.99, "EMA"), mc("z/1", 1, 3, 0.1, 0.5, false)});
  const auto v = akm::experiment_status(from_checks(akm::ClaimStatus::Contradicted), akm::statement_parts(l, "T0", s), s);
  EXPECT_EQ(v.status, LedgerStatus::Inconclusive);
  EXPECT_NE(v.reason.find("z/1"), std::string::npos) << v.reason;
}

TEST(LedgerPart, AnExperimentTheLedgerNamesNowhereKeepsTheStatusOfItsChecks) {
  const auto l = two_experiment_ledger();
  const auto s = summary({mc("x/1", 1, 1, 0.1, 0.5, true, 0.99, "EMA")});
  const auto parts = akm::statement_parts(l, "T5", s);
  EXPECT_TRUE(parts.empty());
  const auto v = akm::experiment_status(from_checks(akm::ClaimStatus::Supported), parts, s);
  EXPECT_EQ(v.status, akm::ClaimStatus::Supported);
  EXPECT_EQ(v.reason, "from the checks");
  EXPECT_EQ(v.basis, "checks");
  EXPECT_FALSE(v.to_json().contains("checks_status"));
}

TEST(LedgerCompiled, IsTheLedgerFileOfTheSources) {
  std::ifstream in(kLedger);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(std::string(akm::compiled_ledger_text()), text.str());
  EXPECT_EQ(akm::compiled_ledger().entries.size(), akm::read_ledger(kLedger).entries.size());
}

TEST(LedgerGlob, MatchesWholeNamesWithUtf8Wildcards) {
  EXPECT_TRUE(akm::glob_match("raw/*/u*/lag=1", "raw/spiked/u12/lag=1"));
  EXPECT_FALSE(akm::glob_match("raw/*/u*/lag=1", "raw/spiked/u12/lag=10"));
  EXPECT_TRUE(akm::glob_match("tr ? = 1", "tr Σ = 1"));
  EXPECT_TRUE(akm::glob_match("a[1]*", "a[1]/x"));
}

// Bad ledgers are refused, naming the key, the value and the valid range.
std::string refusal(const std::string& toml) {
  try {
    akm::parse_ledger(toml, "test.toml");
  } catch (const akm::InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kRules = "[rules]\npower_floor = 0.9\ndesign_power_floor = 0.8\nassurance_floor = 0.8\n";
const std::string kEntry =
    "[[statement]]\nlabel = \"thm:x\"\nkind = \"theorem\"\nstatement = \"s\"\nrival = \"EMA\"\ndecision = \"d\"\n"
    "[[statement.evidence]]\npart = \"p\"\nexperiment = \"T1\"\nchecks = [\"a*\"]\nrival = \"EMA\"\n";

TEST(LedgerParse, AcceptsAWellFormedLedger) {
  const auto l = akm::parse_ledger(kRules + kEntry);
  ASSERT_EQ(l.entries.size(), 1u);
  EXPECT_EQ(l.entries[0].evidence[0].checks[0], "a*");
  EXPECT_EQ(l.entries[0].experiments(), std::vector<std::string>{"T1"});
}

TEST(LedgerParse, RefusesMalformedInput) {
  EXPECT_NE(refusal(kRules + "[[statement]\n").find("line 5"), std::string::npos);
  EXPECT_NE(refusal(kRules + kEntry + "colour = \"red\"\n").find("colour"), std::string::npos);
  EXPECT_NE(refusal("[rules]\npower_floor = 1.5\ndesign_power_floor = 0.8\nassurance_floor = 0.8\n" + kEntry)
                .find("rules.power_floor = 1.5 is invalid: a number in (0, 1)"),
            std::string::npos);
  std::string bad = kEntry;
  bad.replace(bad.find("\"T1\""), 4, "\"t1\"");
  EXPECT_NE(refusal(kRules + bad).find("t1"), std::string::npos);
  bad = kEntry;
  bad.replace(bad.find("rival = \"EMA\"\n", bad.find("[[statement.evidence]]")), 14, "rival_value = 1.0\n");
  EXPECT_NE(refusal(kRules + bad).find("reason"), std::string::npos);
  bad = kEntry;
  bad.replace(bad.find("thm:x"), 5, "Thm X");
  EXPECT_NE(refusal(kRules + bad).find("statement.label = Thm X"), std::string::npos);
  EXPECT_NE(refusal(kRules + kEntry + kEntry).find("unique"), std::string::npos);
  EXPECT_NE(refusal(kRules + kEntry + "[[statement]]\nlabel = \"thm:y\"\nkind = \"conjecture\"\nstatement = \"s\"\n")
                .find("kind = conjecture"),
            std::string::npos);
  EXPECT_NE(refusal(kRules + "[[statement]]\nlabel = \"thm:y\"\nkind = \"theorem\"\nstatement = \"s\"\n"
                             "corrected = \"c\"\nnot_tested = \"n\"\n")
                .find("corrected"),
            std::string::npos);
}

}  // namespace
