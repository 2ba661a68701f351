// report/result_dir — a results/<ID>/ folder built in a staging folder and renamed into
// place, so an interrupted run leaves the previous results intact and no partial files.
#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "akm/base/interrupt.hpp"
#include "akm/report/csv.hpp"
#include "akm/report/figure.hpp"

namespace akm {

/// A results/\<ID\>/ folder under construction.
class ResultDir {
 public:
  /// Checks that `root` is (or can be created as) a writable folder; throws InputError
  /// naming --out otherwise. Creates the staging folder root/.\<id\>.staging-\<pid\>, after
  /// sweeping what a killed earlier run left (its staging folder; its previous results
  /// caught mid-swap are put back). SIGINT/SIGTERM remove the staging folder (interrupt.hpp).
  /// `writes` false (under mpirun, ranks other than 0: the caller passes dist::root()) makes
  /// a folder that touches nothing on disk and discards every write (discards()).
  ResultDir(const std::filesystem::path& root, const std::string& id, bool writes = true);
  ~ResultDir();  ///< removes the staging folder unless committed
  ResultDir(const ResultDir&) = delete;
  ResultDir& operator=(const ResultDir&) = delete;

  /// The staging folder the run writes into.
  const std::filesystem::path& staging() const { return staging_; }
  /// True when made with `writes` false (MPI ranks other than 0): every write, figure and the
  /// commit are checked but do nothing, so only rank 0 writes files.
  bool discards() const { return discard_; }
  /// Where commit() puts the folder: root/ID.
  std::filesystem::path final_path() const { return root_ / id_; }

  /// Writes a CSV file into the staging folder.
  void write_csv(const std::string& file, const CsvTable& table);
  /// Writes a JSON file (pretty-printed) into the staging folder.
  void write_json(const std::string& file, const nlohmann::json& j);
  /// Writes \<name\>.gp and renders \<name\>.png and \<name\>.svg with gnuplot.
  void figure(const Figure& fig);
  /// Replaces root/\<id\> by the staging folder (rename).
  void commit();

 private:
  std::filesystem::path root_, staging_;
  std::string id_;
  bool committed_ = false;
  bool discard_ = false;
  interrupt::Guard guard_;
};

}  // namespace akm
