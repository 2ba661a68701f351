// T2 targets — [def:wms, def:fms, app:divergent-optima, app:updates-as-sgd, rem:kfac,
// tab:targets, par:fixed-point, rem:kfac-app, rem:normalized-key, app:eta-sweep,
// cor:fixedpoint-normalized]
//
// Two estimation objectives for the buffer M from pairs (x, δ):
//   J_w(M) = ½E‖M − δxᵀ‖_F²  [def:wms]  minimized by M_w* = Ḡ        (EMA's target)
//   J_f(M) = ½E‖δ − Mx‖²     [def:fms]  minimized by M_f* = ḠΣ^{-1}  (Wiener, pure delta)
// [app:divergent-optima]. EMA is online SGD on J_w, the pure delta rule online SGD on J_f
// [app:updates-as-sgd]. With δ = Ax + ξ: Ḡ = AΣ, ḠΣ^{-1} = A and Ḡu_i = λ_i A u_i.
// Both rules are affine in M and M_{t−1} is independent of x_t, so from M_0 = 0 the means
// are exact at every step: E[M_t] = Ḡ(1 − β^t) (EMA), E[M_t] = ḠΣ^{-1}(I − (I − ηΣ)^t)
// (pure delta), i.e. E[M_t]u_i = Au_i(1 − (1 − ηλ_i)^t). No Monte-Carlo check needs a bias
// term. The other claims (sample minimizers, uniform multiples iff Σ = cI, the μ limits of
// φ_i [tab:targets], the K-FAC input-side factor [rem:kfac]) are deterministic. The ridge μ's
// interpolation toward that factor [rem:kfac-app] and the raw and normalized keys side by side
// [rem:normalized-key] are kfac_app.cpp and normalized_key.cpp; the η sweep's reading of μ
// [app:eta-sweep] is sweep_limit.cpp; RMSNorm's output norm [cor:fixedpoint-normalized] is
// rmsnorm.cpp.
#include "t02_targets.hpp"

namespace akm::exp {

using namespace t02;

static void t02_targets(ExperimentContext& ctx) {
  // ---- Set-up: the online rules' eigenbasis spectrum and the dense (non-eigen) setting ----
  ctx.params = {{"m", kM}, {"noise_sigma", kNoise},
                {"value_stream", "delta = A x + xi, xi ~ N(0, noise_sigma^2 I), "
                                 "x ~ N(0, U diag(lambda) U^T) (U = I unless given)"}};
  const Setting online = make_setting("power", kOnlineSpec, ctx.opts.seed);
  const Dense dense = make_dense(ctx.opts.seed);

  // ---- Simulate: each part's Monte Carlo, and the exact computations its checks compare ----
  // The online rules and the dense law's buffers (side by side, K-FAC, the ridge, the
  // deterministic norm) run on ops::row_buffers, the closed loop on ops::optimizer_loop, the
  // sample minimizers (least squares on S pairs) on ops::sample_minimizers.
  const OnlineRun on = measure_online(ctx, online);
  const LeastSquaresRun ls = measure_least_squares(ctx, dense);
  const std::vector<UniformCase> uniform = measure_uniform(ctx);
  const MuLimits mu = measure_mu_limits(online.spectrum.lambda);
  const SweepLimit sweep = measure_sweep_limit();
  const RmsNormRun rms = measure_rmsnorm(ctx.opts.seed);
  const KfacRun kf = measure_kfac(ctx, dense);
  const KfacAppRun app = measure_kfac_app(ctx, dense);
  const NormalizedRun nk = measure_normalized_key(ctx, dense);

  // ---- Check: online rules, sample minimizers, uniform multiples, μ limits, K-FAC, the ridge,
  // the normalized key ----
  check_online(ctx, online, on);
  check_least_squares(ctx, dense, ls);
  check_uniform(ctx, uniform);
  check_mu_limits(ctx, mu);
  check_sweep_limit(ctx, sweep);
  check_rmsnorm(ctx, rms);
  check_kfac(ctx, dense, kf);
  check_kfac_app(ctx, dense, app);
  check_normalized_key(ctx, dense, nk);

  // ---- Record: each part's params, tables and figures ----
  record_online(ctx, online, on);
  ctx.params["least_squares_setting"] = dense_params(dense);
  record_least_squares(ctx, ls);
  record_uniform(ctx, uniform);
  record_mu_limits(ctx, mu);
  record_sweep_limit(ctx, sweep);
  record_rmsnorm(ctx, rms);
  record_kfac(ctx, dense, kf);
  record_kfac_app(ctx, dense, app);
  record_normalized_key(ctx, dense, nk);
}

const Registrar registration{{
    .id = "T2",
    .slug = "targets",
    .title = "Estimator targets: EMA → Ḡ, pure delta → ḠΣ^{-1} (Wiener, K-FAC input side)",
    .labels = "rem:normalized-key def:wms def:fms app:divergent-optima app:updates-as-sgd rem:kfac "
              "tab:targets par:fixed-point rem:kfac-app app:eta-sweep cor:fixedpoint-normalized",
    .claim = "argmin J_w = Ḡ (EMA's limit), argmin J_f = ḠΣ^{-1} (pure delta's limit, the K-FAC "
             "input-side factor); uniform multiples iff Σ = cI; φ_i → 1/λ_i as μ → 0 and "
             "φ_i/φ_j → 1 as μ → ∞",
    .body = t02_targets,
}};

}  // namespace akm::exp

