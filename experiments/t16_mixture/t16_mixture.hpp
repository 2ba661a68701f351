// T16 mixture — the parts shared by t16_mixture*.cpp: the design constants, a key variant's
// exact moments, the Monte-Carlo runs (transport and tracking) and the family checks
// (model.cpp), and the figures.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "akm/sim/ops/transport_product_layout.hpp"
#include "akm/spectrum/keys.hpp"
#include "common.hpp"

namespace akm::exp::t16 {

constexpr double kEtaNorm = 0.5;
constexpr double kRawMs = 0.95;   // mean-square factor bound of the raw arm (header)
constexpr double kNoise = 0.1;    // value noise σ_ξ
constexpr int kSteps = 60;
inline const std::vector<int> kLags{1, 5, 20, 60};
constexpr std::size_t kOffLag = 1;  // off-diagonals recorded at kLags[1] = 5
inline const char* kSpectrum = "spiked:n=16,spikes=100/30/10/3,floor=0.5";
inline const char* kLaw = "mixture:weights=0.4/0.3/0.3,scales=100/1/10,bases=identity/reverse/random";
constexpr int kLarge = 0;  // the largest-scale component


// One key variant's exact moments along its own eigenvectors.
struct Variant {
  Key key;
  double eta;
  Mat S;       // Σ̂_mix (normalized) or Σ_mix (raw): the mean forgetting is βI − ηS
  Mat G_of_a;  // Ĝ = aΣ̂_mix or Ḡ = aK_mix for δ = a·x̂ + ξ: the matrix right-multiplying a
  Vec ev;      // eigenvalues of S, descending
  Mat V;       // eigenvectors (columns)
  Mat S_alt;   // the rival second moment the claim rules out (the other weighting, header)
  std::string alt_label;
  Mat mean_factor() const { return kBeta * Mat::Identity(S.rows(), S.cols()) - eta * S; }
  double beta_tilde(int j) const { return theory::beta_tilde(kBeta, eta, ev[j]); }
};

Variant make_variant(Key key, double eta, const Mat& S, const Mat& G);


// Transport observables where the checks read them in ops::transport_product's row (keys read
// along V, so its P_k is VᵀP_kV): diag(VᵀP_kV) at kLags[l], all of VᵀP_5V, and b_cᵀP_kb_c at
// kLags[l] (the forms, b_c in V's coordinates).
struct TLayout {
  int n, comps;
  ops::TransportProductLayout op() const { return {n, kSteps, 1, false, comps, static_cast<int>(kLags.size())}; }
  std::size_t diag(std::size_t l, int j) const { return op().diag(kLags[l], j); }
  std::size_t off(int r, int c) const { return op().full(0, r, c); }
  std::size_t comp(std::size_t l, int c) const { return op().form(static_cast<int>(l), c); }
};

McResult transport(ExperimentContext& ctx, const KeySampler& law, const Variant& v, const Mat& B1,
                   std::uint64_t seed, long long R);

// Tracking: M_0 = 0, δ = a·x̂ + ξ, one buffer row; observables M_t v_j for t = 1..T.
McResult tracking(ExperimentContext& ctx, const KeySampler& law, const Variant& v, const Vec& a,
                  std::uint64_t seed, long long R);

// Worst-z summary of a family of comparisons with exact predictions; returns the reported
// entry's index. Power against the alternative `alt` (same layout as pred): the family fails
// when any entry fails, so its power is at least that of the entry the alternative moves
// most in units of its own error, j* = argmax |alt_j − pred_j|/se_j. The record carries the
// reported entry's error and tolerance, so the alternative is entered as that entry's
// prediction shifted by the same number of its own errors:
//   pred_w + (alt_j* − pred_j*)·se_w/se_j*  (power of the record = power of entry j*).
// Where the alternative agrees with the prediction on some entries (flat directions, pairs
// the rotation leaves alone) this counts the entries that can tell them apart.
std::size_t family(ExperimentContext& ctx, const std::string& name, const std::vector<double>& pred,
                   const std::vector<double>& mean, const std::vector<double>& se, const std::vector<double>& alt,
                   const std::string& alt_label);

// Upper-triangle entries of a Monte-Carlo matrix estimate against the exact matrix (and the
// alternative matrix at the reported entry).
Checks& matrix_family(ExperimentContext& ctx, const std::string& name, const Mat& exact, const Mat& mc, const Mat& se,
                      const Mat& alt, const std::string& alt_label);

Mat matrix_power(const Mat& F, int k);

// E[xxᵀ] and E[‖x‖² 1{component = kLarge}] by a separately seeded Monte Carlo.
struct RawMoments {
  Mat cov, cov_se;
  double large_energy = 0, large_energy_se = 0;
};
RawMoments raw_moments(const KeySampler& law, long long N, std::uint64_t seed);

/// One variant's runs: the transport of the eigenvectors and spikes, the tracking buffer, and
/// the predictions it is read against (M*v_j, and EMA's target Gv_j).
struct VariantRun {
  const Variant* v;
  McResult transport, tracking;
  Vec Mv;  ///< M*v_j, M* = G(μI + S)^{-1}
  Vec Gv;  ///< Gv_j: the EMA buffer's target along v_j
};

/// A variant's transport, spike and tracking checks (checks.cpp).
void check_variant(ExperimentContext& ctx, const VariantRun& run, const Mat& B1, const std::vector<double>& scales);

/// The four tracking-figure directions, chosen from predictions only: the largest |M*v_j| in
/// each quarter of the spectrum.
std::vector<int> shown_directions(const Vec& Mv);

/// data_rates.csv, data_components.csv, data_tracking_normalized.csv, data_mixture.csv (tables.cpp).
void write_tables(ExperimentContext& ctx, const KeySampler& law, const std::vector<VariantRun>& runs, const Mat& B1);

/// The figures (figures.cpp).
void figures(ExperimentContext& ctx, const KeySampler& law, const std::vector<int>& shown);

}  // namespace akm::exp::t16
