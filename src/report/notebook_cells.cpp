// notebook_cells — the text of a notebook's cells (notebook_cells.hpp): the claim's markdown
// (verdict, failed checks, the closest calls, parameters), the setup code that loads the
// results, and the live section that calls the akm Python module. notebook.cpp assembles them.
#include "notebook_cells.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace akm::notebook_detail {

namespace {

// Markdown table cells: code spans keep names literal; a pipe would end the cell.
std::string md_cell(const std::string& s) {
  std::string out;
  for (char c : s) out += (c == '|') ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string md_num(const nlohmann::json& j) {
  if (j.is_number_float()) return fmt::format("{:.6g}", j.get<double>());
  if (j.is_number()) return j.dump();
  if (j.is_boolean()) return j.get<bool>() ? "true" : "false";
  if (j.is_string()) return md_cell(j.get<std::string>());
  return "—";
}

bool check_passed(const nlohmann::json& c) {
  return c.is_object() && c.contains("pass") && c["pass"].is_boolean() && c["pass"].get<bool>();
}

double abs_z(const nlohmann::json& c) {
  if (!c.contains("z_score") || !c["z_score"].is_number()) return 0;
  const double z = std::abs(c["z_score"].get<double>());
  return std::isfinite(z) ? z : 0;
}

std::string check_table(const std::vector<nlohmann::json>& checks) {
  std::string t = "| check | kind | predicted | measured | stderr | tolerance | z | verdict |\n"
                  "|---|---|---|---|---|---|---|---|\n";
  for (const auto& c : checks)
    t += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} |\n",
                     md_cell(c.value("name", "")), md_cell(c.value("kind", "")),
                     md_num(c.value("predicted", nlohmann::json())),
                     md_num(c.value("measured", nlohmann::json())),
                     md_num(c.value("stderr", nlohmann::json())),
                     md_num(c.value("tolerance", nlohmann::json())),
                     md_num(c.value("z_score", nlohmann::json())),
                     check_passed(c) ? "PASS" : "**FAIL**");
  return t;
}

}  // namespace

std::string claim_markdown(const nlohmann::json& s) {
  const std::string id = s.value("id", ""), title = s.value("title", "");
  const bool pass = check_passed(s);
  std::vector<nlohmann::json> checks, failed;
  if (s.contains("checks") && s["checks"].is_array())
    for (const auto& c : s["checks"]) {
      checks.push_back(c);
      if (!check_passed(c)) failed.push_back(c);
    }
  std::string labels;
  for (const auto& l : s.value("paper_labels", nlohmann::json::array()))
    labels += (labels.empty() ? "" : ", ") + ("`" + l.get<std::string>() + "`");

  std::string md = fmt::format("# {} · {}\n\n", id, title);
  md += fmt::format("**Claim** ({}): {}\n\n", labels.empty() ? "no paper label" : labels,
                    s.value("claim", ""));
  md += fmt::format("**Verdict: {}** — {}/{} checks pass (declared family-wise false-alarm rate "
                    "{}, Bonferroni z = {}).\n\n",
                    pass ? "PASS" : "FAIL", checks.size() - failed.size(), checks.size(),
                    md_num(s.value("family_alpha", nlohmann::json())),
                    md_num(s.value("z", nlohmann::json())));
  md += fmt::format("Seed {} · akm {} · quick mode {}. Written by `akm export-notebooks` from "
                    "`results/{}/`; the figure outputs below are the PNGs akm rendered, so the "
                    "notebook reads without running it.\n\n",
                    md_num(s.value("seed", nlohmann::json())),
                    md_num(s.value("version", nlohmann::json())),
                    md_num(s.value("quick", nlohmann::json())), id);
  if (!failed.empty()) {
    md += "## Failed checks\n\n" + check_table(failed) + "\n";
  }
  // The closest calls: the checks with the largest |z| (the full table is `checks` below).
  std::vector<nlohmann::json> closest = checks;
  std::stable_sort(closest.begin(), closest.end(),
                   [](const auto& a, const auto& b) { return abs_z(a) > abs_z(b); });
  if (closest.size() > 12) closest.resize(12);
  if (!closest.empty())
    md += fmt::format("## Verdict table: the {} closest of {} checks (largest |z|)\n\n",
                      closest.size(), checks.size()) +
          check_table(closest) + "\n";
  md += "## Parameters\n\n```json\n" + s.value("params", nlohmann::json::object()).dump(2) +
        "\n```\n";
  return md;
}

