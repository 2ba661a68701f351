// T12 estimator — the parts shared by t12_estimator*.cpp: the random instances, the worst-case
// margin records, the per-instance identities and bounds, the μ sweep (instances.cpp), and the
// figures (figures.cpp).
#pragma once
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "akm/problems/estimator.hpp"
#include "common.hpp"

namespace akm::exp::t12 {

namespace est = akm::estimator;

constexpr int kInstances = 200;
constexpr double kMaxDecades = 12.0;
constexpr double kU = 2.2e-16;  // unit roundoff of double
inline const std::vector<double> kMuGrid{1e-12, 1e-8, 1e-4, 1e-2, 1.0, 1e2, 1e4};

struct Instance {
  int n, m, zeros;
  double decades, beta, eta;
  est::PsdFactors s;
  Mat G;
  double mu() const { return (1.0 - beta) / eta; }
};

/// Instance k of the seed: sizes, conditioning, zero eigenvalues, β, η, a PSD Σ̂ and a Ĝ on its range.
Instance make_instance(std::uint64_t seed, int k);

/// The worst instance of one deterministic property (largest measured; NaN sticks).
/// An identity measures a relative error (passes at ≤ 1e-10); a bound measures a ratio
/// claimed to be ≤ 1.
struct Worst {
  bool bound = false;
  double value = -std::numeric_limits<double>::infinity();
  int instance = -1;
  void add(double v, int k) {
    if (std::isnan(value)) return;
    if (std::isnan(v) || v > value) value = v, instance = k;
  }
};

struct Margins {
  std::map<std::string, Worst> worst;
  void identity(const std::string& name, double rel_err, int k) { add(name, rel_err, k, false); }
  void bound(const std::string& name, double ratio, int k) { add(name, ratio, k, true); }

 private:
  void add(const std::string& name, double v, int k, bool is_bound) {
    Worst& w = worst[name];
    w.bound = is_bound;
    w.add(v, k);
  }
};

struct Row {
  double cond_range, kappa_ridge, cos_star, kant_floor, inner_ratio;
};

/// Every identity and bound of one instance measured into `mg` (checked once, on the worst
/// instance of each); its summary row.
Row measure_instance(const Instance& in, int k, Margins& mg, Stream& rng, int draws);

/// Efficiency of M*(μ) under each norm: ⟨M,Ĝ⟩ / (N(M)·max over N = 1). 1 = optimal.
double efficiency(const Mat& M, const Mat& G, const est::PsdFactors& s, est::Constraint c);

/// μ sweep on one full-rank instance with cond(Σ̂) = 1e6: efficiency of M*(μ) under each norm.
struct MuSweep {
  est::PsdFactors s;
  Mat G;
  CsvTable table{{"mu", "norm", "efficiency"}, {}};
};
MuSweep mu_sweep(std::uint64_t seed);

/// The cosine figures (data_instances.csv) and the μ-sweep figure (data_mu_sweep.csv).
void figures(ExperimentContext& ctx);

}  // namespace akm::exp::t12
