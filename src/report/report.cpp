// report — CSV/JSON per experiment, gnuplot figures, results/summary.json and index.html.
// Files are written into a hidden staging folder and renamed into place, so an interrupted
// run leaves the previous results intact and never a half-written folder.
#include "akm/base/version.hpp"
#include "akm/report/report.hpp"

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

#include "akm/sim/dist.hpp"
#include "akm/base/errors.hpp"

#include "akm/report/notebook.hpp"

namespace akm {

namespace fs = std::filesystem;

namespace {

std::string pid_tag() { return std::to_string(static_cast<long long>(::getpid())); }

// True when `name` is prefix + the pid of a process that no longer exists: what a killed
// (SIGKILL, power loss) run left behind. A live pid's files belong to a concurrent run.
bool left_by_dead_process(const std::string& name, const std::string& prefix) {
  if (name.rfind(prefix, 0) != 0) return false;
  const std::string digits = name.substr(prefix.size());
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return false;
  const long pid = std::stol(digits);
  return pid != ::getpid() && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

// Removes every root/.<id>.staging-<dead pid>; puts root/.<id>.old-<dead pid> back as
// root/<id> when the swap in commit() was cut between its two renames, else removes it.
// All ids are swept, so any later run into the same folder repairs it.
void sweep_stale(const fs::path& root) {
  std::error_code ec;
  std::vector<fs::path> stale_staging;
  std::vector<std::pair<fs::path, std::string>> stale_old;  // path, id
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 2 || name[0] != '.') continue;
    for (const std::string kind : {".staging-", ".old-"}) {
      const auto at = name.rfind(kind);
      if (at == std::string::npos || at < 2) continue;
      if (!left_by_dead_process(name, name.substr(0, at + kind.size()))) continue;
      if (kind == ".staging-") stale_staging.push_back(entry.path());
      else stale_old.emplace_back(entry.path(), name.substr(1, at - 1));
    }
  }
  for (const auto& p : stale_staging) fs::remove_all(p, ec);
  for (const auto& [p, id] : stale_old) {
    if (!fs::exists(fs::symlink_status(root / id)))
      fs::rename(p, root / id, ec);
    else
      fs::remove_all(p, ec);
  }
}

// ---------------------------------------------------------------- plain files

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const fs::path& p, const std::string& content) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

// Experiment code names files; a slash or a dot-name would escape the result folder.
void require_plain_name(const std::string& file) {
  if (file.empty() || file == "." || file == ".." || file.find('/') != std::string::npos ||
      file.find('\0') != std::string::npos)
    throw std::invalid_argument("not a plain file name: '" + file + "'");
}

// ---------------------------------------------------------------- CSV

bool needs_quotes(const std::string& s) { return s.find_first_of(",\"\r\n") != std::string::npos; }

std::string csv_field(const std::string& s) {
  if (!needs_quotes(s)) return s;
  std::string q = "\"";
  for (char c : s) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// 17 significant digits read back to the same double, so the CSV is the data, not a view.
std::string csv_cell(const CsvTable::Cell& c) {
  if (const auto* d = std::get_if<double>(&c)) return fmt::format("{:.17g}", *d);
  if (const auto* i = std::get_if<long long>(&c)) return std::to_string(*i);
  return csv_field(std::get<std::string>(c));
}

std::string csv_text(const CsvTable& t) {
  std::string out;
  for (std::size_t i = 0; i < t.header.size(); ++i) {
    if (i) out += ',';
    out += csv_field(t.header[i]);
  }
  out += '\n';
  for (const auto& row : t.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) out += ',';
      out += csv_cell(row[i]);
    }
    out += '\n';
  }
  return out;
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

std::vector<std::string> csv_header_of(const fs::path& csv) {
  std::ifstream in(csv, std::ios::binary);
  std::string line;
  if (!in || !std::getline(in, line)) return {};
  return split_csv_line(line);
}

// ---------------------------------------------------------------- gnuplot script

