// phase_report — CSV, heatmaps and summaries of phase maps.
#include "akm/report/phase_report.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include <fmt/format.h>

namespace akm::phase {
namespace {

// Enhanced-text gnuplot reads '_' as a subscript: metric names keep theirs literal.
std::string escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '_') r += "\\";
    r += c;
  }
  return r;
}

double finite_or_nan(double v) { return std::isfinite(v) ? v : std::numeric_limits<double>::quiet_NaN(); }

std::string axis_label(const Axis& a) {
  const std::string name = a.param == Param::eta ? "η" : a.param == Param::beta ? "β" : "α";
  return a.log ? "log_{10} " + name : name;
}

double axis_value(const Point& p, Param a) {
  return a == Param::eta ? p.eta : a == Param::beta ? p.beta : p.alpha;
}

int col_of(const CsvTable& t, const std::string& name) {
  const auto it = std::find(t.header.begin(), t.header.end(), name);
  return it == t.header.end() ? -1 : static_cast<int>(it - t.header.begin()) + 1;
}

}  // namespace

CsvTable to_table(const Map& map, const std::vector<MeasurePoint>* measured) {
  CsvTable t;
  t.header = {"x", "y", "eta", "beta", "alpha"};
  for (const auto& n : map.names) t.header.push_back(n);
  if (measured)
    for (const char* c : {"predicted_rate", "measured_rate", "rate_se", "rate_z", "lag", "direction",
                          "diverged_fraction", "growth", "growth_se"})
      t.header.push_back(c);
  for (std::size_t k = 0; k < map.points.size(); ++k) {
    const Point& p = map.points[k];
    std::vector<CsvTable::Cell> row{axis_value(p, map.opts.x.param), axis_value(p, map.opts.y.param), p.eta,
                                    p.beta, finite_or_nan(p.alpha)};
    for (double v : p.cols) row.emplace_back(finite_or_nan(v));
    if (measured) {
      const MeasurePoint& m = (*measured)[k];
      for (double v : {m.predicted_rate, m.measured_rate, m.rate_se, m.rate_z}) row.emplace_back(finite_or_nan(v));
      row.emplace_back(m.lag);
      row.emplace_back(m.direction + 1);
      for (double v : {m.diverged_fraction, m.growth, m.growth_se}) row.emplace_back(finite_or_nan(v));
    }
    t.add(std::move(row));
  }
  return t;
}

