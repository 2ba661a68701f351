// The fast engine's generator (NormalStream) against akm::Stream, and the rounding model every
// fast path of an op is held to (tests/ops/test_<op>.cpp hold each op's backends to its
// reference with it) — tolerances from the analysis below, never from the observed differences.
//
// Rounding model. ε = 2⁻⁵³ (double) or 2⁻²⁴ (float). The engine reorders sums (SIMD
// partial sums), fuses multiply-adds and uses libmvec log/sin/cos (≤ 4 ulp); a dot product
// of length n then differs by ≤ c·n·ε relative with c = 4. transport and phase_map steps are
// non-expansive in v's direction (eigenvalues β and β − η‖x̂‖² lie in [−1, 1] for transport;
// phase_map is renormalized and we compare log-norms), ak_sgd_ema's error maps contract (E ← E − αM with small α), so
// per-step errors add at most linearly: a T-step trial differs by ≤ T·c·n·ε relative.
// Float normals: u rounded to float moves log u by ≤ 2⁻²⁴ absolute, so r = √(−2 log u)
// by ≤ √(2·2⁻²⁴) ≈ 3.5e-4 in the worst case (u → 1) and ~1e-6(1+|z|) typically.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "akm/sim/engine/engine.hpp"
#include "akm/random/random.hpp"
#include "rounding_bounds.hpp"

using namespace akm;

namespace {
using akm_test::kC;
using akm_test::kEps32;
using akm_test::kEps64;
}  // namespace

TEST(NormalStream, ScalarPathIsAkmStreamBitForBit) {
  engine::NormalStream::set_force_scalar(true);
  engine::NormalStream ns(7, 3, Purpose::noise);
  Stream ref(7, 3, Purpose::noise);
  std::vector<double> buf(37);
  for (int rep = 0; rep < 5; ++rep) {
    ns.fill(buf.data(), 37);  // odd: exercises the cached spare
    for (double v : buf) ASSERT_EQ(v, ref.normal());
  }
  engine::NormalStream::set_force_scalar(false);
}

TEST(NormalStream, FastPathMatchesStreamToLibmvecUlps) {
  // libmvec log/sin/cos are within 4 ulp: z = r·cos θ is then within ~10 ulp of |z|, plus
  // the ulp of cos θ near its zeros (absolute 4·2⁻⁵³·r).
  engine::NormalStream ns(11, 5, Purpose::keys);
  Stream ref(11, 5, Purpose::keys);
  std::vector<double> buf(64);
  double worst = 0.0;
  for (int rep = 0; rep < 200; ++rep) {
    ns.fill(buf.data(), rep % 3 == 0 ? 64 : 10);
    for (int i = 0; i < (rep % 3 == 0 ? 64 : 10); ++i) {
      const double z = ref.normal();
      worst = std::max(worst, std::abs(buf[i] - z) / (1.0 + std::abs(z)));
    }
  }
  EXPECT_LE(worst, 16 * kEps64 * 10);
}

// The two Box–Muller kernels (libmvec log/sin/cos ≤ 4 ulp; SLEEF log and sincos ≤ 1 ulp) see
// the same Philox uniforms, so each is the other's reference: z = r·cos θ agrees within
// (4 + 1) ulp of log through the square root, the sin/cos ulps, and the product's rounding —
// under 16 ulp of 1 + |z| as in the libmvec bound above — in double and, rounded the same
// way, in float (its ulp).
TEST(NormalStream, SleefAndLibmvecKernelsAgreeToTheirUlps) {
  if (!engine::available(engine::NormalKernel::libmvec))
    GTEST_SKIP() << "no AVX-512 vector path in this build: neither kernel exists (scalar Box–Muller only)";
#if defined(AKM_EXPECT_SLEEF)
  ASSERT_TRUE(engine::available(engine::NormalKernel::sleef)) << "CMake found libsleef, but the engine lacks its kernel";
#else
  if (!engine::available(engine::NormalKernel::sleef)) GTEST_SKIP() << "built without libsleef-dev";
#endif
  for (int rep = 0; rep < 2; ++rep) {
    const bool dbl = rep == 0;
    engine::NormalStream a(21, 4, Purpose::keys, engine::NormalKernel::libmvec);
    engine::NormalStream b(21, 4, Purpose::keys, engine::NormalKernel::sleef);
    double worst = 0.0, moved = 0.0;
    for (int batch = 0; batch < 64; ++batch) {
      std::vector<double> da(1024), db(1024);
      std::vector<float> fa(1024), fb(1024);
      if (dbl) a.fill(da.data(), 1024), b.fill(db.data(), 1024);
      else {
        a.fill(fa.data(), 1024), b.fill(fb.data(), 1024);
        for (int i = 0; i < 1024; ++i) da[i] = fa[i], db[i] = fb[i];
      }
      for (int i = 0; i < 1024; ++i) {
        worst = std::max(worst, std::abs(da[i] - db[i]) / (1.0 + std::abs(da[i])));
        moved = std::max(moved, std::abs(da[i]));
      }
    }
    EXPECT_LE(worst, 16 * (dbl ? kEps64 : kEps32)) << (dbl ? "double" : "float");
    EXPECT_GT(moved, 3.0);  // real normals came out (a tail beyond 3σ in 65 536 draws)
  }
}

TEST(NormalStream, FloatNormalsAreTheDoubleOnesRounded) {
  engine::NormalStream nd(13, 2, Purpose::keys), nf(13, 2, Purpose::keys);
  std::vector<double> d(4096);
  std::vector<float> f(4096);
  nd.fill(d.data(), 4096);
  nf.fill(f.data(), 4096);
  double worst = 0.0, mean = 0.0;
  for (int i = 0; i < 4096; ++i) {
    const double e = std::abs(double(f[i]) - d[i]);
    worst = std::max(worst, e);
    mean += e / 4096;
  }
  EXPECT_LE(worst, std::sqrt(2.0 * kEps32 * 2) + 8 * kEps32 * 8);  // u → 1 worst case
  EXPECT_LE(mean, 1e-5);  // typical: a few float ulps of |z| ≤ 5
}
