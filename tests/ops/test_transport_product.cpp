// The transport-product op (T3's Monte Carlo) on every backend held to its plain reference:
// the fast CPU engine in double and the CUDA thread body run on the host over its grid
// (docs/cuda.md), both within the rounding model of tests/test_engine.cpp; the statistics the
// claims read do not depend on the thread count or on how a backend batches its trials; and,
// with a GPU, the device against its emulation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/ops/transport_product.hpp"
#include "support.hpp"

using namespace akm;
using namespace akm_test;

namespace {

// A spiked-like law on n directions, λ_i = 1/(i+1): raw keys with ηλ_max = 0.4 (T3's rule),
// or normalized keys with η = 0.5; E[k_i²] = λ_i or the trace-normalized λ_i/Σλ (any finite
// value serves: the control variate's arithmetic is what the backends must agree on).
ops::TransportProduct op(int n, Key key) {
  ops::TransportProduct p;
  p.sqrt_lambda = Vec(n);
  p.second_moment = Vec(n);
  double tr = 0;
  for (int i = 0; i < n; ++i) tr += 1.0 / (i + 1);
  for (int i = 0; i < n; ++i) {
    p.sqrt_lambda[i] = std::sqrt(1.0 / (i + 1));
    p.second_moment[i] = key == Key::raw ? 1.0 / (i + 1) : 1.0 / (i + 1) / tr;
  }
  p.key = key;
  p.beta = 0.9;
  p.eta = key == Key::raw ? 0.4 : 0.5;
  p.steps = 60;
  p.lags = 20;
  p.full_lags = {1, 5, 20};
  return p;
}

std::vector<double> rows(const ops::TransportProduct& p, Backend b, long long first, long long count, int threads) {
  std::vector<double> r(std::size_t(count) * p.layout().size());
  ops::transport_product_rows(p, 11, b, first, count, threads, r.data());
  return r;
}

// The observables' four parts, each with its own scale: lag diagonals and full matrices (|P| ≲ 1),
// horizon sums (≈ τ_i), the same diagonals and sums less their control variates.
struct Part {
  const char* name;
  std::size_t j0, j1;
};
std::vector<Part> parts(const ops::TransportProductLayout& L) {
  std::vector<Part> p{{"diagonals and full matrices", 0, L.horizon(0)},
                      {"horizon sums", L.horizon(0), L.cv_diag(1, 0)},
                      {"control-variate diagonals", L.cv_diag(1, 0), L.cv_horizon(0)},
                      {"control-variate horizon sums", L.cv_horizon(0), L.cv_horizon(L.n)}};
  if (L.squares) p.push_back({"squared diagonals", L.cv_horizon(L.n), L.size()});
  return p;
}

// Worst over trials of max |a − b| / max |a| within a part.
double worst(const std::vector<double>& a, const std::vector<double>& b, std::size_t n_obs, const Part& part) {
  return max_rel_diff_rows(a, b, n_obs, part.j0, part.j1);
}

}  // namespace

// Per step a row of P takes a dot product and an update (≤ kC·n·ε relative, tests/test_engine.cpp)
// on keys whose normals differ by ≤ ζ; a sum over the steps adds ≤ ε a term. So after T steps every
// part is within T·(kC·n·ε + ζ + ε) of the reference, relative to the part's largest entry; a
// square within twice that.
TEST(TransportProduct, CpuAndEmulatedMatchReference) {
  for (Key key : {Key::raw, Key::normalized})
    for (int n : {16, 32}) {
      auto p = op(n, key);
      p.squares = n == 32;
      const std::size_t n_obs = p.layout().size();
      const long long first = 3, count = 5;  // trials 3..7: rows start at a trial other than 0
      const auto ref = rows(p, Backend::reference, first, count, 1);
      const auto cpu = rows(p, Backend::cpu, first, count, 2);
      const auto emu = rows(p, Backend::cuda_emulated, first, count, 2);
      const double zeta = normal_error(11, first + count, hd::kKeys, (long long)p.steps * n);
      for (const Part& part : parts(p.layout())) {
        const std::string what = std::string(to_string(key)) + " n=" + std::to_string(n) + ", " + part.name;
        const double sq = part.j0 == p.layout().cv_horizon(n) ? 2.0 : 1.0;
        EXPECT_LE(worst(ref, cpu, n_obs, part), sq * p.steps * (kC * n + 1) * kEps64) << what;
        EXPECT_LE(worst(ref, emu, n_obs, part), sq * p.steps * (kC * n * kEps32 + zeta + kEps32)) << what;
      }
      EXPECT_EQ(emu, rows(p, Backend::cuda_emulated, first, count, 1));  // host threads change nothing
      EXPECT_EQ(cpu, rows(p, Backend::cpu, first, count, 1));
      // A trial's row is the same whichever call computes it.
      const auto one = rows(p, Backend::cpu, first + 2, 1, 1);
      EXPECT_TRUE(std::equal(one.begin(), one.end(), cpu.begin() + 2 * n_obs));
    }
}

