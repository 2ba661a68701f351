// akm::phase — axis grammar, metrics against akm::theory at single points, the E1
// second-moment maps against Monte Carlo and limiting cases.
#include <gtest/gtest.h>

#include <cmath>

#include "akm/theory/direction_table.hpp"
#include "akm/base/errors.hpp"
#include "akm/theory/phase.hpp"
#include "akm/random/random.hpp"

namespace {

using namespace akm;
using namespace akm::phase;

std::string param_of(const std::string& spec) {
  try {
    parse_axis(spec, "--x");
  } catch (const InputError& e) {
    return e.param();
  }
  return "";
}

TEST(PhaseAxis, ParsesLinearAndLog) {
  const Axis a = parse_axis("eta:0.01:2:200", "--x");
  EXPECT_EQ(a.param, Param::eta);
  EXPECT_EQ(a.n, 200);
  EXPECT_FALSE(a.log);
  EXPECT_EQ(a.value(0), 0.01);
  EXPECT_EQ(a.value(199), 2.0);
  EXPECT_NEAR(a.value(100), 0.01 + 1.99 * 100 / 199.0, 1e-15);
  const Axis b = parse_axis("eta:1e-3:2:5:log", "--x");
  EXPECT_TRUE(b.log);
  EXPECT_NEAR(b.value(2), std::sqrt(1e-3 * 2), 1e-15);
  EXPECT_EQ(parse_axis("beta:0.5:0.999:3", "--y").param, Param::beta);
  EXPECT_EQ(parse_axis("alpha:0.01:10:3:log", "--y").param, Param::alpha);
}

TEST(PhaseAxis, RefusesBadSpecsNamingTheField) {
  EXPECT_EQ(param_of("eta:0.1:2"), "--x");
  EXPECT_EQ(param_of("eta:0.1:2:10:log:x"), "--x");
  EXPECT_EQ(param_of("gamma:0.1:2:10"), "--x name");
  EXPECT_EQ(param_of("eta:abc:2:10"), "--x LO");
  EXPECT_EQ(param_of("eta:0.1:nan:10"), "--x HI");
  EXPECT_EQ(param_of("eta:0.1:2:1"), "--x N");
  EXPECT_EQ(param_of("eta:0.1:2:1.5"), "--x N");
  EXPECT_EQ(param_of("eta:0.1:2:100000"), "--x N");
  EXPECT_EQ(param_of("eta:2:0.1:10"), "--x");
  EXPECT_EQ(param_of("eta:0:2:10"), "--x LO");
  EXPECT_EQ(param_of("beta:0.5:1:10"), "--x HI");
  EXPECT_EQ(param_of("beta:-0.1:0.5:10"), "--x LO");
  EXPECT_EQ(param_of("eta:0.1:2:10:lin"), "--x scale");
  EXPECT_EQ(param_of("beta:0:0.5:10:log"), "--x LO");
  try {
    parse_axis("beta:0.5:1.2:10", "--y");
    FAIL();
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("1.2"), std::string::npos) << m;
    EXPECT_NE(m.find("[0, 1)"), std::string::npos) << m;
  }
  EXPECT_THROW(parse_metric("fastness"), InputError);
}

Options opts(Metric m, Key key, std::optional<double> alpha, int direction = -1) {
  Options o;
  o.x = parse_axis("eta:0.05:1.5:7", "--x");
  o.y = parse_axis("beta:0.5:0.99:5", "--y");
  o.metric = m;
  o.key = key;
  o.alpha = alpha;
  o.direction = direction;
  return o;
}

