// T13 mup — (A) the normalized buffer's per-coordinate scale under three η schedules, and
// (B) the raw key's stability boundaries in η [rem:mup-normalization, thm:mup-eta]; the
// schedules' closed forms.
#include <cmath>

#include <boost/math/distributions/chi_squared.hpp>
#include <fmt/format.h>

#include "akm/rules/rules.hpp"
#include "t13_mup.hpp"

namespace akm::exp::t13 {

double eta_of(int schedule, int n) {
  const double exponent[kSchedules] = {0.0, -kDecay, kGrowth};
  return kEta0 * std::pow(n / 128.0, exponent[schedule]);
}

/// Largest η of mean-square stability of the normalized buffer: ρ = β² + (η² − 2βη)/n < 1.
double eta_ms_normalized(int n) { return kBeta + std::sqrt(kBeta * kBeta + n * (1 - kBeta * kBeta)); }

/// Exact time average over t ∈ (kBurn, kBurn+kAvg] of the per-coordinate mean square.
double predicted_ms(int n, double eta) {
  const double rho = kBeta * kBeta + (eta * eta - 2 * kBeta * eta) / n;
  double s = 0;
  for (int t = kBurn + 1; t <= kBurn + kAvg; ++t) s += (eta * eta / n) * (1 - std::pow(rho, t)) / (1 - rho);
  return s / kAvg;
}

double eta_ms(int n) { return (kBeta + std::sqrt(kBeta * kBeta + (n + 2) * (1 - kBeta * kBeta))) / (n + 2); }

McResult buffer_scale(ExperimentContext& ctx, long long trials) {
  const int nw = static_cast<int>(kWidths.size());
  // The growing schedule draws from its own root, so the first two keep their streams.
  const std::uint64_t seedA = derive_seed(ctx.opts.seed, "T13/buffer"), seedG = derive_seed(ctx.opts.seed, "T13/buffer-growing");
  auto kernelA = [&](long long trial, double* out) {
    for (int sch = 0; sch < kSchedules; ++sch)
      for (int w = 0; w < nw; ++w) {
        const int n = kWidths[w];
        const double eta = eta_of(sch, n);
        const std::uint64_t root = sch < 2 ? seedA : seedG;
        const long long id = sch < 2 ? trial * 16 + sch * 8 + w : trial * 8 + w;
        Stream keys(root, id, Purpose::keys), vals(root, id, Purpose::noise);
        Mat M = Mat::Zero(kRows, n);
        Vec x(n), d(kRows);
        double acc = 0;
        for (int t = 1; t <= kBurn + kAvg; ++t) {
          for (int j = 0; j < n; ++j) x[j] = keys.normal();
          for (int r = 0; r < kRows; ++r) d[r] = vals.normal();
          rules::ak_normalized(M, d, x, kBeta, eta);
          if (t > kBurn) acc += M.squaredNorm() / (double(kRows) * n);
        }
        out[sch * nw + w] = acc / kAvg;
      }
  };
  return monte_carlo(ctx.mc(trials, "T13 buffer scale"), kSchedules * nw, kernelA);
}

std::vector<RawWidth> raw_key(std::uint64_t seed, int samplesB) {
  std::vector<RawWidth> out;
  Stream sb(seed, 0, Purpose::aux);
  for (int n : kWidths) {
    boost::math::chi_squared_distribution<double> chi(n - 1);
    std::vector<double> z2(samplesB), nx(samplesB);
    for (int k = 0; k < samplesB; ++k) {
      const double z = sb.normal();
      z2[k] = z * z;
      nx[k] = z * z + boost::math::quantile(chi, sb.uniform());
    }
    const double em = eta_ms(n);
    auto ratio = [&](int k, double eta) { return kBeta * kBeta - 2 * kBeta * eta * z2[k] + eta * eta * z2[k] * nx[k]; };
    double s1 = 0, s2 = 0;
    for (int k = 0; k < samplesB; ++k) s1 += ratio(k, em), s2 += ratio(k, em) * ratio(k, em);
    const double gm = s1 / samplesB, gse = std::sqrt((s2 / samplesB - gm * gm) / (samplesB - 1));
    auto lyap = [&](double eta) {
      double s = 0;
      for (int k = 0; k < samplesB; ++k) s += std::log(ratio(k, eta));
      return s / samplesB;
    };
    double lo = em, hi = 20 * em;  // Jensen: E log < log E = 0 at η_ms
    for (int it = 0; it < 60; ++it) {
      const double mid = std::sqrt(lo * hi);
      (lyap(mid) < 0 ? lo : hi) = mid;
    }
    out.push_back({n, gm, gse, (1 + kBeta) / n, em, lo});
  }
  return out;
}

}  // namespace akm::exp::t13