// Dependent keys (AR(1), ρ = 0.9; E2): the cpu path within the same bound of the reference (the
// chain adds two products and a sum a step, ≤ 3ε relative on a key whose terms share a sign
// pattern, inside the kC·n·ε of the dot), on both keys; the chain at ρ = 0 is the independent
// law bit for bit; and no device path.
TEST(TransportProduct, DependentKeysCpuMatchesReference) {
  for (Key key : {Key::raw, Key::normalized}) {
    auto p = op(16, key);
    const auto independent = rows(p, Backend::cpu, 3, 4, 2);
    p.key_rho = 0.9;
    const std::size_t n_obs = p.layout().size();
    const auto ref = rows(p, Backend::reference, 3, 4, 1), cpu = rows(p, Backend::cpu, 3, 4, 2);
    EXPECT_NE(cpu, independent) << to_string(key);
    for (const Part& part : parts(p.layout()))
      EXPECT_LE(worst(ref, cpu, n_obs, part), p.steps * (kC * 16 + 4) * kEps64) << to_string(key) << ", " << part.name;
    p.key_rho = 0.0;
    EXPECT_EQ(rows(p, Backend::cpu, 3, 4, 2), independent) << to_string(key);
  }
  auto p = op(16, Key::raw);
  p.key_rho = 0.5;
  std::vector<double> r(p.layout().size());
  expect_no_device_path([&](Backend b) { ops::transport_product_rows(p, 1, b, 0, 1, 1, r.data()); });
}

// A key law (T16's kind: a three-component mixture, one component in a Haar basis; scales ≤ 1 so
// the raw keys stay in the regime above) read along a dense orthogonal basis, with forms b_qᵀP_kb_q.
ops::TransportProduct law_op(Key key) {
  auto p = op(16, key);
  Vec lambda(16);
  for (int i = 0; i < 16; ++i) lambda[i] = 1.0 / (i + 1);
  const KeySampler law(parse_key_law("mixture:weights=0.4/0.3/0.3,scales=1/0.5/0.25,bases=identity/reverse/random"),
                       lambda, 7);
  p.law_keys.law = std::make_shared<const KeySampler>(law);
  p.law_keys.coords = law.basis(2);
  p.forms = Mat::Zero(3, 16);
  p.forms(0, 0) = 1.0;                          // e_0: the form is P_k(0,0)
  p.forms(1, 15) = 1.0;                         // e_15
  p.forms.row(2) = law.basis(2).col(1).transpose();  // a dense unit vector
  p.form_lags = {1, 5, 20};
  return p;
}

// With a key law the cpu path draws the keys as the reference does (one law_key for both), so
// only the product's arithmetic differs: the same bound as above on every part; a form is two
// more sums of n terms (≤ 2nε of its part's largest entry). A form on e_i is the lag diagonal
// bit for bit (sums with exact zeros). The Gaussian law through KeySampler, in its own
// coordinates, is the default keys bit for bit on the reference. No device path.
TEST(TransportProduct, KeyLawAndFormsCpuMatchReference) {
  for (Key key : {Key::raw, Key::normalized}) {
    const auto p = law_op(key);
    const auto L = p.layout();
    const std::size_t n_obs = L.size();
    const auto ref = rows(p, Backend::reference, 3, 4, 1), cpu = rows(p, Backend::cpu, 3, 4, 2);
    for (const Part& part : parts(L))  // they end where the forms begin
      EXPECT_LE(worst(ref, cpu, n_obs, part), p.steps * (kC * 16 + 1) * kEps64) << to_string(key) << ", " << part.name;
    EXPECT_LE(max_rel_diff_rows(ref, cpu, n_obs, L.form(0, 0), L.size()), (p.steps * (kC * 16 + 1) + 2 * 16) * kEps64)
        << to_string(key) << ", forms";
    for (const auto* r : {&ref, &cpu})
      for (std::size_t t = 0; t < 4; ++t)
        for (std::size_t g = 0; g < p.form_lags.size(); ++g) {
          const double* row = r->data() + t * n_obs;
          EXPECT_EQ(row[L.form(int(g), 0)], row[L.diag(p.form_lags[g], 0)]) << to_string(key);
          EXPECT_EQ(row[L.form(int(g), 1)], row[L.diag(p.form_lags[g], 15)]) << to_string(key);
        }
    EXPECT_EQ(rows(p, Backend::cpu, 3, 4, 1), cpu);  // host threads change nothing
  }
  auto p = op(16, Key::normalized);
  const auto plain = rows(p, Backend::reference, 3, 4, 1);
  Vec lambda(16);
  for (int i = 0; i < 16; ++i) lambda[i] = 1.0 / (i + 1);
  p.law_keys.law = std::make_shared<const KeySampler>(parse_key_law("gaussian"), lambda);
  EXPECT_EQ(rows(p, Backend::reference, 3, 4, 1), plain);
  const auto q = law_op(Key::normalized);
  std::vector<double> r(q.layout().size());
  expect_no_device_path([&](Backend b) { ops::transport_product_rows(q, 1, b, 0, 1, 1, r.data()); });
}

