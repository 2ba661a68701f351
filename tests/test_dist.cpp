// dist without a launcher (any build): one process, rank 0 of 1, no collectives; the block
// split covers the items exactly once; TrialStats travel between ranks without changing a
// bit. The multi-rank exactness itself is tests/mpi_exact.sh (mpirun -np 2 and 3).
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "akm/sim/dist.hpp"
#include "akm/base/progress.hpp"
#include "akm/sim/sim.hpp"

namespace {

TEST(Dist, WithoutLauncherIsOneProcess) {
  // The test binary never calls dist::init (as a program started without mpirun).
  EXPECT_EQ(akm::dist::rank(), 0);
  EXPECT_EQ(akm::dist::size(), 1);
  EXPECT_TRUE(akm::dist::root());
  EXPECT_FALSE(akm::dist::collective_here());
  EXPECT_TRUE(akm::dist::agree(true));
  EXPECT_FALSE(akm::dist::agree(false));
  const std::vector<double> mine{1.5, -2.0};
  EXPECT_EQ(akm::dist::allgather(mine, {2}), mine);
  EXPECT_THROW(akm::dist::allgather(mine, {3}), std::invalid_argument);
}

TEST(Dist, BlocksCoverEveryItemOnceInRankOrder) {
  for (long long n = 0; n <= 40; ++n)
    for (int k = 1; k <= 7; ++k) {
      long long next = 0, lo_size = n, hi_size = 0;
      for (int r = 0; r < k; ++r) {
        const auto [b, e] = akm::dist::block(n, r, k);
        EXPECT_EQ(b, next) << n << " " << k << " " << r;
        EXPECT_LE(b, e);
        lo_size = std::min(lo_size, e - b);
        hi_size = std::max(hi_size, e - b);
        next = e;
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(hi_size - lo_size, 1);
    }
}

akm::TrialStats some_stats(std::size_t n, int trials, double shift) {
  akm::TrialStats s(n);
  std::vector<double> x(n);
  for (int t = 0; t < trials; ++t) {
    for (std::size_t j = 0; j < n; ++j) x[j] = shift + 0.1 * t * t - 0.37 * static_cast<double>(j) / (t + 1.0);
    s.add(x.data());
  }
  return s;
}

bool same_bits(const akm::Vec& a, const akm::Vec& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

TEST(Dist, TrialStatsPackIsExact) {
  const std::size_t n = 5;
  const akm::TrialStats a = some_stats(n, 17, 1e-3), b = some_stats(n, 9, 3.0);
  std::vector<double> buf(akm::TrialStats::packed_size(n));
  a.pack(buf.data());
  const akm::TrialStats a2 = akm::TrialStats::unpack(buf.data(), n);
  EXPECT_EQ(a2.count(), a.count());
  EXPECT_TRUE(same_bits(a2.mean(), a.mean()));
  EXPECT_TRUE(same_bits(a2.variance(), a.variance()));
  EXPECT_TRUE(same_bits(a2.skewness_of_mean(), a.skewness_of_mean()));
  // Folding the unpacked copy gives the same bits as folding the original.
  akm::TrialStats x = b, y = b;
  x.merge(a);
  y.merge(a2);
  EXPECT_TRUE(same_bits(x.mean(), y.mean()));
  EXPECT_TRUE(same_bits(x.variance(), y.variance()));
  EXPECT_TRUE(same_bits(x.skewness_of_mean(), y.skewness_of_mean()));
}

TEST(Progress, CounterLineShowsCountPercentAndEta) {
  akm::CountProgress p("akm phase --measure", "points", false);
  EXPECT_EQ(p.line(0, 40, 0.0), "akm phase --measure: 0/40 points (0%) · elapsed 0 s");
  EXPECT_EQ(p.line(10, 40, 30.0), "akm phase --measure: 10/40 points (25%) · elapsed 30 s · ETA ~1 min 30 s");
  EXPECT_EQ(p.line(40, 40, 120.0), "akm phase --measure: 40/40 points (100%) · elapsed 2 min 00 s");
  p.update(1, 2);  // disabled: draws nothing, never throws
}

}  // namespace
