// T13 mup — the parts shared by t13_mup*.cpp: the design constants, the step-size schedules
// and their closed forms, the buffer-scale and raw-key measurements (model.cpp) and the
// figures (figures.cpp); the coordinate check is in mup_coord.hpp.
#pragma once
#include <cstdint>
#include <vector>

#include "common.hpp"
#include "akm/base/line_fit.hpp"
#include "mup_coord.hpp"

namespace akm::exp::t13 {


constexpr double kEta0 = 0.5, kDecay = 0.5;  // η = η0 (n/128)^{-c}
// The growing schedule η = η0 (n/128)^{+g} [thm:mup-eta's η = ω(1)]: g = ½ takes η from 0.5 to
// 2 > 1+β at n = 2048, past the per-step contraction bound of βI − ηx̂x̂ᵀ (eigenvalue β − η
// along x̂), yet ρ = β² + (η² − 2βη)/n stays < 1 while η < β + √(β² + n(1−β²)) = Θ(√n).
constexpr double kGrowth = 0.5;
constexpr int kSchedules = 3;
constexpr int kRows = 16, kBurn = 60, kAvg = 100;
inline const std::vector<int> kWidths{128, 256, 512, 1024, 2048};
// AK-AdamW base rate at the base width 128: the recipe lr ≈ AdamW's/10 [app:hp-sweep] (AdamW 1e-2).
// With the unchanged bias correction the first steps carry M̂ ≈ ηĜ/(1−β), i.e. ×50 at
// β = 0.99, η = 0.5 (optimizers.hpp), so 1e-2 itself overshoots in the first steps.
constexpr double kCoordLr = 1e-3;
// SGD-m base rate (R2's middle grid value) and AK-SGD's at equal injection: α_AK η = α_SGD (1−β),
// so a key of norm 1 would give both buffers the same gradient term and their paired
// difference isolates the key norm (the AK update is the smaller one: no divergence risk).
constexpr double kSgdLr = 0.1;
// Seeds of the coordinate check (full, quick), set from a pilot at --seed 1 (not the committed
// seed) so the paired checks have power ≥ 0.9 against their ±½ alternatives: the per-seed
// spread of the paired slope difference was 0.09–0.10 at widths 128–1024 (16 seeds gave
// power 0.76 and 0.53) and 0.23–0.25 at 64–256; with the Student-t factor at this run's
// level, 32 and 80 seeds gave power ≈ 1 and ≈ 0.99. Full mode raised to 48 when the activation
// part was pre-registered (kActRule): the paired activation slope's per-seed spread was ≈ 0.4
// on the earlier stream (standard error 0.07 at 32 seeds), and 48 seeds bring the check's power
// against −½ to ≈ 0.9 at the run's level (the Student-t factor included).
constexpr int kFullSeeds = 48, kQuickSeeds = 80;
// Equivalence margin of the paired width-slope difference AK − AdamW (declared before any run).
// The claim [cor:mup-base-lr] predicts 0; the key-norm argument (AK buffer ≈ EMA buffer/‖x‖,
// ‖x‖ ∝ √n on a fan-in-n layer, v unchanged) predicts −½. A margin m decides between the two
// with equal slack on both sides when m = ½ · ½ = ¼: a slope nearer the claim than the
// alternative counts as collapse. Over the full run's widths (×8) ¼ is a factor 8^¼ = 1.68 in
// update size, the same order as μP's own finite-width drift is allowed in fig:mup-coord.
constexpr double kMargin = 0.25;
constexpr const char* kMarginWhy =
    "half the distance between the claim (0) and the key-norm alternative (-1/2): m = 1/4, so a slope nearer the "
    "claim than the alternative counts as collapse; over widths x8 that is a factor 8^(1/4) = 1.68 in update size";

// Widths of the exact step-1 check (one m × n layer step each: cheap, so it reaches past the
// coordinate check's widths).
inline const std::vector<int> kStep1Widths{128, 256, 512, 1024, 2048, 4096};
// The activation part of app:mup-coord, pre-registered after the earlier runs had shown the
// activation RMS (recorded, unchecked) and before the run on the renewed seed stream decides it.
constexpr const char* kActRule =
    "hidden pre-activation RMS, per seed the OLS width slope of log(mean over steps 2-20), paired AK-AdamW - AdamW "
    "(AdamW, the mu-P reference, carries the shared finite-width drift); the statement predicts 0, the check fails when "
    "|d| exceeds the run's family z times the Student-t-corrected standard error (no margin); its power is computed "
    "against -1/2, the key-norm factor n^{-1/2} of the update carried whole into activations the updates have built (the "
    "rival's extreme; nearer initialization the rival lies between -1/2 and 0); decided on the renewed seed stream "
    "T13/coord/confirm";

inline const char* kScheduleName[kSchedules] = {"eta-constant", "eta-decaying", "eta-growing"};

/// η of a schedule at width n: η0 (n/128)^{-c}, c = 0, kDecay, −kGrowth.
double eta_of(int schedule, int n);
/// The normalized key's mean-square boundary in η at width n [thm:mup-eta].
double eta_ms_normalized(int n);
/// The exact per-coordinate mean square of the buffer, averaged over the window.
double predicted_ms(int n, double eta);
/// The raw key's mean-square boundary in η at width n.
double eta_ms(int n);

/// (A) Per-coordinate mean square of the normalized AK buffer, entry sch·|widths| + w (each
/// setting one op run).
std::vector<MeanEstimate> buffer_scale(ExperimentContext& ctx, long long trials);

/// (B) The raw key at one width: the mean-square growth factor at η_ms (its Monte-Carlo
/// mean and error) and the three η boundaries.
struct RawWidth {
  int n;
  double growth, growth_se;
  double eta_contraction, eta_mean_square, eta_almost_sure;
};
std::vector<RawWidth> raw_key(std::uint64_t seed, int samples);

/// (A') Anisotropic keys [thm:mup-eta, η = ω(1)]: the non-centred key x = z + μ·1, z ~ N(0, I_n)
/// (a GELU/ReLU feature has a non-zero mean; μ = 1 makes ‖μ·1‖ = √n, the noise's own norm).
/// Σ̂ = E[x̂x̂ᵀ] commutes with every coordinate permutation, so u = 1/√n is an eigenvector, with
/// λ̂_u = E[A/(A+B)], A = (s + μ√n)² ~ χ²₁(μ²n), B ~ χ²_{n−1}: the mean of a non-central
/// Beta(½, (n−1)/2; μ²n), Σ_k Poisson(k; μ²n/2)·(½+k)/(n/2+k) → μ²/(1+μ²) = ½ (λ̂_max = Θ(1)).
/// With δ zero-mean and independent of x, E[M_t]u = (β − ηλ̂_u)E[M_{t−1}]u exactly, so the mean
/// along the spike diverges once η > (1+β)/λ̂_u — at η = Θ(1), while the isotropic accounting
/// (Σ̂ = I/n: factor β − η/n) keeps it stable up to η = Θ(n).
constexpr double kSpikeMu = 1.0;
constexpr int kSpikeSteps = 20;
constexpr double kSpikeStart = 10.0;  // M_0 = kSpikeStart·1_rows uᵀ (so the mean stands above the δ-noise)
inline const std::vector<int> kSpikeWidths{128, 256, 512, 1024, 2048, 4096, 8192, 16384};
/// λ̂_u of the non-centred key at width n (the series above; exact to rounding).
double spike_lambda(int n, double mu);
/// Per trial and width: the row mean of (M_T u)/kSpikeStart after kSpikeSteps steps of the
/// growing schedule η = η0 (n/128)^{1/2}; E = (β − ηλ̂_u)^T.
std::vector<MeanEstimate> spike_mean(ExperimentContext& ctx, long long trials);

/// (C') The Muon pair of the coordinate check [cor:mup-base-lr, AK-Muon] (muon_coord.cpp).
/// Hidden rate at the base width: Muon's reference default 0.02, × w^{-1/2} by the corollary.
constexpr double kMuonLr = 0.02;
/// Seeds (full, quick), set from a pilot at --seed 1 in quick mode (not the committed seed), as
/// kFullSeeds: per-seed spread of the paired slopes 0.024 (AK-Muon − Muon) and 0.082 (Muon −
/// AdamW) at widths 32–128; at 32 seeds the Student-t tolerance stays below ≈ 0.37 and the
/// power against −½ ≈ 1; full mode 40 for the wider, untried 64–256.
constexpr int kMuonFullSeeds = 40, kMuonQuickSeeds = 32;
/// The alternative the AK-Muon check is powered against: NS is scale-free, so no mechanism
/// predicts the key-norm slope −½ here; it is the size of departure the other bullets' checks detect.
constexpr const char* kMuonRival = "a width exponent off by 1/2 (the key-norm departure of AK-SGD and AK-AdamW; NS is scale-free)";
/// The alternative to the corollary's Muon rule: NS(M) has unit singular values, so
/// ‖ΔW‖₂ = α√(m/n), and RMS(ΔWx) ∝ α ∝ n^{-1/2} for inputs in the update's row space.
constexpr const char* kMuonRuleRival =
    "spectral reading: NS has unit singular values, so RMS(Delta W x) scales as alpha, n^{-1/2}";
struct MuonCoord {
  coord::Setup setup;
  std::vector<coord::Arm> arms;
  int seeds = 0;
  Vec mean, se;
};
MuonCoord measure_muon_coord(ExperimentContext& ctx, const Task& task, bool quick);
/// The pair's kMuonChecks checks, at the per-comparison level p_each of the run's Bonferroni family.
constexpr long long kMuonChecks = 2;
void check_muon_coord(ExperimentContext& ctx, const MuonCoord& r, double p_each);
/// Its CSVs, figure and finding; returns its params.
nlohmann::json record_muon_coord(ExperimentContext& ctx, const MuonCoord& r);

/// The coordinate check's findings (coord_findings.cpp): per-window width slopes, the paired
/// differences and step 1 against its closed form, from the seeds' means cm and errors cse.
void coord_findings(ExperimentContext& ctx, const coord::Setup& cs, const std::vector<coord::Arm>& arms,
                    const coord::Layout& lay, const Vec& cm, const Vec& cse, int seeds);

/// tab:hps's μP transfer, checked at the table's printed precision (hps_transfer.cpp), and its table.
void check_hps_transfer(ExperimentContext& ctx);
void record_hps_transfer(ExperimentContext& ctx);

/// The buffer-scale and raw-key figures.
void figures(ExperimentContext& ctx, const nlohmann::json& slopes, double slope_c, double slope_ms, double slope_as);

}  // namespace akm::exp::t13
