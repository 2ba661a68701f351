// T8 uniform — the parts shared by t08_uniform*.cpp: the design constants, the spectra, the
// simulated stream (model.cpp) and the figures (figures.cpp).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"

namespace akm::exp::t08 {

constexpr double kEta = 0.5;
constexpr double kNoise = 0.5;  // σ of ξ
constexpr int kSteps = 20;      // pushes recorded after the offset
constexpr int kGroups = 100;    // trial groups: the jackknife of the pooled recovery
inline const std::vector<int> kFamilyLags{5, 20};
// Pairs for the exact and deterministic checks: the simulated one, the paper's recipe, and
// one with β − η < 0 (the bracket still holds; η < 1 + β keeps the factor contracting).
inline const std::vector<std::pair<double, double>> kPairs{{0.9, 0.5}, {0.99, 0.4}, {0.5, 1.2}};
// Smallest gap η(‖Σ̂‖_F² − 1/n) counted as strictly positive: far above the quadrature's
// relative 1e-12 on λ̂, far below every anisotropic gap here (the smallest, mild-power-64 at
// η = 0.4, is 2.3e-3).
constexpr double kGapFloor = 1e-9;

struct SpectrumCase {
  std::string name, spec;
  bool isotropic;
  bool shown;  // in the β̃_i figure
};
inline const std::vector<SpectrumCase> kCases{
    {"iso-32", "iso:n=32", true, false},
    {"iso-64", "iso:n=64", true, true},
    {"spiked-32", kSpiked, false, false},
    {"spiked-64", "spiked:n=64,spikes=100/30/10/3,floor=0.5", false, true},
    {"power-32", kPower, false, false},
    {"power-64", "power:n=64,exp=1.5", false, true},
    {"mild-power-64", "power:n=64,exp=0.5", false, false},  // near-isotropic: a small gap
};

/// One spectrum at the simulated (kBeta, kEta): its value map a, fixed point M* and the trials.
struct Case {
  const SpectrumCase* sc;
  Setting s;
  Vec a, mstar;
  double fro = 0;  ///< ‖Σ̂‖_F²
  McResult res;
};

/// Observables: T_{k,i} for k = 1..kSteps (index (k−1)·n + i), then Σ_i λ̂_i T_{1,i}.
inline std::size_t at(int n, int k, int i) { return static_cast<std::size_t>((k - 1) * n + i); }
inline std::size_t weighted(int n) { return static_cast<std::size_t>(kSteps * n); }

/// The AK normalized buffer from M_0 = M* + 1ᵀ on δ = a·x + ξ: T_{k,i} and the weighted sum.
McResult simulate(ExperimentContext& ctx, const Setting& s, const Vec& a, const Vec& mstar, std::uint64_t seed,
                  long long trials);

/// The β̃_i figure (n = 64 spectra) and the weighted-mean figure (every spectrum).
void figures(ExperimentContext& ctx, const CsvTable& wmean);

}  // namespace akm::exp::t08
