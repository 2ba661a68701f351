// paper_claims — the paper's statement list and the ledger's obligations (header).
#include "akm/check/paper_claims.hpp"

#include <fstream>

#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm {

std::vector<PaperClaim> read_paper_claims(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw InputError("--claims", file.string(), "a readable statement list (experiments/paper_claims.tsv)");
  std::vector<PaperClaim> out;
  std::string row;
  int n = 0;
  while (std::getline(in, row)) {
    ++n;
    if (row.empty() || row[0] == '#') continue;
    std::vector<std::string> cols(1);
    for (char ch : row) {
      if (ch == '\t') cols.emplace_back();
      else cols.back().push_back(ch);
    }
    PaperClaim c;
    try {
      c.line = std::stoi(cols.at(0));
      c.env = cols.at(1);
      c.key = cols.at(2);
    } catch (const std::exception&) {
      throw InputError(fmt::format("{} row {}", file.string(), n), row, "line<TAB>environment<TAB>key<TAB>title");
    }
    out.push_back(c);
  }
  return out;
}

const PaperClaim* claim_of(const std::vector<PaperClaim>& claims, const std::string& label) {
  for (const auto& c : claims)
    if (label == c.key || label.rfind(c.key + "/", 0) == 0) return &c;
  return nullptr;
}

void require_known_labels(const Ledger& ledger, const std::vector<PaperClaim>& claims) {
  int last = 0;
  std::string previous;
  for (const auto& e : ledger.entries) {
    const PaperClaim* c = claim_of(claims, e.label);
    if (!c)
      throw InputError("statement.label", e.label,
                       fmt::format("a claim-bearing label of the paper, optionally /part ({} in "
                                   "experiments/paper_claims.tsv)",
                                   claims.size()));
    if (c->line < last)
      throw InputError("statement.label", e.label, fmt::format("in paper order (it comes before {})", previous));
    last = c->line;
    previous = e.label;
  }
}

std::vector<PaperClaim> uncovered_claims(const Ledger& ledger, const std::vector<PaperClaim>& claims) {
  std::vector<PaperClaim> out;
  for (const auto& c : claims) {
    bool covered = false;
    for (const auto& e : ledger.entries) covered = covered || e.label == c.key || e.label.rfind(c.key + "/", 0) == 0;
    if (!covered) out.push_back(c);
  }
  return out;
}

}  // namespace akm
