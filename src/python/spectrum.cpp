// python/spectrum — akm.spectrum(): a covariance spec's eigenvalues and Gaussian-key moments.
#include "akm/app/spectrum.hpp"
#include "common.hpp"

namespace akm::py {

namespace {

pyb::dict spectrum(const std::string& spec, unsigned long long seed) {
  const app::SpectrumMoments r = app::spectrum_moments(spec, seed);
  const Spectrum& s = r.spectrum;
  const KeyMoments& km = r.moments;
  pyb::dict out;
  out["spec"] = s.spec;
  out["kind"] = s.kind;
  out["n"] = s.n();
  out["random_basis"] = s.random_basis;
  out["eigenvalues"] = array(km.lambda);
  out["lambda_hat"] = array(km.lambda_hat);  // eigenvalues of Σ̂ = E[x̂x̂ᵀ] (unit trace)
  out["kappa"] = array(km.kappa);            // κ_i = u_iᵀ E[‖x‖x̂x̂ᵀ] u_i
  return out;
}

}  // namespace

void bind_spectrum(pyb::module_& m) {
  using namespace pybind11::literals;
  m.def("spectrum", &spectrum, "spec"_a, "seed"_a = 0ULL,
        R"(Eigenvalues λ_i (descending), λ̂_i and κ_i of a covariance spec such as
"spiked:n=64,spikes=10/5/2,floor=1" (exact Gaussian-key quadrature, akm/spectrum/moments.hpp).)");
}

}  // namespace akm::py
