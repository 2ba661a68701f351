// glm_moments — the logistic teacher's GLM moments by simulation [app:glm].
#include "akm/sim/glm_moments.hpp"

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/sim.hpp"

namespace akm::logistic {

namespace {

// Observable layout of one batch: Ĝ (n), then K and Σ̂ (n each, or n(n+1)/2 each: the upper
// triangle column by column).
std::size_t tri(int n) { return static_cast<std::size_t>(n) * (n + 1) / 2; }

void unpack(const Vec& v, std::size_t off, int n, bool full, Mat& out) {
  out = Mat::Zero(n, n);
  if (!full) {
    for (int i = 0; i < n; ++i) out(i, i) = v[static_cast<Eigen::Index>(off) + i];
    return;
  }
  std::size_t o = off;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i, ++o) out(i, j) = out(j, i) = v[static_cast<Eigen::Index>(o)];
}

}  // namespace

GlmMoments estimate_glm_moments(const Teacher& teacher, ConstVecRef w,
                                const GlmMomentOptions& opts) {
  const int n = teacher.n();
  if (w.size() != n)
    throw InputError("w.size", std::to_string(w.size()),
                     fmt::format("must equal the key dimension {}", n));
  require_at_least("glm_moments.batch", opts.batch, 1);
  require_at_least("glm_moments.samples", opts.samples, 2 * opts.batch);
  const long long batches = (opts.samples + opts.batch - 1) / opts.batch;
  const std::size_t per = opts.full ? tri(n) : static_cast<std::size_t>(n);
  const std::size_t n_obs = static_cast<std::size_t>(n) + 2 * per;
  const Vec wv = w;

  auto kernel = [&](long long b, double* out) {
    Stream keys(opts.seed, static_cast<std::uint64_t>(b), Purpose::keys);
    const Eigen::Index B = opts.batch;
    Mat Xh(B, n);
    Vec g = Vec::Zero(n), kw(B), x(n);
    for (Eigen::Index r = 0; r < B; ++r) {
      teacher.key(keys, x);
      const double nr = x.norm();
      const double zs = teacher.w_star().dot(x);
      Xh.row(r) = x.transpose() / nr;
      g += (sigmoid(wv.dot(x)) - sigmoid(zs)) * Xh.row(r).transpose();
      kw[r] = sigmoid_d1(zs) * nr;  // σ'(w*ᵀx)‖x‖: the weight of x̂x̂ᵀ in K
    }
    const double inv = 1.0 / static_cast<double>(B);
    for (int i = 0; i < n; ++i) out[i] = g[i] * inv;
    double* ko = out + n;
    double* so = out + n + per;
    if (opts.full) {
      const Mat K = Xh.transpose() * kw.asDiagonal() * Xh * inv;
      const Mat S = Xh.transpose() * Xh * inv;
      std::size_t o = 0;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i <= j; ++i, ++o) ko[o] = K(i, j), so[o] = S(i, j);
    } else {
      for (int i = 0; i < n; ++i) {
        ko[i] = (kw.array() * Xh.col(i).array().square()).sum() * inv;
        so[i] = Xh.col(i).squaredNorm() * inv;
      }
    }
  };
  McOptions mo;
  mo.trials = batches;
  mo.threads = opts.threads;
  const McResult res = monte_carlo(mo, n_obs, kernel);
  const Vec mean = res.total.mean(), se = res.total.stderr_mean();

  GlmMoments out;
  out.samples = batches * opts.batch;
  out.g_hat = mean.head(n);
  out.g_hat_se = se.head(n);
  unpack(mean, n, n, opts.full, out.k);
  unpack(se, n, n, opts.full, out.k_se);
  unpack(mean, n + per, n, opts.full, out.sigma_hat);
  unpack(se, n + per, n, opts.full, out.sigma_hat_se);
  return out;
}

}  // namespace akm::logistic
