// T9 high-dim — the data sets: keys, values, the record grid and the queried directions.
#include <cmath>

#include "t09_high_dim.hpp"

namespace akm::exp::t09 {

std::vector<int> record_grid() {
  return {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 150, 175, kSteps};
}

namespace {
// Spikes scale with p so that they carry a fixed share of tr Σ (λ̂ ≈ 0.2, 0.09, 0.035 on the
// data sets) while the floor spreads the rest over the span: the queried spectrum spans 2–3.5
// decades.
std::string spec_for(int p) {
  return fmt::format("spiked:n={},spikes={}/{}/{},floor=1", p, 0.5 * p, 0.15 * p, 0.05 * p);
}
}  // namespace

DataSet make_keys(const Shape& sh, std::uint64_t seed) {
  DataSet d{sh, spec_for(sh.p), {}, {}, {}, {}};
  const Spectrum sp = parse_spectrum(d.spec);
  Stream draw(derive_seed(seed, "T9/keys/" + shape_name(sh)), 0, Purpose::data);
  d.X.resize(sh.p, sh.n_s);
  for (int s = 0; s < sh.n_s; ++s)
    for (int i = 0; i < sh.p; ++i) d.X(i, s) = std::sqrt(sp.lambda[i]) * draw.normal();
  d.norms = d.X.colwise().norm().transpose();
  d.K_hat = normalize_columns(d.X);
  return d;
}

// δ_s = A x_s + ξ_s. Row 0 of A is a generic teacher (N(0,1)/√p entries). A generic row puts
// only a share ≈ λ̂_k of its variance on u_k, so the low-λ̂ span directions would be measured
// with a per-trial signal-to-noise ≈ √λ̂_k, too little to test them; row 1 therefore reads
// the middle and bottom span coordinates, A_1 = (u_mid/√λ̂_mid + u_bot/√λ̂_bot)/‖x‖_rms (each
// term of rms ≈ 1). The predictions hold for any fixed A, data-dependent or not.
Mat value_rows(const DataSet& d, const Vec& u_mid, double lam_mid, const Vec& u_bot, double lam_bot,
               std::uint64_t seed) {
  const std::string tag = shape_name(d.shape);
  Mat A = value_map(kM, d.shape.p, derive_seed(seed, "T9/A/" + tag)) / std::sqrt(static_cast<double>(d.shape.p));
  const double x_rms = std::sqrt(d.norms.squaredNorm() / static_cast<double>(d.shape.n_s));
  A.row(1) = (u_mid / std::sqrt(lam_mid) + u_bot / std::sqrt(lam_bot)).transpose() / x_rms;
  Stream noise(derive_seed(seed, "T9/xi/" + tag), 0, Purpose::noise);
  Mat Delta = A * d.X;
  for (int s = 0; s < d.shape.n_s; ++s)
    for (int r = 0; r < kM; ++r) Delta(r, s) += kNoise * noise.normal();
  return Delta;
}

double window_factor(double b) {
  double acc = 0;
  for (int t = kWindowStart; t <= kSteps; ++t) acc += 1.0 - std::pow(b, t);
  return acc / kWindow;
}

std::vector<Direction> queried_directions(int rank) {
  return {{0, "top1"}, {1, "top2"}, {2, "top3"}, {rank / 2, "middle"}, {rank - 1, "bottom"}};
}

}  // namespace akm::exp::t09
