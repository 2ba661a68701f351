// T10 glm — [app:glm, lem:loss-free-det]
//
// Logistic teacher: keys x ~ N(0, Σ) (spiked, simulated in Σ's eigenbasis), labels
// y ~ Bernoulli(σ(w*ᵀx)), per-sample value δ = σ(wᵀx) − y (m = 1), normalized key. Three
// parts, each checking only what the paper guarantees.
//
// A. The buffer alone at a fixed w [app:glm: "thm:fixedpoint, lem:transport and
//    thm:tracking hold unchanged"]. M_{t−1} is independent of x_t, so from M_0 = 0
//      E[M_t] = Ĝ_0(μI+Σ̂)^{-1}(I − (βI−ηΣ̂)^t)                     (w = w_0, t ≤ t0)
//      E[M_{t0+k}] − M*_1 = (E[M_{t0}] − M*_1)(βI−ηΣ̂)^k,  M*_1 = Ĝ_1(μI+Σ̂)^{-1}
//    after w switches to w_1 at t0, exactly, per direction u_i with β̃_i = β − ηλ̂_i. Σ̂ is the
//    exact Gaussian-key quadrature; Ĝ_0, Ĝ_1 come from separately seeded large samples and
//    their standard errors enter every tolerance as se_pred. w* is generic here.
//
// B. The local rate at w* [app:glm, lem:loss-free-det]. With w* on u_1, flipping x_j → −x_j
//    (j ≠ 1) leaves the law of (x, w*ᵀx) unchanged, so K = E[σ'(w*ᵀx)‖x‖x̂x̂ᵀ] is diagonal in
//    Σ's eigenbasis, like Σ̂; the linearized mean dynamics of (w_t − w*, M_{t−1}) split into
//    A_i = [[1−αc_i, −αβ̃_i],[c_i, β̃_i]], c_i = ηk_i, det A_i = β̃_i. We run antithetic pairs of
//    AK-SGD from w* ± εv that share keys and labels and follow the half-difference
//    Δw = (w⁺ − w⁻)/2: the AK rule is linear in (M, δ) and the label cancels in
//    Δδ = (σ(a+d) − σ(a−d))/2, a = w̄ᵀx, d = Δwᵀx, so
//      E[(Δw_{t+1}, ΔM_t)_i | F_t] = A_i (Δw_t, ΔM_{t−1})_i + η(0, E_x[R_t x̂_i]),
//      R_t = Δδ − σ'(w*ᵀx)d = σ''(ξ)(a − w*ᵀx)d + σ'''(ξ')d³/6
//    exactly (x_t is independent of F_t). The even-order terms of the plain error
//    E[w_t − w*] (the O(ε²) ones and the stationary bias of constant-step SGD) cancel in Δw;
//    what is left of R_t is the spread of the midpoint w̄ around w* times d, and d³.
//    The per-direction map is fitted by pooled per-trial least squares with a jackknife over
//    trial groups, as in T4, and ρ(Â_i) is checked against ρ(A_i).
//    * Soft labels (y = σ(w*ᵀx), the same Ĝ, Σ̂, K): w̄ stays within O(ε²) of w*, so
//      |R| ≤ sup|σ''|·|a − w*ᵀx|·|d| + sup|σ'''||d|³/6 = O(ε³) against σ'(w*ᵀx)d = O(ε).
//      With ε = 1e-3 (in units of the sd of vᵀx) the pooled ratio q = Σ|R|/Σ|σ'(w*ᵀx)d| is
//      declared ≤ 1e-4 (verified by an at_most check; it measures ≈ 1e-6); a relative change q
//      of c_i moves ρ_i by at most |∂ρ_i/∂c_i| c_i q, which is the bias bound of each rate
//      check (< 0.1 of the rate's standard error at 200 000 trials). αc_1 = 0.05 puts the spike directions in
//      their underdamped band, where ρ(A_i) = √β̃_i [thm:strengthened-rate], and keeps the
//      pair mean-square stable (see the step-size note in local_rates).
//    * Bernoulli labels: the midpoint diffuses around w* under the label noise; its spread
//      in units of w*ᵀx grows like √α, so the linearization is local only for small α. We
//      check at αc_1 = 3e-4 (midpoint spread rms ≈ 0.13 in w*ᵀx units). In full runs over
//      three seeds the fitted (1−ρ) on u1…u4 deviated by −4…−11% (se 2–3%) at αc_1 = 1e-2, by
//      up to −7% (se 2%) at 3e-3 and by at most 2.4 se at 1e-3; a deviation falling like α is
//      ≈ 0.1–0.4% at 3e-4, below the 0.5–1.2% resolution of the check there. The deviation
//      at αc_1 = 1e-3 … 5e-2 is reported as a finding (data_linearization_bias.csv), unchecked.
//
// C. Generic w* [app:glm: "if K and Σ̂ share eigenvectors"]: K is estimated in full and its
//    distance from commuting with Σ̂ is reported (commutator norm, mass off Σ̂'s eigenspaces),
//    beside the same numbers for w* on u_1, whose exact value is 0 (so they show the
//    Monte-Carlo floor). The determinant of the full 2n×2n linearized map is Π_i β̃_i
//    whatever K is (block elimination), which is checked in both cases.
#include "t10_glm.hpp"