std::string setup_code(const std::string& results_ref, const std::string& folder,
                       const std::vector<std::string>& csvs) {
  std::string list;
  for (const auto& c : csvs) list += "    " + nlohmann::json(c).dump() + ",\n";
  return fmt::format(
      "# Load this experiment's data: every CSV of the folder and its summary.json.\n"
      "# AKM_RESULTS overrides the results folder (default: the one this notebook came from).\n"
      "import json\n"
      "import os\n"
      "from pathlib import Path\n\n"
      "import matplotlib.pyplot as plt\n"
      "import numpy as np\n"
      "import pandas as pd\n\n"
      "RESULTS = Path(os.environ.get(\"AKM_RESULTS\", {})) / {}\n"
      "data = {{name: pd.read_csv(RESULTS / name) for name in [\n{}]}}\n"
      "summary = json.loads((RESULTS / \"summary.json\").read_text())\n"
      "checks = pd.DataFrame(summary[\"checks\"])  # the full verdict table\n\n\n"
      "def column(df, k):\n"
      "    \"\"\"Column k counted from 1, as gnuplot's `using` does.\"\"\"\n"
      "    return df.iloc[:, k - 1]\n\n\n"
      "print(f\"{{summary['id']}}: {{'PASS' if summary['pass'] else 'FAIL'}}, \"\n"
      "      f\"{{int(checks['pass'].sum())}}/{{len(checks)}} checks pass\")\n",
      nlohmann::json(results_ref).dump(), nlohmann::json(folder).dump(), list);
}

// The live section: cells that call the akm Python module (src/python) from the notebook —
// re-run this claim at another seed, and move β and redraw the closed forms. Without the
// module (not built, or not on the path) the cells say so and do nothing else.
std::string live_import_code() {
  return "# Live: call akm from this notebook (docs/python.md). The module is looked\n"
         "# for in AKM_PYTHON, then in the build tree beside the results (../build/python).\n"
         "import sys\n\n"
         "for p in [os.environ.get(\"AKM_PYTHON\", \"\"), str(RESULTS.resolve().parent.parent / \"build\" / \"python\")]:\n"
         "    if p and os.path.isdir(p) and p not in sys.path:\n"
         "        sys.path.insert(0, p)\n"
         "try:\n"
         "    import akm\n"
         "except ImportError as e:\n"
         "    akm = None\n"
         "    print(f\"live section skipped: the akm module is not importable ({e}); build akm with \"\n"
         "          \"CMake and set AKM_PYTHON=<build>/python\")\n";
}

std::string live_rerun_code() {
  return "# Re-run this claim's check at another seed (quick mode: same checks, fewer trials).\n"
         "if akm is not None:\n"
         "    again = akm.run(summary[\"id\"], quick=True, seed=summary[\"seed\"] + 1, progress=False)\n"
         "    print(f\"live: {again['id']} at seed {again['seed']} (quick): \"\n"
         "          f\"{'PASS' if again['pass'] else 'FAIL'}, {again['status']['status']}: \"\n"
         "          f\"{again['status']['reason']}\")\n";
}

std::string live_beta_code() {
  return "# Move β and redraw: the per-direction transport factor β̃_i = β − ηλ̂_i and the AK/EMA\n"
         "# rate ratio from akm's closed forms (akm.theory, the same C++ as `akm theory`).\n"
         "# Change SPECTRUM, ETA or BETAS and run the cell again.\n"
         "SPECTRUM, ETA, BETAS = \"spiked:n=16,spikes=100/30/10/3,floor=0.5\", 0.5, [0.5, 0.7, 0.9, 0.99]\n"
         "if akm is not None:\n"
         "    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.5))\n"
         "    for b in BETAS:\n"
         "        d = akm.theory(beta=b, eta=ETA, spectrum=SPECTRUM)[\"directions\"]\n"
         "        a1.plot(np.arange(1, len(d[\"beta_tilde\"]) + 1), d[\"beta_tilde\"], marker=\"o\", label=f\"β = {b}\")\n"
         "        a2.plot(np.arange(1, len(d[\"rho_ak\"]) + 1), d[\"rho_ak\"] / d[\"rho_ema\"], marker=\"o\", label=f\"β = {b}\")\n"
         "    a1.set(xlabel=\"direction i\", ylabel=r\"$\\tilde\\beta_i$\", title=f\"η = {ETA}\")\n"
         "    a2.set(xlabel=\"direction i\", ylabel=r\"$\\rho_{AK} / \\rho_{EMA}$\", title=SPECTRUM)\n"
         "    a1.legend()\n"
         "    plt.show()\n"
         "    print(f\"live: closed forms redrawn at {len(BETAS)} values of beta\")\n";
}

}  // namespace akm::notebook_detail
