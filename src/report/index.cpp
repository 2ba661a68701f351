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
#include "akm/report/notebook.hpp"

namespace akm {

namespace fs = std::filesystem;
using namespace files;

namespace {

// ---------------------------------------------------------------- report gathering

// Natural order (T2 before T10); theorem IDs (T…) lead and the extensions (E…) follow,
// as in THEOREMS.md.
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

std::string string_or(const nlohmann::json& j, const char* key, const std::string& fallback) {
  if (j.contains(key) && j[key].is_string()) return j[key].get<std::string>();
  return fallback;
}

// A verdict counts only when the record says so explicitly; anything else is a failure.
bool passed(const nlohmann::json& check) {
  return check.is_object() && check.contains("pass") && check["pass"].is_boolean() &&
         check["pass"].get<bool>();
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

// ---------------------------------------------------------------- HTML

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

// Relative links: folder and file names pass through, anything unusual is percent-encoded.
std::string url_path(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || std::string("-._~/").find(static_cast<char>(c)) != std::string::npos)
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", static_cast<unsigned>(c));
  }
  return out;
}

std::string show_value(const nlohmann::json& j) {
  if (j.is_null()) return "&mdash;";
  if (j.is_number_float()) return html_escape(fmt::format("{:.6g}", j.get<double>()));
  if (j.is_number()) return html_escape(j.dump());
  if (j.is_string()) return html_escape(j.get<std::string>());
  if (j.is_boolean()) return j.get<bool>() ? "true" : "false";
  return html_escape(j.dump());
}

std::string field(const nlohmann::json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key)) return "&mdash;";
  return show_value(obj[key]);
}

std::string verdict(bool pass) {
  return pass ? "<span class=\"pass\">PASS</span>" : "<span class=\"fail\">FAIL</span>";
}

std::string labels_html(const nlohmann::json& s) {
  std::string out;
  if (!s.contains("paper_labels") || !s["paper_labels"].is_array()) return out;
  for (const auto& l : s["paper_labels"])
    if (l.is_string()) out += "<code>" + html_escape(l.get<std::string>()) + "</code> ";
  return out;
}

std::string meta_labels_html(const nlohmann::json& s) {
  const std::string labels = labels_html(s);
  return labels.empty() ? labels : labels + "&middot; ";
}

std::string thumbnails_html(const Experiment& e) {
  std::string out;
  for (const auto& png : e.figures) {
    const std::string href = url_path(e.folder + "/" + png);
    out += fmt::format(
        "<a href=\"{0}\" title=\"{1}\"><img src=\"{0}\" width=\"220\" alt=\"{1}\"></a>", href,
        html_escape(png));
  }
  return out;
}

double abs_z(const nlohmann::json& c) {
  if (!c.is_object() || !c.contains("z_score") || !c["z_score"].is_number()) return 0;
  const double z = std::abs(c["z_score"].get<double>());
  return std::isfinite(z) ? z : 0;
}

// Predicted vs measured at a glance: the first failed check, else the closest call
// (largest |z|), with the number of standard errors between them.
std::string predicted_vs_measured(const Experiment& e) {
  const auto& s = e.summary;
  if (!s.contains("checks") || !s["checks"].is_array() || s["checks"].empty()) return "&mdash;";
  const nlohmann::json* pick = nullptr;
  for (const auto& c : s["checks"])
    if (!passed(c)) {
      pick = &c;
      break;
    }
  if (!pick)
    for (const auto& c : s["checks"])
      if (!pick || abs_z(c) > abs_z(*pick)) pick = &c;
  const auto& c = *pick;
  return fmt::format("<span class=\"note\">{}</span><br><code>{}</code><br>predicted {} &middot; "
                     "measured {} &middot; |z| {} (tolerance {})",
                     passed(c) ? "closest call" : "<span class=\"fail\">first failure</span>",
                     field(c, "name"), field(c, "predicted"), field(c, "measured"),
                     html_escape(fmt::format("{:.2f}", abs_z(c))), field(c, "tolerance"));
}

// The claim status (check/status.hpp) of a summary: "" for results of older versions.
std::string status_of(const nlohmann::json& s) {
  if (!s.contains("status") || !s["status"].is_object()) return "";
  return string_or(s["status"], "status", "");
}

