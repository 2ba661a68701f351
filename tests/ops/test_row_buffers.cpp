// The row_buffers op (T1, T2, T6, T8, T13 and T16's Monte Carlo) held to its plain reference: the
// fast CPU engine in double against the 1×n Eigen buffers of the reference, within the rounding
// model of tests/test_engine.cpp, on Gaussian keys and on a key law; the probes as the weighted
// sums of the recorded errors; T13's keys with a mean, mean square window and stream ids; T17's
// per-row noise scales and AdamW's second moment (akm::AdamW's on the replayed stream); rows
// independent of the host thread count and of which call
// computes them; the device backends refused by name.
#include <gtest/gtest.h>

#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/rules/optimizers.hpp"
#include "akm/sim/engine/engine.hpp"
#include "akm/sim/ops/row_buffers.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;

namespace {

// A spiked law; six rows (each rule twice) on two noise slots, random value rows, starts and
// centres; a drifting value scale a_t = t − 20.5; records, a window of the last 16 steps, a
// probe at three steps and one over the window.
ops::RowBuffers row_buffers_op(int n) {
  ops::RowBuffers o;
  o.sqrt_lambda = Vec(n);
  for (int i = 0; i < n; ++i) o.sqrt_lambda[i] = std::sqrt(i < 3 ? 10.0 / (i + 1) : 0.5);
  Stream s(29, 0, Purpose::init);
  auto random = [&](double scale) {
    Vec v(n);
    for (int i = 0; i < n; ++i) v[i] = scale * s.normal();
    return v;
  };
  const BufferKind rules[] = {BufferKind::ak_raw, BufferKind::ak_normalized, BufferKind::ema};
  for (int b = 0; b < 6; ++b)
    o.rows.push_back({rules[b % 3], b % 3 == 0 ? 0.04 : 0.5, random(1.0), random(3.0), random(1.0), b / 3});
  o.noise_slots = 2;
  o.a0 = -20.5;
  o.a1 = 1.0;
  o.steps = 40;
  o.record = {1, 2, 17, 40};
  o.window_start = 25;
  Mat W(6, n);
  for (Eigen::Index k = 0; k < W.size(); ++k) W.data()[k] = s.normal();
  o.probes = {{W, {1, 9, 40}, false}, {-W, {}, true}};
  return o;
}

// The op above with AdamW's second moment recorded at three steps (β2 = 0.9), a row whose noise
// is scaled by 2.5, a noise-free row, and a seventh row whose values are noise alone (d = 0,
// scale 0.7); no probes (they are sized for six rows).
ops::RowBuffers second_moment_op(int n) {
  ops::RowBuffers o = row_buffers_op(n);
  o.probes.clear();
  o.rows[1].noise_scale = 2.5;
  o.rows[4].noise_scale = 0.0;
  ops::BufferRow quiet = o.rows[2];
  quiet.d.setZero();
  quiet.noise_scale = 0.7;
  o.rows.push_back(quiet);
  o.second_moment_record = {1, 7, 40};
  o.beta2 = 0.9;
  return o;
}

std::vector<double> rows(const ops::RowBuffers& o, Backend b, long long first, long long count, int threads) {
  std::vector<double> r(std::size_t(count) * o.n_obs());
  ops::row_buffers_rows(o, 17, b, first, count, threads, r.data());
  return r;
}

}  // namespace

