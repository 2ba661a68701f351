// python/theory — akm.theory(): the closed forms per direction, the JSON contract of
// `akm theory --json` with the per-direction fields as NumPy arrays.
#include <cmath>
#include <limits>

#include "akm/app/theory.hpp"
#include "akm/base/key.hpp"
#include "common.hpp"

namespace akm::py {

namespace {

pyb::dict theory(double beta, double eta, const std::string& spec, const std::string& key_text,
                 double alpha, unsigned long long seed) {
  // The driver of `akm theory`: its checks, in its order, so the first refusal is the CLI's.
  const app::TheoryRun run = app::run_theory({beta, eta, alpha, TheoryInputs{}.key}, key_text, spec, seed);
  const Spectrum& s = run.spectrum;
  const TheoryReport& r = run.report;

  pyb::dict out;
  const nlohmann::json j = to_json(r);
  for (const auto& [name, value] : j.items())
    if (name != "directions") out[pyb::str(name)] = from_json(value);
  out["spectrum"] = s.spec;
  // One array per field of the rows; band (null or [lo, hi]) becomes band_lo, band_hi (NaN
  // where the direction has no underdamped band), underdamped_ak a bool array.
  const std::size_t n = r.directions.size();
  const nlohmann::json& rows = j.at("directions");
  pyb::dict dirs;
  for (const auto& [name, first] : rows.at(0).items()) {
    if (name == "band") {
      std::vector<double> lo(n), hi(n);
      for (std::size_t i = 0; i < n; ++i) {
        const auto& b = r.directions[i].band;
        lo[i] = b ? b->first : std::numeric_limits<double>::quiet_NaN();
        hi[i] = b ? b->second : std::numeric_limits<double>::quiet_NaN();
      }
      dirs["band_lo"] = array(lo);
      dirs["band_hi"] = array(hi);
    } else if (first.is_boolean()) {
      pyb::array_t<bool> a(static_cast<pyb::ssize_t>(n));
      for (std::size_t i = 0; i < n; ++i) a.mutable_data()[i] = rows[i].at(name).get<bool>();
      dirs[pyb::str(name)] = a;
    } else {
      std::vector<double> v(n);
      for (std::size_t i = 0; i < n; ++i) v[i] = rows[i].at(name).get<double>();
      dirs[pyb::str(name)] = array(v);
    }
  }
  out["directions"] = dirs;
  return out;
}

}  // namespace

void bind_theory(pyb::module_& m) {
  using namespace pybind11::literals;
  m.def("theory", &theory, "beta"_a, "eta"_a, "spectrum"_a, "key"_a = to_string(TheoryInputs{}.key), "alpha"_a = TheoryInputs{}.alpha,
        "seed"_a = 0ULL,
        R"(The closed forms per direction at (beta, eta, alpha, key) on a covariance spectrum.

Same numbers and field names as `akm theory --json`; "directions" is a dict of NumPy
arrays, one per field (band becomes band_lo/band_hi, NaN where there is none), so
pandas.DataFrame(r["directions"]) is the per-direction table. seed: basis=random only.
Raises ValueError with the CLI's message on bad input.)");
}

}  // namespace akm::py
