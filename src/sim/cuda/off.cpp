// cuda/off — the CUDA backend when this build has none (AKM_CUDA=OFF, or AUTO without nvcc).
#include <stdexcept>

#include "akm/sim/cuda.hpp"

namespace akm::cuda {
namespace {
[[noreturn]] void absent() {
  throw std::runtime_error("this build has no CUDA backend (configure with -DAKM_CUDA=ON)");
}
}  // namespace

bool built() { return false; }
std::string device_name(std::string* why) {
  if (why) *why = "built without CUDA";
  return "";
}
double device_fp32_peak() { return 0.0; }
double device_mem_bandwidth() { return 0.0; }
wl::Observations w1(const wl::W1&, std::uint64_t) { absent(); }
wl::Observations w2(const wl::W2&, std::uint64_t) { absent(); }
wl::Observations w3(const wl::W3&, std::uint64_t) { absent(); }
wl::W4Result w4(const wl::W4&, const Mat&, const Mat&, const Mat&) { absent(); }
wl::Observations fit(const wl::Fit&, std::uint64_t) { absent(); }
std::vector<phase::TrialResult> phase_trials(const std::vector<double>&, const phase::MeasureOptions&,
                                             const std::vector<phase::PointPlan>&) {
  absent();
}

}  // namespace akm::cuda