// A step forms the key's norm (an n-term dot), each row's δ (one dot) and its AK update (one
// dot and a row update): ≤ 3·kC·n·ε relative a step; the rows contract, so after T steps every
// recorded error is within T·3·kC·n·ε of the reference relative to the trial's largest
// (the probes are checked apart, below).
TEST(RowBuffers, CpuMatchesReference) {
  for (int n : {7, 32}) {
    const auto o = row_buffers_op(n);
    const long long first = 3, count = 5;
    const auto ref = rows(o, Backend::reference, first, count, 1);
    const auto cpu = rows(o, Backend::cpu, first, count, 2);
    const std::size_t errors = o.probe_obs(0, 0);
    const double w = max_rel_diff_rows(ref, cpu, o.n_obs(), 0, errors);
    RecordProperty("worst_rel_diff_n" + std::to_string(n), sci(w));
    EXPECT_LE(w, o.steps * 3 * kC * n * kEps64) << "n = " << n;
    EXPECT_GT(w, 0.0) << "n = " << n;  // two different routes: equal bits would mean one ran twice
    EXPECT_EQ(cpu, rows(o, Backend::cpu, first, count, 1)) << "n = " << n;  // threads change nothing
    const auto one = rows(o, Backend::cpu, first + 2, 1, 1);
    EXPECT_TRUE(std::equal(one.begin(), one.end(), cpu.begin() + 2 * o.n_obs())) << "n = " << n;
  }
}

// β = 1 with AK rows only is the pure delta rule [eq:delta-rule]: accepted, and the cpu path
// stays within the reference's rounding bound (the η's keep the rows mean-square stable).
TEST(RowBuffers, PureDeltaRuleAtBetaOne) {
  auto o = row_buffers_op(7);
  o.rows.erase(std::remove_if(o.rows.begin(), o.rows.end(), [](const ops::BufferRow& r) { return r.rule == BufferKind::ema; }),
               o.rows.end());
  for (auto& p : o.probes) p.W = p.W.topRows(o.B()).eval();
  o.beta = 1.0;
  ASSERT_NO_THROW(o.validate());
  const auto ref = rows(o, Backend::reference, 0, 4, 1), cpu = rows(o, Backend::cpu, 0, 4, 2);
  EXPECT_LE(max_rel_diff_rows(ref, cpu, o.n_obs(), 0, o.probe_obs(0, 0)), o.steps * 3 * kC * 7 * kEps64);
}

// On both paths a step probe is Σ W e of the error recorded at that step and the window probe
// Σ (−W) of the window mean, each within kC·(B·n)·ε of Σ|W e| (a B·n-term sum).
TEST(RowBuffers, ProbesAreWeightedSumsOfTheErrors) {
  const auto o = row_buffers_op(16);
  const std::size_t per = o.per_record();
  for (Backend b : {Backend::reference, Backend::cpu}) {
    const auto r = rows(o, b, 0, 3, 1);
    for (std::size_t t = 0; t < 3; ++t) {
      const double* row = r.data() + t * o.n_obs();
      auto check = [&](double probe, const double* err, double sign, const char* what) {
        double sum = 0, mag = 0;
        for (std::size_t k = 0; k < per; ++k) {
          const double w = sign * o.probes[0].W(Eigen::Index(k) / o.n(), Eigen::Index(k) % o.n());
          sum += w * err[k], mag += std::abs(w * err[k]);
        }
        EXPECT_NEAR(probe, sum, kC * per * kEps64 * mag) << to_string(b) << " " << what;
      };
      // probe 0 reads steps 1 and 40, which are records 0 and 3 (step 9 is not recorded)
      check(row[o.probe_obs(0, 0)], row + o.obs(0, 0, 0), 1.0, "step 1");
      check(row[o.probe_obs(0, 2)], row + o.obs(3, 0, 0), 1.0, "step 40");
      check(row[o.probe_obs(1, 0)], row + o.obs(o.record.size(), 0, 0), -1.0, "window");
    }
  }
}

// The window slot is the mean of the errors over [window_start, steps]: at window_start =
// steps it is the last step's record, on both paths.
TEST(RowBuffers, WindowOfOneStepIsTheLastRecord) {
  auto o = row_buffers_op(8);
  o.window_start = o.steps;
  for (Backend b : {Backend::reference, Backend::cpu}) {
    const auto r = rows(o, b, 0, 2, 1);
    for (std::size_t t = 0; t < 2; ++t)
      for (std::size_t k = 0; k < o.per_record(); ++k)
        EXPECT_DOUBLE_EQ(r[t * o.n_obs() + o.obs(o.record.size(), 0, 0) + k], r[t * o.n_obs() + o.obs(3, 0, 0) + k])
            << to_string(b);
  }
}

