// T16 mixture — the model: key variants, the transport and tracking runs, the family
// checks, matrix powers, and the raw key's moments by a separate Monte Carlo.
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "akm/sim/ops/row_buffers.hpp"
#include "akm/sim/ops/transport_product.hpp"
#include "t16_mixture.hpp"

namespace akm::exp::t16 {

Variant make_variant(Key key, double eta, const Mat& S, const Mat& G) {
  const Eigen::SelfAdjointEigenSolver<Mat> es(S);
  Variant v{key, eta, S, G, es.eigenvalues().reverse(), es.eigenvectors().rowwise().reverse(), Mat(), std::string()};
  return v;
}

// The transport product on ops::transport_product with the mixture as its key law, the keys
// read along v's eigenvectors V (so the op's P_k is VᵀP_kV) and the component spikes as forms.
McResult transport(ExperimentContext& ctx, const KeySampler& law, const Variant& v, const Mat& B1,
                   std::uint64_t seed, long long R) {
  const int n = law.n(), C = law.components();
  ops::TransportProduct op;
  op.law_keys.law = std::make_shared<const KeySampler>(law);
  op.law_keys.coords = v.V;
  op.sqrt_lambda = Vec::Zero(n);  // sizes the op; the law draws the keys
  op.second_moment = v.ev;  // E[k_j²] along v_j: the control variates' centring (not read)
  op.key = v.key;
  op.beta = kBeta;
  op.eta = v.eta;
  op.steps = op.lags = kSteps;
  op.full_lags = {kLags[kOffLag]};
  op.forms = (v.V.transpose() * B1).transpose();  // b_c in V's coordinates
  op.form_lags = kLags;
  const TLayout L{n, C};
  if (op.layout().size() != L.op().size() || op.layout().form(0, 0) != L.comp(0, 0))
    throw std::logic_error("T16: the observable layout differs from ops::transport_product's");
  // A key law has reference and cpu paths: on another backend T16 runs the cpu path.
  const Backend b = ctx.backend_for(ops::transport_product_has(ctx.opts.backend, op));
  return ops::transport_product(op, seed, b, ctx.mc(R, fmt::format("T16 transport {}", to_string(v.key))));
}

// The tracking run on ops::row_buffers: one buffer row from M_0 = 0 on the mixture's keys read
// along V (so the row is M_tV, recorded at every step), its value δ = a·x̂ + ξ (a in V's
// coordinates), target 0: the observables are M_tv_j.
McResult tracking(ExperimentContext& ctx, const KeySampler& law, const Variant& v, const Vec& a,
                  std::uint64_t seed, long long R) {
  const int n = law.n();
  ops::RowBuffers op;
  op.law_keys.law = std::make_shared<const KeySampler>(law);
  op.law_keys.coords = v.V;
  op.sqrt_lambda = Vec::Zero(n);  // sizes the op; the law draws the keys
  op.value_on_normalized = true;
  ops::BufferRow row;
  row.rule = v.key == Key::raw ? BufferKind::ak_raw : BufferKind::ak_normalized;
  row.eta = v.eta;
  row.d = v.V.transpose() * a;
  row.start = row.center = Vec::Zero(n);
  op.rows = {row};
  op.beta = kBeta;
  op.noise_sigma = kNoise;
  op.steps = kSteps;
  for (int t = 1; t <= kSteps; ++t) op.record.push_back(t);
  if (op.n_obs() != static_cast<std::size_t>(kSteps) * n || op.obs(kSteps - 1, 0, n - 1) != op.n_obs() - 1)
    throw std::logic_error("T16: the tracking layout differs from ops::row_buffers'");
  return ops::row_buffers(op, seed, ctx.backend_for(ops::row_buffers_has),
                          ctx.mc(R, fmt::format("T16 tracking {}", to_string(v.key))));
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