// A data set's rows (R1's kind: 40 random rows, centred by DataKeys, n = 16) read along a
// dense basis, with the forms above: the cpu path rotates the rows once, the reference each
// drawn key (two products of n terms, so a key differs by ≤ nε of its norm), which adds nε a
// step to the bound above. Both a law and a data set: refused.
TEST(TransportProduct, DataKeysCpuMatchReference) {
  Stream s(3, 0, Purpose::init);
  Mat X(40, 16);
  for (Eigen::Index k = 0; k < X.size(); ++k) X.data()[k] = s.normal() / 4.0;  // ‖x‖ ≈ 1
  const auto data = std::make_shared<const DataKeys>(X, false, "random rows");
  for (Key key : {Key::raw, Key::normalized}) {
    auto p = law_op(key);
    p.law_keys.law = nullptr;
    p.law_keys.data = data;
    const auto L = p.layout();
    const auto ref = rows(p, Backend::reference, 3, 4, 1), cpu = rows(p, Backend::cpu, 3, 4, 2);
    const double bound = p.steps * (kC * 16 + 16 + 1) * kEps64;
    for (const Part& part : parts(L))
      EXPECT_LE(worst(ref, cpu, L.size(), part), bound) << to_string(key) << ", " << part.name;
    EXPECT_LE(max_rel_diff_rows(ref, cpu, L.size(), L.form(0, 0), L.size()), bound + 2 * 16 * kEps64) << to_string(key);
    EXPECT_NE(ref, rows(law_op(key), Backend::reference, 3, 4, 1));  // the rows, not the law, gave the keys
  }
  auto p = law_op(Key::raw);
  p.law_keys.data = data;
  std::vector<double> r(p.layout().size());
  EXPECT_THROW(ops::transport_product_rows(p, 1, Backend::reference, 0, 1, 1, r.data()), InputError);
}

// The input scale (T7): the key s·x. Normalized keys do not see it (x̂ is scale-free), so at
// s = 10³ the rows are s = 1's within the bound above; raw keys at s = 2 against the reference on
// the cpu and the emulated device (the device takes s√λ). s ≤ 0 or not finite: refused.
TEST(TransportProduct, KeyScale) {
  auto p = op(16, Key::normalized);
  const auto base = rows(p, Backend::reference, 3, 4, 1);
  p.key_scale = 1e3;
  const std::size_t n_obs = p.layout().size();
  const auto ref = rows(p, Backend::reference, 3, 4, 1);
  for (const Part& part : parts(p.layout()))
    EXPECT_LE(worst(base, ref, n_obs, part), p.steps * (kC * 16 + 4) * kEps64) << "scale-free, " << part.name;
  auto r = op(16, Key::raw);
  r.eta = 0.1;  // ηs²λ_max = 0.4 at s = 2, the regime above
  r.key_scale = 2.0;
  const auto rref = rows(r, Backend::reference, 3, 4, 1), cpu = rows(r, Backend::cpu, 3, 4, 2),
             emu = rows(r, Backend::cuda_emulated, 3, 4, 2);
  const double zeta = normal_error(11, 7, hd::kKeys, (long long)r.steps * 16);
  for (const Part& part : parts(r.layout())) {
    EXPECT_LE(worst(rref, cpu, n_obs, part), r.steps * (kC * 16 + 2) * kEps64) << "raw s = 2, " << part.name;
    EXPECT_LE(worst(rref, emu, n_obs, part), r.steps * (kC * 16 * kEps32 + zeta + 2 * kEps32)) << "raw s = 2, " << part.name;
  }
  EXPECT_NE(rref, rows(op(16, Key::raw), Backend::reference, 3, 4, 1));
  auto refused = [](auto change) { expect_refused(op(16, Key::raw), change, "key_scale"); };
  refused([](auto& q) { q.key_scale = 0.0; });
  refused([](auto& q) { q.key_scale = -1.0; });
  refused([](auto& q) { q.key_scale = std::nan(""); });
}

