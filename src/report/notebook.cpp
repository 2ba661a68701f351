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
#include "notebook_cells.hpp"

namespace akm {

namespace fs = std::filesystem;

namespace {

using notebook_detail::claim_markdown;
using notebook_detail::live_beta_code;
using notebook_detail::live_import_code;
using notebook_detail::live_rerun_code;
using notebook_detail::setup_code;

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

std::vector<std::string> files_with(const fs::path& dir, const std::string& ext) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
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
