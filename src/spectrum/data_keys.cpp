// data_keys — `data:` specs, the numeric-table reader (zlib: plain or gzip files alike) and
// the row sampler of a real data set.
#include "akm/spectrum/data_keys.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>
#include <zlib.h>

#include "akm/base/errors.hpp"

namespace akm {
namespace {

constexpr const char* kDebianSklearnDir = "/usr/lib/python3/dist-packages/sklearn/datasets/data";
constexpr double kRankTol = 1e-12;  // covariance eigenvalues ≤ kRankTol·λ_max are not spanned

struct Builtin {
  const char* file;
  bool header;     // sklearn's first line holds counts and class names
  bool drop_last;  // the class label
};

const std::map<std::string, Builtin, std::less<>>& builtins() {
  static const std::map<std::string, Builtin, std::less<>> b{
      {"digits", {"digits.csv.gz", false, true}},
      {"breast_cancer", {"breast_cancer.csv", true, true}},
      {"wine", {"wine_data.csv", true, true}},
      {"diabetes", {"diabetes_data_raw.csv.gz", false, false}},  // target in another file
      {"iris", {"iris.csv", true, true}}};
  return b;
}

std::string builtin_names() {
  std::string s;
  for (const auto& [k, v] : builtins()) s += (s.empty() ? "" : " | ") + k;
  return s;
}

// A line with a comma is comma separated (cells trimmed; an empty cell is kept and refused
// later); otherwise cells are separated by whitespace (diabetes_data_raw).
std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  const char* ws = " \t\r";
  if (line.find(',') != std::string::npos) {
    std::size_t start = 0;
    while (true) {
      const std::size_t end = line.find(',', start);
      std::string c = line.substr(start, end == std::string::npos ? std::string::npos : end - start);
      const auto a = c.find_first_not_of(ws);
      c = a == std::string::npos ? "" : c.substr(a, c.find_last_not_of(ws) - a + 1);
      cells.push_back(c);
      if (end == std::string::npos) break;
      start = end + 1;
    }
  } else {
    std::size_t a = line.find_first_not_of(ws);
    while (a != std::string::npos) {
      const std::size_t e = line.find_first_of(ws, a);
      cells.push_back(line.substr(a, e == std::string::npos ? std::string::npos : e - a));
      a = e == std::string::npos ? e : line.find_first_not_of(ws, e);
    }
  }
  return cells;
}

bool blank(const std::string& line) {
  return line.find_first_not_of(" \t\r") == std::string::npos;
}

}  // namespace

std::string sklearn_data_dir() {
  if (const char* e = std::getenv("AKM_SKLEARN_DATA"); e != nullptr && *e != '\0') return e;
  return kDebianSklearnDir;
}

DataKeysSpec parse_data_keys(std::string_view spec) {
  const std::string text(spec);
  if (text.rfind("data:", 0) != 0)
    throw InputError("keys", text, "a data-set key law data:NAME[,standardize] or data:PATH[,standardize][,header]");
  std::vector<std::string> parts;
  std::string rest = text.substr(5), cur;
  for (char c : rest) {
    if (c == ',') parts.push_back(cur), cur.clear();
    else cur += c;
  }
  parts.push_back(cur);
  DataKeysSpec d;
  d.name = parts[0];
  if (d.name.empty())
    throw InputError("keys", text, "a data set after data: (" + builtin_names() + ", or a CSV path)");
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (parts[i] == "standardize") d.standardize = true;
    else if (parts[i] == "header") d.header = true;
    else throw InputError("keys", text, "options after the data set: standardize, header (got '" + parts[i] + "')");
  }
  if (const auto it = builtins().find(d.name); it != builtins().end()) {
    if (d.header)
      throw InputError("keys", text, "no header option for a built-in data set (its format is known)");
    d.builtin = true;
    d.header = it->second.header;
    d.path = (std::filesystem::path(sklearn_data_dir()) / it->second.file).string();
  } else {
    d.path = d.name;
  }
  d.spec = "data:" + d.name + (d.standardize ? ",standardize" : "") +
           (!d.builtin && d.header ? ",header" : "");
  return d;
}

