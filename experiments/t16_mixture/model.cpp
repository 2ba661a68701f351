// T16 mixture — the model: key variants, the transport and tracking runs, the family
// checks, matrix powers, and the raw key's moments by a separate Monte Carlo.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "akm/rules/kernels.hpp"
#include "t16_mixture.hpp"

namespace akm::exp::t16 {

Variant make_variant(Key key, double eta, const Mat& S, const Mat& G) {
  const Eigen::SelfAdjointEigenSolver<Mat> es(S);
  Variant v{key, eta, S, G, es.eigenvalues().reverse(), es.eigenvectors().rowwise().reverse(), Mat(), std::string()};
  return v;
}

McResult transport(ExperimentContext& ctx, const KeySampler& law, const Variant& v, const Mat& B1,
                   std::uint64_t seed, long long R) {
  const int n = law.n(), C = law.components();
  const TLayout L{n, C};
  auto kernel = [&](long long trial, double* out) {
    Stream keys(seed, static_cast<std::uint64_t>(trial), Purpose::keys);
    Mat P = Mat::Identity(n, n);
    Vec x(n), w(n), k(n), r(n);
    std::size_t l = 0;
    for (int t = 1; t <= kSteps; ++t) {
      law.draw(keys, x, w);
      kern::key_for(v.key, x, k);
      kern::transport_step(P, k, kBeta, v.eta, r);
      if (l < kLags.size() && t == kLags[l]) {
        const Mat Q = v.V.transpose() * P * v.V;
        for (int j = 0; j < n; ++j) out[L.diag(l, j)] = Q(j, j);
        if (l == kOffLag)
          for (int c = 0; c < n; ++c)
            for (int rr = 0; rr < n; ++rr) out[L.off(rr, c)] = Q(rr, c);
        for (int c = 0; c < C; ++c) out[L.comp(l, c)] = B1.col(c).dot(P * B1.col(c));
        ++l;
      }
    }
  };
  return monte_carlo(ctx.mc(R, fmt::format("T16 transport {}", to_string(v.key))), L.size(), kernel);
}

McResult tracking(ExperimentContext& ctx, const KeySampler& law, const Variant& v, const Vec& a,
                  std::uint64_t seed, long long R) {
  const int n = law.n();
  auto kernel = [&](long long trial, double* out) {
    Stream keys(seed, static_cast<std::uint64_t>(trial), Purpose::keys);
    Stream noise(seed, static_cast<std::uint64_t>(trial), Purpose::noise);
    Mat M = Mat::Zero(1, n);
    Vec x(n), w(n), k(n), r(1), delta(1);
    for (int t = 1; t <= kSteps; ++t) {
      law.draw(keys, x, w);
      delta[0] = a.dot(x) / x.norm() + kNoise * noise.normal();
      kern::key_for(v.key, x, k);
      kern::ak_step(M, delta, k, kBeta, v.eta, r);
      const Vec proj = v.V.transpose() * M.row(0).transpose();
      for (int j = 0; j < n; ++j) out[static_cast<std::size_t>(t - 1) * n + j] = proj[j];
    }
  };
  return monte_carlo(ctx.mc(R, fmt::format("T16 tracking {}", to_string(v.key))),
                     static_cast<std::size_t>(kSteps) * n, kernel);
}

std::size_t family(ExperimentContext& ctx, const std::string& name, const std::vector<double>& pred,
                   const std::vector<double>& mean, const std::vector<double>& se, const std::vector<double>& alt,
                   const std::string& alt_label) {
  double worst = -1, best_sep = -1;
  std::size_t w = 0, js = 0;
  for (std::size_t i = 0; i < pred.size(); ++i) {
    const double z = std::abs(mean[i] - pred[i]) / se[i];
    if (z > worst) worst = z, w = i;
    const double sep = std::abs(alt[i] - pred[i]) / se[i];
    if (sep > best_sep) best_sep = sep, js = i;
  }
  ctx.checks.mc_family(name, pred[w], mean[w], se[w], static_cast<long long>(pred.size()));
  ctx.checks.against(pred[w] + (alt[js] - pred[js]) * se[w] / se[js], alt_label + " (most separated entry)");
  return w;
}

Checks& matrix_family(ExperimentContext& ctx, const std::string& name, const Mat& exact, const Mat& mc, const Mat& se,
                      const Mat& alt, const std::string& alt_label) {
  std::vector<double> p, m, e, a;
  for (Eigen::Index c = 0; c < exact.cols(); ++c)
    for (Eigen::Index r = 0; r <= c; ++r)
      p.push_back(exact(r, c)), m.push_back(mc(r, c)), e.push_back(se(r, c)), a.push_back(alt(r, c));
  family(ctx, name, p, m, e, a, alt_label);
  return ctx.checks;
}

Mat matrix_power(const Mat& F, int k) {
  Mat P = Mat::Identity(F.rows(), F.cols());
  for (int t = 0; t < k; ++t) P = P * F;
  return P;
}

RawMoments raw_moments(const KeySampler& law, long long N, std::uint64_t seed) {
  const int n = law.n();
  Stream st(seed, 0, Purpose::aux);
  Vec x(n), w(n);
  Mat sum = Mat::Zero(n, n), sq = Mat::Zero(n, n);
  double e = 0, e2 = 0;
  for (long long t = 0; t < N; ++t) {
    const int c = law.draw(st, x, w);
    const Mat p = x * x.transpose();
    sum += p, sq += p.cwiseAbs2();
    const double v = c == kLarge ? x.squaredNorm() : 0.0;
    e += v, e2 += v * v;
  }
  const double dn = static_cast<double>(N);
  RawMoments r;
  r.cov = sum / dn;
  r.cov_se = ((sq / dn - r.cov.cwiseAbs2()).cwiseMax(0.0) / (dn - 1)).cwiseSqrt();
  r.large_energy = e / dn;
  r.large_energy_se = std::sqrt(std::max(e2 / dn - r.large_energy * r.large_energy, 0.0) / (dn - 1));
  return r;
}

}  // namespace akm::exp::t16