std::string status_html(const nlohmann::json& s) {
  const std::string st = status_of(s);
  if (st.empty()) return "";
  const char* cls = st == "SUPPORTED" ? "pass" : (st == "CONTRADICTED" ? "fail" : "note");
  return fmt::format("<br><span class=\"{}\">{}</span><br><span class=\"note\">{}/{} discriminate</span>",
                     cls, html_escape(st), field(s["status"], "discriminating_checks"),
                     field(s["status"], "evidence_checks"));
}

// Status, reason, resolution, findings and gated checks of one experiment.
std::string status_block(const nlohmann::json& s) {
  if (status_of(s).empty()) return "";
  const auto& st = s["status"];
  std::string out = fmt::format("<p><b>Status: {}</b> &mdash; {}</p>\n", html_escape(status_of(s)),
                                html_escape(string_or(st, "reason", "")));
  if (st.contains("resolution") && st["resolution"].is_object()) {
    std::string res;
    for (const char* k : {"prediction", "eta", "beta", "lambda"})
      if (st["resolution"].contains(k) && st["resolution"][k].is_number())
        res += fmt::format("{}{} {:.3g}", res.empty() ? "" : " &middot; ", k,
                           st["resolution"][k].get<double>());
    if (!res.empty())
      out += "<p class=\"meta\">Resolution (smallest relative error detected with power 0.9): " +
             res + "</p>\n";
  }
  for (const char* key : {"findings", "gated"}) {
    if (!s.contains(key) || !s[key].is_array() || s[key].empty()) continue;
    out += fmt::format("<p>{}</p>\n<ul>\n", std::string(key) == "findings"
                                                ? "Findings"
                                                : "Checks removed by a pre-registered gate");
    for (const auto& f : s[key])
      out += "<li>" +
             html_escape(f.is_string() ? f.get<std::string>()
                                       : string_or(f, "check", "") + ": " + string_or(f, "reason", "")) +
             "</li>\n";
    out += "</ul>\n";
  }
  return out;
}

std::string overview_row(const Experiment& e) {
  const auto& s = e.summary;
  const bool is_quick = s.contains("quick") && s["quick"].is_boolean() && s["quick"].get<bool>();
  const std::string quick = is_quick ? " <span class=\"note\">(quick)</span>" : "";
  const std::string notebook =
      e.notebook.empty() ? "" : fmt::format("<br><a href=\"{}\">notebook</a>", e.notebook);
  return fmt::format(
      "<tr class=\"{}\" id=\"row-{}\"><td><a href=\"#exp-{}\">{}</a></td><td>{}</td><td>{}</td>"
      "<td>{}{}</td><td>{}/{}</td><td class=\"pvm\">{}</td><td class=\"figs\">{}</td>"
      "<td><a href=\"{}\">summary.json</a>{}</td></tr>\n",
      e.pass ? "ok" : "bad", html_escape(e.id), html_escape(e.id), html_escape(e.id),
      html_escape(string_or(s, "title", "")), labels_html(s), verdict(e.pass) + status_html(s), quick,
      e.n_checks - e.n_failed, e.n_checks, predicted_vs_measured(e), thumbnails_html(e),
      url_path(e.folder + "/summary.json"), notebook);
}

std::string check_row(const nlohmann::json& c) {
  const bool ok = passed(c);
  return fmt::format(
      "<tr class=\"{}\"><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
      "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td>"
      "<td>{}</td></tr>\n",
      ok ? "ok" : "bad", field(c, "name"), field(c, "kind"), field(c, "predicted"),
      field(c, "measured"), field(c, "stderr"), field(c, "tolerance"), verdict(ok), field(c, "mde"),
      c.contains("discriminates") && c["discriminates"].is_boolean() && c["discriminates"].get<bool>()
          ? "yes"
          : (string_or(c, "role", "") == "design" ? "design" : "no"));
}

std::string experiment_section(const Experiment& e) {
  const auto& s = e.summary;
  std::string out = fmt::format(
      "<section id=\"exp-{0}\">\n<h2>{0} &middot; {1} {2}</h2>\n"
      "<p class=\"meta\">{3}seed {4} &middot; version {5} &middot; quick {6} &middot; "
      "<a href=\"{7}\">summary.json</a></p>\n",
      html_escape(e.id), html_escape(string_or(s, "title", "")), verdict(e.pass),
      meta_labels_html(s), field(s, "seed"), field(s, "version"), field(s, "quick"),
      url_path(e.folder + "/summary.json"));
  out += status_block(s);
  out += "<table class=\"checks\">\n<tr><th>check</th><th>kind</th><th>predicted</th>"
         "<th>measured</th><th>stderr</th><th>tolerance</th><th>verdict</th>"
         "<th>mde (power 0.9)</th><th>discriminates</th></tr>\n";
  if (s.contains("checks") && s["checks"].is_array())
    for (const auto& c : s["checks"]) out += check_row(c);
  out += "</table>\n";
  if (s.contains("params"))
    out += "<details><summary>parameters</summary><pre>" + html_escape(s["params"].dump(2)) +
           "</pre></details>\n";
  return out + "</section>\n";
}