TEST(PhaseValidate, RefusesBadCombinations) {
  const int n = 4;
  Options o = opts(Metric::stable, Key::raw, std::nullopt);
  o.y = parse_axis("eta:0.1:1:3", "--y");
  EXPECT_THROW(validate(o, n), InputError);  // same parameter twice
  o = opts(Metric::underdamped, Key::raw, std::nullopt);
  EXPECT_THROW(validate(o, n), InputError);  // needs a fixed α
  o = opts(Metric::rho_ratio, Key::raw, 0.1, 4);
  EXPECT_THROW(validate(o, n), InputError);  // direction out of range (0-based 4 of 4)
  o = opts(Metric::ms_stable, Key::raw, std::nullopt, 0);
  EXPECT_THROW(validate(o, n), InputError);
  o = opts(Metric::stable, Key::raw, std::nullopt);
  o.y = parse_axis("alpha:0.1:1:3", "--y");
  o.beta = 1.0;
  EXPECT_THROW(validate(o, n), InputError);  // fixed β out of range
}

// Every metric at single points against make_theory_report (the source of `akm theory`).
TEST(PhaseMetrics, MatchTheoryReportPointwise) {
  const Spectrum s = parse_spectrum("spiked:n=6,spikes=20/4,floor=0.5");
  const Model model = make_model(s, true);
  for (Key key : {Key::raw, Key::normalized})
    for (double eta : {0.03, 0.4, 1.3})
      for (double beta : {0.5, 0.9, 0.99})
        for (double alpha : {0.05, 0.7, 3.0}) {
          const TheoryReport r = make_theory_report({beta, eta, alpha, key}, s);
          double worst_bt = 0, worst_ratio = 0, mean_ratio = 0;
          for (int i = 0; i < s.n(); ++i) {
            const auto& d = r.directions[i];
            worst_bt = std::max(worst_bt, std::abs(d.beta_tilde));
            worst_ratio = std::max(worst_ratio, d.rho_ak / d.rho_ema);
            mean_ratio += d.rho_ak / d.rho_ema / s.n();
            auto v = evaluate(opts(Metric::rho_ratio, key, alpha, i), model, eta, beta, alpha);
            EXPECT_NEAR(v[1], d.rho_ak, 1e-14);
            EXPECT_NEAR(v[2], d.rho_ema, 1e-14);
            v = evaluate(opts(Metric::rho_ratio, key, std::nullopt, i), model, eta, beta, std::nullopt);
            EXPECT_NEAR(v[0], std::sqrt(std::abs(d.det_ak) / d.det_ema), 1e-14);
            v = evaluate(opts(Metric::underdamped, key, alpha, i), model, eta, beta, alpha);
            EXPECT_EQ(v[0] == 1.0, d.underdamped_ak);
            v = evaluate(opts(Metric::counterexample, key, alpha, i), model, eta, beta, alpha);
            EXPECT_EQ(v[0] == 1.0, d.rho_ak > d.rho_ema);
            v = evaluate(opts(Metric::speedup, key, alpha, i), model, eta, beta, alpha);
            EXPECT_NEAR(v[0], (1 - d.beta_tilde) / (1 - beta), 1e-12);
            v = evaluate(opts(Metric::stable, key, std::nullopt, i), model, eta, beta, std::nullopt);
            EXPECT_DOUBLE_EQ(v[0], std::abs(d.beta_tilde));
          }
          auto v = evaluate(opts(Metric::stable, key, std::nullopt), model, eta, beta, std::nullopt);
          EXPECT_DOUBLE_EQ(v[0], worst_bt);
          EXPECT_EQ(v[1] == 1.0, worst_bt < 1.0);
          v = evaluate(opts(Metric::rho_ratio, key, alpha), model, eta, beta, alpha);
          EXPECT_NEAR(v[0], worst_ratio, 1e-14);
          EXPECT_NEAR(v[1], mean_ratio, 1e-13);
        }
}

TEST(PhaseCompute, GridOrderAndThreadIndependence) {
  const Spectrum s = parse_spectrum("power:n=5,exp=1");
  const Model model = make_model(s, true);
  for (Metric m : {Metric::stable, Metric::ms_stable, Metric::rho_ratio, Metric::speedup}) {
    const Options o = opts(m, Key::normalized, std::nullopt);
    const Map a = compute(o, model, 1), b = compute(o, model, 3);
    ASSERT_EQ(a.points.size(), 35u);
    EXPECT_EQ(a.points[8].eta, o.x.value(1));
    EXPECT_EQ(a.points[8].beta, o.y.value(1));
    for (std::size_t k = 0; k < a.points.size(); ++k) EXPECT_EQ(a.points[k].cols, b.points[k].cols);
  }
}

