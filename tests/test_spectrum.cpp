// spectrum — the spec grammar, descending eigenvalues, Haar bases, and refusals.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/spectrum/spectrum.hpp"

namespace {

using akm::InputError;
using akm::Mat;
using akm::parse_spectrum;
using akm::Vec;

bool descending(const Vec& v) {
  for (Eigen::Index i = 1; i < v.size(); ++i)
    if (v[i] > v[i - 1]) return false;
  return true;
}

TEST(Spectrum, Isotropic) {
  const auto s = parse_spectrum("iso:n=5");
  EXPECT_EQ(s.kind, "iso");
  EXPECT_EQ(s.n(), 5);
  EXPECT_TRUE((s.lambda.array() == 1.0).all());
  EXPECT_FALSE(s.random_basis);
  EXPECT_TRUE(s.basis.size() == 0 && s.basis_matrix().isIdentity(0.0));
  EXPECT_EQ(s.spec, "iso:n=5,scale=1");
  EXPECT_TRUE((parse_spectrum("iso:n=3,scale=2.5").lambda.array() == 2.5).all());
}

TEST(Spectrum, Spiked) {
  const auto s = parse_spectrum("spiked:n=6,spikes=10/5/2,floor=1");
  EXPECT_EQ(s.kind, "spiked");
  const std::vector<double> want{10, 5, 2, 1, 1, 1};
  ASSERT_EQ(s.n(), 6);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(s.lambda[i], want[i]);
  EXPECT_EQ(s.spec, "spiked:n=6,spikes=10/5/2,floor=1");
  // Spikes given in any order, and spikes below the floor, still come out descending.
  const auto t = parse_spectrum("spiked:n=4,spikes=0.5/3,floor=1");
  EXPECT_TRUE(descending(t.lambda));
  EXPECT_EQ(t.lambda[0], 3.0);
  EXPECT_EQ(t.lambda[3], 0.5);
  EXPECT_EQ(parse_spectrum("spiked:n=3,spikes=4/3/2,floor=1").lambda[2], 2.0);  // spikes == n
}

TEST(Spectrum, PowerLaw) {
  const auto s = parse_spectrum("power:n=64,exp=1.5,scale=2");
  ASSERT_EQ(s.n(), 64);
  for (int i = 0; i < 64; ++i) EXPECT_DOUBLE_EQ(s.lambda[i], 2.0 * std::pow(i + 1.0, -1.5));
  EXPECT_TRUE(descending(s.lambda));
  EXPECT_EQ(s.spec, "power:n=64,exp=1.5,scale=2");
  EXPECT_EQ(parse_spectrum("power:n=4,exp=0").lambda, Vec::Ones(4));
}

TEST(Spectrum, ListSortedDescending) {
  const auto s = parse_spectrum("list:1/10/2/5");
  EXPECT_EQ(s.kind, "list");
  EXPECT_EQ(s.lambda, (Vec(4) << 10, 5, 2, 1).finished());
  EXPECT_EQ(s.spec, "list:10/5/2/1");
  EXPECT_EQ(akm::spectrum_from_eigenvalues(Vec::LinSpaced(3, 1, 3)).spec, "list:3/2/1");
}

TEST(Spectrum, WhitespaceAndKeyOrderDoNotMatter) {
  EXPECT_EQ(parse_spectrum(" spiked: floor=1 , spikes=3 ,n=4 ").spec,
            parse_spectrum("spiked:n=4,spikes=3,floor=1").spec);
}

TEST(Spectrum, NormalizedSpecReparsesToTheSame) {
  for (const char* spec : {"iso:n=7,scale=0.1", "spiked:n=9,spikes=7/3,floor=0.5,basis=random",
                           "power:n=33,exp=0.75", "list:3/2.5/1e-3"}) {
    const auto a = parse_spectrum(spec, 5);
    const auto b = parse_spectrum(a.spec, 5);
    EXPECT_EQ(a.spec, b.spec) << spec;
    EXPECT_EQ(a.lambda, b.lambda) << spec;
    EXPECT_EQ(a.basis, b.basis) << spec;
  }
}

TEST(Spectrum, RandomBasisIsOrthogonalAndSeeded) {
  const auto s = parse_spectrum("power:n=50,exp=1,basis=random", 17);
  EXPECT_TRUE(s.random_basis);
  EXPECT_EQ(s.spec, "power:n=50,exp=1,scale=1,basis=random");
  const Mat& u = s.basis;
  EXPECT_LT((u.transpose() * u - Mat::Identity(50, 50)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((u * u.transpose() - Mat::Identity(50, 50)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_EQ(u, parse_spectrum("power:n=50,exp=1,basis=random", 17).basis);
  EXPECT_NE(u, parse_spectrum("power:n=50,exp=1,basis=random", 18).basis);
  EXPECT_EQ(u, akm::haar_orthogonal(50, 17));
  EXPECT_TRUE(parse_spectrum("iso:n=4,basis=identity").basis_matrix().isIdentity(0.0));
}

// Mezzadri's sign fix makes the law Haar; without it E[U_11] would be biased to > 0. Over
// 4000 seeds the mean of each diagonal entry of a 3×3 U must be 0 (Var U_ij = 1/3).
TEST(Spectrum, HaarDiagonalHasZeroMean) {
  const int reps = 4000;
  Eigen::Vector3d mean = Eigen::Vector3d::Zero();
  for (int r = 0; r < reps; ++r) mean += akm::haar_orthogonal(3, r).diagonal() / reps;
  EXPECT_LT(mean.cwiseAbs().maxCoeff(), 5.0 * std::sqrt(1.0 / 3.0 / reps));
}

TEST(Spectrum, Covariance) {
  const auto d = parse_spectrum("list:3/2/1");
  EXPECT_EQ(d.covariance(), Mat(d.lambda.asDiagonal()));
  const auto r = parse_spectrum("list:3/2/1,basis=random", 4);
  const Mat c = r.covariance();
  EXPECT_LT((c - c.transpose()).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_NEAR(c.trace(), 6.0, 1e-12);
  for (int i = 0; i < 3; ++i)  // C u_i = λ_i u_i
    EXPECT_LT((c * r.basis.col(i) - r.lambda[i] * r.basis.col(i)).norm(), 1e-12);
}

struct SpectrumBad {
  const char* spec;
  const char* param;
  const char* value;
};

TEST(Spectrum, BadSpecsNameParameterAndValue) {
  const std::vector<SpectrumBad> bad{
      {"", "spectrum", "\"\""},
      {"gauss:n=4", "spectrum kind", "gauss"},
      {"iso:n=4,m=3", "spectrum.m", "3"},
      {"iso:n=4,n=5", "spectrum.n", "5"},
      {"iso:scale=2", "spectrum.n", "missing"},
      {"iso:n=0", "spectrum.n", "0"},
      {"iso:n=2.5", "spectrum.n", "2.5"},
      {"iso:n=-3", "spectrum.n", "-3"},
      {"iso:n=65537", "spectrum.n", "65537"},
      {"iso:n=abc", "spectrum.n", "abc"},
      {"iso:n=4,scale=0", "spectrum.scale", "0"},
      {"iso:n=4,scale=-1", "spectrum.scale", "-1"},
      {"iso:n=4,scale=nan", "spectrum.scale", "nan"},
      {"iso:n=4,scale=1x", "spectrum.scale", "1x"},
      {"spiked:n=2,spikes=3/2/1,floor=1", "spectrum.spikes", "3/2/1"},
      {"spiked:n=4,spikes=3/nan,floor=1", "spectrum.spikes", "nan"},
      {"spiked:n=4,spikes=3//2,floor=1", "spectrum.spikes", "\"\""},
      {"spiked:n=4,floor=1", "spectrum.spikes", "missing"},
      {"spiked:n=4,spikes=3", "spectrum.floor", "missing"},
      {"spiked:n=4,spikes=3,floor=inf", "spectrum.floor", "inf"},
      {"power:n=4", "spectrum.exp", "missing"},
      {"power:n=4,exp=-1", "spectrum.exp", "-1"},
      {"power:n=4,exp=2,scale=-2", "spectrum.scale", "-2"},
      {"list:3/-1/2", "spectrum.list", "-1"},
      {"list:3/0/2", "spectrum.list", "0"},
      {"list:3/inf", "spectrum.list", "inf"},
      {"list", "spectrum.list", "missing"},
      {"list:3/2,basis=rand", "spectrum.basis", "rand"},
      {"iso:n=4,basis=", "spectrum.basis", "\"\""},
      {"iso:n=4,scale", "spectrum", "scale"},
      {"iso:n=5000,basis=random", "spectrum.basis", "random"},
  };
  for (const auto& b : bad) {
    try {
      parse_spectrum(b.spec);
      ADD_FAILURE() << "accepted bad spec: " << b.spec;
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(e.param(), b.param) << b.spec << " -> " << msg;
      EXPECT_NE(msg.find(b.param), std::string::npos) << b.spec << " -> " << msg;
      EXPECT_NE(msg.find(b.value), std::string::npos) << b.spec << " -> " << msg;
      EXPECT_NE(msg.find("is invalid: "), std::string::npos) << msg;
    }
  }
}

TEST(Spectrum, LimitsAreStated) {
  try {
    parse_spectrum("iso:n=70000");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("65536"), std::string::npos) << e.what();
  }
  try {
    parse_spectrum("zeta:n=1");
    FAIL();
  } catch (const InputError& e) {
    for (const char* k : {"iso", "spiked", "power", "list"})
      EXPECT_NE(std::string(e.what()).find(k), std::string::npos) << e.what();
  }
}

TEST(Errors, MessageFormatAndValidators) {
  EXPECT_STREQ(InputError("beta", "1.5", "must be in [0, 1)").what(),
               "beta = 1.5 is invalid: must be in [0, 1)");
  EXPECT_EQ(akm::show(0.1), "0.1");
  EXPECT_EQ(akm::show(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(std::stod(akm::show(1.0 / 3.0)), 1.0 / 3.0);
  const double nan = std::nan(""), inf = INFINITY;
  EXPECT_NO_THROW(akm::require_beta(0.0));
  EXPECT_NO_THROW(akm::require_beta(0.999));
  for (double b : {1.0, -0.1, nan, inf}) EXPECT_THROW(akm::require_beta(b), InputError) << b;
  try {
    akm::require_beta(1.5);
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "beta = 1.5 is invalid: must be in [0, 1)");
    EXPECT_EQ(e.param(), "beta");
  }
  EXPECT_NO_THROW(akm::require_eta(1e-9));
  for (double x : {0.0, -1.0, nan, inf}) {
    EXPECT_THROW(akm::require_eta(x), InputError) << x;
    EXPECT_THROW(akm::require_alpha(x), InputError) << x;
  }
  EXPECT_NO_THROW(akm::require_alpha(3.0));
  EXPECT_NO_THROW(akm::require_finite("x", -1e300));
  EXPECT_THROW(akm::require_finite("x", nan), InputError);
  EXPECT_THROW(akm::require_finite("x", -inf), InputError);
  EXPECT_NO_THROW(akm::require_at_least("trials", 2, 2));
  try {
    akm::require_at_least("trials", 1, 2);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "trials = 1 is invalid: must be >= 2");
  }
}

TEST(Spectrum, FromEigenvaluesValidates) {
  EXPECT_THROW(akm::spectrum_from_eigenvalues(Vec()), InputError);
  EXPECT_THROW(akm::spectrum_from_eigenvalues((Vec(2) << 1, std::nan("")).finished()), InputError);
  EXPECT_THROW(akm::spectrum_from_eigenvalues((Vec(2) << 1, -2).finished()), InputError);
}

}  // namespace
