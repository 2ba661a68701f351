// report — tidy CSV + JSON per experiment, gnuplot figures, results/summary.json and
// results/index.html. Everything is written into a staging folder and renamed into place,
// so an interrupted run leaves the previous results intact and no partial files.
#pragma once
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/base/interrupt.hpp"

namespace akm {

/// A tidy table: one header, rows of numbers or strings.
struct CsvTable {
  using Cell = std::variant<double, long long, std::string>;
  std::vector<std::string> header;
  std::vector<std::vector<Cell>> rows;
  void add(std::vector<Cell> row);
};

/// One plotted series of a figure, columns named as in the CSV header.
struct Series {
  std::string csv;     ///< file name in the experiment folder
  std::string x, y;    ///< column names
  std::string yerr;    ///< column name of ±error (style "errorbars"); empty otherwise
  std::string title;
  std::string style = "points";  ///< points | lines | linespoints | errorbars
  std::string where;   ///< optional filter: "column=value" keeps matching rows only
};

struct Figure {
  std::string name;    ///< file stem: <name>.{gp,png,svg}
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::vector<Series> series;
  std::vector<std::string> extra;  ///< raw gnuplot lines placed before `plot`
  std::vector<std::string> functions;  ///< extra plot items, e.g. "1 title 'EMA' lw 2"
};

/// A results/<ID>/ folder under construction.
class ResultDir {
 public:
  /// Checks that `root` is (or can be created as) a writable folder; throws InputError
  /// naming --out otherwise. Creates the staging folder root/.<id>.staging-<pid>, after
  /// sweeping what a killed earlier run left (its staging folder; its previous results
  /// caught mid-swap are put back). SIGINT/SIGTERM remove the staging folder (interrupt.hpp).
  ResultDir(const std::filesystem::path& root, const std::string& id);
  ~ResultDir();  ///< removes the staging folder unless committed
  ResultDir(const ResultDir&) = delete;
  ResultDir& operator=(const ResultDir&) = delete;

  const std::filesystem::path& staging() const { return staging_; }
  /// True on MPI ranks other than 0 (dist.hpp): every write, figure and the commit are
  /// checked but do nothing there, so only rank 0 writes files.
  bool discards() const { return discard_; }
  std::filesystem::path final_path() const { return root_ / id_; }

  void write_csv(const std::string& file, const CsvTable& table);
  void write_json(const std::string& file, const nlohmann::json& j);
  /// Writes <name>.gp and renders <name>.png and <name>.svg with gnuplot.
  void figure(const Figure& fig);
  /// Replaces root/<id> by the staging folder (rename).
  void commit();

 private:
  std::filesystem::path root_, staging_;
  std::string id_;
  bool committed_ = false;
  bool discard_ = false;
  interrupt::Guard guard_;
};

/// Verifies the output root is writable before any work (InputError naming `param`).
/// On MPI ranks other than 0 it does nothing (they write no files).
void require_writable_dir(const std::filesystem::path& root, const std::string& param = "--out");

/// True when gnuplot is on PATH.
bool gnuplot_available();

/// Gathers root/*/summary.json into root/summary.json and root/index.html (atomic writes).
/// Each experiment links its notebook <notebooks>/<ID>.ipynb when that file exists
/// (`notebooks` empty: notebooks_export/ next to root, see akm/report/notebook.hpp).
void write_report(const std::filesystem::path& root, const std::filesystem::path& notebooks = {});

/// Writes `content` to `path` through a temporary file and rename.
void write_file_atomic(const std::filesystem::path& path, const std::string& content);

}  // namespace akm
