// errors — refusing bad input before any work (docs/reliability.md, "Bad input": name parameter, value, range).
#include "akm/base/errors.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

#include <fmt/format.h>

namespace akm {

InputError::InputError(const std::string& param, const std::string& value,
                       const std::string& requirement)
    : std::runtime_error(fmt::format("{} = {} is invalid: {}", param, value, requirement)),
      param_(param) {}

// fmt's "{}" for a double is the shortest string that reads back to the same value.
std::string show(double v) { return fmt::format("{}", v); }

void require_finite(const std::string& param, double v) {
  if (!std::isfinite(v)) throw InputError(param, show(v), "must be finite");
}

// Written as !(ok) so that NaN, which fails every comparison, is refused too.
void require_beta(double beta) {
  if (!(beta >= 0.0 && beta < 1.0)) throw InputError("beta", show(beta), "must be in [0, 1)");
}

void require_eta(double eta) {
  if (!(eta > 0.0 && std::isfinite(eta)))
    throw InputError("eta", show(eta), "must be > 0 and finite");
}

void require_alpha(double alpha) {
  if (!(alpha > 0.0 && std::isfinite(alpha)))
    throw InputError("alpha", show(alpha), "must be > 0 and finite");
}

void require_at_least(const std::string& param, long long v, long long lo) {
  if (v < lo) throw InputError(param, std::to_string(v), fmt::format("must be >= {}", lo));
}

namespace {
std::string shown(const std::string& text) { return text.empty() ? "\"\"" : text; }
}  // namespace

double parse_real(const std::string& param, const std::string& text, const std::string& range) {
  double v = 0.0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end)
    throw InputError(param, shown(text), "must be a number " + range);
  return v;
}

unsigned long long parse_u64(const std::string& param, const std::string& text) {
  const std::string range = "must be an integer in [0, 18446744073709551615]";
  unsigned long long v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end) throw InputError(param, shown(text), range);
  return v;
}

long long parse_integer(const std::string& param, const std::string& text, long long lo,
                        long long hi) {
  const std::string range = fmt::format("must be an integer in [{}, {}]", lo, hi);
  long long v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || v < lo || v > hi)
    throw InputError(param, shown(text), range);
  return v;
}

}  // namespace akm