// Rows on different noise slots see different ξ: moving a row to the other slot changes its
// errors (a path that ignored the slot would not notice), and no other row's.
TEST(RowBuffers, NoiseSlotsAreTheRowsOwn) {
  auto o = row_buffers_op(8);
  const auto base = rows(o, Backend::cpu, 0, 1, 1);
  o.rows[1].noise_slot = 1;
  const auto moved = rows(o, Backend::cpu, 0, 1, 1);
  for (int b = 0; b < o.B(); ++b) {
    const bool same = std::equal(base.begin() + o.obs(3, b, 0), base.begin() + o.obs(3, b, 0) + o.n(),
                                 moved.begin() + o.obs(3, b, 0));
    EXPECT_EQ(same, b != 1) << "row " << b;
  }
}

// The op's λ (op above), for a KeySampler on the same spectrum.
Vec lambda_of(int n) {
  Vec l(n);
  for (int i = 0; i < n; ++i) l[i] = i < 3 ? 10.0 / (i + 1) : 0.5;
  return l;
}

// A key law (T16's kind: a three-component mixture, one component in a Haar basis; scales ≤ 1,
// so the rows stay as stable as on the Gaussian keys) read along a dense orthogonal basis, its
// values on x or on x̂: the cpu path draws the keys as the reference does (LawKeys::batch),
// so the bound above holds. The Gaussian law through KeySampler, in its own coordinates, is the
// default keys bit for bit on the reference.
TEST(RowBuffers, KeyLawCpuMatchesReference) {
  const int n = 16;
  const KeySampler law(parse_key_law("mixture:weights=0.4/0.3/0.3,scales=1/0.5/0.25,bases=identity/reverse/random"),
                       lambda_of(n), 5);
  for (bool on_normalized : {false, true}) {
    auto o = row_buffers_op(n);
    o.law_keys.law = std::make_shared<const KeySampler>(law);
    o.law_keys.coords = law.basis(2);
    o.value_on_normalized = on_normalized;
    const auto ref = rows(o, Backend::reference, 3, 4, 1), cpu = rows(o, Backend::cpu, 3, 4, 2);
    const double w = max_rel_diff_rows(ref, cpu, o.n_obs(), 0, o.probe_obs(0, 0));
    EXPECT_LE(w, o.steps * 3 * kC * n * kEps64) << "values on x̂: " << on_normalized;
    EXPECT_GT(w, 0.0) << "values on x̂: " << on_normalized;
    EXPECT_EQ(cpu, rows(o, Backend::cpu, 3, 4, 1));
  }
  auto o = row_buffers_op(n);
  const auto plain = rows(o, Backend::reference, 3, 4, 1);
  o.law_keys.law = std::make_shared<const KeySampler>(parse_key_law("gaussian"), lambda_of(n));
  EXPECT_EQ(rows(o, Backend::reference, 3, 4, 1), plain);
  std::vector<double> r(o.n_obs());
  expect_no_device_path([&](Backend b) { ops::row_buffers_rows(o, 1, b, 0, 1, 1, r.data()); });
}

