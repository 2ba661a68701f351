// theory — the driver of `akm theory` and `akm.theory()` (see the header).
#include "akm/app/theory.hpp"

#include "akm/base/errors.hpp"
#include "akm/base/key.hpp"

namespace akm::app {

TheoryRun run_theory(const TheoryInputs& in, const std::string& key_text, const std::string& spectrum,
                     std::uint64_t seed) {
  require_beta(in.beta);
  require_eta(in.eta);
  require_alpha(in.alpha);
  TheoryInputs checked = in;
  checked.key = parse_key(key_text);
  Spectrum s = parse_spectrum(spectrum, seed);
  require_contraction(checked.beta, checked.eta, checked.key, s);
  TheoryReport r = make_theory_report(checked, s);
  return {std::move(s), std::move(r)};
}

}  // namespace akm::app