void write_heatmap(ResultDir& out, const Heatmap& h) {
  if (out.discards()) return;  // MPI rank ≠ 0: no staged CSV to read, nothing to draw
  Figure f;
  f.name = h.name;
  f.title = escape(h.title);
  f.xlabel = axis_label(h.x);
  f.ylabel = axis_label(h.y);
  const auto xr = h.x.log ? std::pair{std::log10(h.x.lo), std::log10(h.x.hi)} : std::pair{h.x.lo, h.x.hi};
  const auto yr = h.y.log ? std::pair{std::log10(h.y.lo), std::log10(h.y.hi)} : std::pair{h.y.lo, h.y.hi};
  f.extra = {fmt::format("set xrange [{}:{}]", xr.first, xr.second),
             fmt::format("set yrange [{}:{}]", yr.first, yr.second), "set grid front",
             "set cblabel " + fmt::format("'{}'", escape(h.cblabel.empty() ? h.column : h.cblabel)),
             "set key outside top center horizontal", "set samples 1000"};
  if (h.cbrange) f.extra.push_back(fmt::format("set cbrange [{}:{}]", h.cbrange->first, h.cbrange->second));
  if (h.threshold_palette)
    f.extra.push_back("set palette defined (0 '#08306b', 0.5 '#4292c6', 0.999 '#c6dbef', 1 '#fcbba1', 1.5 '#ef3b2c', 2 '#67000d')");
  else
    f.extra.push_back(h.diverging ? "set palette defined (0 '#2166ac', 0.5 '#f7f7f7', 1 '#b2182b')"
                                  : "set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 '#fde725')");
  for (const auto& e : h.extra) f.extra.push_back(e);
  // Column numbers are looked up in the CSV header written before the figure.
  const auto header = [&] {
    CsvTable t;
    std::ifstream in(out.staging() / h.csv);
    std::string line;
    std::getline(in, line);
    std::size_t s = 0;
    for (;;) {
      const auto p = line.find(',', s);
      t.header.push_back(line.substr(s, p == std::string::npos ? std::string::npos : p - s));
      if (p == std::string::npos) break;
      s = p + 1;
    }
    return t;
  }();
  const int cx = col_of(header, "x"), cy = col_of(header, "y"), cz = col_of(header, h.column);
  if (cx < 0 || cy < 0 || cz < 0)
    throw std::invalid_argument(fmt::format("heatmap '{}': column '{}' not in '{}'", h.name, h.column, h.csv));
  const std::string ux = h.x.log ? fmt::format("(log10(${}))", cx) : std::to_string(cx);
  const std::string uy = h.y.log ? fmt::format("(log10(${}))", cy) : std::to_string(cy);
  f.functions.push_back(heatmap_item(h.csv, ux, uy, std::to_string(cz)));
  if (h.stability_lines_lambda_max) {
    const double lm = *h.stability_lines_lambda_max;
    const bool eta_x = h.x.param == Param::eta && h.y.param == Param::beta;
    const bool eta_y = h.x.param == Param::beta && h.y.param == Param::eta;
    // [thm:unconditional-stability]: η = β (β̃ > 0 for every λ̂ ≤ 1), η = 1+β (sure
    // contraction of the normalized factor), η = β/λ_max (raw β̃_max > 0). Written as the
    // y value in original units of the x value, then mapped to the plotted (log) scale.
    const std::string X = h.x.log ? "(10**x)" : "x";
    auto Y = [&](const std::string& e) { return h.y.log ? "log10(" + e + ")" : e; };
    std::vector<std::string> e;
    if (eta_x) e = {X, X + "-1", fmt::format("{}*{}", lm, X)};
    if (eta_y) e = {X, "1+" + X, fmt::format("{}/{}", X, lm)};
    if (!e.empty())
      f.functions.insert(f.functions.end(),
                         {Y(e[0]) + " title 'η = β' lw 2 lc rgb 'white'",
                          Y(e[1]) + " title 'η = 1+β' lw 2 dt 2 lc rgb 'white'",
                          Y(e[2]) + " title 'η = β/λ_{max}' lw 2 dt 3 lc rgb 'black'"});
  }
  for (const auto& it : h.items) f.functions.push_back(it);
  out.figure(f);
}

nlohmann::json summarize(const Map& map) {
  nlohmann::json cols = nlohmann::json::object();
  for (std::size_t c = 0; c < map.names.size(); ++c) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    long long below = 0, finite = 0;
    for (const auto& p : map.points) {
      const double v = p.cols[c];
      if (!std::isfinite(v)) continue;
      ++finite;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      below += v < 1.0 ? 1 : 0;
    }
    cols[map.names[c]] = {{"min", finite ? lo : 0.0},
                          {"max", finite ? hi : 0.0},
                          {"finite_points", finite},
                          {"fraction_below_1", finite ? static_cast<double>(below) / finite : 0.0}};
  }
  return {{"metric", to_string(map.opts.metric)},
          {"key", akm::to_string(map.opts.key)},
          {"x", map.opts.x.spec},
          {"y", map.opts.y.spec},
          {"points", map.points.size()},
          {"seconds", map.seconds},
          {"columns", cols}};
}

nlohmann::json summarize(const std::vector<MeasurePoint>& measured) {
  double max_abs_z = 0, div_sum = 0;
  long long over3 = 0, finite = 0, any_div = 0;
  for (const auto& m : measured) {
    if (std::isfinite(m.rate_z)) {
      ++finite;
      max_abs_z = std::max(max_abs_z, std::abs(m.rate_z));
      over3 += std::abs(m.rate_z) > 3 ? 1 : 0;
    }
    div_sum += m.diverged_fraction;
    any_div += m.diverged_fraction > 0 ? 1 : 0;
  }
  const double n = static_cast<double>(std::max<std::size_t>(1, measured.size()));
  return {{"points", measured.size()},
          {"points_with_finite_z", finite},
          {"max_abs_rate_z", max_abs_z},
          {"fraction_abs_z_over_3", finite ? static_cast<double>(over3) / finite : 0.0},
          {"mean_diverged_fraction", div_sum / n},
          {"points_with_divergence", any_div}};
}

}  // namespace akm::phase
