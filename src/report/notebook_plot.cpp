// notebook_plot — a figure spec as JSON, and the matplotlib code that redraws it.
//
// Series (CSV column names, optional column=value filter) translate exactly; raw gnuplot
// plot items and settings are translated by gnuplot_items.cpp, or left as comments.
#include <regex>
#include <vector>

#include <fmt/format.h>

#include "akm/report/notebook.hpp"
#include "gnuplot_items.hpp"

namespace akm {

namespace {

using gnuplot_py::csv_item;
using gnuplot_py::extra_line;
using gnuplot_py::function_item;
using gnuplot_py::py_str;
using gnuplot_py::trim;

}  // namespace

nlohmann::json figure_spec(const Figure& fig) {
  auto series = nlohmann::json::array();
  for (const auto& s : fig.series)
    series.push_back({{"csv", s.csv}, {"x", s.x}, {"y", s.y}, {"yerr", s.yerr},
                      {"title", s.title}, {"style", s.style}, {"where", s.where}});
  return {{"name", fig.name},   {"title", fig.title}, {"xlabel", fig.xlabel},
          {"ylabel", fig.ylabel}, {"logx", fig.logx},  {"logy", fig.logy},
          {"series", series},   {"extra", fig.extra}, {"functions", fig.functions}};
}

std::string matplotlib_source(const nlohmann::json& spec) {
  std::string code = "fig, ax = plt.subplots(figsize=(9, 6))\n";
  for (const auto& s : spec.value("series", nlohmann::json::array())) {
    const std::string csv = s.value("csv", ""), x = s.value("x", ""), y = s.value("y", "");
    const std::string yerr = s.value("yerr", ""), style = s.value("style", "points");
    const std::string where = s.value("where", ""), title = s.value("title", "");
    code += fmt::format("df = data[{}]\n", py_str(csv));
    const auto eq = where.find('=');
    if (eq == std::string::npos) {
      code += "sel = np.ones(len(df), dtype=bool)\n";
    } else {
      const std::string k = where.substr(0, eq), v = where.substr(eq + 1);
      static const std::regex number(R"(^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$)");
      code += std::regex_match(v, number)
                  ? fmt::format("sel = np.isclose(df[{}].astype(float), {})\n", py_str(k), v)
                  : fmt::format("sel = df[{}].astype(str) == {}\n", py_str(k), py_str(v));
    }
    const std::string label = title.empty() ? "" : ", label=" + py_str(title);
    const auto colv = [&](const std::string& c) { return fmt::format("df[{}][sel]", py_str(c)); };
    if (style == "errorbars") {
      code += fmt::format("ax.errorbar({}, {}, yerr={}, fmt='o', ms=3, capsize=2{})\n", colv(x),
                          colv(y), colv(yerr), label);
    } else {
      const char* f = style == "lines" ? "'-'" : style == "linespoints" ? "'-o'" : "'o'";
      code += fmt::format("ax.plot({}, {}, {}, ms=3{})\n", colv(x), colv(y), f, label);
    }
  }
  std::vector<std::string> curves;
  for (const auto& f : spec.value("functions", nlohmann::json::array())) {
    const std::string item = trim(f.get<std::string>());
    if (!item.empty() && item[0] == '\'') {
      code += csv_item(item);
    } else {
      curves.push_back(item);
    }
  }
  if (spec.value("logx", false)) code += "ax.set_xscale('log')\n";
  if (spec.value("logy", false)) code += "ax.set_yscale('log')\n";
  for (const auto& e : spec.value("extra", nlohmann::json::array())) code += extra_line(e.get<std::string>());
  if (!curves.empty()) {
    code += "lo, hi = ax.get_xlim()\n"
            "if ax.get_xscale() == 'log':\n"
            "    x = np.geomspace(max(lo, hi * 1e-9), hi, 400)\n"
            "else:\n"
            "    x = np.linspace(lo, hi, 400)\n";
    for (const auto& c : curves) code += function_item(c);
    code += "ax.set_xlim(lo, hi)\n";
  }
  code += fmt::format("ax.set_title({})\nax.set_xlabel({})\nax.set_ylabel({})\n",
                      py_str(spec.value("title", "")), py_str(spec.value("xlabel", "")),
                      py_str(spec.value("ylabel", "")));
  code += "ax.grid(True, alpha=0.3)\n"
          "if ax.get_legend_handles_labels()[0]:\n"
          "    ax.legend(fontsize=8)\n"
          "plt.show()\n";
  return code;
}

}  // namespace akm
