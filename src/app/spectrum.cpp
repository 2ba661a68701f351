// spectrum — the driver of akm.spectrum() (see the header).
#include "akm/app/spectrum.hpp"

namespace akm::app {

SpectrumMoments spectrum_moments(const std::string& spec, std::uint64_t seed) {
  Spectrum s = parse_spectrum(spec, seed);
  KeyMoments km = gaussian_key_moments(s.lambda);
  return {std::move(s), std::move(km)};
}

}  // namespace akm::app
