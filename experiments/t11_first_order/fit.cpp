// T11 first order — the fit window and the Taylor-residual slope fit.
#include <algorithm>
#include <cmath>

#include "t11_first_order.hpp"

namespace akm::exp::t11 {

Vec gaussian_vector(int n, Stream& s) {
  Vec v(n);
  for (int i = 0; i < n; ++i) v[i] = s.normal();
  return v;
}

Vec with_margin(const Vec& dir, const Vec& lambda, double margin) {
  return dir * (margin / std::sqrt(dir.cwiseProduct(dir).dot(lambda)));
}

double mean_pow(const Vec& d, int p) { return d.array().abs().pow(p).mean(); }

Window window_for(const lg::DataSet& data, const Vec& theta, const Vec& M) {
  Window w{};
  const Vec d = data.X * M;
  w.t3 = lg::third_derivative(data, theta, M);
  w.m4 = mean_pow(d, 4);
  w.alpha_max = kQMax * 32 * std::abs(w.t3) / w.m4;
  auto e = [&](double a) {
    return lg::taylor_residual_rounding(data, theta, M, a) / (std::abs(w.t3) * a * a * a / 6);
  };
  w.alpha_min = w.alpha_max * std::pow(10.0, -kDecades);
  while (e(w.alpha_min) > kEMax && w.alpha_min < w.alpha_max) w.alpha_min *= std::pow(10.0, 0.05);
  return w;
}

SlopeFit fit_slope(const lg::DataSet& data, const Vec& theta, const Vec& M, const Window& w) {
  std::vector<double> u(kWindowPoints), y(kWindowPoints), F(kWindowPoints);
  for (int j = 0; j < kWindowPoints; ++j) {
    const double a = w.alpha_min * std::pow(w.alpha_max / w.alpha_min, j / (kWindowPoints - 1.0));
    const double cubic = std::abs(w.t3) * a * a * a / 6;
    u[j] = std::log(a);
    y[j] = std::log(std::abs(lg::taylor_residual(data, theta, M, a)));
    F[j] = -std::log1p(-(w.q(a) + lg::taylor_residual_rounding(data, theta, M, a) / cubic));
  }
  double ub = 0, yb = 0;
  for (int j = 0; j < kWindowPoints; ++j) ub += u[j], yb += y[j];
  ub /= kWindowPoints, yb /= kWindowPoints;
  double sxx = 0, sxy = 0, sabs = 0;
  for (int j = 0; j < kWindowPoints; ++j) {
    sxx += (u[j] - ub) * (u[j] - ub), sxy += (u[j] - ub) * (y[j] - yb);
    sabs += std::abs(u[j] - ub) * F[j];
  }
  SlopeFit f{};
  f.slope = sxy / sxx;
  double rss = 0;
  for (int j = 0; j < kWindowPoints; ++j) {
    const double r = y[j] - (yb + f.slope * (u[j] - ub));
    rss += r * r;
  }
  f.se = std::sqrt(rss / (kWindowPoints - 2) / sxx);
  f.bias_bound = sabs / sxx;
  // The coefficient of α³ is −T3/6 [eq:taylor]: at α_min, r/(−α³T3/6) − 1 is within q + e.
  const double a = w.alpha_min;
  f.coef_ratio_dev = std::abs(lg::taylor_residual(data, theta, M, a) / (-w.t3 * a * a * a / 6) - 1);
  f.coef_bound = w.q(a) + lg::taylor_residual_rounding(data, theta, M, a) / (std::abs(w.t3) * a * a * a / 6);
  return f;
}

}  // namespace akm::exp::t11
