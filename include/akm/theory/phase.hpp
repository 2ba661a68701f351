// phase — closed-form maps over a grid of two of (η, β, α) for `akm phase` and E1.
//
// Axis spec  NAME:LO:HI:N[:log]  (NAME ∈ eta | beta | alpha, N ≥ 2 points, LO < HI, log
// spacing needs LO > 0). Every metric is computed from the closed forms of akm/theory/theory.hpp
// and the exact Gaussian-key moments of akm/spectrum/moments.hpp; nothing here is random.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "akm/base/linalg.hpp"
#include "akm/spectrum/moments.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/theory.hpp"

namespace akm::phase {

/// A parameter that can be a map axis or held fixed.
enum class Param { eta, beta, alpha };
/// "eta", "beta" or "alpha".
std::string to_string(Param p);

/// One axis of a map: NAME:LO:HI:N[:log].
struct Axis {
  Param param = Param::eta;  ///< the parameter along the axis
  double lo = 0;  ///< first grid value
  double hi = 0;  ///< last grid value
  int n = 2;  ///< grid points (2 ≤ N ≤ 4096)
  bool log = false;  ///< log-spaced grid
  std::string spec;  ///< the string it was parsed from
  /// k-th grid value, k = 0..n−1 (endpoints exact).
  double value(int k) const;
};

/// Parses NAME:LO:HI:N[:log]; `flag` names the option in errors ("--x"). Refuses unknown
/// names, non-numbers, N < 2 or N > 4096, LO ≥ HI, log with LO ≤ 0, and values outside
/// the parameter's range (β ∈ [0,1), η > 0, α > 0).
Axis parse_axis(const std::string& spec, const std::string& flag);

/// The quantity a map shows (`akm phase --metric`; docs/cli.md lists the columns).
enum class Metric { stable, ms_stable, rho_ratio, underdamped, speedup, counterexample };
Metric parse_metric(const std::string& s);  ///< InputError naming --metric
/// The metric's name as on the command line.
std::string to_string(Metric m);

/// Everything fixed across the grid.
struct Options {
  Axis x;  ///< horizontal axis
  Axis y;  ///< vertical axis
  Metric metric = Metric::stable;  ///< what the map shows
  Key key = Key::normalized;  ///< AK key
  double eta = 0.5;  ///< AK step η when not an axis
  double beta = 0.9;  ///< decay β when not an axis
  std::optional<double> alpha;       ///< nullopt: per-point tuned α (min_α ρ) when not an axis
  int direction = -1;                ///< 0-based direction, −1 = all (worst and mean)
};

/// Validates the combination (distinct axes, fixed values in range, α numeric where the
/// metric needs a fixed α, direction < n). InputError naming the flag otherwise.
void validate(const Options& o, int n);

/// --alpha text: a number > 0, or "tuned" (nullopt). InputError naming --alpha otherwise.
std::optional<double> parse_alpha(const std::string& s);
/// --direction text: "all" (−1) or a 1-based integer in [1, n] (returned 0-based).
int parse_direction(const std::string& s, int n);
/// The measured map's extra conditions: trials ≥ 2, 1 ≤ steps ≤ 10⁶, and no α axis (the
/// measured buffer does not depend on α). InputError naming the flag otherwise.
void validate_measure(const Options& o, long long trials, long long steps);

/// The spectrum with the moments the metrics need (Q only for ms_stable, normalized key).
struct Model {
  Spectrum spectrum;  ///< eigenvalues (and basis) of the key covariance
  KeyMoments moments;  ///< exact Gaussian-key moments λ̂, κ (and Q when computed)
  bool has_fourth = false;  ///< the fourth moments Q were computed
  /// Directions with equal λ_i, as index lists (exchangeable: used to lump S exactly).
  std::vector<std::vector<int>> groups;
};
/// The model of spectrum `s`; `with_fourth` also computes Q (needed by ms_stable).
Model make_model(const Spectrum& s, bool with_fourth);

/// One grid point: the coordinates and the metric's named columns; `value` is the column
/// the heatmap colours (first in `names`).
struct Point {
  double eta;  ///< AK step η
  double beta;  ///< decay β
  double alpha;  ///< learning rate α; NaN when tuned
  std::vector<double> cols;  ///< the metric's columns (names in Map::names)
};

/// A whole map: its options, column names and points.
struct Map {
  Options opts;  ///< the options it was computed with
  std::vector<std::string> names;  ///< column names of Point::cols (names[0] is plotted)
  std::vector<Point> points;       ///< x fastest, then y (row-major in y)
  double seconds = 0;              ///< wall time of the evaluation
};

/// Column names of a metric (given key, direction mode, α mode).
std::vector<std::string> column_names(const Options& o);

/// Evaluates every grid point (threads ≥ 1; the result does not depend on it).
Map compute(const Options& o, const Model& model, int threads = 1);

/// The metric's columns at one (η, β, α) — the single-point reference of compute().
std::vector<double> evaluate(const Options& o, const Model& model, double eta, double beta,
                             std::optional<double> alpha);

// ---- E1 mean-square -------------------------------------------------------------------
/// Second-moment map of one row pushed through βI − ηkkᵀ: s' = S s with s_i = E[(v u_i)²].
/// Raw Gaussian key: S = diag((β−ηλ_i)² + η²λ_i²) + η²λλᵀ.
Mat ms_matrix_raw(const Vec& lambda, double beta, double eta);
/// Normalized Gaussian key: S = β²I − 2βη diag(λ̂) + η²Q, Q_ij = E[x̂_i²x̂_j²].
Mat ms_matrix_normalized(const Vec& lambda_hat, const Mat& Q, double beta, double eta);
/// ρ(S) for the normalized key by lumping directions with equal λ_i (fast path of
/// ms_radius(ms_matrix_normalized(...)); tests hold them together). For η > 0 S is entrywise
/// positive, its Perron vector is unique and so constant on each group of exchangeable
/// directions: ρ(S) is the largest eigenvalue of the group-lumped matrix, symmetrized as
/// L_GH = √(|G||H|) S_gh (G ≠ H), L_GG = S_gg + (|G|−1) S_gg'.
double ms_radius_normalized(const Vec& lambda_hat, const Mat& Q, const std::vector<std::vector<int>>& groups,
                            double beta, double eta);
/// Index groups of equal values (in order of first appearance).
std::vector<std::vector<int>> equal_groups(const Vec& lambda);
/// Spectral radius of S (S is symmetric and entrywise ≥ 0 in both cases).
double ms_radius(const Mat& S);
/// Raw-key radius by the secular equation of diagonal + rank one (fast path of
/// ms_radius(ms_matrix_raw(...)); tests hold them together).
double ms_radius_raw(const Vec& lambda, double beta, double eta);

}  // namespace akm::phase
