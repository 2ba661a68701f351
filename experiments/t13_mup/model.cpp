// T13 mup — (A) the normalized buffer's per-coordinate scale under three η schedules, and
// (B) the raw key's stability boundaries in η [rem:mup-normalization, thm:mup-eta]; the
// schedules' closed forms.
#include <algorithm>
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

double spike_lambda(int n, double mu) {
  // Σ_k w_k (½+k)/(n/2+k), w_k = Poisson(k; L), L = μ²n/2, summed over L ± 40√L + 60 (the
  // weights outside are below e^{-700}).
  const double L = mu * mu * n / 2;
  const double half = 40 * std::sqrt(L) + 60;
  const long long k0 = static_cast<long long>(std::max(0.0, std::floor(L - half))), k1 = static_cast<long long>(L + half);
  double s = 0, wsum = 0;
  for (long long k = k0; k <= k1; ++k) {
    const double kd = static_cast<double>(k);
    const double w = L > 0 ? std::exp(-L + kd * std::log(L) - std::lgamma(kd + 1)) : (k == 0 ? 1.0 : 0.0);
    s += w * (0.5 + kd) / (n / 2.0 + kd), wsum += w;
  }
  return s / wsum;  // wsum = 1 to rounding; dividing removes the truncation's last bits
}

McResult spike_mean(ExperimentContext& ctx, long long trials) {
  const int nw = static_cast<int>(kSpikeWidths.size());
  const std::uint64_t seedS = derive_seed(ctx.opts.seed, "T13/buffer-spiked");
  auto kernel = [&](long long trial, double* out) {
    for (int w = 0; w < nw; ++w) {
      const int n = kSpikeWidths[w];
      const double eta = eta_of(2, n), un = 1.0 / std::sqrt(static_cast<double>(n));
      Stream keys(seedS, trial * 16 + w, Purpose::keys), vals(seedS, trial * 16 + w, Purpose::noise);
      Mat M = Mat::Constant(kRows, n, kSpikeStart * un);  // rows kSpikeStart·uᵀ
      Vec x(n), d(kRows);
      for (int t = 1; t <= kSpikeSteps; ++t) {
        for (int j = 0; j < n; ++j) x[j] = keys.normal() + kSpikeMu;
        for (int r = 0; r < kRows; ++r) d[r] = vals.normal();
        rules::ak_normalized(M, d, x, kBeta, eta);
      }
      out[w] = (M.rowwise().sum() * un).mean() / kSpikeStart;  // row mean of M u, per unit start
    }
  };
  return monte_carlo(ctx.mc(trials, "T13 spiked keys"), nw, kernel);
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
