// T6 lag — the parts shared by t06_lag*.cpp: the design constants, the run schedules, the
// six buffers (three rules × two drifts) with their closed-form gains and contractions, the
// observable layout, the Monte-Carlo run, and the figures.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "akm/check/pooled.hpp"
#include "common.hpp"

namespace akm::exp::t06 {

constexpr double kEtaNorm = 0.5;
constexpr double kRawFrac = 0.4;   // raw η = 0.4/λ_max: β̃ ∈ [0.5, 0.9)
constexpr double kNoise = 0.1;     // σ of ξ
constexpr double kDelta0 = 1.0;    // uniform drift per step
constexpr double kC0 = 1.0;        // density drift Δ_i = c_0 λ̂_i
constexpr int kGroups = 100;       // trial groups: the jackknife of the pooled recovery

/// A run's time line: steps 1..steps, A_t = (t − t_c)D, checks of e_t at `check_steps`, the
/// per-trial mean of e_t over t = burn+1..steps, and a trajectory every `traj_every` steps.
struct Schedule {
  std::string name;
  int steps, burn;
  double t_c;
  std::vector<int> check_steps;
  int traj_every;  // 0: no trajectory
  int window() const { return steps - burn; }
  int traj_points() const { return traj_every > 0 ? steps / traj_every : 0; }
};
// Build-up: the lag grows from 0 (M_0 = M*_0); t_c mid-run keeps ‖A_t‖ ≤ 30‖D‖.
inline const Schedule kBuildup{"buildup", 60, 59, 30.5, {1, 4, 16, 48}, 2};
// Steady: 100 steps of burn-in (0.9^100 ≈ 3e-5 of the transient left), then a 40-step window
// centred on t_c, the steady lag being the per-trial window mean of e_t.
inline const Schedule kSteady{"steady", 140, 100, 120.5, {}, 0};

// Per-buffer arrays are indexed by the BufferKind value.
constexpr int kAkRaw = static_cast<int>(BufferKind::ak_raw);
constexpr int kAkNorm = static_cast<int>(BufferKind::ak_normalized);
constexpr int kEma = static_cast<int>(BufferKind::ema);
enum Drift : int { kUniform = 0, kDensity = 1 };
constexpr int kRules = 3, kDrifts = 2, kBuffers = kRules * kDrifts;
inline const char* rule_name(int r) { return to_string(static_cast<BufferKind>(r)); }
inline const char* drift_name(int d) { return d == kUniform ? "uniform" : "density"; }

/// One buffer: a rule fed by its own value map D so that its own target drifts by Δ_i.
struct Buffer {
  int drift = kUniform, rule = kAkNorm;
  double eta = 0;   // AK only
  Vec gain;         // g_i: M*_t u_i = g_i A_t u_i
  Vec b;            // per-step contraction b_i
  Vec delta;        // Δ_i, drift of the target per step along u_i
  Vec d;            // D's entries d_i = Δ_i / g_i (m = 1: D is a row)
  double ceiling = 0;  // density drift, AK: the uniform ceiling of cor:nc2 (0 otherwise)
};

/// The six buffers of a setting: gains, contractions and drifts from the closed forms.
std::vector<Buffer> make_buffers(const Setting& s, double eta_raw);

/// Buffer B's contraction on direction i as a function of (η, β, s·λ) — β̃ = β − η·sλ_i (raw),
/// β − η·sλ̂_i (normalized), β (EMA) — the same theory call as make_buffers, for the
/// resolution (sensitivity.hpp). The drift Δ_i is the run's design and is held fixed.
double contraction_at(const Setting& s, const Buffer& B, int i, double e, double b, double sc);

/// The alternative a buffer's lag must rule out (prop:nc1's contrast from either side): AK
/// buffers against EMA's contraction β, the EMA buffer against the normalized AK contraction.
double alternative_contraction(const Setting& s, const Buffer& B, int i);
const char* alternative_label(const Buffer& B);

/// ∂/∂ln(η, β, λ) of p(contraction) for buffer B on direction i (EMA: β only).
void annotate(Checks& checks, const Setting& s, const Buffer& B, int i, const std::function<double(double)>& p);

/// Observable layout, ops::row_buffers' (simulate() checks the two agree): e_t of every buffer
/// and direction at the check steps, then the window means, then the probes — each buffer's
/// slope statistic, then the trajectory of every (buffer, shown direction).
struct Layout {
  const Schedule& sc;
  int n;
  std::size_t shown;
  std::size_t checks() const { return sc.check_steps.size(); }
  std::size_t per_record() const { return static_cast<std::size_t>(kBuffers) * n; }
  std::size_t at_step(int b, std::size_t c, int i) const { return c * per_record() + static_cast<std::size_t>(b) * n + i; }
  std::size_t window(int b, int i) const { return at_step(b, checks(), i); }
  std::size_t slope(int b) const { return (checks() + 1) * per_record() + static_cast<std::size_t>(b); }
  std::size_t traj(int b, std::size_t d, int j) const {
    return slope(kBuffers) + (static_cast<std::size_t>(b) * shown + d) * sc.traj_points() + static_cast<std::size_t>(j);
  }
  std::size_t size() const { return traj(kBuffers, 0, 0); }
};

/// Both runs' trials of all six buffers on one setting (model.cpp).
McResult simulate(ExperimentContext& ctx, const Setting& s, const std::vector<Buffer>& bufs,
                  const Schedule& sc, const std::vector<int>& shown, std::uint64_t seed,
                  long long trials);

/// Spectral radius of the raw key's second-moment map D + η²λλᵀ (E1's second-moment map).
/// The map of phase::ms_matrix_raw, whose rounding of η²λ_i² moves this radius by an ulp;
/// kept so T6's results stay byte-identical until the next results regeneration.
double raw_mean_square_radius(const Vec& lam, double beta, double eta);

/// One spectrum: its six buffers and both runs' trials.
struct Run {
  const Setting* s;
  double eta_raw = 0, trace = 0;
  double ms = 0;  ///< the raw buffer's mean-square radius (precondition < 1)
  std::vector<Buffer> bufs;
  std::vector<int> shown;
  McResult buildup, steady;
};

/// A one-sided Monte-Carlo ceiling (cor:nc2, measured), checked after every two-sided one.
struct Ceil {
  std::string name;
  double bound, measured, se;
};

/// The checks of one spectrum (checks.cpp), in the run's order: the precondition, e_t of the
/// build-up run, the steady window means with the predicted ceilings (the measured ones are
/// appended to `ceilings`), prop:nc1's comparison and EMA's linear slope.
void check_run(ExperimentContext& ctx, const Run& run, std::vector<Ceil>& ceilings);

/// Adds one spectrum's build-up and steady means of all six buffers to the claim's pooled
/// recovery of η, β and the λ scale (pooled.cpp).
void add_pooled(PooledRecovery& pooled, const Run& run);
/// data_steady.csv, data_buildup.csv, data_slope.csv and the density-drift observations (tables.cpp).
void write_tables(ExperimentContext& ctx, const std::vector<Run>& runs);

/// EMA's exact per-trial slope statistic Σλ̂_i E[L_i]/Σλ̂_i² with contraction(i) on every direction.
double ema_slope(const Run& run, const Buffer& B, const std::function<double(int)>& contraction);

/// The four figures (figures.cpp).
void figures(ExperimentContext& ctx, const std::vector<Setting>& settings);

}  // namespace akm::exp::t06
