// ops_key_law — a key law or a data set read in given coordinates (akm/sim/ops/key_law.hpp), drawn for the
// reference and cpu paths of the ops that take one.
#include "akm/sim/ops/key_law.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm::ops {

void LawKeys::validate(int n) const {
  if (law && data) throw InputError("law", "a key law and a data set", "must be one of them");
  const int m = law ? law->n() : data ? data->n() : n;
  if (m != n) throw InputError("law", std::to_string(m) + " directions", "must have n = " + std::to_string(n));
  if (!*this && coords.size() > 0)
    throw InputError("coords", "given", "need a law or a data set (an op's own keys are in their eigenbasis)");
  if (coords.size() > 0 && (coords.rows() != n || coords.cols() != n))
    throw InputError("coords", fmt::format("{}×{}", coords.rows(), coords.cols()), "must be n×n, n = " + std::to_string(n));
}

void LawKeys::draw(Stream& keys, Vec& x, Vec& work) const {
  if (law) law->draw(keys, x, work);
  else data->draw(keys, x);
  if (coords.size() > 0) x = coords.transpose() * x;  // read along coords' columns: x ↦ coordsᵀx
}

LawKeys::Batch LawKeys::batch() const {
  const int n = law ? law->n() : data->n();
  if (law)
    return [self = *this, n](std::uint64_t seed, long long trial, int steps, double* xs) {
      Stream keys(seed, std::uint64_t(trial), Purpose::keys);
      Vec x(n), work(n);
      for (int t = 0; t < steps; ++t) {
        self.draw(keys, x, work);
        std::copy(x.data(), x.data() + n, xs + std::size_t(t) * n);
      }
    };
  // A data set: its rows in coords once (row-major, so a key is one contiguous row).
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  auto rows = std::make_shared<const RowMajor>(coords.size() > 0 ? RowMajor(data->keys() * coords) : RowMajor(data->keys()));
  return [d = data, rows, n](std::uint64_t seed, long long trial, int steps, double* xs) {
    Stream keys(seed, std::uint64_t(trial), Purpose::keys);
    for (int t = 0; t < steps; ++t) {
      const double* row = rows->data() + std::size_t(d->draw_index(keys)) * n;
      std::copy(row, row + n, xs + std::size_t(t) * n);
    }
  };
}

}  // namespace akm::ops
