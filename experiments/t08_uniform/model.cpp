// T8 uniform — the simulated stream [eq:dm-norm-update] on ops::row_buffers: the AK normalized
// buffer one unit off its fixed point along every eigendirection, recorded for kSteps pushes,
// and the per-trial weighted sum Σ_i λ̂_i T_{1,i} as the op's probe.
#include <stdexcept>

#include "akm/sim/ops/row_buffers.hpp"
#include "t08_uniform.hpp"

namespace akm::exp::t08 {

McResult simulate(ExperimentContext& ctx, const Setting& s, const Vec& a, const Vec& mstar,
                  std::uint64_t seed, long long trials) {
  const int n = s.n();
  ops::RowBuffers op;
  op.sqrt_lambda = s.sqrt_lambda;
  // δ = a·x + σξ; T_0 = M_0 − M* = 1ᵀ: unit offset on every u_i; T_k = M_k − M*.
  op.rows = {{BufferKind::ak_normalized, kEta, a, mstar + Vec::Ones(n), mstar, 0}};
  op.beta = kBeta;
  op.noise_sigma = kNoise;
  op.steps = kSteps;
  for (int k = 1; k <= kSteps; ++k) op.record.push_back(k);
  op.probes = {{s.moments.lambda_hat.transpose(), {1}, false}};
  // The header's layout (at, weighted) is the op's: T_{k,i} at record k − 1, the weighted sum its probe.
  if (op.obs(kSteps - 1, 0, n - 1) != at(n, kSteps, n - 1) || op.probe_obs(0, 0) != weighted(n))
    throw std::logic_error("T8: the observable layout differs from ops::row_buffers'");
  // Only the reference and cpu paths exist: on another backend T8 runs the cpu path.
  const Backend b = ctx.backend_for(ops::row_buffers_has);
  return ops::row_buffers(op, seed, b, ctx.mc(trials, "T8 " + s.name, kGroups));
}

}  // namespace akm::exp::t08
