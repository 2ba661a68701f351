// notebook — one nbformat-4.5 Jupyter notebook per experiment folder of a results root.
//
// Deterministic output (sorted JSON keys, cell ids from the experiment ID, no timestamps),
// so re-exporting unchanged results leaves the committed notebooks byte-identical.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/report/notebook.hpp"
#include "akm/report/files.hpp"

namespace akm {

namespace fs = std::filesystem;

namespace {

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// nbformat stores a cell's source as a list of lines, each but the last ending in "\n".
nlohmann::json lines(const std::string& text) {
  auto out = nlohmann::json::array();
  std::size_t start = 0;
  while (start < text.size()) {
    const auto nl = text.find('\n', start);
    if (nl == std::string::npos) {
      out.push_back(text.substr(start));
      break;
    }
    out.push_back(text.substr(start, nl - start + 1));
    start = nl + 1;
  }
  if (!out.empty()) {
    std::string last = out.back().get<std::string>();
    if (!last.empty() && last.back() == '\n') last.pop_back();
    out.back() = last;
  }
  return out;
}

nlohmann::json markdown_cell(const std::string& id, const std::string& text) {
  return {{"cell_type", "markdown"}, {"id", id}, {"metadata", nlohmann::json::object()},
          {"source", lines(text)}};
}

nlohmann::json code_cell(const std::string& id, const std::string& code,
                         nlohmann::json outputs = nlohmann::json::array()) {
  return {{"cell_type", "code"}, {"execution_count", nullptr}, {"id", id},
          {"metadata", nlohmann::json::object()}, {"outputs", std::move(outputs)},
          {"source", lines(code)}};
}

nlohmann::json png_output(const fs::path& png, const std::string& alt) {
  return {{"output_type", "display_data"},
          {"data", {{"image/png", base64(read_bytes(png))}, {"text/plain", {alt}}}},
          {"metadata", nlohmann::json::object()}};
}

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

std::vector<std::string> files_with(const fs::path& dir, const std::string& ext) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
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

std::string slug_id(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out.substr(0, 40);
}

}  // namespace

std::string base64(const std::string& bytes) {
  static const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                       (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += a[(v >> 18) & 63];
    out += a[(v >> 12) & 63];
    out += a[(v >> 6) & 63];
    out += a[v & 63];
  }
  if (i + 1 == bytes.size()) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    out += a[(v >> 18) & 63];
    out += a[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                       (static_cast<unsigned char>(bytes[i + 1]) << 8);
    out += a[(v >> 18) & 63];
    out += a[(v >> 12) & 63];
    out += a[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

nlohmann::json experiment_notebook(const fs::path& exp_dir, const std::string& results_ref) {
  const auto summary = nlohmann::json::parse(read_bytes(exp_dir / "summary.json"));
  const std::string id = summary.value("id", exp_dir.filename().string());
  const std::string folder = exp_dir.filename().string();
  auto cells = nlohmann::json::array();
  cells.push_back(markdown_cell(slug_id(id) + "-claim", claim_markdown(summary)));
  cells.push_back(code_cell(slug_id(id) + "-load",
                            setup_code(results_ref, folder, files_with(exp_dir, ".csv"))));
  for (const auto& png : files_with(exp_dir, ".png")) {
    const std::string stem = fs::path(png).stem().string();
    const fs::path spec_file = exp_dir / (stem + ".figure.json");
    std::string code;
    if (fs::exists(spec_file)) {
      code = "# Redraw " + stem + " with matplotlib from the CSVs (the output below is akm's\n"
             "# gnuplot rendering; running the cell replaces it with this redraw).\n" +
             matplotlib_source(nlohmann::json::parse(read_bytes(spec_file)));
    } else {
      code = "# These results predate figure specs (<name>.figure.json): the figure is shown as\n"
             "# akm rendered it; its gnuplot script is RESULTS / \"" + stem + ".gp\".\n"
             "from IPython.display import Image, display\n"
             "display(Image(filename=str(RESULTS / \"" + png + "\")))\n";
    }
    cells.push_back(markdown_cell(slug_id(id + "-" + stem) + "-md",
                                  fmt::format("## Figure `{}`\n\nData and script: `results/{}/{}.gp`.",
                                              stem, folder, stem)));
    nlohmann::json outputs = nlohmann::json::array({png_output(exp_dir / png, "<Figure " + stem + ">")});
    cells.push_back(code_cell(slug_id(id + "-" + stem) + "-plot", code, outputs));
  }
  cells.push_back(markdown_cell(slug_id(id) + "-live-md",
                                "## Live: akm from this notebook\n\nThese cells call the akm Python "
                                "module: re-run the check at another seed, move β and redraw."));
  cells.push_back(code_cell(slug_id(id) + "-live-import", live_import_code()));
  cells.push_back(code_cell(slug_id(id) + "-live-rerun", live_rerun_code()));
  cells.push_back(code_cell(slug_id(id) + "-live-beta", live_beta_code()));
  return {{"cells", cells},
          {"metadata",
           {{"kernelspec", {{"display_name", "Python 3"}, {"language", "python"}, {"name", "python3"}}},
            {"language_info", {{"name", "python"}}},
            {"akm", {{"id", id}, {"version", summary.value("version", "")}}}}},
          {"nbformat", 4},
          {"nbformat_minor", 5}};
}

fs::path default_notebook_dir(const fs::path& results_root) {
  fs::path p = fs::absolute(results_root).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();  // "results/" names the folder results
  return p.parent_path() / "notebooks_export";
}

std::vector<fs::path> export_notebooks(const fs::path& results_root, const fs::path& out) {
  std::error_code ec;
  if (!fs::is_directory(results_root, ec))
    throw InputError("--results", results_root.string(), "must be a results folder (akm run/reproduce --out)");
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(results_root)) {
    const std::string name = e.path().filename().string();
    if (!name.empty() && name[0] != '.' && e.is_directory() && fs::exists(e.path() / "summary.json"))
      dirs.push_back(e.path());
  }
  if (dirs.empty())
    throw InputError("--results", results_root.string(), "must hold experiment results (<ID>/summary.json)");
  require_writable_dir(out, "--out");
  std::sort(dirs.begin(), dirs.end());
  // The notebook loads the results relative to its own folder, so the two move together.
  const std::string ref =
      fs::relative(fs::absolute(results_root), fs::absolute(out)).lexically_normal().generic_string();
  std::vector<fs::path> written;
  for (const auto& d : dirs) {
    const fs::path file = out / (d.filename().string() + ".ipynb");
    write_file_atomic(file, experiment_notebook(d, ref.empty() ? "." : ref).dump(1) + "\n");
    written.push_back(file);
  }
  return written;
}

}  // namespace akm
