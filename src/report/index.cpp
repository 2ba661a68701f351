// report/index — results/summary.json and results/index.html gathered from every
// results/<ID>/summary.json, each experiment linked to its notebook.
#include "akm/report/index.hpp"

#include <sys/wait.h>
#include <csignal>
#include <cerrno>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "akm/base/version.hpp"
#include "akm/report/files.hpp"
#include "akm/check/status.hpp"
#include "akm/report/claim_page.hpp"
#include "akm/report/html.hpp"
#include "akm/report/katex.hpp"
#include "akm/report/ledger_report.hpp"
#include "akm/report/notebook.hpp"

namespace akm {

namespace fs = std::filesystem;
using namespace files;
using html::passed;
using html::string_or;

namespace {

// ---------------------------------------------------------------- report gathering

// Natural order (T2 before T10); theorem IDs (T…) lead and the extensions (E…) follow,
// as in docs/claims.md.
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

struct Experiment {
  std::string id;
  std::string folder;
  nlohmann::json summary;
  std::vector<std::string> figures;  ///< PNG file names in the folder
  std::size_t n_checks = 0, n_failed = 0;
  bool pass = false;
  std::string notebook;  ///< href of its notebook relative to index.html; empty if none
};

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

// ---------------------------------------------------------------- pages

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

// "19 SUPPORTED · 1 CONTRADICTED · …" in the order of check/status.hpp, spelled by its to_string.
std::string status_counts(const std::vector<Experiment>& exps) {
  std::string out;
  for (const ClaimStatus cs : {ClaimStatus::Supported, ClaimStatus::Corrected, ClaimStatus::Contradicted,
                               ClaimStatus::NotReproducedAtScale,
                               ClaimStatus::Inconclusive, ClaimStatus::Reported}) {
    const std::string st = to_string(cs);
    std::size_t n = 0;
    for (const auto& e : exps) n += html::status_of(e.summary) == st ? 1 : 0;
    if (n > 0) out += fmt::format("{}{} {}", out.empty() ? "" : " &middot; ", n, html::status_badge(st));
  }
  std::size_t none = 0;
  for (const auto& e : exps) none += html::status_of(e.summary).empty() ? 1 : 0;
  if (none > 0) out += fmt::format("{}{} without a status (older results)", out.empty() ? "" : " &middot; ", none);
  return out;
}

std::string index_row(const Experiment& e) {
  const auto& s = e.summary;
  const bool is_quick = s.contains("quick") && s["quick"].is_boolean() && s["quick"].get<bool>();
  const auto st = s.contains("status") ? s["status"] : nlohmann::json();
  return fmt::format(
      "<tr><td><a href=\"{0}\"><b>{1}</b></a></td><td><a href=\"{0}\">{2}</a>{3}</td><td>{4}</td>"
      "<td class=\"num\">{5}/{6}</td><td>{10}</td><td class=\"num\">{7}/{8}</td><td>{9}</td></tr>\n",
      html::url_path(e.folder + "/index.html"), html::escape(e.id), html::escape(html::string_or(s, "title", "")),
      is_quick ? " <span class=\"note\">(quick)</span>" : "", html::status_badge(html::status_of(s)),
      html::field(st, "discriminating_checks"), html::field(st, "evidence_checks"), e.n_checks - e.n_failed,
      e.n_checks, e.n_failed == 0 ? "<span class=\"pass\">PASS</span>" : "<span class=\"fail\">FAIL</span>",
      html::escape(st.contains("resolution") ? resolution_text(st["resolution"]) : ""));
}

std::string index_html(const std::vector<Experiment>& exps, bool katex, const nlohmann::json& ledger) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>akm results: AK-Momentum's claims against simulation</title>\n";
  out += html::style();
  out += "</head>\n<body>\n<h1>AK-Momentum: the paper's claims against simulation</h1>\n";
  out += fmt::format("<p>{} &mdash; {} claims &middot; generated by akm {} &middot; "
                     "<a href=\"summary.json\">summary.json</a></p>\n",
                     status_counts(exps), exps.size(), html::escape(version()));
  out += "<table class=\"index\">\n<tr><th>ID</th><th>claim (its page: statement, status, figures, "
         "checks, data)</th><th>status</th><th>discriminate / evidence</th><th>resolution in η, β, λ̂ "
         "(power 0.9)</th><th>checks passed</th>"
         "<th>checks</th></tr>\n";
  for (const auto& e : exps) out += index_row(e);
  out += "</table>\n";
  if (ledger.is_object()) {  // `akm ledger` wrote root/ledger.json
    std::map<std::string, nlohmann::json> summaries;
    for (const auto& e : exps) summaries[e.id] = e.summary;
    out += ledger_index_html(ledger, stale_experiments(ledger, summaries));
  }
  out += "<p class=\"note\">A status is decided by the checks with power (docs/statistics.md, <i>Claim statuses</i>): "
         "SUPPORTED needs every evidence check to pass and at least one to discriminate; a pass "
         "without power is INCONCLUSIVE. Explore the (η, β, α) maps live: run <code>akm explore</code> "
         "and open the local address it prints (docs/explore.md).";
  if (!katex) out += " Math on the claim pages is shown as TeX source (libjs-katex was not installed).";
  return out + "</p>\n</body>\n</html>\n";
}

}  // namespace