// The path norms (T7): log‖P_T‖_op and the determinant bound (1/n)Σ_t log|det(βI − ηk_tk_tᵀ)|.
// (a) Against the recorded product itself, on a short normalized run where P_T is well
// conditioned (κ ≤ (β/|β−η|)^T = 2.25¹⁰ < 4·10³): the norm from an SVD of the full matrix, and
// |det P_T|^{1/n} from its LU, which carries ≤ n·κ·ε relative error. (b) The cpu path (closed-form
// determinant, eigenvalues of PᵀP) against the reference (LU, SVD): the product within the
// bound above, each logarithm within it plus n·ε. (c) A raw law at s = 10³ diverges past
// 10¹⁰⁰ and is rescaled: the log-norm stays finite and above log 10¹⁰⁰, and on every path of
// every backend ‖P_T‖ ≥ |det P_T|^{1/n}. (d) No device path records them.
TEST(TransportProduct, PathNorms) {
  auto p = op(16, Key::normalized);
  p.steps = p.lags = 10;
  p.full_lags = {10};
  p.path_norms = true;
  const auto L = p.layout();
  const auto ref = rows(p, Backend::reference, 3, 4, 1);
  const double kappa = std::pow(p.beta / std::abs(p.beta - p.eta), p.steps);
  for (std::size_t t = 0; t < 4; ++t) {
    const double* row = ref.data() + t * L.size();
    Mat P(16, 16);
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c) P(r, c) = row[L.full(0, r, c)];
    EXPECT_NEAR(row[L.log_norm()], std::log(Eigen::JacobiSVD<Mat>(P).singularValues()(0)), 16 * kEps64);
    EXPECT_NEAR(row[L.log_det()], std::log(std::abs(P.determinant())) / 16, 16 * kappa * kEps64 + p.steps * 16 * kEps64);
  }
  for (Key key : {Key::raw, Key::normalized}) {
    auto q = op(32, key);
    q.path_norms = true;
    const auto M = q.layout();
    const auto a = rows(q, Backend::reference, 3, 4, 1), b = rows(q, Backend::cpu, 3, 4, 2);
    for (const Part& part : parts(M))
      EXPECT_LE(worst(a, b, M.size(), part), q.steps * (kC * 32 + 1) * kEps64) << to_string(key) << ", " << part.name;
    for (std::size_t t = 0; t < 4; ++t)
      for (std::size_t j : {M.log_norm(), M.log_det()})
        EXPECT_NEAR(a[t * M.size() + j], b[t * M.size() + j], (q.steps * (kC * 32 + 1) + 32) * kEps64) << to_string(key);
  }
  auto w = law_op(Key::raw);
  w.forms = Mat();
  w.form_lags = {};
  w.key_scale = 1e3;
  w.path_norms = true;
  const auto W = w.layout();
  for (Backend b : {Backend::reference, Backend::cpu}) {
    const auto r = rows(w, b, 3, 4, 1);
    for (std::size_t t = 0; t < 4; ++t) {
      const double norm = r[t * W.size() + W.log_norm()], bound = r[t * W.size() + W.log_det()];
      EXPECT_TRUE(std::isfinite(norm) && norm > std::log(ops::TransportProduct::kRescaleAbove)) << to_string(b);
      EXPECT_GE(norm, bound - 1e-9 * std::abs(bound)) << to_string(b);
    }
  }
  std::vector<double> r(W.size());
  auto g = op(16, Key::raw);
  g.path_norms = true;
  expect_no_device_path([&](Backend b) { ops::transport_product_rows(g, 1, b, 0, 1, 1, r.data()); });
}

