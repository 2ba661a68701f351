// paper_statements — the paper's own statement of each label the experiments cite, so that a
// result says what it checks in the paper's words (summary.json "statements", the report's
// claim pages). Generated from the paper by tests/paper_statements.py.
#pragma once
#include <map>
#include <string>

namespace akm {

/// One statement of the paper, as its LaTeX source gives it.
struct PaperStatement {
  std::string kind;   ///< theorem | lemma | corollary | proposition | definition | remark | result | equation
  std::string title;  ///< the environment's optional title ("" for equations)
  std::string tex;    ///< text with $…$ / $$…$$ math (TeX, paper macros: see the report's KaTeX macros)
};

/// Label → statement, for every theorem-like or equation label an experiment cites (section,
/// appendix, table and figure labels have none).
const std::map<std::string, PaperStatement>& paper_statements();

}  // namespace akm
