// key_law_moments — Monte-Carlo moments of a key law on the deterministic engine.
#include "akm/sim/key_law_moments.hpp"

#include <algorithm>
#include <stdexcept>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/sim.hpp"

namespace akm {
namespace {

// Observables of one batch of kKeyBatch keys: batch means of the entries of x̂x̂ᵀ and
// ‖x‖x̂x̂ᵀ, diagonal only (n each) or upper triangles (n(n+1)/2 each), then, on request,
// the upper triangle of x̂²x̂²ᵀ (diagonal laws).
struct BatchLayout {
  std::size_t part;  // entries of Σ̂ (and of K)
  std::size_t quad;  // entries of Q (0 unless requested)
  std::size_t size() const { return 2 * part + quad; }
};

BatchLayout layout(const KeySampler& law, bool with_fourth) {
  const auto n = static_cast<std::size_t>(law.n());
  if (with_fourth && !law.diagonal())
    throw std::logic_error("key moments: Q = E[x̂_i²x̂_j²] is estimated for diagonal laws only");
  return {law.diagonal() ? n : n * (n + 1) / 2, with_fourth ? n * (n + 1) / 2 : 0};
}

void batch_observables(const KeySampler& law, const BatchLayout& bl, std::uint64_t seed, long long batch,
                       double* out) {
  const int n = law.n();
  std::fill(out, out + bl.size(), 0.0);
  double* K = out + bl.part;
  double* Q = out + 2 * bl.part;
  Stream s(seed, static_cast<std::uint64_t>(batch), Purpose::keys);
  Vec x(n), work(n);
  for (long long b = 0; b < kKeyBatch; ++b) {
    law.draw(s, x, work);
    const double norm = x.norm();
    x /= norm;  // x̂
    if (law.diagonal()) {
      for (int i = 0; i < n; ++i) {
        const double q = x[i] * x[i];
        out[i] += q;
        K[i] += norm * q;
      }
    } else {
      std::size_t o = 0;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i <= j; ++i, ++o) {
          const double q = x[i] * x[j];
          out[o] += q;
          K[o] += norm * q;
        }
    }
    if (bl.quad) {
      std::size_t o = 0;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i <= j; ++i, ++o) Q[o] += x[i] * x[i] * x[j] * x[j];
    }
  }
  for (std::size_t j = 0; j < bl.size(); ++j) out[j] /= static_cast<double>(kKeyBatch);
}

// Packed upper triangle (column by column) → symmetric matrix.
Mat unpack_triangle(const double* v, int n) {
  Mat S(n, n);
  std::size_t o = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i, ++o) S(i, j) = S(j, i) = v[o];
  return S;
}

// Unpacks a mean (or se) vector of batch observables into Σ̂, K and Q.
void unpack(const KeySampler& law, const BatchLayout& bl, const Vec& v, Mat& S, Mat& K, Mat& Q) {
  const int n = law.n();
  if (law.diagonal()) {
    S = Mat::Zero(n, n);
    K = Mat::Zero(n, n);
    for (int i = 0; i < n; ++i) S(i, i) = v[i], K(i, i) = v[static_cast<Eigen::Index>(bl.part) + i];
  } else {
    S = unpack_triangle(v.data(), n);
    K = unpack_triangle(v.data() + bl.part, n);
  }
  Q = bl.quad ? unpack_triangle(v.data() + 2 * bl.part, n) : Mat();
}

KeyLawMoments from_statistics(const KeySampler& law, const BatchLayout& bl, long long batches, const Vec& mean,
                              const Vec& se) {
  KeyLawMoments r;
  r.method = "monte carlo";
  r.samples = batches * kKeyBatch;
  unpack(law, bl, mean, r.sigma_hat, r.K, r.fourth);
  unpack(law, bl, se, r.sigma_hat_se, r.K_se, r.fourth_se);
  return r;
}

long long batches_for(long long samples) {
  require_at_least("keys.samples", samples, 2 * kKeyBatch);
  return (samples + kKeyBatch - 1) / kKeyBatch;
}

}  // namespace

KeyLawMoments key_law_moments(const KeySampler& law, long long mc_samples, std::uint64_t seed,
                              int threads, bool with_fourth) {
  if (law.law().kind == "student") return key_moments_mc(law, mc_samples, seed, threads, with_fourth);
  return exact_key_moments(law, with_fourth);
}

KeyLawMoments key_moments_mc(const KeySampler& law, long long samples, std::uint64_t seed,
                             int threads, bool with_fourth) {
  const long long batches = batches_for(samples);
  const BatchLayout bl = layout(law, with_fourth);
  McOptions o;
  o.trials = batches;
  o.threads = threads;
  const McResult res = monte_carlo(o, bl.size(), [&](long long b, double* out) {
    batch_observables(law, bl, seed, b, out);
  });
  return from_statistics(law, bl, batches, res.total.mean(), res.total.stderr_mean());
}

KeyLawMoments key_moments_mc_reference(const KeySampler& law, long long samples, std::uint64_t seed,
                                       bool with_fourth) {
  const long long batches = batches_for(samples);
  const BatchLayout bl = layout(law, with_fourth);
  const auto m = static_cast<Eigen::Index>(bl.size());
  std::vector<Vec> obs;
  Vec mean = Vec::Zero(m);
  for (long long b = 0; b < batches; ++b) {
    Vec v(m);
    batch_observables(law, bl, seed, b, v.data());
    mean += v;
    obs.push_back(std::move(v));
  }
  mean /= static_cast<double>(batches);
  Vec var = Vec::Zero(m);
  for (const Vec& v : obs) var += (v - mean).cwiseAbs2();
  var /= static_cast<double>(batches - 1);
  return from_statistics(law, bl, batches, mean, (var / static_cast<double>(batches)).cwiseSqrt());
}

}  // namespace akm
