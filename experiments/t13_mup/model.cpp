// T13 mup — (A) the normalized buffer's per-coordinate scale under three η schedules, and
// (B) the raw key's stability boundaries in η [rem:mup-normalization, thm:mup-eta]; the
// schedules' closed forms. (A)'s buffers run on ops::row_buffers.
#include <algorithm>
#include <cmath>

#include <boost/math/distributions/chi_squared.hpp>
#include <fmt/format.h>

#include "akm/sim/ops/row_buffers.hpp"
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

namespace {

// kRows rows of the normalized AK buffer [eq:dm-norm-update] on ops::row_buffers: keys
// x = z + μ·1, z ~ N(0, I_n), values δ_r = ξ_r ~ N(0, 1) independent of x (d = 0, row r on noise
// slot r), every row from M_0 = start·1ᵀ; its errors are the rows themselves (centre 0).
ops::RowBuffers normalized_buffer(int n, double eta, int steps, double mu, double start) {
  ops::RowBuffers op;
  op.sqrt_lambda = Vec::Ones(n);
  op.beta = kBeta;
  op.noise_sigma = 1.0;
  op.noise_slots = kRows;
  op.steps = steps;
  for (int r = 0; r < kRows; ++r)
    op.rows.push_back({BufferKind::ak_normalized, eta, Vec::Zero(n), Vec::Constant(n, start), Vec::Zero(n), r});
  if (mu != 0.0) op.key_mean = Vec::Constant(n, mu);
  return op;
}

}  // namespace

std::vector<MeanEstimate> buffer_scale(ExperimentContext& ctx, long long trials) {
  const int nw = static_cast<int>(kWidths.size());
  // The growing schedule draws from its own root, so the first two keep their streams: trial t
  // of (schedule, width w) draws on id 16t + 8·schedule + w, the growing schedule's on 8t + w.
  const std::uint64_t seedA = derive_seed(ctx.opts.seed, "T13/buffer"), seedG = derive_seed(ctx.opts.seed, "T13/buffer-growing");
  const Backend b = ctx.backend_for(ops::row_buffers_has);
  std::vector<MeanEstimate> out;
  for (int sch = 0; sch < kSchedules; ++sch)
    for (int w = 0; w < nw; ++w) {
      const int n = kWidths[w];
      ops::RowBuffers op = normalized_buffer(n, eta_of(sch, n), kBurn + kAvg, 0.0, 0.0);
      op.msq_window_start = kBurn + 1;  // (1/(kRows·n))‖M_t‖²_F averaged over t ∈ (kBurn, kBurn + kAvg]
      op.stream_stride = sch < 2 ? 16 : 8;
      op.stream_offset = sch < 2 ? sch * 8 + w : w;
      const McResult r = ops::row_buffers(op, sch < 2 ? seedA : seedG, b,
                                          ctx.mc(trials, fmt::format("T13 buffer scale {} n={}", kScheduleName[sch], n)));
      out.push_back(r.total.estimate(Eigen::Index(op.msq_obs())));
    }
  return out;
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

std::vector<MeanEstimate> spike_mean(ExperimentContext& ctx, long long trials) {
  const int nw = static_cast<int>(kSpikeWidths.size());
  const std::uint64_t seedS = derive_seed(ctx.opts.seed, "T13/buffer-spiked");  // trial t of width w: id 16t + w
  const Backend b = ctx.backend_for(ops::row_buffers_has);
  std::vector<MeanEstimate> out;
  for (int w = 0; w < nw; ++w) {
    const int n = kSpikeWidths[w];
    const double un = 1.0 / std::sqrt(static_cast<double>(n));
    ops::RowBuffers op = normalized_buffer(n, eta_of(2, n), kSpikeSteps, kSpikeMu, kSpikeStart * un);  // rows kSpikeStart·uᵀ
    // The row mean of M_T u per unit start: Σ_{r,i} M_T(r,i)·(1/√n)/(kRows·kSpikeStart).
    op.probes = {{Mat::Constant(kRows, n, un / (kRows * kSpikeStart)), {kSpikeSteps}, false}};
    op.stream_stride = 16;
    op.stream_offset = w;
    const McResult r = ops::row_buffers(op, seedS, b, ctx.mc(trials, fmt::format("T13 spiked keys n={}", n)));
    out.push_back(r.total.estimate(Eigen::Index(op.probe_obs(0, 0))));
  }
  return out;
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
