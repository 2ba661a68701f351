// phase — the driver of `akm phase`, `akm.phase()` and `akm explore`'s map and point
// measurement: one request record, its one validation and one run, whose data each caller
// only formats (the program: phase.csv, the heatmaps and summary.json; the module: NumPy
// arrays; the server: JSON).
//
// The closed-form map is phase::compute over the exact Gaussian-key moments
// (akm/theory/phase.hpp; the fourth moments Q only where the E1 second-moment map of
// ms_stable needs them for the normalized key). --measure adds the Monte-Carlo transport row
// at every grid point (akm/sim/measured_map.hpp): the measured contraction |m_k|^{1/k}
// beside |β̃_d| [lem:transport], with β̃_i = β − ηλ̂_i for the normalized key and β − ηλ_i
// for the raw one [eq:transport-lemma]. Under mpirun the points are split across ranks and
// gathered on every rank; Plan::writes says whether this process writes.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "akm/sim/measured_map.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/phase.hpp"

namespace akm::phase {

/// A map request as its caller receives it: the texts that need the spectrum or a parser
/// (axes, metric, key, α, direction, backend, keys) as typed, the plain numbers as read by
/// the caller's own binding (the CLI flags of the same names).
struct Request {
  std::string x;  ///< --x: NAME:LO:HI:N[:log], NAME in eta | beta | alpha
  std::string y;  ///< --y: the second axis
  std::string metric;  ///< --metric: stable | ms_stable | rho_ratio | underdamped | speedup | counterexample
  std::string spectrum;  ///< --spectrum: the covariance spec
  std::string key = "normalized";  ///< --key: raw | normalized
  std::string alpha = "tuned";  ///< --alpha: α > 0, or tuned (per point min_α ρ [lem:loss-free-det])
  std::string direction = "all";  ///< --direction: a 1-based index, or all (worst and mean)
  double eta = Options{}.eta;  ///< --eta: η when eta is not an axis
  double beta = Options{}.beta;  ///< --beta: β when beta is not an axis
  /// --seed: the spectrum's basis and the --measure streams (the program and the module pass
  /// akm's one default seed, RunOptions::seed).
  std::uint64_t seed = 0;
  int threads = 0;  ///< --threads: worker threads (0: all cores); the numbers do not depend on it
  bool measure = false;  ///< --measure: the Monte-Carlo transport row at every grid point
  long long trials = ops::PhaseMeasure{}.trials;  ///< --trials: trials per point (--measure)
  long long steps = ops::PhaseMeasure{}.steps;  ///< --steps: steps per trial (--measure)
  std::string backend = "cpu";  ///< --backend: cpu | cuda, who runs the --measure trials
  std::string keys = "shared";  ///< --keys: shared (common random numbers) | per-point
  /// The most grid points one request may ask for, refused right after the axes, before the
  /// spectrum is read (akm explore's Limits::max_points); 0: only parse_axis's N ≤ 4096.
  long long max_points = 0;
  /// Reads the spectrum text with the seed; empty: parse_spectrum (akm explore passes
  /// request_spectrum, which confines `data:` spectra to its --data-dir).
  std::function<Spectrum(const std::string&, std::uint64_t)> read_spectrum;
};

/// A validated request: every value parsed and checked, nothing computed.
struct Plan {
  Options opts;  ///< the map's options (axes, metric, key, η, β, α, direction)
  Spectrum spectrum;  ///< the parsed spectrum
  std::uint64_t seed = 0;  ///< the request's seed
  int threads = 1;  ///< worker threads, resolved (≥ 1)
  bool measure = false;  ///< run the Monte-Carlo measurement too
  /// The measurement's law and run: key, trials, steps, seed, backend, keys, threads (the
  /// progress callback is run()'s argument).
  MeasureOptions measure_opts;
  bool writes = true;  ///< this process writes the output (rank 0 under mpirun)
  int ranks = 1;  ///< processes of the run (mpirun's size, else 1)
};

/// The one validation of a request, before any work, in the order the refusals have always
/// come (each an InputError naming the flag, the value and the valid range): the axes, the
/// grid size (Request::max_points), metric, key, α, the spectrum, the direction, their
/// combination (phase::validate), threads ≥ 0, the --measure conditions
/// (phase::validate_measure), backend (cpu or cuda), keys, and cuda only with --measure on a
/// usable device.
Plan validate(const Request& r);

/// Whether the plan's map needs the fourth moments Q: ms_stable with the normalized key, the
/// E1 second-moment map S = β²I − 2βη diag(λ̂) + η²Q (the raw key's S is closed form).
bool needs_fourth(const Options& o);

/// What a run computed: the closed-form map and, with --measure, the measured points (x
/// fastest, then y, as the map's points).
struct Result {
  Map map;  ///< the closed-form map
  std::vector<MeasurePoint> measured;  ///< per grid point; empty without --measure
  double measure_seconds = 0;  ///< wall time of the measurement
};

/// Runs a validated plan on `model` (make_model(plan.spectrum, needs_fourth(plan.opts))):
/// the map, then with plan.measure the measurement, reporting (points done, total) to
/// `progress`. Every MPI rank returns the whole result.
Result run(const Plan& plan, const Model& model, const std::function<void(long long, long long)>& progress = {});
/// The same, building the model first (the moments by quadrature: the slow part of a small map).
Result run(const Plan& plan, const std::function<void(long long, long long)>& progress = {});

/// Measures the transport row at every (η_p, β_p) with the options' key, forgetting along u_i
/// by λ̂_i (normalized key) or λ_i (raw key) [eq:transport-lemma]; `direction` −1 takes per
/// point the direction with the largest |β̃_i|. The one measurement of `akm phase --measure`
/// and of `akm explore`'s point.
std::vector<MeasurePoint> measure(const std::vector<std::pair<double, double>>& eta_beta, const Model& model,
                                  int direction, const MeasureOptions& o);

}  // namespace akm::phase
