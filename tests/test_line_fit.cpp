// Line fits and the sign test used by T13, T15, T18–T20.
#include <gtest/gtest.h>

#include "akm/base/line_fit.hpp"
#include "../experiments/training_common.hpp"

namespace {

TEST(LineFit, WlsRecoversAnExactLineAndItsSlopeError) {
  const std::vector<double> x{0, 1, 2, 3}, y{1, 3, 5, 7}, se{1, 1, 1, 1};
  const auto f = akm::wls(x, y, se);
  EXPECT_NEAR(f.slope, 2.0, 1e-12);
  EXPECT_NEAR(f.intercept, 1.0, 1e-12);
  EXPECT_NEAR(f.se_slope, 1.0 / std::sqrt(5.0), 1e-12);  // Σ(x − x̄)² = 5
  EXPECT_NEAR(akm::ols_slope(x, y), 2.0, 1e-12);
}

TEST(TrainingSignTest, SignTestExact) {
  using akm::exp::training::sign_test_p;
  EXPECT_NEAR(sign_test_p(6, 0), 2.0 / 64, 1e-12);
  EXPECT_NEAR(sign_test_p(0, 6), 2.0 / 64, 1e-12);
  EXPECT_NEAR(sign_test_p(3, 3), 1.0, 1e-12);
  EXPECT_NEAR(sign_test_p(5, 1), 2.0 * 7 / 64, 1e-12);
  EXPECT_NEAR(sign_test_p(21, 0), 2.0 * std::pow(0.5, 21), 1e-15);
}

}  // namespace
