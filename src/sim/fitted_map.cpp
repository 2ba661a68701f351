// fitted_map — see akm/sim/fitted_map.hpp.
#include "akm/sim/fitted_map.hpp"

#include "akm/theory/theory.hpp"

namespace akm {

Mat2 fitted_map(const double* q) {
  Mat2 S00, S10;
  S00 << q[0], q[1], q[1], q[2];
  S10 << q[3], q[4], q[5], q[6];
  return S10 * S00.inverse();
}

FittedMapEstimate fit_map(const Jackknife& jack, const std::array<std::size_t, kMapMoments>& idx) {
  const auto e = jack.many(std::vector<std::size_t>(idx.begin(), idx.end()), 6,
                           [](const Vec& q, double* out) {
                             const Mat2 A = fitted_map(q.data());
                             out[0] = A(1, 0);
                             out[1] = A(1, 1);
                             out[2] = theory::spectral_radius(A);
                             out[3] = A.trace();
                             out[4] = A.determinant();
                             out[5] = theory::discriminant(A);
                           });
  return {e[0], e[1], e[2], e[3], e[4], e[5]};
}

}  // namespace akm
