// T6 lag — the model: the six buffers' closed forms, their alternatives and sensitivities,
// and the Monte-Carlo run of both schedules [prop:nc1, cor:nc2].
#include <cmath>
#include <limits>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "akm/rules/kernels.hpp"
#include "sensitivity.hpp"
#include "t06_lag.hpp"

namespace akm::exp::t06 {

std::vector<Buffer> make_buffers(const Setting& s, double eta_raw) {
  const int n = s.n();
  const Vec& lam = s.spectrum.lambda;
  const Vec& lh = s.moments.lambda_hat;
  const double trace = lam.sum();
  std::vector<Buffer> out;
  for (int dr = 0; dr < kDrifts; ++dr)
    for (int r = 0; r < kRules; ++r) {
      Buffer B;
      B.drift = dr;
      B.rule = r;
      B.eta = r == kAkRaw ? eta_raw : r == kAkNorm ? kEtaNorm : 0.0;
      B.gain = B.b = B.delta = B.d = Vec(n);
      for (int i = 0; i < n; ++i) {
        if (r == kAkRaw) {
          B.gain[i] = lam[i] * theory::phi(theory::mu(kBeta, eta_raw), lam[i]);
          B.b[i] = theory::beta_tilde(kBeta, eta_raw, lam[i]);
        } else if (r == kAkNorm) {
          B.gain[i] = s.moments.kappa[i] * theory::phi(theory::mu(kBeta, kEtaNorm), lh[i]);
          B.b[i] = theory::beta_tilde(kBeta, kEtaNorm, lh[i]);
        } else {
          B.gain[i] = lam[i];
          B.b[i] = kBeta;
        }
        // Density drift follows λ̂ (normalized AK and EMA, as in cor:nc2), λ/trΣ (raw analog).
        B.delta[i] = dr == kUniform ? kDelta0 : r == kAkRaw ? kC0 * lam[i] / trace : kC0 * lh[i];
        B.d[i] = B.delta[i] / B.gain[i];
      }
      if (dr == kDensity && r == kAkNorm) B.ceiling = kBeta * kC0 / kEtaNorm;
      if (dr == kDensity && r == kAkRaw) B.ceiling = kBeta * kC0 / (eta_raw * trace);
      out.push_back(std::move(B));
    }
  return out;
}

double contraction_at(const Setting& s, const Buffer& B, int i, double e, double b, double sc) {
  if (B.rule == kAkRaw) return theory::beta_tilde(b, e, sc * s.spectrum.lambda[i]);
  if (B.rule == kAkNorm) return theory::beta_tilde(b, e, sc * s.moments.lambda_hat[i]);
  return b;
}

double alternative_contraction(const Setting& s, const Buffer& B, int i) {
  return B.rule == kEma ? theory::beta_tilde(kBeta, kEtaNorm, s.moments.lambda_hat[i]) : kBeta;
}
const char* alternative_label(const Buffer& B) { return B.rule == kEma ? "AK-normalized contraction" : "EMA"; }

void annotate(Checks& checks, const Setting& s, const Buffer& B, int i,
              const std::function<double(double)>& p) {
  const auto d = log_sensitivity(
      [&](double e, double b, double sc) { return p(contraction_at(s, B, i, e, b, sc)); },
      B.rule == kEma ? 1.0 : B.eta, kBeta);
  const double none = std::numeric_limits<double>::quiet_NaN();
  checks.sensitivity(B.rule == kEma ? none : d.eta, d.beta, B.rule == kEma ? none : d.lambda);
}

McResult simulate(ExperimentContext& ctx, const Setting& s, const std::vector<Buffer>& bufs,
                  const Schedule& sc, const std::vector<int>& shown, std::uint64_t seed,
                  long long trials) {
  const int n = s.n();
  const Layout L{sc, n, shown.size()};
  const Vec& lh = s.moments.lambda_hat;
  const double lh_sq = lh.squaredNorm();
  auto kernel = [&](long long trial, double* out) {
    Stream keys(seed, trial, Purpose::keys), noise(seed, trial, Purpose::noise);
    std::vector<Mat> M;
    for (const Buffer& B : bufs) M.push_back(-sc.t_c * B.delta.transpose());  // M_0 = M*_0
    Vec x(n), xh(n), delta(1), r(1);
    for (int b = 0; b < kBuffers; ++b)
      for (int i = 0; i < n; ++i) out[L.window(b, i)] = 0.0;
    std::size_t c = 0;
    for (int t = 1; t <= sc.steps; ++t) {
      kern::gaussian_key(keys, s.sqrt_lambda, x);
      kern::key_for(Key::normalized, x, xh);
      const double xi = kNoise * noise.normal();
      const double a = t - sc.t_c;  // A_t = a·D, so M*_t u_i = a·Δ_i
      const bool check = c < L.checks() && t == sc.check_steps[c];
      const bool traj = sc.traj_every > 0 && t % sc.traj_every == 0;
      for (int b = 0; b < kBuffers; ++b) {
        const Buffer& B = bufs[b];
        delta[0] = a * B.d.dot(x) + xi;
        if (B.rule == kAkRaw)
          kern::ak_step(M[b], delta, x, kBeta, B.eta, r);    // [eq:dm-update]
        else if (B.rule == kAkNorm)
          kern::ak_step(M[b], delta, xh, kBeta, B.eta, r);   // [eq:dm-norm-update]
        else
          kern::ema_step(M[b], delta, x, kBeta);             // [eq:ema-update]
        for (int i = 0; i < n; ++i) {
          const double e = M[b](0, i) - a * B.delta[i];  // (M_t − M*_t)u_i
          if (check) out[L.at_step(b, c, i)] = e;
          if (t > sc.burn) out[L.window(b, i)] += e / sc.window();
        }
        if (traj)
          for (std::size_t d = 0; d < shown.size(); ++d)
            out[L.traj(b, d, t / sc.traj_every - 1)] = M[b](0, shown[d]) - a * B.delta[shown[d]];
      }
      if (check) ++c;
    }
    // Least-squares slope through the origin of the window lag against λ̂ (one number per
    // trial, so its mean and standard error come from the trials): Σ λ̂_i L_i / Σ λ̂_i².
    for (int b = 0; b < kBuffers; ++b) {
      double num = 0;
      for (int i = 0; i < n; ++i) num += lh[i] * (-out[L.window(b, i)]);
      out[L.slope(b)] = num / lh_sq;
    }
  };
  return monte_carlo(ctx.mc(trials, fmt::format("T6 {} {}", s.name, sc.name), kGroups), L.size(), kernel);
}

double raw_mean_square_radius(const Vec& lam, double beta, double eta) {
  Mat S = eta * eta * lam * lam.transpose();
  for (Eigen::Index i = 0; i < lam.size(); ++i)
    S(i, i) += std::pow(beta - eta * lam[i], 2) + std::pow(eta * lam[i], 2);
  return Eigen::SelfAdjointEigenSolver<Mat>(S, Eigen::EigenvaluesOnly).eigenvalues().cwiseAbs().maxCoeff();
}

}  // namespace akm::exp::t06
