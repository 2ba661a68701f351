// The data-set key law (akm/spectrum/data_keys.hpp): parsing CSVs, refusing bad ones, and a
// sampler whose empirical Σ̂ over many draws is the exact finite-sample Σ̂.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <Eigen/Eigenvalues>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/spectrum/data_keys.hpp"
#include "akm/spectrum/spectrum.hpp"

namespace {

namespace fs = std::filesystem;

std::string write_data_file(const std::string& name, const std::string& text) {
  const fs::path dir = fs::path(AKM_TEST_TMP) / "real_data";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

std::string data_keys_error(const std::string& spec) {
  try {
    akm::DataKeys d(akm::parse_data_keys(spec));
    return "";
  } catch (const akm::InputError& e) {
    return e.what();
  }
}

TEST(RealData, ParsesCsvWithHeaderCommentsAndWhitespace) {
  const std::string p = write_data_file("ok.csv", "a,b,c\n1, 2 ,3\n# comment\n\n4,5,7\n2,2,2\n");
  const akm::Mat X = akm::read_numeric_table(p, true, false, false, "ok");
  ASSERT_EQ(X.rows(), 3);
  ASSERT_EQ(X.cols(), 3);
  EXPECT_EQ(X(1, 2), 7.0);
  const std::string q = write_data_file("ws.txt", "1 2\t3\n4 5 6\n");
  const akm::Mat Y = akm::read_numeric_table(q, false, true, false, "ws");  // label dropped
  ASSERT_EQ(Y.cols(), 2);
  EXPECT_EQ(Y(1, 1), 5.0);
  const auto spec = akm::parse_data_keys("data:" + p + ",header,standardize");
  EXPECT_TRUE(spec.header);
  EXPECT_TRUE(spec.standardize);
  EXPECT_FALSE(spec.builtin);
}

TEST(RealData, BadInputsAreRefusedWithFileAndLine) {
  const std::string bad = write_data_file("bad.csv", "1,2\n3,x\n");
  EXPECT_NE(data_keys_error("data:" + bad).find("bad.csv:2"), std::string::npos) << data_keys_error("data:" + bad);
  const std::string ragged = write_data_file("ragged.csv", "1,2\n3,4\n5\n");
  EXPECT_NE(data_keys_error("data:" + ragged).find("ragged.csv:3"), std::string::npos);
  const std::string empty = write_data_file("empty.csv", "h1,h2\n");
  EXPECT_NE(data_keys_error("data:" + empty + ",header").find("no"), std::string::npos);
  const std::string constant = write_data_file("const.csv", "1,5\n2,5\n4,5\n");
  EXPECT_NE(data_keys_error("data:" + constant + ",standardize").find("column 2 is constant"), std::string::npos);
  EXPECT_EQ(data_keys_error("data:" + constant), "");  // centring only: the constant column is dropped
  EXPECT_NE(data_keys_error("data:/nonexistent/x.csv").find("/nonexistent/x.csv"), std::string::npos);
  EXPECT_THROW(akm::parse_data_keys("data:"), akm::InputError);
  EXPECT_THROW(akm::parse_data_keys("data:wine,bogus"), akm::InputError);
  EXPECT_THROW(akm::parse_data_keys("gaussian"), akm::InputError);
}

TEST(RealData, MissingBuiltinNamesDataSetPathAndPackage) {
  setenv("AKM_SKLEARN_DATA", "/nonexistent-sklearn", 1);
  const std::string e = data_keys_error("data:wine");
  unsetenv("AKM_SKLEARN_DATA");
  EXPECT_NE(e.find("wine"), std::string::npos) << e;
  EXPECT_NE(e.find("/nonexistent-sklearn/wine_data.csv"), std::string::npos) << e;
  EXPECT_NE(e.find("install python3-sklearn"), std::string::npos) << e;
}

TEST(RealData, StandardizeAndEigenbasis) {
  akm::Mat X(5, 3);
  X << 1, 100, 0.01, 2, 300, 0.03, 4, 200, 0.02, 3, 500, 0.07, 5, 400, 0.02;
  const akm::DataKeys raw(X, false, "raw"), st(X, true, "st");
  // Standardized columns: the covariance is the correlation matrix, trace = 3.
  EXPECT_NEAR(st.lambda().sum(), 3.0, 1e-12);
  // Centred only: trace = Σ column variances, dominated by the second column.
  const akm::Mat Xc = X.rowwise() - X.colwise().mean();
  EXPECT_NEAR(raw.lambda().sum(), Xc.squaredNorm() / 5.0, 1e-9);
  // Drawing coordinates are the covariance eigenbasis: E[xxᵀ] = diag(λ).
  const akm::Mat C = st.covariance();
  EXPECT_NEAR((C - akm::Mat(st.lambda().asDiagonal())).cwiseAbs().maxCoeff(), 0.0, 1e-12);
  EXPECT_NEAR(st.sigma_hat().trace(), 1.0, 1e-12);
}

TEST(RealData, BuiltinsLoadWhenInstalled) {
  const auto spec = akm::parse_data_keys("data:iris");
  // R1 needs these files, so their absence is a failure here too, not a skip (.ci/deps.sh
  // installs python3-sklearn).
  ASSERT_TRUE(fs::exists(spec.path)) << "python3-sklearn not installed: " << spec.path;
  const akm::DataKeys d(spec);
  EXPECT_EQ(d.rows(), 150);
  EXPECT_EQ(d.n(), 4);
  const akm::DataKeys digits(akm::parse_data_keys("data:digits"));
  EXPECT_EQ(digits.rows(), 1797);
  EXPECT_EQ(digits.columns(), 64);
  EXPECT_LT(digits.n(), 64);  // constant border pixels span nothing
  const akm::DataKeys diabetes(akm::parse_data_keys("data:diabetes,standardize"));
  EXPECT_EQ(diabetes.rows(), 442);
  EXPECT_EQ(diabetes.n(), 10);
}

// `--spectrum data:…` (theory, phase, explore, akm.spectrum) is the data set's covariance
// spectrum: the same eigenvalues the key law draws in, and the spec's own refusals named
// "spectrum" (the flag the user typed), not "keys".
TEST(RealData, DataSpecIsASpectrum) {
  const std::string csv = write_data_file("spectrum.csv", "1,2\n2,1\n4,5\n3,3\n");
  const akm::Spectrum s = akm::parse_spectrum("data:" + csv + ",standardize");
  const akm::DataKeys d(akm::parse_data_keys("data:" + csv + ",standardize"));
  EXPECT_EQ(s.kind, "data");
  EXPECT_EQ(s.spec, "data:" + csv + ",standardize");
  ASSERT_EQ(s.n(), d.n());
  for (int i = 0; i < s.n(); ++i) EXPECT_EQ(s.lambda[i], d.lambda()[i]);
  try {
    akm::parse_spectrum("data:" + csv + ",bogus");
    FAIL() << "an unknown option was accepted";
  } catch (const akm::InputError& e) {
    EXPECT_EQ(e.param(), "spectrum");
    EXPECT_NE(std::string(e.what()).find("standardize, header"), std::string::npos) << e.what();
  }
  EXPECT_THROW(akm::parse_spectrum("data:/nonexistent/x.csv"), akm::InputError);
}

// The sampler's empirical Σ̂ over D draws agrees entrywise with the exact (1/N)Σ x̂x̂ᵀ within
// z·se, se from the exact per-draw variance of x̂_i x̂_j; Bonferroni over the n(n+1)/2 entries
// at family false-alarm rate 1e-6 (z = 6.1 covers 10 entries with room).
TEST(RealData, SamplerSigmaHatMatchesExactFiniteSample) {
  akm::Mat X(7, 3);
  X << 1, 0, 2, -1, 3, 0, 2, 2, 1, 0, -2, 5, 3, 1, -1, -4, 0, 2, 1, 1, 1;
  const akm::DataKeys d(X, true, "small");
  const akm::Mat S = d.sigma_hat();
  const int n = d.n(), N = d.rows();
  akm::Mat second = akm::Mat::Zero(n, n);  // exact E[(x̂_i x̂_j)²]
  for (int s = 0; s < N; ++s) {
    const akm::Vec u = d.keys().row(s).transpose().normalized();
    second += (u * u.transpose()).cwiseAbs2() / N;
  }
  const long long D = 200000;
  akm::Stream st(42, 0);
  akm::Mat acc = akm::Mat::Zero(n, n);
  akm::Vec x(n);
  for (long long t = 0; t < D; ++t) {
    d.draw(st, x);
    const akm::Vec u = x.normalized();
    acc += u * u.transpose();
  }
  acc /= static_cast<double>(D);
  const double z = 6.1;
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      const double se = std::sqrt((second(i, j) - S(i, j) * S(i, j)) / D);
      EXPECT_LE(std::abs(acc(i, j) - S(i, j)), z * se + 1e-15) << i << "," << j;
    }
  // And the test can fail: a sampler using only the first N−1 rows is detected.
  const akm::DataKeys short_d(X.topRows(6), true, "short");
  const akm::Mat S2 = short_d.sigma_hat();
  EXPECT_GT((S2 - S).cwiseAbs().maxCoeff(), 0.0);
}

}  // namespace
