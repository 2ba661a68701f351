// T19 eta — the parts shared by t19_eta*.cpp: the design constants (tab:eta-sweep), one
// study (an optimizer on a task: tuning, pilot design, evaluation), the sweeps and the design
// quantities (study.cpp), and what the evaluation seeds show (evaluate()).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "akm/check/equivalence.hpp"
#include "akm/check/paired.hpp"
#include "akm/problems/protocol.hpp"
#include "training_common.hpp"

namespace akm::exp::t19 {


// [tab:eta-sweep] the paper's basin, its spread and the cost of leaving it
inline const std::vector<double> kEtas{0.01, 0.1, 0.3, 0.5, 0.7, 0.99};
constexpr std::size_t kBasin = 1;  // kEtas[1..5] = 0.10 … 0.99, the paper's [0.10, 0.99]
constexpr double kPaperSpread = 0.015;                                      // nats
constexpr double kPaperBasinMean = (3.029 + 3.034 + 3.035 + 3.035 + 3.020) / 5;  // 3.0306 nats
constexpr double kPaperOutside = 3.063;                                     // η = 0.01
constexpr double kMarginRatio = kPaperSpread / (kPaperOutside - kPaperBasinMean);  // ρ ≈ 0.463
constexpr double kTuningEta = 0.4;    // the recipe's η [app:hp-sweep]
constexpr double kAlphaEquiv = 0.05;  // TOST level: a (1 − 2α_e) = 90% interval
constexpr double kDesignTarget = 0.9;  // assurance and trend power (the ledger's power floor)
// The design's cost ceiling. Rule, and why 60 (it was 40): the trend's sign test runs at the
// run's rate over 6 checks (1.7e-7 at the default), where a per-seed chance of 0.9 under the
// monotone alternative needs about 55 seeds for power 0.9.
constexpr int kMaxSeeds = 60;
// The pilot's seeds (full mode): the tuning seeds and more from the same disjoint "tune/"
// stream. Rule, and why 12: a pilot on the 5 tuning seeds could not estimate how often a
// seed blows up (AK-AdamW on the teacher task: 2 of 5 pilot seeds, 3 of 27 evaluation seeds),
// and the robust design reads that share directly.
constexpr int kPilotSeeds = 12;
constexpr int kQuickSeeds = 6;
// The evaluation seeds' stream. Rule, and why: the median rule, the 12-seed pilot and the
// 60-seed ceiling were chosen after the earlier design's evaluation seeds (the study's own
// "eval/" stream) had been seen, so a verdict on those seeds would confirm a rule on the data
// that suggested it. The evaluation therefore draws fresh seeds from this stream, named in the
// ledger (tab:eta-sweep's note) before the run that decides; a later change of rule needs the
// next stream.
constexpr const char* kEvalStream = "confirmatory-1";
constexpr double kDivergedDiff = 1e6;  // a basin pair with a diverged run: in margins, refutes

double t_quantile(int dof, double upper_tail);
std::vector<double> basin_etas();
// Mean and sd that stay meaningful with a diverged run among the values: sd = +∞ then.
std::pair<double, double> finite_mean_sd(const std::vector<double>& v);

// One optimizer on one task: its tuning, pilot design and evaluation.
struct Study {
  const training::TaskSpec* task = nullptr;
  std::string opt;
  SeedPlan plan;
  Tuning tuning;
  double lr = 0;
  std::vector<std::vector<double>> pilot;  // [η][tuning seed]
  double degradation = 0;                  // D: median over the pilot seeds of L(0.01) − basin mean
  double degradation_tuning = 0;           // the same over the tuning seeds alone (reported: the pilot's sway)
  bool margin_derived = false;
  double margin = 0;                  // nats
  std::vector<SideProbabilities> pair_outside;  // per basin pair: P(a seed's difference beyond ±margin | flat)
  double rise_sd = 0;                 // pilot robust sd of a seed's basin rise, in margins
  double rise_outliers = 0;           // pilot share of rises outside the normal core (divergences)
  double p_flat = 0.5, p_monotone = 0.5;  // P(a seed's rise < 1 margin | flat), P(> 1 | monotone)
  std::vector<std::vector<double>> L;     // [η][evaluation seed]
};

// L[e][s] for every η and seed, each (η, seed) training in parallel into its own slot.
std::vector<std::vector<double>> sweep(const Study& st, int steps, const std::vector<std::uint64_t>& seeds, int threads);
double basin_mean(const std::vector<std::vector<double>>& L, std::size_t s);
// The pilot's design quantities of a study (claim.cpp's header, design 2–3); the pilot's
// first tuning_seeds seeds are the tuning seeds.
void design(Study& st, double tuned_loss, int tuning_seeds);
// Assurance of an optimizer's median equivalence check with n seeds, from the pilot's
// per-pair chances of a seed beyond the margin.
double assurance_at(const std::vector<Study*>& studies, int n);
// Power of the trend checks against the monotone alternative: the weakest task's.
double power_at(const std::vector<Study*>& studies, int n, double level);

/// An optimizer's design: its evaluation seed count and what the pilot promises at it.
struct OptDesign {
  int seeds = 0;
  double assurance = 0, power = 0;
  double alpha_refute = 0;      ///< two-sided level of each median's refuting interval (Bonferroni)
  double q_equiv = 0, q_refute = 0;  ///< Student-t quantiles of the reported mean-based limits
};

/// What a study's n evaluation seeds show.
struct Outcome {
  std::vector<double> exc_m, exc_se;  ///< per η: paired excess over the basin mean (nats) and its se
  struct Pair {
    std::size_t a, b;
    double dm, dse;  ///< paired mean difference L(η_a) − L(η_b) and its se (nats; diverged: kDivergedDiff margins)
    MedianInterval med;  ///< the 90% order-statistics interval of the median difference, in margins
  };
  std::vector<Pair> pairs;
  std::vector<std::vector<double>> pair_d;  ///< [pair][seed] L(η_a) − L(η_b) in margins (±∞: a divergence)
  double worst_upper = 0;       ///< largest |end| of a pair's 90% median interval, in margins (the decision)
  double worst_upper_mean = 0;  ///< largest 90% upper limit of a pair's mean, in margins (reported)
  double basin_loss_mean = 0, basin_loss_median = 0;
  std::vector<double> rise;  ///< each seed's rise across the basin, in margins
  int below = 0, above = 0;  ///< seeds rising by less / more than a margin
  PairedComparison med;      ///< the median rise as the paired difference r⁺ − r⁻
};
Outcome evaluate(const Study& st, const OptDesign& dz, std::uint64_t seed);

/// The largest chance over a study's basin pairs that a seed falls beyond the margin.
double max_outside(const std::vector<SideProbabilities>& p);
/// app:hp-sweep's accounting on the paper's numbers: checks, table and finding (sweep_accounting.cpp).
void sweep_accounting(ExperimentContext& ctx);
/// One figure per optimizer: the final held-out loss against η on every task (figures.cpp).
void figures(ExperimentContext& ctx, const std::vector<std::string>& opts,
             const std::vector<training::TaskSpec>& tasks);

}  // namespace akm::exp::t19
