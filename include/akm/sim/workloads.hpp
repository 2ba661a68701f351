// workloads — the four benchmark workloads W1–W4 (docs/performance.md), defined once.
//
// Every workload is simulated in the eigenbasis of Σ (docs/architecture.md, "Simulating
// in the eigenbasis"): a key is x_i = √λ_i z_i. Each has a plain reference (the per-trial kernels
// of akm/rules/kernels.hpp, Eigen, double) and a fast engine (akm/sim/engine/engine.hpp); tests hold
// the engine to the reference and `akm bench` times both.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "akm/base/linalg.hpp"

namespace akm::wl {

/// Power-law spectrum λ_i = 1/(i+1), i = 0..n−1, optionally rescaled to unit trace.
Vec power_spectrum(int n, bool unit_trace);

/// W1 transport: a row vector pushed through v ← v(βI − ηx̂x̂ᵀ), x̂ = x/‖x‖
/// [eq:transport-expansion]; v₀ = 1/√n. Observables: v_T (n entries) and ‖v_T‖².
/// E[v_T]_i = v₀ᵢ (β − ηλ̂_i)^T, the transport mean [lem:transport].
struct W1 {
  int n = 64;  ///< dimension n
  long long trials = 4096;  ///< Monte-Carlo trials
  int steps = 1000;  ///< steps per trial
  double beta = 0.999;  ///< decay β
  double eta = 0.5;  ///< AK step η
  /// Observables per trial: v_T (n) and ‖v_T‖².
  int n_obs() const { return n + 1; }
  /// Trials × steps, the unit of the throughput.
  double trial_steps() const { return double(trials) * steps; }
  /// Arithmetic per trial-step (key scale n, norm 2n, dot 2n, update 3n); normals: n.
  double flops_per_trial_step() const { return 8.0 * n; }
};

/// W2 linear regression y = W*x + σε (m outputs, n inputs), error E = W − W*, δ = Ex + σε.
/// Two optimizers on the same data (common keys and noise) [sec:methodology]:
///   AK-SGD, normalized key: M ← βM + η(δ − Mx̂)x̂ᵀ, E ← E − αM  [eq:dm-norm-update]
///   SGD-EMA:                M ← βM + (1−β)δxᵀ,   E ← E − αM  [eq:ema-update]
/// W* has N(0,1) entries (Purpose::init, column-major), E₀ = −W*. Observables: the
/// per-direction error energies e_i = Σ_r E_ri² of AK (n), of EMA (n), then both totals.
struct W2 {
  int m = 8;  ///< outputs m
  int n = 256;  ///< inputs n
  long long trials = 1024;  ///< Monte-Carlo trials
  int steps = 2000;  ///< steps per trial
  double alpha = 0.05;  ///< learning rate α
  double beta = 0.9;  ///< decay β
  double eta = 0.5;  ///< AK step η
  double sigma = 0.1;  ///< label noise σ
  /// Observables per trial: AK and EMA error energies per direction, then both totals.
  int n_obs() const { return 2 * n + 2; }
  /// Trials × steps, the unit of the throughput.
  double trial_steps() const { return double(trials) * steps; }
  /// AK: δ 2mn, Mx̂ 2mn, M update 3mn, E update 2mn (+4n key); EMA: 2mn + 3mn + 2mn.
  double flops_per_trial_step() const { return 16.0 * m * n + 5.0 * n; }
};

/// W3 measured phase map: raw-key transport v ← v(βI − ηxxᵀ) (unit-trace spectrum) on a
/// grid of (η, β); per trial the top Lyapunov exponent estimate (1/T) log(‖v_T‖/‖v₀‖),
/// accumulated by renormalizing every `renorm` steps. Negative = the product contracts
/// (stable), positive = diverges [app:stability_norm_key_dm]. Point p = a·n_beta + b has
/// η_a = eta_max (a+1)/n_eta, β_b = b/n_beta; its trial t uses stream p·trials + t.
struct W3 {
  int n = 32;  ///< dimension n
  int n_eta = 64;  ///< grid points along η
  int n_beta = 64;  ///< grid points along β
  long long trials = 256;  ///< per grid point
  int steps = 1000;  ///< steps per trial
  int renorm = 4;  ///< steps between renormalizations of v
  double eta_max = 4.0;  ///< largest η of the grid
  /// Grid points n_eta · n_beta.
  int points() const { return n_eta * n_beta; }
  /// η of grid column a: eta_max (a+1)/n_eta.
  double eta(int a) const { return eta_max * (a + 1) / n_eta; }
  /// β of grid row b: b/n_beta.
  double beta(int b) const { return double(b) / n_beta; }
  /// One observable per trial: the Lyapunov exponent estimate.
  int n_obs() const { return 1; }
  /// Points × trials × steps, the unit of the throughput.
  double trial_steps() const { return double(points()) * trials * steps; }
  /// Key scale n, dot 2n, update 3n (+ renorm 3n/renorm amortized).
  double flops_per_trial_step() const { return 6.0 * n + 3.0 * n / renorm; }
};

/// W4 deployed batch rule M ← βM + η(ΔᵀX̂/N − MΣ̂_B) [eq:deployed] in both contraction
/// orders [eq:dispatch]; X̂ rows are normalized Gaussian keys, Δ and M₀ are N(0,1).
struct W4 {
  int m = 1024;  ///< outputs m (rows of M)
  int n = 1024;  ///< inputs n (columns of M)
  int batch = 8192;  ///< batch size N
  double beta = 0.9;  ///< decay β
  double eta = 0.5;  ///< AK step η
  /// Floating-point operations of one update: Gram order (true) or through-N order (false).
  double flops(bool gram) const {
    const double N = batch;
    return gram ? 2.0 * N * m * n + 2.0 * N * n * n + 2.0 * m * n * n + 3.0 * m * n
                : 4.0 * N * m * n + 2.0 * N * m * n + 3.0 * m * n;
  }
};

/// The fitting workload of `akm simulate`: loss-free linear regression y = w*·x + σε with
/// one output (m = 1), simulated in the eigenbasis of Σ = diag(λ) with two optimizers on
/// the same keys and noise [sec:methodology]:
///   AK-SGD:  μ ← βμ + η(δ − μ·k)k,  k = x̂ (normalized) or x (raw)  [eq:dm-norm-update]
///   SGD-EMA: μ ← βμ + (1−β)δx                                       [eq:ema-update]
/// each followed by e ← e − αμ, with δ = e·x + σε, e₀ = (1, …, 1), μ₀ = 0.
/// Along u_i the state s_t = (e_{t,i}, μ_{t−1,i}) obeys E[s_{t+1} | past] = A_i s_t with the
/// 2×2 map of [eq:iter-matrices] (Σ̂ and K are diagonal in the eigenbasis), so pooled least
/// squares over trials and steps estimates A_i: its second row is (c_i, β̃_i).
/// Observables per trial group g (mean over its trials, trials [gR/G, (g+1)R/G) run in
/// order): for arm a (0 AK, 1 EMA), quantity q and direction i at index (8a + q)·n + i:
///   q = 0..2: Σ_t e_t², e_tμ_{t−1}, μ_{t−1}²   (Σ_t s_t s_tᵀ)
///   q = 3..6: Σ_t e_{t+1}e_t, e_{t+1}μ_{t−1}, μ_te_t, μ_tμ_{t−1}   (Σ_t s_{t+1}s_tᵀ)
///   q = 7:    e_T.
struct Fit {
  std::vector<double> lambda;  ///< eigenvalues λ_i of Σ (> 0)
  bool normalized = true;      ///< AK key: x̂ (true) or x
  double beta = 0.9;  ///< decay β
  double eta = 0.5;  ///< AK step η
  double alpha = 0.1;  ///< learning rate α
  double sigma = 0.1;  ///< label noise σ
  long long trials = 2000;  ///< Monte-Carlo trials
  int steps = 200;  ///< steps per trial
  int groups = 200;  ///< jackknife groups (≤ trials)
  /// Dimension n = number of eigenvalues.
  int n() const { return int(lambda.size()); }
  /// Observables per group: 16 n (see the layout above).
  int n_obs() const { return 16 * n(); }
  /// Index of arm a (0 AK, 1 EMA), quantity q and direction i in a group's row.
  std::size_t index(int arm, int q, int i) const { return std::size_t(8 * arm + q) * n() + i; }
  /// First trial of group g: trials·g/groups.
  long long group_begin(int g) const { return trials * g / groups; }
  /// Trials × steps, the unit of the throughput.
  double trial_steps() const { return double(trials) * steps; }
  /// Per trial-step: key 2n (+2n normalized), AK 4n + EMA 4n, moments 2·(7·2n + ...) ≈ 38n.
  double flops_per_trial_step() const { return 40.0 * n(); }
};

/// Per-trial observables of a Monte-Carlo workload: trials × n_obs, row-major, trial order.
/// The one place akm holds a whole sample, and why: the benchmark workloads W1–W3 are checked
/// row for row — each fast path (src/sim/ops/\<op\>/cpu.cpp, cuda.cu) must equal the plain
/// reference trial by trial up to a rounding bound (tests/test_engine.cpp, test_cuda.cpp), which
/// needs every row; at the bench's sizes that is at most ~0.5 M doubles (4 MB). The
/// fitting workload of `akm simulate` stores one row per trial group (groups × n_obs), and the
/// experiments' monte_carlo() (sim.hpp) streams per-group statistics, never trials × observables.
struct Observations {
  long long trials = 0;  ///< rows (trials or groups)
  int n_obs = 0;  ///< observables per row
  std::vector<double> values;  ///< trials × n_obs values, row-major
  /// Observable j of row t.
  double at(long long t, int j) const { return values[std::size_t(t) * n_obs + j]; }
  /// Mean and standard error of observable j over trials [t0, t1) (sequential sum, so the
  /// numbers never depend on the thread count).
  std::pair<double, double> mean_se(int j, long long t0 = 0, long long t1 = -1) const;
};

/// Runs fn(trial, out) for every trial on `threads` threads (0: all); each trial writes its
/// own row, so the result is the same for any thread count.
template <class Fn>
Observations run_trials(long long trials, int n_obs, int threads, Fn&& fn);

// Plain references (double, Eigen, akm::Stream + akm::kern steps).
/// Plain reference of W1 (double, Eigen, akm::Stream and the akm::kern steps); one row per trial.
Observations w1_reference(const W1& w, std::uint64_t seed, int threads);
/// Plain reference of W2; one row per trial.
Observations w2_reference(const W2& w, std::uint64_t seed, int threads);
/// W3 rows are ordered point-major: row p·trials + t.
Observations w3_reference(const W3& w, std::uint64_t seed, int threads);
/// Result of one deployed update in each order.
struct W4Result {
  Mat gram;  ///< M after the update in the Gram order (Σ̂_B formed first)
  Mat through_n;  ///< M after the update through the batch (N-sized products)
};
/// Builds the W4 batch (M₀, Δ, X̂) from the seed.
void w4_data(const W4& w, std::uint64_t seed, Mat& M0, Mat& Delta, Mat& Xhat);
/// The deployed update of W4 in both contraction orders (plain Eigen, double).
W4Result w4_reference(const W4& w, const Mat& M0, const Mat& Delta, const Mat& Xhat);
/// Rows are the `groups` trial groups (group means), see Fit.
Observations fit_reference(const Fit& w, std::uint64_t seed, int threads);

}  // namespace akm::wl

#include "akm/sim/run_trials.hpp"