void write_report(const fs::path& root, const fs::path& notebooks) {
  require_writable_dir(root, "--out");
  std::error_code ec;  // temporaries of a killed earlier run
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    const std::string name = entry.path().filename().string();
    if (left_by_dead_process(name, "summary.json.tmp-") || left_by_dead_process(name, "index.html.tmp-") ||
        left_by_dead_process(name, ".katex.tmp-") || left_by_dead_process(name, ".katex.old-"))
      fs::remove_all(entry.path(), ec);
  }
  auto exps = load_experiments(root);
  for (const auto& e : exps)  // a claim page's temporary, when a run was killed while writing it
    for (const auto& entry : fs::directory_iterator(root / e.folder, ec))
      if (left_by_dead_process(entry.path().filename().string(), "index.html.tmp-")) fs::remove(entry.path(), ec);
  // Link each experiment's notebook when it exists (relative, so the folders can move).
  const fs::path nb_dir = notebooks.empty() ? default_notebook_dir(root) : notebooks;
  for (auto& e : exps) {
    const fs::path nb = nb_dir / (e.folder + ".ipynb");
    std::error_code ec;
    if (!fs::is_regular_file(nb, ec)) continue;
    e.notebook = html::url_path(
        fs::relative(fs::absolute(nb), fs::absolute(root)).lexically_normal().generic_string());
  }
  auto summary = root_summary(exps);
  // The ledger's verdict per statement (`akm ledger`), when results/ledger.json exists.
  nlohmann::json ledger;
  std::vector<std::string> stale;
  if (std::error_code lec; fs::is_regular_file(root / "ledger.json", lec)) {
    ledger = nlohmann::json::parse(read_text(root / "ledger.json"));
    std::map<std::string, nlohmann::json> current;
    for (const auto& e : exps) current[e.id] = e.summary;
    stale = stale_experiments(ledger, current);  // re-run since `akm ledger`
    summary["statements_stale"] = stale;
    summary["statements"] = nlohmann::json::array();
    for (const auto& st : ledger.at("statements"))
      summary["statements"].push_back({{"label", st.at("label")}, {"verdict", st.at("verdict")},
                                       {"experiments", st.at("experiments")}});
  }
  const bool katex = copy_katex(root);
  for (const auto& e : exps) {
    ClaimPage page;
    page.summary = e.summary;
    page.figures = figures_of(root / e.folder, e.figures);
    page.data = csv_files(root / e.folder);
    page.katex = katex;
    // The notebook link from inside the folder: one level deeper than index.html's.
    if (!e.notebook.empty()) page.notebook = "../" + e.notebook;  // relative to index.html
    if (ledger.is_object()) page.ledger_html = ledger_claim_html(ledger, e.id, stale);
    write_file_atomic(root / e.folder / "index.html", claim_page_html(page));
  }
  write_file_atomic(root / "summary.json", summary.dump(2) + "\n");
  write_file_atomic(root / "index.html", index_html(exps, katex, ledger));
}

}  // namespace akm
