// T17 Adam — the model: Σ and its rotation, the probes and buffer start, the Monte-Carlo run
// of AdamW and AK-AdamW on both key laws, and the alternatives and sensitivities of the
// contraction checks.
#include <cmath>

#include "akm/rules/kernels.hpp"
#include "akm/rules/optimizers.hpp"
#include "sensitivity.hpp"
#include "t17_adam.hpp"

namespace akm::exp::t17 {
namespace {

Mat hadamard4() {
  Mat H(4, 4);
  H << 1, 1, 1, 1, 1, -1, 1, -1, 1, 1, -1, -1, 1, -1, -1, 1;
  return 0.5 * H;
}

Mat block2(const Mat& a, const Mat& b) {
  Mat out = Mat::Zero(8, 8);
  out.topLeftCorner(4, 4) = a;
  out.bottomRightCorner(4, 4) = b;
  return out;
}

Mat plane_rotation(int p, int q, double theta) {
  Mat G = Mat::Identity(kN, kN);
  G(p, p) = G(q, q) = std::cos(theta);
  G(p, q) = -std::sin(theta);
  G(q, p) = std::sin(theta);
  return G;
}

}  // namespace

Model make_model(std::uint64_t seed) {
  Model md;
  md.lambda = Eigen::Map<const Vec>(kLambda.data(), kN);
  md.lambda_hat = gaussian_key_moments(md.lambda).lambda_hat;
  md.U = block2(hadamard4(), hadamard4());
  md.R = plane_rotation(0, 1, kTheta) * plane_rotation(4, 5, kTheta);
  md.B = md.U * md.lambda.cwiseSqrt().asDiagonal();
  md.sigma = md.U * md.lambda.asDiagonal() * md.U.transpose();
  md.sigma_rot = md.R * md.sigma * md.R.transpose();
  md.A = kDepScale * value_map(kM, kN, seed);
  md.beta_tilde = (kBeta - kEta * md.lambda_hat.array()).matrix();
  return md;
}

Mat rotated_probes(const Model& md) {
  Mat P(kRotProbes, kN);
  P.topRows(kN) = (md.R * md.U).transpose();
  P.middleRows(kN, kN) = md.U.transpose();
  P.bottomRows(kN) = Mat::Identity(kN, kN);
  return P;
}

Mat base_probes(const Model& md) {
  Mat P(kBaseProbes, kN);
  P.topRows(kN) = md.U.transpose();
  P.bottomRows(kN) = Mat::Identity(kN, kN);
  return P;
}

Mat buffer_start(const Model& md) {
  Mat M0(kM, kN);
  M0.row(0) = (md.R * md.U.col(0)).transpose();  // rotated top eigenvector
  M0.row(1) = md.U.col(0).transpose();           // old top eigenvector
  M0.row(2) = (md.R * md.U.col(2)).transpose();  // rotated smallest-λ eigenvector
  return M0;
}

McResult simulate(ExperimentContext& ctx, const Model& md, std::uint64_t seed, long long trials) {
  AdamWParams p;
  p.lr = 1e-3;
  p.beta1 = kBeta;
  p.beta2 = kBeta2;
  p.weight_decay = 0.1;
  const Mat P_rot0 = rotated_probes(md), P_base0 = base_probes(md), M0 = buffer_start(md);
  auto kernel = [&](long long trial, double* out) {
    Stream keys(seed, trial, Purpose::keys), values(seed, trial, Purpose::data),
        noise(seed, trial, Purpose::noise);
    AdamW adam(kM, kN, p), adam_rot(kM, kN, p), adam_dep(kM, kN, p);
    AkAdamW ak(kM, kN, p, kEta), ak_rot(kM, kN, p, kEta);
    ak_rot.M = M0;
    Mat W = Mat::Zero(kM, kN), W2 = W, W3 = W, W4 = W, W5 = W;  // parameters (do not feed back)
    Mat P_rot = P_rot0, P_base = P_base0;
    Vec z(kN), x(kN), xr(kN), k(kN), kr(kN), d(kM), dd(kM), rr(kRotProbes), rb(kBaseProbes);
    std::size_t cv = 0, cb = 0;
    for (int t = 1; t <= kSteps; ++t) {
      for (int j = 0; j < kN; ++j) z[j] = keys.normal();
      x.noalias() = md.B * z;
      xr.noalias() = md.R * x;  // Σ' = RΣRᵀ on common random numbers
      for (int i = 0; i < kM; ++i) d[i] = kValueSd[static_cast<std::size_t>(i)] * values.normal();
      dd.noalias() = md.A * x;
      for (int i = 0; i < kM; ++i) dd[i] += kDepNoise * noise.normal();
      adam.step(W, d, x);
      adam_rot.step(W2, d, xr);
      adam_dep.step(W3, dd, x);
      ak.step(W4, d, x);
      ak_rot.step(W5, d, xr);
      if (t <= kLags) {
        kern::key_for(Key::normalized, x, k);
        kern::key_for(Key::normalized, xr, kr);
        kern::transport_step(P_rot, kr, kBeta, kEta, rr);
        kern::transport_step(P_base, k, kBeta, kEta, rb);
        for (int q = 0; q < kRotProbes; ++q) out[Layout::rot(q, t)] = P_rot.row(q).dot(P_rot0.row(q));
        for (int q = 0; q < kBaseProbes; ++q) out[Layout::base(q, t)] = P_base.row(q).dot(P_base0.row(q));
      }
      if (cb < kCheckLags.size() && t == kCheckLags[cb]) {
        for (int r = 0; r < kM; ++r) out[Layout::buffer(r, cb)] = ak_rot.M.row(r).dot(M0.row(r));
        ++cb;
      }
      if (cv < kVCheckpoints.size() && t == kVCheckpoints[cv]) {
        const Mat v0 = adam.second_hat(), v1 = adam_rot.second_hat(), v2 = adam_dep.second_hat();
        for (int j = 0; j < kN; ++j)
          for (int i = 0; i < kM; ++i) {
            const int e = j * kM + i;
            out[Layout::v(cv, 0, e)] = v0(i, j);
            out[Layout::v(cv, 1, e)] = v1(i, j) - v0(i, j);
            out[Layout::v(cv, 2, e)] = v2(i, j);
          }
        ++cv;
      }
    }
    // The second moment is unchanged: same stream, same v, whatever the first moment.
    out[Layout::identity()] = std::max((ak.v - adam.v).cwiseAbs().maxCoeff(), (ak_rot.v - adam_rot.v).cwiseAbs().maxCoeff());
  };
  return monte_carlo(ctx.mc(trials, "T17 adam"), Layout::size(), kernel);
}

void against_rotation_or_ema(Checks& checks, double predicted, double unrotated, int k) {
  if (std::abs(unrotated - predicted) > 1e-12 * std::abs(predicted))
    checks.against(unrotated, "unrotated Σ̂ (rotation ignored)");
  else
    checks.against(std::pow(kBeta, k), "EMA");
}

Checks& contraction_sensitivity(Checks& checks, const Model& md, const Vec& w, const Mat& V, int k) {
  return sensitivity(
      checks,
      [&](double eta, double beta, double scale) {
        double s = 0;
        for (int l = 0; l < kN; ++l)
          s += std::pow(w.dot(V.col(l)), 2) * std::pow(theory::beta_tilde(beta, eta, scale * md.lambda_hat[l]), k);
        return s;
      },
      kEta, kBeta);
}

}  // namespace akm::exp::t17