// A schedule (E2's kind): each step's key turned by its own random orthogonal K_t and the rows'
// value rows redrawn per step. The turn adds one n-term dot a step to the bound above (4·kC·n·ε
// relative a step). An identity schedule whose value rows are the rows' own d_b is the plain op
// bit for bit on the cpu path (a dot with a unit row is exact; the same dots otherwise) and within
// the bound on the reference (Eigen's dot over a matrix row may sum in another order).
TEST(RowBuffers, ScheduleCpuMatchesReference) {
  const int n = 9;
  auto o = row_buffers_op(n);
  Stream s(41, 0, Purpose::init);
  for (int t = 0; t < o.steps; ++t) {
    Mat G(n, n), V(o.B(), n);
    for (Eigen::Index k = 0; k < G.size(); ++k) G.data()[k] = s.normal();
    for (Eigen::Index k = 0; k < V.size(); ++k) V.data()[k] = s.normal();
    o.key_turns.push_back(G.householderQr().householderQ());
    o.value_rows.push_back(V);
  }
  const auto ref = rows(o, Backend::reference, 3, 4, 1), cpu = rows(o, Backend::cpu, 3, 4, 2);
  const double w = max_rel_diff_rows(ref, cpu, o.n_obs(), 0, o.probe_obs(0, 0));
  RecordProperty("worst_rel_diff", sci(w));
  EXPECT_LE(w, o.steps * 4 * kC * n * kEps64);
  EXPECT_GT(w, 0.0);
  EXPECT_EQ(cpu, rows(o, Backend::cpu, 3, 4, 1));
  EXPECT_NE(ref, rows(row_buffers_op(n), Backend::reference, 3, 4, 1));  // the schedule reaches the trials

  auto id = row_buffers_op(n);
  const auto plain_ref = rows(id, Backend::reference, 3, 4, 1), plain_cpu = rows(id, Backend::cpu, 3, 4, 1);
  Mat D(id.B(), n);
  for (int b = 0; b < id.B(); ++b) D.row(b) = id.rows[std::size_t(b)].d.transpose();
  id.key_turns.assign(std::size_t(id.steps), Mat::Identity(n, n));
  id.value_rows.assign(std::size_t(id.steps), D);
  EXPECT_EQ(rows(id, Backend::cpu, 3, 4, 1), plain_cpu);
  EXPECT_LE(max_rel_diff_rows(rows(id, Backend::reference, 3, 4, 1), plain_ref, id.n_obs(), 0, id.probe_obs(0, 0)),
            id.steps * 3 * kC * n * kEps64);
}

// T13's observables: keys with a mean (x = √λ ∘ z + μ), the window mean of the mean square error,
// and interleaved stream ids. The cpu path within the bound above (the mean adds one term a key);
// the mean square against the recorded errors of every step of its window (a sum of B·n squares
// and a mean over the window: ≤ kC·(B·n + W)·ε relative, all terms ≥ 0); trial t at stride s and
// offset o is trial t·s + o of the plain op, bit for bit on both paths; and the mean moves the rows.
TEST(RowBuffers, KeyMeanMeanSquareAndStreams) {
  auto o = row_buffers_op(8);
  o.key_mean = Vec::LinSpaced(8, -1.0, 2.0);
  o.msq_window_start = 33;
  o.record.clear();
  for (int t = 33; t <= 40; ++t) o.record.push_back(t);
  const auto ref = rows(o, Backend::reference, 3, 4, 1), cpu = rows(o, Backend::cpu, 3, 4, 2);
  EXPECT_LE(max_rel_diff_rows(ref, cpu, o.n_obs(), 0, o.probe_obs(0, 0)), o.steps * (3 * kC * 8 + 1) * kEps64);
  const std::size_t per = o.per_record();
  for (const auto* r : {&ref, &cpu})
    for (std::size_t t = 0; t < 4; ++t) {
      const double* row = r->data() + t * o.n_obs();
      double msq = 0;
      for (std::size_t c = 0; c < o.record.size(); ++c)
        for (std::size_t k = 0; k < per; ++k) msq += row[c * per + k] * row[c * per + k];
      msq /= double(per) * double(o.record.size());
      EXPECT_NEAR(row[o.msq_obs()], msq, kC * double(per + o.record.size()) * kEps64 * msq);
    }
  EXPECT_NE(ref, rows([&] { auto q = o; q.key_mean = Vec(); return q; }(), Backend::reference, 3, 4, 1));
  auto strided = o;
  strided.stream_stride = 16;
  strided.stream_offset = 9;
  for (Backend b : {Backend::reference, Backend::cpu})
    for (long long t : {0LL, 5LL})
      EXPECT_EQ(rows(strided, b, t, 1, 1), rows(o, b, 16 * t + 9, 1, 1)) << to_string(b) << " trial " << t;
  auto refused = [&](auto change, const char* param) { expect_refused(o, change, param); };
  refused([](auto& q) { q.key_mean = Vec::Ones(3); }, "key_mean");
  refused([](auto& q) { q.key_mean[0] = std::nan(""); }, "key_mean");
  refused([](auto& q) { q.msq_window_start = 41; }, "msq_window_start");
  refused([](auto& q) { q.stream_stride = 0; }, "stream_stride");
  refused([](auto& q) { q.stream_offset = -1; }, "stream_offset");
}

