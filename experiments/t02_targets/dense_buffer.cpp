// T2 targets — the dense law's AK buffers on ops::row_buffers. The dense keys x = U(√λ∘z) are
// x' = Uᵀx = √λ∘z in the law's eigenbasis, with ‖x'‖ = ‖x‖, so a buffer M on x is M'Uᵀ, M' the
// buffer on x' fed δ = (AU)x' + σξ: the op runs M' (row q the value row (AU)_q and the step's
// q-th noise normal, as the kernels drew them), and its probes read M U = M' or M = M'Uᵀ. With
// c > 0 the values are δ = cAx̂ + σξ (keys of deterministic norm c): the op's values on x̂' at a = c.
#include <stdexcept>

#include "akm/sim/ops/row_buffers.hpp"
#include "t02_targets.hpp"

namespace akm::exp::t02 {

McResult dense_buffer(ExperimentContext& ctx, const Dense& d, const DenseBuffer& b, std::uint64_t seed,
                      long long trials, const std::string& label) {
  const int n = d.n();
  const Mat& U = d.sp.basis;
  const Mat AU = d.A * U;
  ops::RowBuffers op;
  op.sqrt_lambda = d.sqrt_lambda;
  for (int q = 0; q < kM; ++q) op.rows.push_back({b.rule, b.eta, AU.row(q).transpose(), Vec::Zero(n), Vec::Zero(n), q});
  if (b.c > 0) {  // δ = c(AU)x̂' + σξ: the key of deterministic norm c, x = cx̂
    op.value_on_normalized = true;
    op.a0 = b.c;
  }
  op.beta = b.beta;
  op.noise_sigma = kNoise;
  op.noise_slots = kM;
  op.steps = b.checkpoints.back();
  // One probe per checkpoint and entry (q, j), column-major: M'(q, j) itself (in_basis), or
  // M(q, j) = Σ_i M'(q, i) U(j, i).
  for (const int t : b.checkpoints)
    for (int j = 0; j < n; ++j)
      for (int q = 0; q < kM; ++q) {
        Mat W = Mat::Zero(kM, n);
        if (b.in_basis) W(q, j) = 1.0;
        else W.row(q) = U.row(j);
        op.probes.push_back({W, {t}, false});
      }
  if (op.n_obs() != b.checkpoints.size() * std::size_t(kM) * n)
    throw std::logic_error("T2: the dense buffer's observable layout differs from ops::row_buffers'");
  // Only the reference and cpu paths exist: on another backend this part runs the cpu path.
  const Backend backend = ctx.backend_for(ops::row_buffers_has);
  return ops::row_buffers(op, seed, backend, ctx.mc(trials, label));
}

}  // namespace akm::exp::t02
