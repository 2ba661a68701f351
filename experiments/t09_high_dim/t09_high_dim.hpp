// T9 high-dim — the parts shared by t09_high_dim*.cpp: the design constants, the data sets
// of keys and values, and the per-shape passes (the Monte Carlo runs on ops/span_buffers).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "akm/check/pooled.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/sim/ops/span_buffers.hpp"
#include "akm/spectrum/dataset_spectrum.hpp"
#include "akm/random/random.hpp"
#include "common.hpp"

namespace akm::exp::t09 {

constexpr int kM = 2;             // rows of the buffer: per-step cost O(m p)
constexpr double kEta = 0.8;      // μ = 0.125, ceiling 1 + η/(1−β) = 9
constexpr double kNoise = 0.5;    // σ of ξ_s, drawn once per data point
constexpr int kSteps = 200;
constexpr int kWindowStart = 51;  // time-average window [51, 200]: see the gain ratio below
constexpr int kWindow = kSteps - kWindowStart + 1;
inline const std::vector<int> kCheckpoints{5, 25, kSteps};
constexpr int kGroups = 100;      // trial groups for the jackknife of the gain ratio
constexpr int kPathsOffSpan = 3;  // sample paths whose final buffers are projected off-span
// A Monte-Carlo mean of a projection is checked only where its sampling distribution is
// close enough to normal for the check's first-order skew correction (include/akm/check/check.hpp)
// by the design, not by the sample: a step adds c_s = δ_{s,r}·(k_sᵀu_j) for a key drawn
// uniformly from the data set, so the mean of D draws has skewness γ_c/√D with γ_c the
// exact skewness of c over the n_s keys. Where a projection is carried by a few keys (the
// bottom direction, ~1.3 keys of 1024; row 1 of Δ, which weights those keys by 1/√λ̂_bottom)
// γ_c ≈ 20, and a seed that happens to draw them rarely measures ≈ 0 with a tiny sample
// error — the audit's T9 false alarms at 1e-6 (tests/audit). Checked iff γ_c/√D ≤ 0.1,
// D = R·min(t, memory) (the window length for window averages).
constexpr double kMaxDesignSkew = 0.1;


// Steps at which the projections are recorded, about evenly on a log axis (the checkpoints
// are among them).
std::vector<int> record_grid();

struct Shape {
  int p, n_s;
};
inline const std::vector<Shape> kShapes{{512, 64}, {512, 128}, {4096, 512}, {4096, 1024}};

inline std::string shape_name(const Shape& s) { return fmt::format("p{}-ns{}", s.p, s.n_s); }

// One (p, n_s) data set: keys, their norms and directions, and the values attached to them.
struct DataSet {
  Shape shape;
  std::string spec;
  Mat X;          // p × n_s raw keys x_s
  Vec norms;      // ‖x_s‖
  Mat K_hat;      // p × n_s normalized keys x̂_s (= X̂ᵀ)
  Mat Delta;      // m × n_s values δ_s
};

DataSet make_keys(const Shape& sh, std::uint64_t seed);

// δ_s = A x_s + ξ_s (data.cpp: row 0 generic, row 1 reads the middle and bottom
// span coordinates).
Mat value_rows(const DataSet& d, const Vec& u_mid, double lam_mid, const Vec& u_bot, double lam_bot,
               std::uint64_t seed);

// E over the window of the transient factor: (1/W) Σ_{t=a}^{T} (1 − b^t).
double window_factor(double b);

struct Direction {
  int k;              // index into λ̂ (descending)
  std::string label;  // top1 / top2 / top3 / middle / bottom
};

std::vector<Direction> queried_directions(int rank);

/// The tables every shape adds its rows to.
struct Tables {
  CsvTable spectrum{{"setting", "p", "n_s", "k", "k_frac", "lambda_hat", "weight", "rel_weight"}, {}};
  CsvTable gains{{"setting", "rule", "direction", "k", "lambda_hat", "participation", "phi", "predicted_window_gain",
                  "measured_window_gain", "stderr"}, {}};
  CsvTable cond{{"setting", "p", "n_s", "rank", "lambda_max", "lambda_min", "mu", "cond_span",
                 "cond_overall", "ceiling", "improvement_measured", "improvement_stderr"}, {}};
};

/// The sample paths whose final buffers are projected off the key span: the final norms,
/// the off-span norms, and the fast projection recursion's miss against M_T U.
struct OffSpanPath {
  double ak_norm, ema_norm, ak_off, ema_off, ak_proj_miss, ema_proj_miss;
};

/// One (p, n_s) data set through the four passes of claim.cpp: set-up (shape.cpp), measure
/// (shape.cpp: the numerical routes and off-span paths; projections.cpp: the Monte Carlo),
/// check (shape.cpp, projections.cpp) and record (record.cpp). It refers to its own members:
/// keep it where it is built (claim.cpp holds the runs in a std::deque).
struct ShapeRun {
  ShapeRun(ExperimentContext& c, const Shape& s)
      : ctx(c), sh(s), name(shape_name(s)), d(make_keys(s, c.opts.seed)), K_hat(d.K_hat), n(s.n_s), S(K_hat),
        lam(S.lambda_hat()), rank(S.rank()), mu(theory::mu(kBeta, kEta)), ceiling(theory::cond_ceiling(kBeta, kEta)),
        grid(record_grid()), G(grid.size()), R(trials(c, 80000, 3200)) {}
  ShapeRun(const ShapeRun&) = delete;
  ShapeRun& operator=(const ShapeRun&) = delete;