TEST(RowBuffers, StatisticsIndependentOfThreads) {
  const auto o = row_buffers_op(8);
  expect_statistics_independent_of_threads([&](const McOptions& mc) { return ops::row_buffers(o, 3, Backend::cpu, mc); });
}

TEST(RowBuffers, RefusesWhatNoBackendCanRun) {
  auto refused = [](auto change, const char* param) { expect_refused(row_buffers_op(8), change, param); };
  refused([](auto& o) { o.beta = 1.0; }, "beta");  // EMA rows among them
  refused([](auto& o) { o.rows[1].rule = BufferKind::delta; }, "rows.rule");  // ak_raw at β = 1
  refused([](auto& o) { o.noise_sigma = -1; }, "noise_sigma");
  refused([](auto& o) { o.rows[0].eta = 0; }, "rows.eta");
  refused([](auto& o) { o.rows[0].noise_slot = 2; }, "rows.noise_slot");
  refused([](auto& o) { o.rows[2].d = Vec::Ones(3); }, "rows.d, rows.start, rows.center");
  refused([](auto& o) { o.rows.clear(); }, "rows");
  refused([](auto& o) { o.sqrt_lambda[0] = std::nan(""); }, "sqrt_lambda");
  refused([](auto& o) { o.record = {3, 3}; }, "record");
  refused([](auto& o) { o.window_start = 41; }, "window_start");
  refused([](auto& o) { o.probes[0].steps = {0}; }, "probes.steps");
  refused([](auto& o) { o.probes[0].W = Mat::Zero(5, 8); }, "probes.W");
  refused([](auto& o) { o.window_start = 0; }, "probes.window");
  refused([](auto& o) { o.steps = 0; }, "steps");
  refused([](auto& o) { o.rows[3].noise_scale = -0.5; }, "rows.noise_scale");
  refused([](auto& o) { o.second_moment_record = {5, 41}; }, "second_moment_record");
  refused([](auto& o) { o.second_moment_record = {5}, o.beta2 = 1.0; }, "beta2");
  refused([](auto& o) { o.key_turns.assign(39, Mat::Identity(8, 8)); }, "key_turns");  // one per step: 40
  refused([](auto& o) { o.key_turns.assign(40, Mat::Identity(7, 8)); }, "key_turns");
  refused([](auto& o) { o.value_rows.assign(40, Mat::Zero(5, 8)); }, "value_rows");  // rows: 6
  refused([](auto& o) { o.value_rows.assign(40, Mat::Constant(6, 8, std::nan(""))); }, "value_rows");
  refused([](auto& o) { o.law_keys.law = std::make_shared<const KeySampler>(parse_key_law("gaussian"), Vec::Ones(3)); }, "law");
  refused([](auto& o) { o.law_keys.coords = Mat::Identity(8, 8); }, "coords");  // coordinates need a law
  const auto o = row_buffers_op(8);  // no device kernel: refused by name, before any work
  std::vector<double> r(o.n_obs());
  expect_no_device_path([&](Backend b) { ops::row_buffers_rows(o, 1, b, 0, 1, 1, r.data()); });
}