// Single-quoted gnuplot strings take no backslash escapes; a quote is doubled.
std::string gp_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("''") : std::string(1, c);
  return q + "'";
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::optional<double> parse_finite(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

class SeriesWriter {
 public:
  SeriesWriter(const fs::path& dir, const std::string& figure) : dir_(dir), figure_(figure) {}

  std::string item(const Series& s) {
    require_plain_name(s.csv);
    header_ = csv_header_of(dir_ / s.csv);
    if (header_.empty())
      throw std::invalid_argument(fmt::format("figure '{}': '{}' was not written before the figure",
                                              figure_, s.csv));
    // `every ::1` skips the header line (gnuplot counts it as point 0); raw plot items in
    // Figure::functions that read a CSV use the same idiom.
    std::string u =
        fmt::format("{} every ::1 using {}:{}", gp_quote(s.csv), col(s, s.x), y_expr(s));
    if (s.style == "errorbars") {
      if (s.yerr.empty())
        throw std::invalid_argument(
            fmt::format("figure '{}': style errorbars needs a yerr column", figure_));
      u += fmt::format(":{} with yerrorbars pt 7 ps 0.8", col(s, s.yerr));
    } else {
      u += " with " + style_of(s);
    }
    return u + (s.title.empty() ? " notitle" : " title " + gp_quote(s.title));
  }

 private:
  int index_of(const Series& s, const std::string& name) const {
    const auto it = std::find(header_.begin(), header_.end(), name);
    if (it == header_.end())
      throw std::invalid_argument(fmt::format("figure '{}': no column '{}' in '{}'", figure_,
                                              name, s.csv));
    return static_cast<int>(it - header_.begin()) + 1;  // gnuplot counts columns from 1
  }

  std::string col(const Series& s, const std::string& name) const {
    return std::to_string(index_of(s, name));
  }

  // Rows outside the filter become NaN, which `set datafile missing NaN` drops entirely,
  // so lines through the kept rows are not broken by the interleaved rows of a tidy CSV.
  std::string y_expr(const Series& s) const {
    if (s.where.empty()) return col(s, s.y);
    const auto eq = s.where.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument(fmt::format("figure '{}': filter '{}' is not column=value",
                                              figure_, s.where));
    const int k = index_of(s, s.where.substr(0, eq));
    const std::string value = s.where.substr(eq + 1);
    const std::string test = parse_finite(value)
                                 ? fmt::format("column({}) == {}", k, value)
                                 : fmt::format("strcol({}) eq {}", k, gp_quote(value));
    return fmt::format("({} ? ${} : NaN)", test, index_of(s, s.y));
  }

  std::string style_of(const Series& s) const {
    if (s.style == "points") return "points pt 7 ps 0.8";
    if (s.style == "lines") return "lines lw 2";
    if (s.style == "linespoints") return "linespoints lw 1.5 pt 7 ps 0.8";
    throw std::invalid_argument(fmt::format("figure '{}': unknown style '{}'", figure_, s.style));
  }

  fs::path dir_;
  std::string figure_;
  std::vector<std::string> header_;
};

std::string script_preamble(const Figure& fig) {
  std::string g = fmt::format(
      "# {0}.gp - written by akm from the CSV files in this folder.\n"
      "# Re-render {0}.png and {0}.svg from inside this folder:  gnuplot {0}.gp\n"
      "set datafile separator ','\n"
      "set datafile missing NaN\n",
      fig.name);
  if (!fig.title.empty()) g += "set title " + gp_quote(fig.title) + "\n";
  if (!fig.xlabel.empty()) g += "set xlabel " + gp_quote(fig.xlabel) + "\n";
  if (!fig.ylabel.empty()) g += "set ylabel " + gp_quote(fig.ylabel) + "\n";
  if (fig.logx) g += "set logscale x\n";
  if (fig.logy) g += "set logscale y\n";
  g += "set grid\n";
  g += "set key outside top left horizontal\n";
  for (const auto& line : fig.extra) g += line + "\n";
  return g;
}

std::string gnuplot_script(const Figure& fig, const std::vector<std::string>& items) {
  std::string g = script_preamble(fig);
  g += fmt::format("set terminal pngcairo size 900,600 enhanced font ',11'\n"
                   "set output {}\n",
                   gp_quote(fig.name + ".png"));
  g += "plot ";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) g += ", \\\n     ";
    g += items[i];
  }
  g += "\n";
  g += fmt::format("set terminal svg size 900,600 dynamic enhanced\n"
                   "set output {}\n"
                   "replot\n"
                   "unset output\n",
                   gp_quote(fig.name + ".svg"));
  return g;
}

