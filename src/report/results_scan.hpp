// results_scan — the experiments of a results folder as the report reads them (private to
// src/report): each results/<ID>/summary.json with its figures and data files, in the natural
// order of their IDs, and results/summary.json's list of them. index.cpp writes the pages.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/report/claim_page.hpp"

namespace akm::report_scan {

struct Experiment {
  std::string id;
  std::string folder;
  nlohmann::json summary;
  std::vector<std::string> figures;  ///< PNG file names in the folder
  std::size_t n_checks = 0, n_failed = 0;
  bool pass = false;
  std::string notebook;  ///< href of its notebook relative to index.html; empty if none
};

/// Natural order (T2 before T10); theorem IDs (T…) lead and the extensions (E…) follow,
/// as in docs/claims.md.
bool natural_less(const std::string& a, const std::string& b);

/// Every experiment folder of root with a readable summary.json (others are skipped with a
/// message on stderr), in natural ID order.
std::vector<Experiment> load_experiments(const std::filesystem::path& root);

/// results/summary.json: one entry per experiment and the pass of them all (false when empty).
nlohmann::json root_summary(const std::vector<Experiment>& exps);

/// The figures of a folder for its claim page: name, SVG and gnuplot script beside the PNG,
/// and a caption from the figure's spec when it has one.
std::vector<FigureEntry> figures_of(const std::filesystem::path& dir, const std::vector<std::string>& pngs);

/// The folder's CSV file names, in natural order.
std::vector<std::string> csv_files(const std::filesystem::path& dir);

}  // namespace akm::report_scan