namespace akm::exp {

using namespace t10;

static void t10_glm(ExperimentContext& ctx) {
  // ---- Set-up: the spiked spectrum and its exact normalized-key moments ----
  const Setting s = make_setting("spiked", kSpiked, ctx.opts.seed);
  const Vec lh = s.moments.lambda_hat;
  ctx.params = setting_params(s);
  ctx.params["beta"] = kBeta;
  ctx.params["eta"] = kEta;
  ctx.params["key"] = "normalized";
  ctx.params["m"] = 1;
  ctx.params["teacher_margin_sd"] = kMargin;
  ctx.params["mu"] = theory::mu(kBeta, kEta);

  // ---- Simulate: A the buffer alone, B the antithetic pairs at w* on u_1, C K's commutation ----
  const BufferRun buffer = measure_buffer(ctx, s);
  const LocalRates local = measure_local_rates(ctx, s, lh);
  const GenericRun generic = measure_generic(lh, buffer.m0.k, local.mo.k);

  // ---- Check: A, then B, then C ----
  check_buffer(ctx, lh, buffer);
  check_local_rates(ctx, lh, local);
  check_generic(ctx, generic);
  // Pooled recovery of η, β and the λ̂ scale (check/pooled.hpp): the claim's resolution.
  // Each part alone as well, for params: where the claim's resolution comes from.
  PooledRecovery pooled, part_a, part_b;
  add_pooled_buffer(pooled, lh, buffer);
  add_pooled_local_rates(pooled, lh, local);
  pooled.record(ctx.checks);
  add_pooled_buffer(part_a, lh, buffer);
  add_pooled_local_rates(part_b, lh, local);
  for (const auto& [part, rec] : {std::pair{"A", &part_a}, std::pair{"B", &part_b}})
    for (const PooledParam p : {PooledParam::eta, PooledParam::beta, PooledParam::lambda})
      if (const auto e = rec->estimate(p)) ctx.params["pooled_se_by_part"][part][to_string(p)] = e->se;

  // ---- Record: each part's tables, params and figures; the findings ----
  nlohmann::json findings = nlohmann::json::array();
  record_buffer(ctx, lh, buffer);
  record_local_rates(ctx, lh, local, findings);
  record_generic(ctx, lh, buffer.m0.k, generic, findings);
  for (const auto& f : findings) ctx.findings.push_back(f.get<std::string>());
}

const Registrar registration{{
    .id = "T10",
    .slug = "glm",
    .title = "Logistic GLM: fixed point, tracking and local rates with Ĝ, Σ̂, K",
    .labels = "app:glm lem:loss-free-det",
    .claim = "E[M_t] = Ĝ(μI+Σ̂)^{-1}(I−(βI−ηΣ̂)^t), tracking at β̃_i; at w* on u_1 the local rate of "
             "E[w_t − w*] along u_i is ρ(A_i), c_i = ηk_i, det A_i = β̃_i",
    .body = t10_glm,
}};

}  // namespace akm::exp
