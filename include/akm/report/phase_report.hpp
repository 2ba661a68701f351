// phase_report — tidy CSV, heatmap figures and JSON summaries of phase maps, shared by
// `akm phase` and the E1/E2 experiments.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/theory/phase.hpp"
#include "akm/sim/measured_map.hpp"
#include "akm/report/report.hpp"

namespace akm::phase {

/// One row per grid point: x, y, eta, beta, alpha, the metric's columns and, when given,
/// the measured columns (measured_rate, rate_se, rate_z, lag, direction, diverged_fraction,
/// growth, growth_se). Non-finite numbers are written as NaN (gnuplot skips them).
CsvTable to_table(const Map& map, const std::vector<MeasurePoint>* measured = nullptr);

/// A heatmap of one column of a map's CSV, as a gnuplot figure.
struct Heatmap {
  std::string name;  ///< file stem of the figure
  std::string csv;  ///< CSV file in the folder
  std::string column;  ///< column coloured
  std::string title;  ///< title
  std::string cblabel;  ///< colour-bar label
  Axis x;  ///< horizontal axis
  Axis y;  ///< vertical axis
  std::optional<std::pair<double, double>> cbrange;  ///< colour range; automatic when empty
  bool threshold_palette = false;  ///< two-colour palette split at 1 (stability metrics)
  bool diverging = false;          ///< blue-white-red palette centred on the cbrange middle
  /// Overlay η = β, η = 1+β, η = β/λ_max (drawn only on linear (η, β) axes).
  std::optional<double> stability_lines_lambda_max;
  std::vector<std::string> extra;  ///< more gnuplot lines
  /// More plot items drawn over the image, in plotted coordinates (log10 on log axes).
  std::vector<std::string> items;
};

/// Writes \<name\>.gp/.png/.svg: `column` of `csv` as an image over the grid (log axes are
/// shown as log10 of the value).
void write_heatmap(ResultDir& out, const Heatmap& h);

/// Headline numbers of a map: grid, time, and per column the fraction of points < 1, min
/// and max (finite values only).
nlohmann::json summarize(const Map& map);

/// Measured-vs-predicted summary: points, max |z|, fraction |z| > 3, diverged fractions.
nlohmann::json summarize(const std::vector<MeasurePoint>& measured);

}  // namespace akm::phase