struct CommandResult {
  bool ok = false;
  std::string output;
};

// popen with 2>&1: gnuplot reports problems on stderr and writes nothing else to stdout.
CommandResult run_command(const std::string& cmd) {
  CommandResult r;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  const int status = ::pclose(p);
  r.ok = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return r;
}

bool non_empty_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && fs::file_size(p, ec) > 0 && !ec;
}

// ---------------------------------------------------------------- writable folder probe

// The outermost ancestor that does not exist yet: everything create_directories makes
// lies under it, so removing it undoes a failed attempt completely.
std::optional<fs::path> first_missing_ancestor(const fs::path& p) {
  std::optional<fs::path> missing;
  std::error_code ec;
  for (fs::path q = p; !q.empty(); q = q.parent_path()) {
    if (fs::exists(fs::symlink_status(q, ec))) break;
    missing = q;
    if (q == q.parent_path()) break;
  }
  return missing;
}

bool probe_write(const fs::path& dir) {
  const fs::path probe = dir / (".akm-write-probe-" + pid_tag());
  bool ok = false;
  {
    std::ofstream out(probe, std::ios::binary | std::ios::trunc);
    out << "akm";
    out.close();
    ok = static_cast<bool>(out);
  }
  std::error_code ec;
  fs::remove(probe, ec);
  return ok && !ec;
}

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
      html_escape(string_or(s, "title", "")), labels_html(s), verdict(e.pass), quick,
      e.n_checks - e.n_failed, e.n_checks, predicted_vs_measured(e), thumbnails_html(e),
      url_path(e.folder + "/summary.json"), notebook);
}

