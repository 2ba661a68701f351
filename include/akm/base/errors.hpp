// errors — bad input is refused before any work, naming parameter, value and valid range.
#pragma once
#include <stdexcept>
#include <string>

namespace akm {

/// Thrown for every invalid user input (CLI flag, spec string, experiment parameter).
/// The CLI maps it to exit code 2. Message: "\<param\> = \<value\> is invalid: \<requirement\>".
class InputError : public std::runtime_error {
 public:
  /// The message names the parameter, the value given and the valid range.
  InputError(const std::string& param, const std::string& value, const std::string& requirement);
  /// The parameter (flag or spec key) that was refused.
  const std::string& param() const { return param_; }

 private:
  std::string param_;
};

/// Formats a double the way messages show it (shortest round-trip form).
std::string show(double v);

/// Validators used by the CLI, the spec parser and experiments alike.
void require_finite(const std::string& param, double v);
/// β ∈ [0, 1): the EMA decay of every rule except the pure delta rule.
void require_beta(double beta);
/// η > 0 and finite.
void require_eta(double eta);
/// α > 0 and finite.
void require_alpha(double alpha);
/// Integer count ≥ lo.
void require_at_least(const std::string& param, long long v, long long lo);

/// Whole-token number parsers for command-line text: "1.5x", "", " 1" and "0x10" are
/// refused (InputError naming `param`, the text and `range`), as are values outside it.
/// A real: any double strtod-style text in decimal ("nan"/"inf" parse; callers range-check).
double parse_real(const std::string& param, const std::string& text, const std::string& range);
/// An unsigned 64-bit integer in decimal digits only (no sign, no exponent).
unsigned long long parse_u64(const std::string& param, const std::string& text);
/// A decimal integer in [lo, hi].
long long parse_integer(const std::string& param, const std::string& text, long long lo,
                        long long hi);

}  // namespace akm