TEST(PhaseMs, SecularEquationMatchesEigensolver) {
  const Vec lam = parse_spectrum("spiked:n=9,spikes=30/3/1.5,floor=0.2").lambda;
  for (double eta : {0.001, 0.01, 0.05, 0.2})
    for (double beta : {0.0, 0.5, 0.95}) {
      const double a = ms_radius(ms_matrix_raw(lam, beta, eta)), b = ms_radius_raw(lam, beta, eta);
      EXPECT_NEAR(a, b, 1e-12 * std::max(1.0, a)) << eta << " " << beta;
    }
}

TEST(PhaseMs, LumpedNormalizedRadiusMatchesFullEigensolver) {
  for (const char* spec : {"spiked:n=12,spikes=30/3/3,floor=0.2", "list:5/5/1/1/1/0.5", "power:n=6,exp=1"}) {
    const Vec lam = parse_spectrum(spec).lambda;
    const KeyMoments km = gaussian_key_moments(lam, true);
    const auto groups = equal_groups(lam);
    for (double eta : {0.01, 0.5, 2.0, 4.0})
      for (double beta : {0.0, 0.5, 0.95}) {
        const double full = ms_radius(ms_matrix_normalized(km.lambda_hat, km.fourth, beta, eta));
        EXPECT_NEAR(ms_radius_normalized(km.lambda_hat, km.fourth, groups, beta, eta), full, 1e-12 * std::max(1.0, full))
            << spec << " " << eta << " " << beta;
      }
  }
  EXPECT_EQ(equal_groups(parse_spectrum("list:5/5/1/1/1/0.5").lambda).size(), 3u);
}

TEST(PhaseMs, LimitingCases) {
  // η → 0: S = β²I. n = 1 raw: S = E[(β − ηλz²)²] = β² − 2βηλ + 3η²λ². n = 1 normalized:
  // x̂² = 1, so S = (β − η)² exactly.
  const Vec lam = parse_spectrum("list:4/2/1").lambda;
  const KeyMoments km = gaussian_key_moments(lam, true);
  EXPECT_NEAR(ms_radius(ms_matrix_raw(lam, 0.7, 0.0)), 0.49, 1e-15);
  EXPECT_NEAR(ms_radius(ms_matrix_normalized(km.lambda_hat, km.fourth, 0.7, 0.0)), 0.49, 1e-15);
  Vec one(1);
  one << 2.5;
  EXPECT_NEAR(ms_radius_raw(one, 0.9, 0.1), 0.81 - 2 * 0.9 * 0.25 + 3 * 0.0625, 1e-14);
  const KeyMoments k1 = gaussian_key_moments(one, true);
  EXPECT_NEAR(ms_radius(ms_matrix_normalized(k1.lambda_hat, k1.fourth, 0.9, 0.4)), 0.25, 1e-10);
  // Mean square is stricter than expectation: ρ(S) ≥ max β̃_i² (Jensen, per direction).
  for (double eta : {0.1, 0.5, 1.0}) {
    const double r = ms_radius(ms_matrix_normalized(km.lambda_hat, km.fourth, 0.9, eta));
    for (int i = 0; i < 3; ++i) EXPECT_GE(r, std::pow(0.9 - eta * km.lambda_hat[i], 2) - 1e-12);
  }
}

