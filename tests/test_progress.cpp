// Progress lines: durations read naturally and the ETA is the mean time per finished
// experiment times the number left.
#include <cmath>

#include <gtest/gtest.h>

#include "akm/base/progress.hpp"

TEST(Progress, DurationsReadNaturally) {
  EXPECT_EQ(akm::format_duration(0.4), "0 s");
  EXPECT_EQ(akm::format_duration(42), "42 s");
  EXPECT_EQ(akm::format_duration(185), "3 min 05 s");
  EXPECT_EQ(akm::format_duration(3720), "1 h 02 min");
  EXPECT_EQ(akm::format_duration(NAN), "?");
}

TEST(Progress, EtaIsMeanTimeTimesExperimentsLeft) {
  EXPECT_TRUE(std::isnan(akm::RunProgress::eta_seconds(0, 10, 5.0)));  // nothing measured yet
  EXPECT_DOUBLE_EQ(akm::RunProgress::eta_seconds(2, 10, 30.0), 120.0);
  EXPECT_DOUBLE_EQ(akm::RunProgress::eta_seconds(10, 10, 300.0), 0.0);
}