// The statistics the claims read: the same numbers for any thread count and any batching
// (monte_carlo_rows folds every chunk in trial order and the chunks in order), and equal to
// monte_carlo() with a per-trial kernel that writes the same rows.
TEST(TransportProduct, StatisticsIndependentOfThreadsAndBatches) {
  const auto p = op(16, Key::normalized);
  const std::size_t n_obs = p.layout().size();
  McOptions mc;
  mc.trials = 37;
  mc.groups = 4;
  mc.chunk_trials = 3;
  auto kernel = [&](long long first, long long count, int threads, double* r) {
    ops::transport_product_rows(p, 5, Backend::cpu, first, count, threads, r);
  };
  auto same = [&](const McResult& a, const McResult& b, const std::string& what) {
    EXPECT_EQ(a.total.count(), b.total.count()) << what;
    EXPECT_TRUE(a.total.mean() == b.total.mean()) << what;
    EXPECT_TRUE(a.total.stderr_mean() == b.total.stderr_mean()) << what;
    ASSERT_EQ(a.groups.size(), b.groups.size()) << what;
    for (std::size_t g = 0; g < a.groups.size(); ++g) EXPECT_TRUE(a.groups[g].mean() == b.groups[g].mean()) << what;
  };
  mc.threads = 1;
  const McResult base = monte_carlo_rows(mc, n_obs, kernel);
  const McResult per_trial = monte_carlo(mc, n_obs, [&](long long t, double* out) { kernel(t, 1, 1, out); });
  same(base, per_trial, "monte_carlo");
  for (long long batch : {1LL, 5LL, 1000LL}) same(base, monte_carlo_rows(mc, n_obs, kernel, batch), "batch " + std::to_string(batch));
  mc.threads = 3;
  same(base, monte_carlo_rows(mc, n_obs, kernel), "3 threads");
  same(base, ops::transport_product(p, 5, Backend::cpu, mc), "ops::transport_product");
}

TEST(TransportProduct, RefusesWhatNoBackendCanRun) {
  auto refused = [](auto change, const char* param) { expect_refused(op(16, Key::raw), change, param); };
  refused([](auto& p) { p.beta = 1.0; }, "beta");
  refused([](auto& p) { p.eta = 0.0; }, "eta");
  refused([](auto& p) { p.eta = std::nan(""); }, "eta");
  refused([](auto& p) { p.lags = p.steps + 1; }, "lags");
  refused([](auto& p) { p.full_lags = {5, 5}; }, "full_lags");
  refused([](auto& p) { p.second_moment = Vec(3); }, "second_moment");
  refused([](auto& p) { p.sqrt_lambda[2] = std::nan(""); }, "sqrt_lambda");
  refused([](auto& p) { p.key_rho = 1.0; }, "key_rho");
  auto refused_law = [](auto change, const char* param) { expect_refused(law_op(Key::raw), change, param); };
  refused_law([](auto& p) { p.key_rho = 0.5; }, "key_rho");  // a law's draws are independent
  refused_law([](auto& p) { p.law_keys.law = std::make_shared<const KeySampler>(parse_key_law("gaussian"), Vec::Ones(8)); }, "law");
  refused_law([](auto& p) { p.law_keys.law = nullptr; }, "coords");  // coordinates need a law
  refused_law([](auto& p) { p.law_keys.coords = Mat::Identity(8, 8); }, "coords");
  refused_law([](auto& p) { p.forms = Mat::Ones(2, 8); }, "forms");
  refused_law([](auto& p) { p.form_lags = {}; }, "form_lags");
  refused_law([](auto& p) { p.form_lags = {5, 1}; }, "form_lags");
  refused_law([](auto& p) { p.form_lags = {p.steps + 1}; }, "form_lags");
  const auto p24 = op(24, Key::raw);  // the device kernel is unrolled for 16, 32 and 64
  std::vector<double> r(p24.layout().size());
  EXPECT_THROW(ops::transport_product_rows(p24, 1, Backend::cuda_emulated, 0, 1, 1, r.data()), InputError);
}

TEST(TransportProduct, CudaMatchesEmulation) {
  REQUIRE_GPU();
  for (Key key : {Key::raw, Key::normalized}) {
    auto p = op(32, key);
    p.squares = true;
    const std::size_t n_obs = p.layout().size();
    const long long count = 301;  // 9632 threads: 76 blocks, the last partly idle
    const auto emu = rows(p, Backend::cuda_emulated, 0, count, 2), gpu = rows(p, Backend::cuda, 0, count, 1);
    for (const Part& part : parts(p.layout()))
      EXPECT_LE(worst(emu, gpu, n_obs, part), (part.j0 == p.layout().cv_horizon(32) ? 2.0 : 1.0) * p.steps * (dev_step(32) + kEps32))
          << to_string(key) << " " << part.name;
  }
}
