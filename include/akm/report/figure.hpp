// report/figure — a figure drawn from the CSVs beside it: the spec, its gnuplot script,
// and the PNG and SVG rendered from that script.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace akm {

/// One plotted series of a figure, columns named as in the CSV header.
struct Series {
  std::string csv;     ///< file name in the experiment folder
  std::string x;  ///< column name of x
  std::string y;  ///< column name of y
  std::string yerr;    ///< column name of ±error (style "errorbars"); empty otherwise
  std::string title;  ///< legend entry
  std::string style = "points";  ///< points | lines | linespoints | errorbars
  std::string where;   ///< optional filter: "column=value" keeps matching rows only
};

/// A measured curve with its ± standard-error bars and the prediction it is checked against:
/// two series of one CSV sharing x and the row filter (Figure::measured_vs_predicted).
struct MeasuredPredicted {
  // Every member has a default, so a designated initializer may leave any of them out.
  std::string csv{};                    ///< file name in the experiment folder
  std::string x{};                      ///< column name of x
  std::string measured = "measured";    ///< column of the measured means
  std::string se = "stderr";            ///< column of their standard errors
  std::string predicted = "predicted";  ///< column of the prediction
  std::string measured_title{};         ///< legend of the measured points (empty: none)
  std::string predicted_title{};        ///< legend of the prediction (empty: none)
  std::string where{};                  ///< optional filter "column=value" of both series
};

/// A gnuplot figure drawn from the CSVs of an experiment folder.
struct Figure {
  std::string name;    ///< file stem: \<name\>.{gp,png,svg}
  std::string title;  ///< title
  std::string xlabel;  ///< x-axis label
  std::string ylabel;  ///< y-axis label
  bool logx = false;  ///< logarithmic x axis
  bool logy = false;  ///< logarithmic y axis
  std::vector<Series> series;  ///< the plotted series
  std::vector<std::string> extra;  ///< raw gnuplot lines placed before `plot`
  std::vector<std::string> functions;  ///< extra plot items, e.g. "1 title 'EMA' lw 2"

  /// Appends the measured series (style errorbars) and then its prediction (style lines).
  Figure& measured_vs_predicted(const MeasuredPredicted& c);
};

/// The plot item drawing `z` over (`x`, `y`) of `csv` as a heat map (gnuplot `with image`),
/// for Figure::functions; x, y and z are gnuplot `using` entries: a column number ("3") or
/// an expression ("(log10($1))").
std::string heatmap_item(const std::string& csv, const std::string& x, const std::string& y,
                         const std::string& z);

/// Writes \<dir\>/\<name\>.gp and \<name\>.figure.json and renders \<name\>.png and \<name\>.svg with
/// gnuplot (std::runtime_error when gnuplot is missing or fails; its warnings go to stderr).
void render_figure(const std::filesystem::path& dir, const Figure& fig);

/// True when gnuplot is on PATH.
bool gnuplot_available();

}  // namespace akm
