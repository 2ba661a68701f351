// The CUDA backend's trial bodies (src/sim/ops/<op>/trial.hpp), run on the host by the
// emulated backend (akm/sim/cuda_emulated.hpp) over the kernels' grids and seeds, held to each
// op's plain reference; see docs/cuda.md for what this does and does not verify.
//
// Rounding bounds: the emulated float ops run the float CPU engine's error model
// (tests/test_engine.cpp): a length-n sum off by ≤ c·n·ε₃₂ relative and the float normals (the
// double ones' uniforms rounded to float, then float Box–Muller) off by ζ, per step, so
// T·(c·n·ε₃₂ + ζ) after T steps, twice that for energies (squares). ζ is measured on the
// streams the trials use (normal_error below; the model's worst case is 4e-4). The block sums of W2
// are a reordered length-n sum, inside c·n·ε. W4 is a GEMM with inner length N: ≤ c·N·ε₃₂.
// `phase --measure` is double with the normals bit for bit akm::Stream's, inside
// tests/test_phase_engine.cpp's bound. The fit moments use tests/test_simulate.cpp's model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/random/stream_hd.hpp"
#include "akm/sim/cuda_emulated.hpp"
#include "akm/sim/phase_measure.hpp"
#include "akm/sim/workloads.hpp"
#include "rounding_bounds.hpp"

using namespace akm;
using namespace akm_test;
namespace emu = akm::cuda::emulated;

