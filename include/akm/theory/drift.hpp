// drift — exact mean tracking error of a buffer whose target drifts linearly
// [prop:nc1-main, prop:nc1, cor:nc2].
//
// Along an eigendirection u_i the mean tracking error e_t = E[(M_t − M*_t)u_i] of a buffer
// that contracts by b per step (b = β̃_i for AK [thm:tracking], β for EMA [eq:tracking-ema])
// while its target moves by Δ per step obeys
//   e_t = b (e_{t−1} − Δ)
// exactly: the step from t−1 to t contracts the distance to the new target M*_t, which is
// the old distance minus Δ. Its fixed point is e_∞ = −bΔ/(1−b), and
//   e_t = e_∞ + b^t (e_0 − e_∞),
// so a linearly drifting target makes the bound of prop:nc1 an equality. The lag (how far
// the buffer trails the target, positive for Δ > 0) is −e.
#pragma once

namespace akm::theory {

/// e_∞ = −bΔ/(1−b), the steady mean tracking error [prop:nc1]; |b| < 1 else InputError.
double drift_steady_error(double b, double drift);
/// e_t = e_∞ + b^t (e_0 − e_∞) (closed form); t ≥ 0.
double drift_mean_error(double b, double drift, double e0, long long t);
/// Reference: e_t by iterating e ← b(e − Δ) t times.
double drift_mean_error_by_recursion(double b, double drift, double e0, long long t);
/// (1/(t2−t1+1)) Σ_{t=t1}^{t2} e_t, the mean over a window of steps; 0 ≤ t1 ≤ t2.
double drift_window_mean(double b, double drift, double e0, long long t1, long long t2);

}  // namespace akm::theory
