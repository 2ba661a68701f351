// report/figure — a Figure as a gnuplot script (its data from the CSVs beside it),
// rendered to PNG and SVG.
#include "akm/report/figure.hpp"

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

#include "akm/report/csv.hpp"
#include "akm/report/files.hpp"
#include "akm/report/notebook.hpp"

namespace akm {

namespace fs = std::filesystem;
using namespace files;
using namespace csv;

namespace {

// Single-quoted gnuplot strings take no backslash escapes; a quote is doubled.
std::string gp_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("''") : std::string(1, c);
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

}  // namespace

Figure& Figure::measured_vs_predicted(const MeasuredPredicted& c) {
  series.push_back({c.csv, c.x, c.measured, c.se, c.measured_title, "errorbars", c.where});
  series.push_back({c.csv, c.x, c.predicted, "", c.predicted_title, "lines", c.where});
  return *this;
}

std::string heatmap_item(const std::string& csv, const std::string& x, const std::string& y,
                         const std::string& z) {
  require_plain_name(csv);
  return fmt::format("'{}' every ::1 using {}:{}:{} with image notitle", csv, x, y, z);
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

void render_figure(const fs::path& dir, const Figure& fig) {
  SeriesWriter writer(dir, fig.name);
  std::vector<std::string> items;
  for (const auto& s : fig.series) items.push_back(writer.item(s));
  for (const auto& f : fig.functions) items.push_back(f);
  write_text(dir / (fig.name + ".gp"), gnuplot_script(fig, items));
  // The spec lets `akm export-notebooks` redraw the figure with matplotlib.
  write_text(dir / (fig.name + ".figure.json"), figure_spec(fig).dump(2) + "\n");

  if (!gnuplot_available())
    throw std::runtime_error("gnuplot is not on PATH: cannot render figure " + fig.name);
  // -d ignores the user's ~/.gnuplot, so every machine draws the same figure.
  const auto r = run_command("cd " + shell_quote(dir.string()) + " && gnuplot -d " +
                             shell_quote(fig.name + ".gp"));
  const bool rendered = non_empty_file(dir / (fig.name + ".png")) &&
                        non_empty_file(dir / (fig.name + ".svg"));
  if (!r.ok || !rendered)
    throw std::runtime_error(fmt::format("gnuplot failed on {}.gp{}:\n{}", fig.name,
                                         r.ok ? " (no image written)" : "", r.output));
  // Warnings (an empty filter, a non-positive value on a log axis) signal a misleading
  // figure, so they are passed on rather than swallowed.
  if (!r.output.empty()) std::cerr << "akm: gnuplot on " << fig.name << ".gp:\n" << r.output;
}

}  // namespace akm