Mat read_numeric_table(const std::string& path, bool header, bool drop_last, bool builtin,
                       const std::string& what) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError("keys", what,
                     builtin ? fmt::format("data set '{}' not found at {}: install python3-sklearn "
                                           "(Debian/Ubuntu: apt-get install python3-sklearn) or set "
                                           "AKM_SKLEARN_DATA to the folder holding its files",
                                           what, path)
                             : fmt::format("a readable CSV file (no file at {})", path));
  gzFile f = gzopen(path.c_str(), "rb");  // zlib reads uncompressed files transparently
  if (f == nullptr) throw InputError("keys", what, fmt::format("a readable file ({} could not be opened)", path));
  std::vector<std::vector<double>> rows;
  std::size_t width = 0;
  int line_no = 0;
  std::string line;
  char buf[8192];
  auto fail = [&](const std::string& why) {
    gzclose(f);
    throw InputError("keys", fmt::format("{}:{}", path, line_no), why);
  };
  bool eof = false;
  while (!eof) {
    line.clear();
    bool got = false;
    while (gzgets(f, buf, sizeof buf) != nullptr) {
      got = true;
      line += buf;
      if (!line.empty() && line.back() == '\n') break;
    }
    if (!got) break;
    if (line.back() != '\n') eof = true;
    else line.pop_back();
    ++line_no;
    if (line_no == 1 && header) continue;
    if (blank(line) || line.find_first_not_of(" \t") == line.find('#')) continue;
    const auto cells = split_cells(line);
    std::vector<double> row;
    row.reserve(cells.size());
    for (const auto& c : cells) {
      char* end = nullptr;
      errno = 0;
      const double v = c.empty() ? NAN : std::strtod(c.c_str(), &end);
      if (c.empty() || end != c.c_str() + c.size() || !std::isfinite(v))
        fail(fmt::format("a finite number in every cell (cell {} is '{}'{})", row.size() + 1, c,
                         rows.empty() && !header ? "; a header line needs the ,header option" : ""));
      row.push_back(v);
    }
    if (drop_last) {
      if (row.size() < 2) fail("at least 2 cells (features and a label)");
      row.pop_back();
    }
    if (rows.empty()) width = row.size();
    else if (row.size() != width)
      fail(fmt::format("{} cells like the rows above (got {})", width + (drop_last ? 1 : 0),
                       row.size() + (drop_last ? 1 : 0)));
    rows.push_back(std::move(row));
  }
  gzclose(f);
  if (rows.empty()) throw InputError("keys", path, "at least one data row (the file has none)");
  Mat X(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(width));
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < width; ++c) X(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = rows[r][c];
  return X;
}

DataKeys::DataKeys(const DataKeysSpec& spec) : source_(spec.spec) {
  const bool drop = spec.builtin && builtins().at(spec.name).drop_last;
  const Mat X = read_numeric_table(spec.path, spec.header, drop, spec.builtin, spec.name);
  build(X, spec.standardize);
  source_ = fmt::format("{} ({})", spec.spec, spec.path);
}

DataKeys::DataKeys(const Mat& rows, bool standardize, const std::string& source) : source_(source) {
  if (rows.rows() == 0 || rows.cols() == 0)
    throw InputError("keys", source, "at least one row and one column");
  if (!rows.allFinite()) throw InputError("keys", source, "finite entries only");
  build(rows, standardize);
}

void DataKeys::build(const Mat& rows, bool standardize) {
  const Eigen::Index N = rows.rows(), d = rows.cols();
  columns_ = static_cast<int>(d);
  Mat Xc = rows.rowwise() - rows.colwise().mean();
  if (standardize) {
    for (Eigen::Index c = 0; c < d; ++c) {
      const double sd = std::sqrt(Xc.col(c).squaredNorm() / static_cast<double>(N));
      if (!(sd > 1e-12 * (rows.col(c).cwiseAbs().maxCoeff() + 1e-300)))
        throw InputError("keys", source_,
                         fmt::format("no constant column with standardize (column {} is constant)", c + 1));
      Xc.col(c) /= sd;
    }
  }
  const Mat C = Xc.transpose() * Xc / static_cast<double>(N);
  Eigen::SelfAdjointEigenSolver<Mat> es(C);
  const Vec ev = es.eigenvalues();  // ascending
  const double top = ev.maxCoeff();
  if (!(top > 0)) throw InputError("keys", source_, "rows that are not all equal (the centred data are zero)");
  int r = 0;
  for (Eigen::Index i = 0; i < d; ++i) r += ev[i] > kRankTol * top ? 1 : 0;
  lambda_.resize(r);
  basis_.resize(d, r);
  for (int k = 0; k < r; ++k) {  // descending
    lambda_[k] = ev[d - 1 - k];
    basis_.col(k) = es.eigenvectors().col(d - 1 - k);
  }
  keys_ = Xc * basis_;
  for (Eigen::Index s = 0; s < N; ++s)
    if (!(keys_.row(s).norm() > 0))
      throw InputError("keys", source_,
                       fmt::format("no row equal to the column means (row {} is: its normalized key is undefined)", s + 1));
}

int DataKeys::draw_index(Stream& s) const {
  const int N = rows();
  const int i = static_cast<int>(s.uniform() * N);  // uniform() ∈ (0,1): i ∈ [0, N)
  return i < N ? i : N - 1;
}

void DataKeys::draw(Stream& s, Vec& x) const { x = keys_.row(draw_index(s)).transpose(); }

Mat DataKeys::covariance() const { return keys_.transpose() * keys_ / static_cast<double>(rows()); }

Mat DataKeys::sigma_hat() const {
  const Vec nrm = keys_.rowwise().norm();
  const Mat U = nrm.cwiseInverse().asDiagonal() * keys_;
  return U.transpose() * U / static_cast<double>(rows());
}

Mat DataKeys::kappa_matrix() const {
  const Vec nrm = keys_.rowwise().norm();
  const Mat U = nrm.cwiseInverse().cwiseSqrt().asDiagonal() * keys_;  // rows x_s/√‖x_s‖
  return U.transpose() * U / static_cast<double>(rows());
}

}  // namespace akm
