// report/result_dir — results/<ID>/ built in a hidden staging folder and renamed into
// place, so an interrupted run leaves the previous results intact and never a half-written
// folder; a later run repairs what a killed one left.
#include "akm/report/result_dir.hpp"

#include <system_error>
#include <stdexcept>

#include "akm/report/csv.hpp"
#include "akm/report/files.hpp"

namespace akm {

namespace fs = std::filesystem;
using namespace files;
using namespace csv;

namespace {

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

}  // namespace

ResultDir::ResultDir(const fs::path& root, const std::string& id, bool writes) : id_(id) {
  if (id.empty() || id[0] == '.' || id.find('/') != std::string::npos)
    throw std::invalid_argument("ResultDir: bad experiment id '" + id + "'");
  discard_ = !writes;
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
  render_figure(staging_, fig);
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

}  // namespace akm