  // Set-up: the queried directions, the values, Ĝ, Ḡ, M*, their projections, the conditioning.
  void setup();
  // Measure: the second numerical routes, the off-span sample paths; the Monte-Carlo
  // projections and their jackknifed gains (projections.cpp).
  void measure_exact();
  void simulate_projections();
  // The Monte Carlo's op: both buffers on this data set, projected on U (ops/span_buffers.hpp).
  ops::SpanBuffers op() const;
  // The design skewness of projection (rule, j, r)'s mean over t_eff draws per trial (the
  // gate above), and the memory 1/(1 − rate) that caps t_eff (projections.cpp).
  double design_skew(int rule, std::size_t j, int r, double t_eff) const;
  double memory(int rule, std::size_t j) const;
  // E[M_t]u_k on row r as a function of (η, β, s), s scaling λ̂_k, f the transient factor
  // (1 − b^t, or its window average): (Ĝu_k)_r/(μ+λ̂_k)·f(β̃_k) for AK (rule 0), (Ḡu_k)_r·f(β)
  // for EMA (rule 1) — the checks' sensitivities and the pooled recovery (pooled.cpp).
  double projection_mean(int rule, std::size_t j, int r, double e, double b, double sc,
                         const std::function<double(double)>& f) const;
  // Adds every recorded projection mean the skewness gate admits to the pooled recovery.
  void add_pooled(PooledRecovery& pooled) const;
  // Check, in the order they are recorded.
  void spectrum_checks();
  void fixed_point_and_span_checks();
  void conditioning_checks();
  void projection_checks();
  void improvement_check();
  // Record: this shape's table rows, its transient figure, its params entry (record.cpp).
  void record(Tables& tables);
  void transient_figure();
  void record_params();

  // Observable index of projection (rule, j, r) at record slot g (slot G: the window average).
  std::size_t obs(std::size_t g, int rule, std::size_t j, int r) const {
    return g * per_t + static_cast<std::size_t>(rule) * D * kM + j * kM + static_cast<std::size_t>(r);
  }
  // Gain of a buffer along u_k, projected on w_k = Ĝu_k (AK) or Ḡu_k (EMA):
  // E = (1 − β̃_k^t)/(μ+λ̂_k) for AK, 1 − β^t for EMA.
  double gain(const Vec& m, std::size_t g, int rule, std::size_t j) const {
    const Vec& w = rule == 0 ? GU.col(j) : GbU.col(j);
    double num = 0;
    for (int r = 0; r < kM; ++r) num += w[r] * m[obs(g, rule, j, r)];
    return num / w.squaredNorm();
  }
  // Number of keys that carry u_k: 1/Σ_s v_k[s]⁴ for the unit Gram eigenvector v_k.
  double participation(std::size_t j) const { return 1.0 / S.gram_vectors().col(dirs[j].k).array().pow(4).sum(); }

  ExperimentContext& ctx;
  const Shape& sh;
  const std::string name;
  DataSet d;
  const Mat& K_hat;
  const double n;
  // Spectrum of Σ̂ from the n_s×n_s Gram matrix [app:high-dim].
  const DatasetSpectrum S;
  const Vec& lam;
  const int rank;
  const double mu, ceiling;
  const std::vector<int> grid;
  const std::size_t G;
  const long long R;
  // Set-up.
  std::vector<Direction> dirs;
  std::size_t D = 0, per_t = 0;
  Mat U, G_hat, G_bar, M_star, MU, GU, GbU, Ct;
  std::uint64_t mc_seed = 0;
  double cond_span = 0, cond_all = 0;
  // Measured: the exact routes (shape.cpp) ...
  Vec lanczos_top;                      // top three eigenvalues by Lanczos
  std::vector<double> eigen_residual;   // per direction |Σ̂u − λ̂u| / λ̂_max, Σ̂ matrix-free
  double woodbury_miss = 0, fixed_point_residual = 0;
  std::vector<double> dm_eigen_miss;    // per direction |M*u − Ĝu/(μ+λ̂)| / |M*u|
  double G_hat_off = 0, M_star_off = 0;  // norms off the key span
  std::vector<OffSpanPath> paths;
  // ... and the Monte Carlo (projections.cpp): the gain ratio and each window gain, jackknifed.
  McResult res;
  Vec mean, se;
  double impr = 0, impr_se = 0;
  std::vector<std::pair<double, double>> window_gain;  // (j, rule) at 2j + rule
  long long rare = 0;  // projections gated by the design skewness (counted by the check pass)
};

/// The figures over all shapes: gains, spectrum, preconditioner weights (figures.cpp).
void shared_figures(ExperimentContext& ctx);

}  // namespace akm::exp::t09