namespace {
// A measured error for the test's XML record, three significant digits.
std::string sci(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

// The largest |float normal − double normal| among the first `count` normals of the streams
// (seed, t, purpose), t < trials: the float normals' error the trials actually met. It stands
// for the model's per-step normal term in place of its worst case 4e-4 (u → 1), which would
// leave room for a wrong key sequence to pass.
double normal_error(std::uint64_t seed, long long trials, std::uint32_t purpose, long long count) {
  double worst = 0.0;
  for (long long t = 0; t < trials; ++t) {
    hd::Stream<float> f(seed, std::uint64_t(t), purpose);
    hd::Stream<double> d(seed, std::uint64_t(t), purpose);
    for (long long i = 0; i < count; ++i) worst = std::max(worst, std::abs(double(f.normal()) - d.normal()));
  }
  return worst;
}
}  // namespace

TEST(CudaEmulated, W1MatchesReference) {
  wl::W1 w;
  w.trials = 131;  // one full block of 128 and a tail of 3
  w.steps = 100;
  for (int n : {32, 64}) {
    w.n = n;
    const auto ref = wl::w1_reference(w, 42, 2);
    const auto e = emu::w1(w, 42, 2);
    ASSERT_EQ(e.values.size(), ref.values.size());
    const double err = max_rel_diff(ref, e, 0, w.n);
    RecordProperty("w1_rel_n" + std::to_string(n), sci(err));
    const double zeta = normal_error(42, w.trials, hd::kKeys, (long long)w.steps * n);
    EXPECT_LE(err, w.steps * (kC * w.n * kEps32 + zeta)) << "n = " << n;
    EXPECT_EQ(e.values, emu::w1(w, 42, 1).values);  // host threads change nothing
  }
  w.n = 48;
  EXPECT_THROW(emu::w1(w, 42, 1), InputError);
}

TEST(CudaEmulated, W2MatchesReference) {
  wl::W2 w;
  w.n = 64;  // two warps: the block sum's warp order is exercised
  w.trials = 3;
  w.steps = 300;
  w.alpha = 0.2;
  const auto ref = wl::w2_reference(w, 9, 2);
  const auto e = emu::w2(w, 9, 2);
  ASSERT_EQ(e.values.size(), ref.values.size());
  const double err = max_rel_diff(ref, e, 0, w.n_obs());
  RecordProperty("w2_rel", sci(err));
  const double zeta = std::max({normal_error(9, w.trials, hd::kKeys, (long long)w.steps * w.n),
                                normal_error(9, w.trials, hd::kNoise, (long long)w.steps * w.m),
                                normal_error(9, w.trials, hd::kInit, (long long)w.m * w.n)});
  EXPECT_LE(err, 2 * w.steps * (kC * w.n * kEps32 + zeta));
  EXPECT_EQ(e.values, emu::w2(w, 9, 1).values);
  wl::W2 bad = w;
  bad.m = 5;
  EXPECT_THROW(emu::w2(bad, 9, 1), InputError);
  for (int n : {0, 48, 2048}) {
    bad = w;
    bad.n = n;
    EXPECT_THROW(emu::w2(bad, 9, 1), InputError) << "n = " << n;
  }
}

TEST(CudaEmulated, W3MatchesReference) {
  wl::W3 w;
  w.n_eta = w.n_beta = 3;
  w.trials = 5;
  w.steps = 150;
  const auto ref = wl::w3_reference(w, 5, 2);
  const auto e = emu::w3(w, 5, 2);
  ASSERT_EQ(e.values.size(), ref.values.size());
  const double zeta = normal_error(5, ref.trials, hd::kKeys, (long long)w.steps * w.n);
  double worst = 0.0;
  for (long long r = 0; r < ref.trials; ++r) {
    worst = std::max(worst, std::abs(e.at(r, 0) - ref.at(r, 0)));
    EXPECT_NEAR(e.at(r, 0), ref.at(r, 0), 2 * (kC * w.n * kEps32 + zeta)) << "row " << r;
  }
  RecordProperty("w3_abs", sci(worst));
  w.n = 16;
  EXPECT_THROW(emu::w3(w, 5, 1), InputError);
}

TEST(CudaEmulated, W4MatchesReferenceBothOrders) {
  const auto [w, M0, D, X] = w4_case(48, 80, 256, 3);
  const auto ref = wl::w4_reference(w, M0, D, X);
  const auto e = emu::w4(w, M0, D, X);
  const double scale = ref.gram.norm();
  RecordProperty("w4_rel", sci(std::max((e.gram - ref.gram).norm(), (e.through_n - ref.through_n).norm()) / scale));
  EXPECT_LE((e.gram - ref.gram).norm() / scale, kC * w.batch * kEps32);
  EXPECT_LE((e.through_n - ref.through_n).norm() / scale, kC * w.batch * kEps32);
}

TEST(CudaEmulated, FitMatchesReferenceInEveryBatching) {
  wl::Fit w;
  for (int i = 0; i < 8; ++i) w.lambda.push_back(i < 2 ? 2.0 : 0.5);
  w.alpha = 0.05;
  w.trials = 24;
  w.groups = 6;
  w.steps = 120;
  for (bool normalized : {true, false}) {
    w.normalized = normalized;
    w.eta = normalized ? 0.5 : 0.1;
    const auto ref = wl::fit_reference(w, 7, 2);
    const auto e = emu::fit(w, 7, 2);
    ASSERT_EQ(e.values.size(), ref.values.size());
    const double zeta = std::max(normal_error(7, w.trials, hd::kKeys, (long long)w.steps * w.n()),
                                 normal_error(7, w.trials, hd::kNoise, w.steps));
    const double ratio = fit_worst_ratio(w, ref, e, kC * w.n() * kEps32 + zeta);
    RecordProperty(normalized ? "fit_normalized_ratio" : "fit_raw_ratio", sci(ratio));
    EXPECT_LE(ratio, 1.0) << normalized;
    // Batches of 5 trials (the last one 4): the trials' numbers and the group sums' order
    // do not depend on the batching.
    const std::size_t per_trial = std::size_t(w.n()) * (5 * sizeof(float) + 16 * sizeof(double));
    EXPECT_EQ(emu::fit(w, 7, 1, 5 * per_trial).values, e.values);
  }
}

TEST(CudaEmulated, PhaseTrialsMatchReferenceTrialByTrial) {
  const int n = 8;
  Vec sl(n);
  for (int i = 0; i < n; ++i) sl[i] = std::sqrt(1.0 / (i + 1.0));
  const std::vector<double> sl_v(sl.data(), sl.data() + n);
  struct Case {
    Key key;
    double ar;
  };
  for (const Case c : {Case{Key::normalized, 0.0}, Case{Key::normalized, 0.6}, Case{Key::raw, 0.5}}) {
    phase::MeasureOptions o;
    o.key = c.key;
    o.ar_rho = c.ar;
    o.trials = 20;
    o.steps = 60;
    o.threads = 2;
    const double eta = c.key == Key::raw ? 0.02 : 0.5;
    const std::vector<phase::PointPlan> plan{{eta, 0.9, 0, 10, 99}, {eta, 0.5, 3, 4, 1234}};
    const auto e = emu::phase_trials(sl_v, o, plan);
    ASSERT_EQ(e.size(), plan.size() * std::size_t(o.trials));
    for (std::size_t p = 0; p < plan.size(); ++p) {
      // tests/test_phase_engine.cpp's per-step error δ (factors of norm ≤ 1: errors never grow).
      const double kn = c.key == Key::normalized ? 1.0 : (1.0 + plan[p].beta) / plan[p].eta;
      const double dl = (kC * n + 160.0 / (1.0 - c.ar)) * kEps64 * (1.0 + plan[p].beta + plan[p].eta * kn);
      for (long long r = 0; r < o.trials; ++r) {
        Stream keys(plan[p].seed, std::uint64_t(r), Purpose::keys);
        const auto ref = phase::measure_trial(sl, o, plan[p].beta, plan[p].eta, plan[p].direction, plan[p].lag, keys);
        const auto& t = e[p * std::size_t(o.trials) + std::size_t(r)];
        EXPECT_NEAR(t.projection, ref.projection, plan[p].lag * dl * std::sqrt(double(n))) << p << "/" << r;
        const double vT = std::exp(ref.log_growth / 2);
        EXPECT_NEAR(t.log_growth, ref.log_growth, 2.0 * o.steps * dl / vT) << p << "/" << r;
        EXPECT_EQ(t.diverged, ref.diverged) << p << "/" << r;
      }
    }
  }
}