constexpr const char* kStyle = R"(<style>
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em; color: #222; }
h1 { margin-bottom: 0.2em; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 4px 8px; vertical-align: top; text-align: left; }
th { background: #f0f0f0; }
td.num { text-align: right; font-family: ui-monospace, monospace; }
td.figs { min-width: 340px; }
td.figs img { margin: 2px; border: 1px solid #ddd; width: 160px; height: auto; }
.pass { color: #1a7f37; font-weight: bold; }
.fail { color: #c62828; font-weight: bold; }
table.checks tr.bad td { background: #fde0e0; }
table.overview tr.bad td { background: #fde0e0; }
table.overview tr.bad td:first-child { border-left: 6px solid #c62828; }
td.pvm { font-size: 0.85em; max-width: 22em; }
.banner { padding: 0.6em 1em; border: 2px solid #c62828; background: #fde0e0; }
.meta, .note { color: #666; font-size: 0.9em; }
code { background: #f5f5f5; padding: 0 3px; }
pre { background: #f8f8f8; padding: 0.5em; overflow-x: auto; }
</style>
)";

std::string index_html(const std::vector<Experiment>& exps, const nlohmann::json& summary) {
  const bool all = summary["pass"].get<bool>();
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>akm results: AK-Momentum theorem checks</title>\n";
  out += kStyle;
  out += "</head>\n<body>\n<h1>AK-Momentum theorem checks</h1>\n";
  std::size_t n_pass = 0;
  for (const auto& e : exps) n_pass += e.pass ? 1 : 0;
  out += fmt::format("<p>Overall: {} &middot; {}/{} experiments pass &middot; generated by akm {} "
                     "&middot; <a href=\"summary.json\">summary.json</a></p>\n",
                     verdict(all), n_pass, exps.size(), html_escape(version()));
  // The live maps need the program (a local server), not this folder: say how to open them
  // (as text: the report itself links nothing outside its folder).
  out += "<p class=\"note\">Explore the (η, β, α) maps live: run <code>akm explore</code> and open "
         "the local address it prints (README, <i>akm explore</i>).</p>\n";
  std::string failed;
  for (const auto& e : exps)
    if (!e.pass)
      failed += fmt::format(" <a href=\"#row-{0}\">{0}</a> ({1}/{2} checks failed)", html_escape(e.id),
                            e.n_failed, e.n_checks);
  if (!failed.empty())
    out += "<p class=\"banner\"><span class=\"fail\">Failing:</span>" + failed + "</p>\n";
  out += "<table class=\"overview\">\n<tr><th>ID</th><th>title</th><th>paper labels</th>"
         "<th>verdict</th><th>checks passed</th><th>predicted vs measured</th><th>figures</th>"
         "<th>data</th></tr>\n";
  for (const auto& e : exps) out += overview_row(e);
  out += "</table>\n";
  for (const auto& e : exps) out += experiment_section(e);
  return out + "</body>\n</html>\n";
}

}  // namespace

void write_report(const fs::path& root, const fs::path& notebooks) {
  require_writable_dir(root, "--out");
  std::error_code ec;  // temporaries of a killed earlier run
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    const std::string name = entry.path().filename().string();
    if (left_by_dead_process(name, "summary.json.tmp-") || left_by_dead_process(name, "index.html.tmp-"))
      fs::remove(entry.path(), ec);
  }
  auto exps = load_experiments(root);
  // Link each experiment's notebook when it exists (relative, so the folders can move).
  const fs::path nb_dir = notebooks.empty() ? default_notebook_dir(root) : notebooks;
  for (auto& e : exps) {
    const fs::path nb = nb_dir / (e.folder + ".ipynb");
    std::error_code ec;
    if (!fs::is_regular_file(nb, ec)) continue;
    e.notebook = url_path(
        fs::relative(fs::absolute(nb), fs::absolute(root)).lexically_normal().generic_string());
  }
  const auto summary = root_summary(exps);
  write_file_atomic(root / "summary.json", summary.dump(2) + "\n");
  write_file_atomic(root / "index.html", index_html(exps, summary));
}

}  // namespace akm