// One step of the second-moment map against a direct Monte-Carlo estimate of
// E[(v(βI − ηkkᵀ))_i²] for a fixed v (Gaussian keys in the eigenbasis), both keys.
TEST(PhaseMs, OneStepMatchesMonteCarlo) {
  const Vec lam = parse_spectrum("list:3/1/0.25").lambda;
  const KeyMoments km = gaussian_key_moments(lam, true);
  const int n = 3;
  Vec v(n);
  v << 0.6, -1.1, 0.8;
  const Vec s0 = v.cwiseAbs2();
  const double beta = 0.8, eta = 0.3;
  for (Key key : {Key::raw, Key::normalized}) {
    const Mat S = key == Key::raw ? ms_matrix_raw(lam, beta, eta)
                                  : ms_matrix_normalized(km.lambda_hat, km.fourth, beta, eta);
    const Vec pred = S * s0;
    const long long R = 400000;
    Vec sum = Vec::Zero(n), sum2 = Vec::Zero(n);
    Stream st(77, key == Key::raw ? 1 : 2);
    Vec x(n);
    for (long long t = 0; t < R; ++t) {
      for (int i = 0; i < n; ++i) x[i] = std::sqrt(lam[i]) * st.normal();
      if (key == Key::normalized) x /= x.norm();
      const Vec w = beta * v - eta * v.dot(x) * x;
      sum += w.cwiseAbs2();
      sum2 += w.cwiseAbs2().cwiseAbs2();
    }
    for (int i = 0; i < n; ++i) {
      const double m = sum[i] / R, var = sum2[i] / R - m * m, se = std::sqrt(var / R);
      EXPECT_NEAR(m, pred[i], 6 * se) << to_string(key) << " i=" << i;
    }
  }
}

}  // namespace

// The measured inner loop (measured_map.hpp) against a plain reference built from the
// kernels of akm/rules/kernels.hpp, on the same key stream, both keys, iid and AR(1).
#include "akm/rules/kernels.hpp"
#include "akm/sim/measured_map.hpp"

namespace {

TEST(PhaseMeasure, InnerLoopMatchesReferenceKernels) {
  const Vec lam = akm::parse_spectrum("list:4/1/0.5/0.25").lambda;
  const Vec sq = lam.cwiseSqrt();
  const int n = 4, T = 300, lag = 17, dir = 2;
  for (akm::Key key : {akm::Key::raw, akm::Key::normalized})
    for (double rho : {0.0, 0.9}) {
      akm::phase::MeasureOptions o;
      o.key = key;
      o.steps = T;
      o.ar_rho = rho;
      const double beta = 0.9, eta = key == akm::Key::raw ? 0.3 : 1.2;
      akm::Stream a(11, 3);
      const auto got = akm::ops::phase_trial_reference(sq, o, beta, eta, dir, lag, a);

      akm::Stream b(11, 3);
      akm::Mat V = akm::Mat::Constant(1, n, 0.5);  // (1,…,1)/√n with n = 4
      akm::Vec x(n), z(n), k(n), r(1);
      akm::kern::gaussian_key(b, sq, x);
      double proj = 0, log_scale = 0;
      for (int t = 1; t <= T; ++t) {
        if (t > 1) {
          akm::kern::gaussian_key(b, sq, z);
          x = rho * x + std::sqrt(1 - rho * rho) * z;
        }
        akm::kern::key_for(key, x, k);
        akm::kern::transport_step(V, k, beta, eta, r);
        if (t == lag) proj = V(0, dir) * std::exp(log_scale) / 0.5;
        const double nv = V.norm();  // keep the reference in range too
        V /= nv;
        log_scale += std::log(nv);
      }
      EXPECT_NEAR(got.projection, proj, 1e-10 * std::max(1.0, std::abs(proj)));
      EXPECT_NEAR(got.log_growth, 2 * log_scale, 1e-9 * std::max(1.0, std::abs(log_scale)));
    }
}

TEST(PhaseMeasure, ChooseLag) {
  EXPECT_EQ(akm::phase::choose_lag(std::exp(-0.1), 1000), 20);
  EXPECT_EQ(akm::phase::choose_lag(0.0, 1000), 1);
  EXPECT_EQ(akm::phase::choose_lag(1.5, 1000), 10);
  EXPECT_EQ(akm::phase::choose_lag(0.9999, 100), 100);
}

}  // namespace