// The second moment is AdamW's [app:second-moment]: the reference's v̂ is, bit for bit,
// akm::AdamW's second_hat fed the trial's values δ_{b,t} and raw keys x_t, replayed here from the
// trial's streams as the op defines them (keys √λ ∘ z, noise σξ per slot, δ = a_t d_b·x + s_b σξ).
TEST(RowBuffers, SecondMomentIsAdamWsOnTheTrialsStream) {
  const auto o = second_moment_op(8);
  const int n = o.n(), B = o.B();
  const long long trial = 2;
  const auto ref = rows(o, Backend::reference, trial, 1, 1);
  Stream keys(17, o.stream(trial), Purpose::keys), noise(17, o.stream(trial), Purpose::noise);
  AdamWParams p;
  p.beta2 = o.beta2;
  AdamW adam(B, n, p);
  Mat W = Mat::Zero(B, n);
  Vec x(n), xi(o.noise_slots), delta(B);
  std::size_t c = 0;
  for (int t = 1; t <= o.steps; ++t) {
    kern::gaussian_key(keys, o.sqrt_lambda, x);
    for (int s = 0; s < o.noise_slots; ++s) xi[s] = o.noise_sigma * noise.normal();
    for (int b = 0; b < B; ++b) {
      const ops::BufferRow& r = o.rows[std::size_t(b)];
      delta[b] = o.a(t) * r.d.dot(x) + r.noise_scale * xi[r.noise_slot];
    }
    adam.step(W, delta, x);
    if (c < o.second_moment_record.size() && t == o.second_moment_record[c]) {
      const Mat v_hat = adam.second_hat();
      for (int b = 0; b < B; ++b)
        for (int i = 0; i < n; ++i) ASSERT_EQ(ref[o.second_moment_obs(c, b, i)], v_hat(b, i)) << "t " << t << " row " << b;
      ++c;
    }
  }
  EXPECT_EQ(c, o.second_moment_record.size());
  EXPECT_GT(ref[o.second_moment_obs(2, 6, 0)], 0.0);  // the noise-only row's values are not zero
}

// The cpu path's second moment and scaled noise against the reference. With the engine's
// scalar normals (akm::Stream's bits, tests/test_engine.cpp) the noise-only row (d = 0) sees the
// same δ and x bit for bit, and each step v ← β2 v + (1 − β2)g² of positive terms differs at
// most by the fused multiply-add's and the sum's roundings, ≤ 2ε relative: ≤ (2T + 1)ε
// relative after T steps and the bias division. The other rows' errors (their δ through an
// n-term dot) are held to the op's bound of CpuMatchesReference; the noise-free row's error is
// its transport product alone, and a scale of 2.5 moves the row it is given.
TEST(RowBuffers, SecondMomentAndNoiseScaleCpuMatchesReference) {
  const auto o = second_moment_op(8);
  engine::NormalStream::set_force_scalar(true);
  const auto ref = rows(o, Backend::reference, 0, 4, 1), cpu = rows(o, Backend::cpu, 0, 4, 2);
  engine::NormalStream::set_force_scalar(false);
  EXPECT_LE(max_rel_diff_rows(ref, cpu, o.n_obs(), 0, o.msq_obs()), o.steps * 3 * kC * o.n() * kEps64);
  double worst = 0;
  for (std::size_t t = 0; t < 4; ++t)
    for (std::size_t c = 0; c < o.second_moment_record.size(); ++c)
      for (int i = 0; i < o.n(); ++i) {
        const std::size_t k = t * o.n_obs() + o.second_moment_obs(c, 6, i);
        ASSERT_GT(ref[k], 0.0);
        worst = std::max(worst, std::abs(cpu[k] - ref[k]) / ref[k]);
      }
  RecordProperty("second_moment_worst_rel_diff", sci(worst));
  EXPECT_LE(worst, (2.0 * o.steps + 1) * kEps64);
  auto unscaled = o;
  unscaled.rows[1].noise_scale = 1.0;
  const auto moved = rows(unscaled, Backend::reference, 0, 4, 1);
  EXPECT_NE(moved[o.obs(3, 1, 0)], ref[o.obs(3, 1, 0)]);
  EXPECT_EQ(moved[o.obs(3, 0, 0)], ref[o.obs(3, 0, 0)]);
}

