// T6 lag — the model: the six buffers' closed forms, their alternatives and sensitivities,
// and the Monte-Carlo run of both schedules on ops::row_buffers [prop:nc1, cor:nc2].
#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "akm/sim/ops/row_buffers.hpp"
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
  ops::RowBuffers op;
  op.sqrt_lambda = s.sqrt_lambda;
  op.beta = kBeta;
  op.noise_sigma = kNoise;  // one ξ a step, shared by the six buffers
  op.a0 = -sc.t_c;  // A_t = a_t·D with a_t = t − t_c, so M*_t u_i = a_t·Δ_i
  op.a1 = 1.0;
  for (const Buffer& B : bufs)
    op.rows.push_back({static_cast<BufferKind>(B.rule), B.eta, B.d, op.a(0) * B.delta, B.delta, 0});  // M_0 = M*_0
  op.steps = sc.steps;
  op.record = sc.check_steps;
  op.window_start = sc.burn + 1;
  // Least-squares slope through the origin of the window lag L_i = −e_i against λ̂ (one number
  // per trial, so its mean and standard error come from the trials): Σ λ̂_i L_i / Σ λ̂_i².
  for (int b = 0; b < kBuffers; ++b) {
    Mat W = Mat::Zero(kBuffers, n);
    W.row(b) = -lh.transpose() / lh.squaredNorm();
    op.probes.push_back({W, {}, true});
  }
  std::vector<int> traj_steps;
  for (int j = 1; j <= sc.traj_points(); ++j) traj_steps.push_back(j * sc.traj_every);
  for (int b = 0; b < kBuffers; ++b)
    for (int d : shown) {
      Mat W = Mat::Zero(kBuffers, n);
      W(b, d) = 1.0;
      if (!traj_steps.empty()) op.probes.push_back({W, traj_steps, false});
    }
  if (op.n_obs() != L.size() || op.obs(L.checks(), kBuffers - 1, n - 1) != L.window(kBuffers - 1, n - 1) ||
      op.probe_obs(kBuffers - 1, 0) != L.slope(kBuffers - 1))
    throw std::logic_error("T6: the observable layout differs from ops::row_buffers'");
  // Only the reference and cpu paths exist: on another backend T6 runs the cpu path.
  const Backend b = ctx.backend_for(ops::row_buffers_has);
  return ops::row_buffers(op, seed, b, ctx.mc(trials, fmt::format("T6 {} {}", s.name, sc.name), kGroups));
}

double raw_mean_square_radius(const Vec& lam, double beta, double eta) {
  Mat S = eta * eta * lam * lam.transpose();
  for (Eigen::Index i = 0; i < lam.size(); ++i)
    S(i, i) += std::pow(beta - eta * lam[i], 2) + std::pow(eta * lam[i], 2);
  return Eigen::SelfAdjointEigenSolver<Mat>(S, Eigen::EigenvaluesOnly).eigenvalues().cwiseAbs().maxCoeff();
}

}  // namespace akm::exp::t06
