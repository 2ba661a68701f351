// jackknife — see akm/sim/jackknife.hpp.
#include "akm/sim/jackknife.hpp"

#include <cmath>
#include <stdexcept>

namespace akm {

Jackknife::Jackknife(const std::vector<TrialStats>& groups) {
  for (const auto& g : groups) {
    rows_.push_back(g.mean().data());
    counts_.push_back(static_cast<double>(g.count()));
  }
  if (rows_.size() < 2) throw std::invalid_argument("jackknife: need at least 2 groups");
  sum_ = Vec::Zero(static_cast<Eigen::Index>(groups[0].size()));
  pool();
}

Jackknife::Jackknife(const double* means, std::size_t n_obs, std::vector<double> counts)
    : counts_(std::move(counts)) {
  if (counts_.size() < 2) throw std::invalid_argument("jackknife: need at least 2 groups");
  for (std::size_t k = 0; k < counts_.size(); ++k) rows_.push_back(means + k * n_obs);
  sum_ = Vec::Zero(static_cast<Eigen::Index>(n_obs));
  pool();
}

void Jackknife::pool() {
  // Group order, one product and one sum per element (the order every caller relied on).
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    for (Eigen::Index j = 0; j < sum_.size(); ++j) sum_[j] += counts_[k] * rows_[k][j];
    n_all_ += counts_[k];
  }
}

MeanEstimate Jackknife::operator()(const std::function<double(const Vec&)>& stat) const {
  return many({}, 1, [&](const Vec& v, double* out) { out[0] = stat(v); })[0];
}

MeanEstimate Jackknife::operator()(const std::vector<std::size_t>& idx,
                                   const std::function<double(const Vec&)>& stat) const {
  if (idx.empty()) throw std::invalid_argument("jackknife: empty observable selection");
  return many(idx, 1, [&](const Vec& v, double* out) { out[0] = stat(v); })[0];
}

std::vector<MeanEstimate> Jackknife::many(const std::vector<std::size_t>& idx, std::size_t m,
                                          const std::function<void(const Vec&, double*)>& stats) const {
  const std::size_t g = rows_.size();
  const bool all = idx.empty();
  const Eigen::Index K = all ? sum_.size() : static_cast<Eigen::Index>(idx.size());
  for (std::size_t j : idx)
    if (j >= size()) throw std::invalid_argument("jackknife: observable index out of range");
  auto at = [&](Eigen::Index j) { return all ? static_cast<std::size_t>(j) : idx[static_cast<std::size_t>(j)]; };
  Vec v(K);
  std::vector<double> full(m), loo(g * m);
  for (Eigen::Index j = 0; j < K; ++j) v[j] = sum_[static_cast<Eigen::Index>(at(j))] / n_all_;
  stats(v, full.data());
  for (std::size_t k = 0; k < g; ++k) {
    const double nk = counts_[k];
    for (Eigen::Index j = 0; j < K; ++j) {
      const std::size_t o = at(j);
      v[j] = (sum_[static_cast<Eigen::Index>(o)] - nk * rows_[k][o]) / (n_all_ - nk);
    }
    stats(v, loo.data() + k * m);
  }
  std::vector<MeanEstimate> out(m);
  for (std::size_t s = 0; s < m; ++s) {
    double mean = 0;
    for (std::size_t k = 0; k < g; ++k) mean += loo[k * m + s];
    mean /= static_cast<double>(g);
    double ss = 0, s3 = 0;
    for (std::size_t k = 0; k < g; ++k) {
      const double d = loo[k * m + s] - mean;
      ss += d * d, s3 += d * d * d;
    }
    MeanEstimate& e = out[s];
    e.se = std::sqrt(ss * static_cast<double>(g - 1) / static_cast<double>(g));
    // Bias-corrected estimate = mean of the pseudo-values g·full − (g−1)·loo_k, whose
    // deviations are −(g−1) times those of loo: the skewness of their mean is −m3/m2^{3/2}.
    e.mean = static_cast<double>(g) * full[s] - static_cast<double>(g - 1) * mean;
    e.skew = ss > 0.0 ? -s3 / std::pow(ss, 1.5) : 0.0;
    e.dof = static_cast<double>(g - 1);
  }
  return out;
}

std::pair<double, double> jackknife(const std::vector<TrialStats>& groups,
                                    const std::function<double(const Vec&)>& stat) {
  const MeanEstimate e = Jackknife(groups)(stat);
  return {e.mean, e.se};
}

MeanEstimate jackknife_estimate(const std::vector<TrialStats>& groups,
                                const std::function<double(const Vec&)>& stat) {
  return Jackknife(groups)(stat);
}

}  // namespace akm
