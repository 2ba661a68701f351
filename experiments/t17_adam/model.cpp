// T17 Adam — the model: Σ and its rotation, the probes and buffer start, the Monte-Carlo run
// of the probes, the AK-AdamW buffer and AdamW's second moment on both key laws (three runs of
// ops::row_buffers), AK-AdamW's v against AdamW's on one stream, and the alternatives and
// sensitivities of the contraction checks.
#include <cmath>

#include "akm/rules/optimizers.hpp"
#include "akm/sim/ops/row_buffers.hpp"
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

namespace {

// One row of the AK buffer on ops::row_buffers: the normalized-key rule [eq:dm-norm-update] with
// T17's (β, η) from `start`, its values s·ξ on noise slot `slot` (s = 0: none, the row is then the
// transport product pushed from its start), no value row and no target (its error is M_t).
ops::BufferRow buffer_row(const Vec& start, int slot, double noise_scale) {
  return {BufferKind::ak_normalized, kEta, Vec::Zero(kN), start, Vec::Zero(kN), slot, noise_scale};
}

// A probe reading row b alone, M_{b,t}·w, at the given steps.
ops::RowProbe row_probe(int rows, int b, const Vec& w, std::vector<int> steps) {
  Mat W = Mat::Zero(rows, kN);
  W.row(b) = w.transpose();
  return {W, std::move(steps), false};
}

// An arm: keys x_t = Q(√λ ∘ z_t) (Q = U: Σ; Q = RU: Σ' = RΣRᵀ), the schedule's turn Q at every
// step; β, three noise slots of σ = 1 (the rows scale their own), AdamW's v̂ of every row at
// the checkpoints. Every arm draws trial t's keys and noise on the same streams, so Σ and Σ'
// see common random numbers.
ops::RowBuffers arm(const Model& md, const Mat& Q) {
  ops::RowBuffers op;
  op.sqrt_lambda = md.lambda.cwiseSqrt();
  op.key_turns.assign(kSteps, Q);
  op.beta = kBeta;
  op.noise_sigma = 1.0;
  op.noise_slots = kM;
  op.steps = kSteps;
  op.second_moment_record = kVCheckpoints;
  op.beta2 = kBeta2;
  return op;
}

std::vector<int> lags_1_to_k() {
  std::vector<int> s(kLags);
  for (int l = 0; l < kLags; ++l) s[std::size_t(l)] = l + 1;
  return s;
}

// Probe rows w_qᵀ, noise-free, each read along itself at lags 1..kLags: w_qᵀΠ_t w_q.
void add_probe_rows(ops::RowBuffers& op, const Mat& probes, int rows) {
  for (int q = 0; q < probes.rows(); ++q) {
    op.rows.push_back(buffer_row(probes.row(q).transpose(), 0, 0.0));
    op.probes.push_back(row_probe(rows, q, probes.row(q).transpose(), lags_1_to_k()));
  }
}

}  // namespace

