// One-sided Monte-Carlo ceilings (akm/check/one_sided.hpp): z from counts, power against a
// violated ceiling, no alarm for a mean on or under it.
#include <cmath>

#include <gtest/gtest.h>

#include "akm/check/check.hpp"
#include "akm/base/errors.hpp"
#include "akm/check/one_sided.hpp"

TEST(OneSided, ZCountsTheRunsMonteCarloComparisons) {
  akm::Checks c(1e-6);
  c.mc("a", 0, 0, 1);
  c.mc_family("b", 0, 0, 1, 9);
  c.exact("c", 1, 1);
  c.at_most("d", 1, 0);
  EXPECT_EQ(akm::mc_comparisons(c), 10);
  EXPECT_DOUBLE_EQ(akm::one_sided_z(c, 5), akm::z_two_sided(1e-6 / 15.0));
  EXPECT_THROW(akm::one_sided_z(c, 0), akm::InputError);
}

TEST(OneSided, PassesOnOrUnderTheCeilingFailsAboveIt) {
  akm::Checks c(1e-6);
  const double z = 5.0;
  akm::mc_at_most(c, "under", 1.0, 0.8, 0.01, z);
  akm::mc_at_most(c, "on, noise up by 4 se", 1.0, 1.04, 0.01, z);
  akm::mc_at_most(c, "above by 10 se", 1.0, 1.10, 0.01, z);
  c.finalize();
  EXPECT_TRUE(c.records()[0].pass);
  EXPECT_TRUE(c.records()[1].pass);
  EXPECT_FALSE(c.records()[2].pass);
  EXPECT_NEAR(c.records()[1].measured, 1.04 - 0.05, 1e-15);
}

TEST(OneSided, BadInputIsRefused) {
  akm::Checks c;
  EXPECT_THROW(akm::mc_at_most(c, "x", 1, 0, -1, 5), akm::InputError);
  EXPECT_THROW(akm::mc_at_most(c, "x", 1, 0, NAN, 5), akm::InputError);
  EXPECT_THROW(akm::mc_at_most(c, "x", 1, 0, 0.1, 0), akm::InputError);
}
