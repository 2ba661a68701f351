#include "akm/base/spec_text.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm::spec_text {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (;;) {
    const auto pos = s.find(sep);
    out.push_back(trim(s.substr(0, pos)));
    if (pos == std::string_view::npos) return out;
    s.remove_prefix(pos + 1);
  }
}

std::string quoted(std::string_view text) { return text.empty() ? "\"\"" : std::string(text); }

double parse_number(const std::string& param, std::string_view text) {
  double v = 0.0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end)
    throw InputError(param, quoted(text), "must be a number");
  return v;
}

std::vector<double> parse_positive_list(const std::string& param, std::string_view text) {
  if (text.empty()) throw InputError(param, quoted(text), "must list values separated by '/'");
  std::vector<double> out;
  for (const auto item : split(text, '/')) {
    const double v = parse_number(param, item);
    if (!(v > 0.0 && std::isfinite(v)))
      throw InputError(param, std::string(item),
                       fmt::format("every value must be finite and > 0 (in {})", text));
    out.push_back(v);
  }
  return out;
}

std::string join_values(const std::vector<double>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "/" : "") + show(v[i]);
  return s;
}

}  // namespace akm::spec_text
