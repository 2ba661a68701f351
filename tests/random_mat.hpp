// A matrix of independent standard normals, filled row by row from a std::mt19937: the
// helper of the tests that check an identity on arbitrary matrices (test_rebound,
// test_quasistatic), one definition for both.
#pragma once

#include <random>

#include "akm/base/linalg.hpp"

namespace akm_test {

inline akm::Mat random_mat(std::mt19937& gen, int r, int c) {
  std::normal_distribution<double> z;
  akm::Mat m(r, c);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) m(i, j) = z(gen);
  return m;
}

}  // namespace akm_test
