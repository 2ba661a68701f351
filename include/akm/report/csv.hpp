// report/csv — tidy CSV tables: one header, rows of numbers (17 significant digits, so the
// file reads back to the same doubles) or strings.
#pragma once
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

namespace akm {

/// A tidy table: one header, rows of numbers or strings.
struct CsvTable {
  /// A number (double or integer) or a string.
  using Cell = std::variant<double, long long, std::string>;
  std::vector<std::string> header;  ///< column names
  std::vector<std::vector<Cell>> rows;  ///< rows, each as long as the header
  /// Appends a row (std::invalid_argument when its length differs from the header's).
  void add(std::vector<Cell> row);
};

namespace csv {
/// The table as CSV text (RFC 4180 quoting).
std::string csv_text(const CsvTable& t);
/// The fields of one CSV line (quotes undone).
std::vector<std::string> split_csv_line(const std::string& line);
/// The header of a CSV file; empty when it cannot be read.
std::vector<std::string> csv_header_of(const std::filesystem::path& csv);
}  // namespace csv

}  // namespace akm
