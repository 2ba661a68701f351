// report/csv — tidy CSV tables: one header, rows of numbers (17 significant digits, so the
// file reads back to the same doubles) or strings.
#pragma once
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace akm {

/// A tidy table: one header, rows of numbers or strings.
struct CsvTable {
  /// A number (double or integer) or a string. Any integer type is stored as a long long
  /// (bool as 0 or 1), so a row takes `int`, `std::size_t` or `long` without a cast.
  /// Implicit constructors, so a row is a brace list: `t.add({name, k, 0.5})`.
  struct Cell : std::variant<double, long long, std::string> {
    using Value = std::variant<double, long long, std::string>;  ///< what a cell holds
    /// A number written with 17 significant digits.
    Cell(double v) : Value(v) {}
    /// An integer of any type, written exactly (std::out_of_range beyond long long's range).
    /// (C++17 spelling, so the installed headers also serve C++17 consumers.)
    template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
    Cell(I v) : Value(as_long_long(v)) {}
    /// A string, quoted when it holds a comma, a quote or a line break.
    Cell(std::string v) : Value(std::move(v)) {}
    /// A string literal.
    Cell(const char* v) : Value(std::string(v)) {}

   private:
    template <class I>
    static long long as_long_long(I v) {
      if constexpr (std::is_unsigned_v<I> && sizeof(I) >= sizeof(long long))
        if (v > static_cast<I>(std::numeric_limits<long long>::max()))
          throw std::out_of_range("CsvTable::Cell: integer beyond the range of long long");
      return static_cast<long long>(v);
    }
  };
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
