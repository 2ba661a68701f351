// report/csv — tidy tables written with 17 significant digits (the CSV is the data).
#include "akm/report/csv.hpp"

#include <stdexcept>
#include <fstream>

#include <fmt/format.h>

#include "akm/report/files.hpp"

namespace akm {

namespace fs = std::filesystem;

void CsvTable::add(std::vector<Cell> row) {
  if (row.size() != header.size())
    throw std::invalid_argument(fmt::format("CsvTable::add: row has {} cells, header has {}",
                                            row.size(), header.size()));
  rows.push_back(std::move(row));
}

namespace csv {

bool needs_quotes(const std::string& s) { return s.find_first_of(",\"\r\n") != std::string::npos; }

std::string csv_field(const std::string& s) {
  if (!needs_quotes(s)) return s;
  std::string q = "\"";
  for (char c : s) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// 17 significant digits read back to the same double, so the CSV is the data, not a view.
std::string csv_cell(const CsvTable::Cell& c) {
  if (const auto* d = std::get_if<double>(&c)) return fmt::format("{:.17g}", *d);
  if (const auto* i = std::get_if<long long>(&c)) return std::to_string(*i);
  return csv_field(std::get<std::string>(c));
}

std::string csv_text(const CsvTable& t) {
  std::string out;
  for (std::size_t i = 0; i < t.header.size(); ++i) {
    if (i) out += ',';
    out += csv_field(t.header[i]);
  }
  out += '\n';
  for (const auto& row : t.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i) out += ',';
      out += csv_cell(row[i]);
    }
    out += '\n';
  }
  return out;
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

std::vector<std::string> csv_header_of(const fs::path& csv) {
  std::ifstream in(csv, std::ios::binary);
  std::string line;
  if (!in || !std::getline(in, line)) return {};
  return split_csv_line(line);
}

}  // namespace csv

}  // namespace akm
