// errors — refusing bad input before any work (DESIGN.md: name parameter, value, range).
#include "akm/errors.hpp"

#include <cmath>

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

}  // namespace akm
