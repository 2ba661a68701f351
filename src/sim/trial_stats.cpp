// trial_stats — Welford / Pébay one-pass moments and their pairwise merge (see the header).
#include "akm/sim/trial_stats.hpp"

#include <cmath>
#include <stdexcept>

namespace akm {

TrialStats::TrialStats(std::size_t n_obs)
    : mean_(Vec::Zero(static_cast<Eigen::Index>(n_obs))),
      m2_(Vec::Zero(static_cast<Eigen::Index>(n_obs))),
      m3_(Vec::Zero(static_cast<Eigen::Index>(n_obs))) {}

void TrialStats::add(const double* x) {
  ++count_;
  const double n = static_cast<double>(count_), inv = 1.0 / n;
  for (Eigen::Index j = 0; j < mean_.size(); ++j) {
    const double d = x[j] - mean_[j];
    const double dn = d * inv;
    // Pébay (2008) one-pass third moment; uses M2 before this sample's update.
    m3_[j] += d * dn * dn * (n - 1.0) * (n - 2.0) - 3.0 * dn * m2_[j];
    mean_[j] += dn;
    m2_[j] += d * (x[j] - mean_[j]);
  }
}

void TrialStats::merge(const TrialStats& o) {
  if (o.count_ == 0) return;
  if (count_ == 0) {
    *this = o;
    return;
  }
  if (o.size() != size()) throw std::invalid_argument("TrialStats::merge: size mismatch");
  const double na = static_cast<double>(count_), nb = static_cast<double>(o.count_);
  const double n = na + nb;
  for (Eigen::Index j = 0; j < mean_.size(); ++j) {
    const double d = o.mean_[j] - mean_[j];
    // Pébay's pairwise merge of the third central moment (before M2 is combined).
    m3_[j] += o.m3_[j] + d * d * d * na * nb * (na - nb) / (n * n) +
              3.0 * d * (na * o.m2_[j] - nb * m2_[j]) / n;
    mean_[j] += d * nb / n;
    m2_[j] += o.m2_[j] + d * d * na * nb / n;
  }
  count_ += o.count_;
}

void TrialStats::pack(double* out) const {
  out[0] = static_cast<double>(count_);  // exact: counts stay far below 2^53
  const Eigen::Index n = mean_.size();
  for (Eigen::Index j = 0; j < n; ++j)
    out[1 + j] = mean_[j], out[1 + n + j] = m2_[j], out[1 + 2 * n + j] = m3_[j];
}

TrialStats TrialStats::unpack(const double* in, std::size_t n_obs) {
  TrialStats s(n_obs);
  s.count_ = static_cast<long long>(in[0]);
  const Eigen::Index n = s.mean_.size();
  for (Eigen::Index j = 0; j < n; ++j)
    s.mean_[j] = in[1 + j], s.m2_[j] = in[1 + n + j], s.m3_[j] = in[1 + 2 * n + j];
  return s;
}

Vec TrialStats::variance() const {
  if (count_ < 2) return Vec::Constant(mean_.size(), std::nan(""));
  return m2_ / static_cast<double>(count_ - 1);
}

Vec TrialStats::stderr_mean() const {
  return (variance() / static_cast<double>(count_)).array().sqrt().matrix();
}

Vec TrialStats::skewness_of_mean() const {
  Vec g(mean_.size());
  for (Eigen::Index j = 0; j < g.size(); ++j)
    g[j] = m2_[j] > 0.0 ? m3_[j] / std::pow(m2_[j], 1.5) : 0.0;
  return g;
}

MeanEstimate TrialStats::estimate(Eigen::Index j) const {
  MeanEstimate e;
  e.mean = mean_[j];
  e.se = count_ >= 2 ? std::sqrt(m2_[j] / static_cast<double>(count_ - 1) / static_cast<double>(count_))
                     : std::nan("");
  e.skew = m2_[j] > 0.0 ? m3_[j] / std::pow(m2_[j], 1.5) : 0.0;
  e.dof = static_cast<double>(count_ - 1);
  return e;
}

}  // namespace akm
