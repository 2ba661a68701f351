// libFuzzer target: the spectrum-spec parser (include/akm/spectrum/spectrum.hpp). Any input either
// parses into a valid spectrum (n in [1, 65536], every eigenvalue finite and > 0, sorted
// descending, and the normalized spec parses back to the same eigenvalues) or is refused
// with akm::InputError — never another exception, a crash or undefined behaviour.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "akm/base/errors.hpp"
#include "akm/spectrum/spectrum.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  // A random basis is an O(n³) QR by design (capped at n = 4096); the fuzzer would only
  // time out on it, so it is exercised by the unit tests instead.
  if (spec.find("random") != std::string_view::npos) return 0;
  akm::Spectrum s;
  try {
    s = akm::parse_spectrum(spec, 1);
  } catch (const akm::InputError&) {
    return 0;
  }
  if (s.n() < 1 || s.n() > 65536) std::abort();
  for (int i = 0; i < s.n(); ++i) {
    if (!(s.lambda[i] > 0.0 && std::isfinite(s.lambda[i]))) std::abort();
    if (i > 0 && s.lambda[i] > s.lambda[i - 1]) std::abort();
  }
  // Round trip: the normalized form describes the same eigenvalues.
  const akm::Spectrum again = akm::parse_spectrum(s.spec, 1);
  if (again.n() != s.n() || again.lambda != s.lambda) std::abort();
  return 0;
}