McResult simulate(ExperimentContext& ctx, const Model& md, std::uint64_t seed, long long trials) {
  const Mat RU = md.R * md.U, P_rot = rotated_probes(md), P_base = base_probes(md), M0 = buffer_start(md);
  // Σ: the base probes, then three rows whose values are independent of x (δ_i = sd_i ξ_i).
  ops::RowBuffers sigma = arm(md, md.U);
  add_probe_rows(sigma, P_base, kBaseProbes + kM);
  for (int i = 0; i < kM; ++i) sigma.rows.push_back(buffer_row(Vec::Zero(kN), i, kValueSd[std::size_t(i)]));
  // Σ': the rotated probes, then the AK-AdamW buffer from M_0 on the same values, read along M_0's rows.
  ops::RowBuffers rotated = arm(md, RU);
  add_probe_rows(rotated, P_rot, kRotProbes + kM);
  for (int r = 0; r < kM; ++r) {
    rotated.rows.push_back(buffer_row(M0.row(r).transpose(), r, kValueSd[std::size_t(r)]));
    rotated.probes.push_back(row_probe(kRotProbes + kM, kRotProbes + r, M0.row(r).transpose(), kCheckLags));
  }
  // Σ with dependent values δ = Ax + σξ.
  ops::RowBuffers dependent = arm(md, md.U);
  for (int i = 0; i < kM; ++i) {
    dependent.rows.push_back(buffer_row(Vec::Zero(kN), i, kDepNoise));
    dependent.rows.back().d = md.A.row(i).transpose();
  }
  // row_buffers has reference and cpu paths: on a device backend T17 runs the cpu.
  const Backend b = ctx.backend_for(ops::row_buffers_has);
  // T17's record of a trial from the three arms' rows.
  auto record = [&](const double* s, const double* r, const double* d, double* out) {
    for (std::size_t c = 0; c < kVCheckpoints.size(); ++c)
      for (int j = 0; j < kN; ++j)
        for (int i = 0; i < kM; ++i) {
          const int e = j * kM + i;
          const double v0 = s[sigma.second_moment_obs(c, kBaseProbes + i, j)];
          out[Layout::v(c, 0, e)] = v0;
          out[Layout::v(c, 1, e)] = r[rotated.second_moment_obs(c, kRotProbes + i, j)] - v0;
          out[Layout::v(c, 2, e)] = d[dependent.second_moment_obs(c, i, j)];
        }
    for (int lag = 1; lag <= kLags; ++lag) {
      for (int q = 0; q < kRotProbes; ++q) out[Layout::rot(q, lag)] = r[rotated.probe_obs(std::size_t(q), std::size_t(lag - 1))];
      for (int q = 0; q < kBaseProbes; ++q) out[Layout::base(q, lag)] = s[sigma.probe_obs(std::size_t(q), std::size_t(lag - 1))];
    }
    for (int k = 0; k < kM; ++k)
      for (std::size_t c = 0; c < kCheckLags.size(); ++c)
        out[Layout::buffer(k, c)] = r[rotated.probe_obs(std::size_t(kRotProbes + k), c)];
  };
  auto rows = [&](long long first, long long count, int threads, double* out) {
    std::vector<double> s(std::size_t(count) * sigma.n_obs()), r(std::size_t(count) * rotated.n_obs()),
        d(std::size_t(count) * dependent.n_obs());
    ops::row_buffers_rows(sigma, seed, b, first, count, threads, s.data());
    ops::row_buffers_rows(rotated, seed, b, first, count, threads, r.data());
    ops::row_buffers_rows(dependent, seed, b, first, count, threads, d.data());
    for (long long j = 0; j < count; ++j) {
      const std::size_t t = std::size_t(j);
      record(s.data() + t * sigma.n_obs(), r.data() + t * rotated.n_obs(), d.data() + t * dependent.n_obs(),
             out + t * Layout::size());
    }
  };
  return monte_carlo_rows(ctx.mc(trials, "T17 adam"), Layout::size(), rows);
}

double second_moment_gap(const Model& md, std::uint64_t seed) {
  AdamWParams p;
  p.beta1 = kBeta;
  p.beta2 = kBeta2;
  p.weight_decay = 0.1;
  AdamW adam(kM, kN, p);
  AkAdamW ak(kM, kN, p, kEta);
  ak.M = buffer_start(md);
  Mat W = Mat::Zero(kM, kN), W_ak = W;
  Stream keys(seed, 0, Purpose::keys), noise(seed, 0, Purpose::noise);
  Vec z(kN), x(kN), d(kM);
  for (int t = 1; t <= kSteps; ++t) {
    for (int j = 0; j < kN; ++j) z[j] = keys.normal();
    x.noalias() = md.R * (md.B * z);  // Σ' keys
    for (int i = 0; i < kM; ++i) d[i] = kValueSd[std::size_t(i)] * noise.normal();
    adam.step(W, d, x);
    ak.step(W_ak, d, x);
  }
  return (ak.v - adam.v).cwiseAbs().maxCoeff();
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
