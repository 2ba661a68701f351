// report/claim_page — one page per claim (results/<ID>/index.html): the paper's statement of
// each cited label (math by KaTeX), the status and its reason, findings and gated checks, the
// checks that discriminate first, full-size figures with captions, and the data files.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace akm {

/// One figure of a claim page.
struct FigureEntry {
  std::string name;     ///< base name: name.png, name.svg, name.gp in the folder
  std::string caption;  ///< the figure's title and axes (from name.figure.json)
  bool has_svg = false;  ///< name.svg exists
  bool has_gp = false;  ///< name.gp exists
};

/// What a claim page shows: the summary, figures, data files, notebook link.
struct ClaimPage {
  nlohmann::json summary;            ///< the experiment's summary.json
  std::vector<FigureEntry> figures;  ///< natural order
  std::vector<std::string> data;     ///< CSV files of the folder
  std::string notebook;              ///< href relative to the page ("" when none)
  bool katex = false;                ///< ../katex/ holds KaTeX
  std::string ledger_html;           ///< the ledger's statements this experiment decides ("" if none)
};

/// The page's HTML. Links are relative (the folder opens from disk and can move).
std::string claim_page_html(const ClaimPage& p);

}  // namespace akm