std::string check_row(const nlohmann::json& c) {
  const bool ok = passed(c);
  return fmt::format(
      "<tr class=\"{}\"><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
      "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
      ok ? "ok" : "bad", field(c, "name"), field(c, "kind"), field(c, "predicted"),
      field(c, "measured"), field(c, "stderr"), field(c, "tolerance"), verdict(ok));
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
  out += "<table class=\"checks\">\n<tr><th>check</th><th>kind</th><th>predicted</th>"
         "<th>measured</th><th>stderr</th><th>tolerance</th><th>verdict</th></tr>\n";
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

// ================================================================ public API

void CsvTable::add(std::vector<Cell> row) {
  if (row.size() != header.size())
    throw std::invalid_argument(fmt::format("CsvTable::add: row has {} cells, header has {}",
                                            row.size(), header.size()));
  rows.push_back(std::move(row));
}

void require_writable_dir(const fs::path& root, const std::string& param) {
  if (!dist::root()) return;
  const auto fail = [&] { throw InputError(param, root.string(), "must be a writable folder"); };
  if (root.empty()) fail();
  const auto created = first_missing_ancestor(root);
  std::error_code ec;
  fs::create_directories(root, ec);
  if (!ec && fs::is_directory(root, ec) && probe_write(root)) return;
  if (created) fs::remove_all(*created, ec);  // leave the file system as we found it
  fail();
}

ResultDir::ResultDir(const fs::path& root, const std::string& id) : id_(id) {
  if (id.empty() || id[0] == '.' || id.find('/') != std::string::npos)
    throw std::invalid_argument("ResultDir: bad experiment id '" + id + "'");
  discard_ = !dist::root();
  if (discard_) {
    root_ = fs::absolute(root);
    return;
  }
  require_writable_dir(root, "--out");
  root_ = fs::absolute(root);
  staging_ = root_ / ("." + id_ + ".staging-" + pid_tag());
  sweep_stale(root_);
  fs::remove_all(staging_);  // left by an earlier process that had the same pid
  guard_.folder(staging_);
  fs::create_directory(staging_);
}

ResultDir::~ResultDir() {
  guard_.release();
  if (committed_ || discard_) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

void ResultDir::write_csv(const std::string& file, const CsvTable& table) {
  if (committed_) throw std::logic_error("ResultDir: write_csv after commit");
  require_plain_name(file);
  if (discard_) return;
  write_text(staging_ / file, csv_text(table));
}

void ResultDir::write_json(const std::string& file, const nlohmann::json& j) {
  if (committed_) throw std::logic_error("ResultDir: write_json after commit");
  require_plain_name(file);
  if (discard_) return;
  write_text(staging_ / file, j.dump(2) + "\n");
}

void ResultDir::figure(const Figure& fig) {
  if (committed_) throw std::logic_error("ResultDir: figure after commit");
  require_plain_name(fig.name + ".gp");
  if (fig.series.empty() && fig.functions.empty())
    throw std::invalid_argument("figure '" + fig.name + "' has nothing to plot");
  if (discard_) return;
  SeriesWriter writer(staging_, fig.name);
  std::vector<std::string> items;
  for (const auto& s : fig.series) items.push_back(writer.item(s));
  for (const auto& f : fig.functions) items.push_back(f);
  write_text(staging_ / (fig.name + ".gp"), gnuplot_script(fig, items));
  // The spec lets `akm export-notebooks` redraw the figure with matplotlib.
  write_text(staging_ / (fig.name + ".figure.json"), figure_spec(fig).dump(2) + "\n");

  if (!gnuplot_available())
    throw std::runtime_error("gnuplot is not on PATH: cannot render figure " + fig.name);
  // -d ignores the user's ~/.gnuplot, so every machine draws the same figure.
  const auto r = run_command("cd " + shell_quote(staging_.string()) + " && gnuplot -d " +
                             shell_quote(fig.name + ".gp"));
  const bool rendered = non_empty_file(staging_ / (fig.name + ".png")) &&
                        non_empty_file(staging_ / (fig.name + ".svg"));
  if (!r.ok || !rendered)
    throw std::runtime_error(fmt::format("gnuplot failed on {}.gp{}:\n{}", fig.name,
                                         r.ok ? " (no image written)" : "", r.output));
  // Warnings (an empty filter, a non-positive value on a log axis) signal a misleading
  // figure, so they are passed on rather than swallowed.
  if (!r.output.empty()) std::cerr << "akm: gnuplot on " << fig.name << ".gp:\n" << r.output;
}

void ResultDir::commit() {
  if (committed_) throw std::logic_error("ResultDir: commit called twice");
  if (discard_) {
    committed_ = true;
    return;
  }
  const fs::path final_dir = final_path();
  const fs::path old = root_ / ("." + id_ + ".old-" + pid_tag());
  fs::remove_all(old);
  const bool had_old = fs::exists(fs::symlink_status(final_dir));
  // A signal between the two renames puts the previous results back (interrupt.cpp).
  if (had_old) guard_.restore(old, final_dir);
  if (had_old) fs::rename(final_dir, old);
  try {
    fs::rename(staging_, final_dir);
  } catch (...) {
    std::error_code ec;
    if (had_old) fs::rename(old, final_dir, ec);  // put the previous results back
    throw;
  }
  guard_.release();
  committed_ = true;
  std::error_code ec;
  fs::remove_all(old, ec);
}

bool gnuplot_available() {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::istringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) dir = ".";
    const fs::path exe = fs::path(dir) / "gnuplot";
    if (::access(exe.c_str(), X_OK) == 0) return true;
  }
  return false;
}

void write_file_atomic(const fs::path& path, const std::string& content) {
  fs::path tmp = path;
  tmp += ".tmp-" + pid_tag();
  interrupt::Guard guard;
  guard.file(tmp);
  try {
    write_text(tmp, content);
    fs::rename(tmp, path);
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
}

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
