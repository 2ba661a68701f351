// T11 first order — the parts shared by t11_first_order*.cpp: the design constants, the
// Taylor-residual fit window from exact bounds, and the slope fit (fit.cpp).
#pragma once
#include <vector>

#include "akm/problems/logistic.hpp"
#include "common.hpp"

namespace akm::exp::t11 {

namespace lg = akm::logistic;

constexpr long long kDataSize = 2000;
constexpr double kTeacherMargin = 2.0;  // sd of w*ᵀx
constexpr double kThetaMargin = 1.0;    // sd of θᵀx
constexpr double kQMax = 0.05;          // higher-order share at α_max
constexpr double kEMax = 0.01;          // rounding share at α_min
constexpr double kDecades = 2.0, kMinDecades = 1.5;
constexpr int kWindowPoints = 25;
constexpr double kUnit = 1.1102230246251565e-16;  // u = 2^-53

Vec gaussian_vector(int n, Stream& s);
/// dir scaled so that the margin's sd, √(dirᵀΛdir), is `margin`.
Vec with_margin(const Vec& dir, const Vec& lambda, double margin);
double mean_pow(const Vec& d, int p);

struct Window {
  double t3, m4, alpha_min, alpha_max;
  double q(double a) const { return a * m4 / (32 * std::abs(t3)); }
};

// The fit window from exact bounds alone (no residual is looked at).
Window window_for(const lg::DataSet& data, const Vec& theta, const Vec& M);

struct SlopeFit {
  double slope, se, bias_bound, coef_ratio_dev, coef_bound;
};

/// The log-log slope of |residual| against α over the window, with its standard error, the
/// bias bound from the quartic term, and the coefficient check (fit.cpp).
SlopeFit fit_slope(const lg::DataSet& data, const Vec& theta, const Vec& M, const Window& w);

/// What the first-order figures need besides the tables.
struct FirstOrderFigure {
  long long n_gauss;
  int n;
  double alpha, guarantee_gap, g2;
  long long beat;
};

/// The Taylor-residual, first-order-distribution and actual-decrease figures (figures.cpp).
void figures(ExperimentContext& ctx, const Window& w_star, const FirstOrderFigure& fo);

}  // namespace akm::exp::t11
