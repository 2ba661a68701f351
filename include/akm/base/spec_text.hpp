// Text pieces shared by the spec grammars (spectrum, key laws, axes): trimming, splitting
// and whole-token number parsing that refuses malformed input with an InputError naming the
// parameter and the offending text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace akm::spec_text {

/// Strips leading and trailing white space.
std::string_view trim(std::string_view s);

/// "a, b ,c" → {"a", "b", "c"} (each piece trimmed; empty pieces kept so they can be refused).
std::vector<std::string_view> split(std::string_view s, char sep);

/// Shows the offending text; an empty one as "" so the message still names it.
std::string quoted(std::string_view text);

/// Whole-token parse: "1.5x", "" and "+-1" are malformed; "nan"/"inf" parse and are
/// refused by the range checks of the caller.
double parse_number(const std::string& param, std::string_view text);

/// "10/5/2" → {10, 5, 2}; each entry finite and > 0.
std::vector<double> parse_positive_list(const std::string& param, std::string_view text);

/// {10, 5, 2} → "10/5/2" (shortest round-trip form of each value).
std::string join_values(const std::vector<double>& v);

}  // namespace akm::spec_text
