// results_scan — the experiments of a results folder as the report reads them
// (results_scan.hpp).
#include "results_scan.hpp"

#include <algorithm>
#include <cctype>
#include <exception>
#include <iostream>
#include <optional>
#include <system_error>

#include "akm/base/version.hpp"
#include "akm/report/files.hpp"
#include "akm/report/html.hpp"

namespace akm::report_scan {

namespace fs = std::filesystem;
using files::read_text;
using html::passed;
using html::string_or;

namespace {

std::vector<std::string> natural_chunks(const std::string& s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s.size();) {
    const bool digit = std::isdigit(static_cast<unsigned char>(s[i])) != 0;
    std::size_t j = i;
    while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) != 0) == digit) ++j;
    out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

bool chunk_less(const std::string& a, const std::string& b) {
  const bool da = std::isdigit(static_cast<unsigned char>(a[0])) != 0;
  const bool db = std::isdigit(static_cast<unsigned char>(b[0])) != 0;
  if (da && db) {
    const auto strip = [](const std::string& s) {
      const auto nz = s.find_first_not_of('0');
      return nz == std::string::npos ? std::string("0") : s.substr(nz);
    };
    const std::string x = strip(a), y = strip(b);
    if (x.size() != y.size()) return x.size() < y.size();
    return x < y;
  }
  return a < b;
}

}  // namespace

bool natural_less(const std::string& a, const std::string& b) {
  const bool ta = !a.empty() && a[0] == 'T', tb = !b.empty() && b[0] == 'T';
  if (ta != tb) return ta;
  const auto ca = natural_chunks(a), cb = natural_chunks(b);
  for (std::size_t i = 0; i < std::min(ca.size(), cb.size()); ++i) {
    if (chunk_less(ca[i], cb[i])) return true;
    if (chunk_less(cb[i], ca[i])) return false;
  }
  return ca.size() < cb.size();
}

namespace {

std::vector<std::string> png_files(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file(ec) && e.path().extension() == ".png")
      out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end(), natural_less);
  return out;
}

std::optional<Experiment> load_experiment(const fs::path& dir) {
  const fs::path file = dir / "summary.json";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  Experiment e;
  try {
    e.summary = nlohmann::json::parse(read_text(file));
  } catch (const std::exception& ex) {
    std::cerr << "akm: skipping " << file.string() << ": " << ex.what() << "\n";
    return std::nullopt;
  }
  if (!e.summary.is_object()) {
    std::cerr << "akm: skipping " << file.string() << ": not a JSON object\n";
    return std::nullopt;
  }
  e.folder = dir.filename().string();
  e.id = string_or(e.summary, "id", e.folder);
  if (e.summary.contains("checks") && e.summary["checks"].is_array()) {
    for (const auto& c : e.summary["checks"]) {
      ++e.n_checks;
      if (!passed(c)) ++e.n_failed;
    }
  }
  // The experiment's own verdict and its checks must agree before it counts as passed.
  e.pass = passed(e.summary) && e.n_failed == 0;
  e.figures = png_files(dir);
  return e;
}

}  // namespace

std::vector<Experiment> load_experiments(const fs::path& root) {
  std::vector<Experiment> out;
  for (const auto& entry : fs::directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    std::error_code ec;
    if (name.empty() || name[0] == '.' || !entry.is_directory(ec)) continue;
    if (auto e = load_experiment(entry.path())) out.push_back(std::move(*e));
  }
  std::sort(out.begin(), out.end(),
            [](const Experiment& a, const Experiment& b) { return natural_less(a.id, b.id); });
  return out;
}

nlohmann::json root_summary(const std::vector<Experiment>& exps) {
  auto list = nlohmann::json::array();
  bool all = !exps.empty();  // an empty results folder has verified nothing
  for (const auto& e : exps) {
    const auto& s = e.summary;
    list.push_back({{"id", e.id},
                    {"title", string_or(s, "title", "")},
                    {"paper_labels", s.value("paper_labels", nlohmann::json::array())},
                    {"pass", e.pass},
                    {"status", s.value("status", nlohmann::json(nullptr))},
                    {"n_checks", e.n_checks},
                    {"n_failed", e.n_failed},
                    {"quick", s.value("quick", nlohmann::json(nullptr))},
                    {"seed", s.value("seed", nlohmann::json(nullptr))},
                    {"version", s.value("version", nlohmann::json(nullptr))},
                    {"folder", e.folder},
                    {"figures", e.figures}});
    all = all && e.pass;
  }
  return {{"version", version()}, {"generated_by", "akm"}, {"experiments", list},
          {"pass", all}};
}

std::vector<FigureEntry> figures_of(const fs::path& dir, const std::vector<std::string>& pngs) {
  std::vector<FigureEntry> out;
  for (const auto& png : pngs) {
    FigureEntry f;
    f.name = fs::path(png).stem().string();
    std::error_code ec;
    f.has_svg = fs::is_regular_file(dir / (f.name + ".svg"), ec);
    f.has_gp = fs::is_regular_file(dir / (f.name + ".gp"), ec);
    f.caption = f.name;
    try {  // the figure's own spec, written by akm beside it
      const auto spec = nlohmann::json::parse(read_text(dir / (f.name + ".figure.json")));
      const std::string t = html::string_or(spec, "title", ""), x = html::string_or(spec, "xlabel", ""),
                        y = html::string_or(spec, "ylabel", "");
      if (!t.empty()) f.caption = t;
      if (!x.empty() || !y.empty()) f.caption += " — x: " + x + "; y: " + y;
    } catch (const std::exception&) {
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<std::string> csv_files(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file(ec) && e.path().extension() == ".csv") out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end(), natural_less);
  return out;
}

}  // namespace akm::report_scan
