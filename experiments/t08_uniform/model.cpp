// T8 uniform — the simulated stream [eq:dm-norm-update]: the AK normalized buffer one unit off
// its fixed point along every eigendirection, recorded for kSteps pushes.
#include "akm/rules/kernels.hpp"
#include "t08_uniform.hpp"

namespace akm::exp::t08 {

McResult simulate(ExperimentContext& ctx, const Setting& s, const Vec& a, const Vec& mstar,
                  std::uint64_t seed, long long trials) {
  const int n = s.n();
  const Vec& lh = s.moments.lambda_hat;
  auto kernel = [&](long long trial, double* out) {
    Stream keys(seed, trial, Purpose::keys), noise(seed, trial, Purpose::noise);
    Mat M = (mstar + Vec::Ones(n)).transpose();  // T_0 = 1ᵀ: unit offset on every u_i
    Vec x(n), xh(n), delta(1), r(1);
    for (int k = 1; k <= kSteps; ++k) {
      kern::gaussian_key(keys, s.sqrt_lambda, x);
      kern::key_for(Key::normalized, x, xh);
      delta[0] = a.dot(x) + kNoise * noise.normal();
      kern::ak_step(M, delta, xh, kBeta, kEta, r);  // [eq:dm-norm-update]
      for (int i = 0; i < n; ++i) out[at(n, k, i)] = M(0, i) - mstar[i];
    }
    double w = 0;
    for (int i = 0; i < n; ++i) w += lh[i] * out[at(n, 1, i)];
    out[weighted(n)] = w;
  };
  return monte_carlo(ctx.mc(trials, "T8 " + s.name, kGroups), weighted(n) + 1, kernel);
}

}  // namespace akm::exp::t08
