// T18 diagnostics — the parts beside claim.cpp: one probed training run (probe.cpp), the
// record pass (tables.cpp) and the stepping rebound [eq:rebound] (rebound.cpp).
#pragma once
#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "akm/problems/protocol.hpp"
#include "akm/sim/trial_stats.hpp"
#include "training_common.hpp"

namespace akm::exp {

namespace t18 {

// The design's alternative: a favourable gap on this fraction of seeds (claim.cpp).
constexpr double kFavourableFraction = 0.95;
constexpr double kDesignPower = 0.9;  // the ledger's power floor
// The paper's directions for AK-AdamW against AdamW [fig:diag-grad-func]: +1 higher, −1 lower.
// The fourth diagnostic, r = ‖M‖/‖g‖, carries no claimed direction: it is reported beside e_t
// because e² = (1 − r·cos)² + r²·sin² mixes the buffer's scale r with its alignment cos.
constexpr int kDiagnostics = 4, kDirected = 3;
constexpr int kDirection[kDirected] = {+1, -1, +1};
inline const char* const kDiagnostic[kDiagnostics] = {"cos(M,g)", "e_t", "cos(Mx̂,δ)", "r=‖M‖/‖g‖"};
// Arms. AdamW twice: at PyTorch's defaults (β1 = 0.9, β2 = 0.999; training_common.hpp) and at
// the paper's tab:hps setting (β1 = 0.95, β2 = 0.99), each a reference for AK-AdamW.
inline const std::vector<std::string> kArms{"sgd-m", "ak-sgd", "adamw", "ak-adamw", "adamw-hps"};
/// The AK − base pairs, as (base arm, AK arm) indices into kArms; pairs 1 and 2 are AK-AdamW's.
inline const std::vector<std::pair<int, int>> kArmPairs{{0, 1}, {2, 3}, {4, 3}};
constexpr int kAdamReferences = 2;
// [sec:diag-feat] on the proxy: the teacher task's hidden-layer input covariance at the end of
// training, AK-AdamW against each AdamW reference, one sign test per statistic and direction
// (condition number lower, effective rank higher, top-1 fraction lower).
constexpr int kFeatureStats = 3;
inline const char* const kFeatureStat[kFeatureStats] = {"condition number", "effective rank", "top-1 fraction"};
constexpr int kFeatureDirection[kFeatureStats] = {-1, +1, -1};
constexpr int kFeatureChecks = kFeatureStats * kAdamReferences;
// tasks × diagnostics × AdamW references, and the feature checks
constexpr int kDirectionalChecks = 3 * kDirected * kAdamReferences + kFeatureChecks;
/// The training configuration of an arm (adamw-hps: AdamW with tab:hps's β1, β2).
TrainConfig arm_config(const std::string& arm, double lr, int steps, std::uint64_t seed);

/// Condition number, effective rank exp(H(λ/Σλ)) and top-1 fraction of a spectrum.
struct Summaries {
  double cond, erank, top1;
};
Summaries summarize(const Vec& lam_in);

/// One evaluation seed of one arm: the time averages (cos(M,g), e_t, cos(Mx̂,δ)), the points
/// every 10 steps, the worst relative miss of e² = r² − 2r·cos + 1, and on the teacher task
/// the hidden layer's input covariance at the end.
struct SeedRun {
  std::array<double, kDiagnostics> v{0, 0, 0, 0};
  std::vector<std::pair<int, std::array<double, kDiagnostics>>> points;  // (step/10, (cos, e, rcos, r))
  double worst_identity = 0;
  std::optional<Summaries> hidden;
};
SeedRun probe_run(const training::TaskSpec& t, const TrainConfig& cfg, bool hidden);

/// One arm on one task: its tuning and its evaluation seeds.
struct ArmRun {
  Tuning tu;
  double lr;
  std::vector<SeedRun> runs;
};

/// One AK − base paired gap on one diagnostic, over the evaluation seeds.
struct Gap {
  int pair, diagnostic;  // pair p: kArmPairs[p] = (base, AK)
  double mean, sd;
  int ak_higher, ak_lower;
  double p;  // two-sided sign test
};

struct TaskRun {
  const training::TaskSpec* task;
  std::vector<ArmRun> arms;  // in kArms order
  std::vector<Gap> gaps;     // pair-major, then diagnostic
};

/// The record pass: per-seed, trajectory, gap, covariance and tuning tables and the gap
/// findings (`covariance`: the task input's measured summaries).
void write_tables(ExperimentContext& ctx, const std::vector<TaskRun>& runs, int seeds, int steps, const Summaries& covariance,
                  nlohmann::json& findings);
/// The per-task cos(M_t, g_t) trajectories and the gap figure.
void figures(ExperimentContext& ctx);

}  // namespace t18

/// Comparisons the rebound part adds to the run's family (Bonferroni): per arm, one
/// Monte-Carlo identity and one sign check, for T18's four arms.
constexpr int kReboundComparisons = 2 * 4;

/// The directional design shared with T18's sign checks: the per-comparison level the run's
/// family gives, the power floor and the favourable fraction the seed count is sized for.
struct ReboundDesign {
  double level;
  double power;
  double favourable_fraction;
};

/// One arm of the rebound part, summed over its seeds (rebound.cpp): the Monte-Carlo
/// identity's statistics, the sign counts and the means its findings report.
struct ReboundArm {
  std::string arm;
  double lr;
  TrialStats dr{1};  // per-seed mean of D_t + R_t
  int favourable = 0, unfavourable = 0, diverged = 0;
  double mean_D = 0, mean_R = 0, mean_own = 0, share = 0;
};

struct Rebound {
  int seeds;
  double power;
  int negative = 0;  // recorded steps with R_t < 0
  std::vector<ReboundArm> arms;
  CsvTable per;      // per arm and seed
};

/// Trains every arm on the quadratic task at its tuned rate (`rates`: arm → T18's tuned rate on
/// this task) and records the rebound decomposition at every step. The task must be T18's
/// linear task (depth 1, squared error).
Rebound measure_rebound(ExperimentContext& ctx, const training::TaskSpec& task,
                        const std::map<std::string, double>& rates, int steps, const ReboundDesign& design);
/// The rebound checks: per arm the identity and the direction, then R_t ≥ 0.
void check_rebound(ExperimentContext& ctx, const Rebound& rb, const ReboundDesign& design);
/// The findings, data_rebound.csv and params["rebound"].
void record_rebound(ExperimentContext& ctx, const training::TaskSpec& task, const std::map<std::string, double>& rates,
                    int steps, const ReboundDesign& design, const Rebound& rb);

}  // namespace akm::exp
