// classify — see akm/problems/classify.hpp.
#include "akm/problems/classify.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/random/random.hpp"
#include "akm/spectrum/data_keys.hpp"

namespace akm {

LabelledData load_labelled(const std::string& spec) {
  DataKeysSpec ds;
  try {
    ds = parse_data_keys(spec);
  } catch (const InputError& e) {
    throw InputError("data", spec, fmt::format("data:NAME[,standardize] or data:PATH.csv[,standardize][,header] ({})", e.what()));
  }
  const Mat table = read_numeric_table(ds.path, ds.header, false, ds.builtin, ds.name);
  if (table.cols() < 2) throw InputError("data", spec, "at least one feature column and a label column");
  LabelledData d;
  d.source = fmt::format("{} ({})", ds.spec, ds.path);
  const Eigen::Index N = table.rows(), p = table.cols() - 1;
  d.y.resize(static_cast<std::size_t>(N));
  for (Eigen::Index i = 0; i < N; ++i) {
    const double v = table(i, p);
    if (v < 0 || v != std::floor(v) || v > 1e6)
      throw InputError("data", fmt::format("{} row {}", ds.spec, i + 1),
                       fmt::format("an integer class label ≥ 0 in the last column (got {})", v));
    d.y[static_cast<std::size_t>(i)] = static_cast<int>(v);
    d.classes = std::max(d.classes, static_cast<int>(v) + 1);
  }
  if (d.classes < 2) throw InputError("data", spec, "at least two classes in the label column");
  d.X = table.leftCols(p);
  if (ds.standardize) {
    d.X = d.X.rowwise() - d.X.colwise().mean();
    for (Eigen::Index j = 0; j < p; ++j) {
      const double sd = std::sqrt(d.X.col(j).squaredNorm() / static_cast<double>(N));
      if (sd > 0) d.X.col(j) /= sd;
    }
  } else {
    const double m = d.X.cwiseAbs().maxCoeff();
    if (m > 0) d.X /= m;
  }
  return d;
}

namespace {
LabelledData take(const LabelledData& d, const std::vector<int>& rows) {
  LabelledData out;
  out.classes = d.classes;
  out.source = d.source;
  out.X.resize(static_cast<Eigen::Index>(rows.size()), d.X.cols());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    out.X.row(static_cast<Eigen::Index>(r)) = d.X.row(rows[r]);
    out.y.push_back(d.y[static_cast<std::size_t>(rows[r])]);
  }
  return out;
}

// Fisher–Yates from a Philox stream: the same permutation for a seed on every machine.
void shuffle(std::vector<int>& v, Stream& s) {
  for (std::size_t i = v.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(s.uniform() * static_cast<double>(i));
    std::swap(v[i - 1], v[std::min(j, i - 1)]);
  }
}
}  // namespace

DataSplit split_data(const LabelledData& d, double validation_fraction, double test_fraction,
                     std::uint64_t seed) {
  if (!(validation_fraction > 0 && validation_fraction < 1))
    throw InputError("validation_fraction", fmt::format("{}", validation_fraction), "(0, 1)");
  if (!(test_fraction > 0 && test_fraction < 1))
    throw InputError("test_fraction", fmt::format("{}", test_fraction), "(0, 1)");
  const int N = d.rows();
  const int nv = static_cast<int>(validation_fraction * N), nt = static_cast<int>(test_fraction * N);
  if (nv < 1 || nt < 1 || N - nv - nt < 1)
    throw InputError("validation_fraction + test_fraction", fmt::format("{}", validation_fraction + test_fraction),
                     fmt::format("fractions leaving ≥ 1 row in each of train, validation, test ({} rows)", N));
  std::vector<int> idx(static_cast<std::size_t>(N));
  std::iota(idx.begin(), idx.end(), 0);
  Stream s(seed, 0, Purpose::aux);
  shuffle(idx, s);
  const auto at = [&](int a, int b) { return std::vector<int>(idx.begin() + a, idx.begin() + b); };
  return {take(d, at(nv + nt, N)), take(d, at(0, nv)), take(d, at(nv, nv + nt))};
}

Mat one_hot(const std::vector<int>& y, int classes) {
  Mat T = Mat::Zero(static_cast<Eigen::Index>(y.size()), classes);
  for (std::size_t i = 0; i < y.size(); ++i) T(static_cast<Eigen::Index>(i), y[i]) = 1.0;
  return T;
}

double accuracy(ConstMatRef logits, const std::vector<int>& y) {
  if (y.empty()) return 0.0;
  int hit = 0;
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    Eigen::Index k = 0;
    logits.row(i).maxCoeff(&k);
    hit += k == y[static_cast<std::size_t>(i)];
  }
  return static_cast<double>(hit) / static_cast<double>(y.size());
}

int ClassifyResult::steps_to_accuracy(double a) const {
  for (std::size_t i = 0; i < val_accuracy.size(); ++i)
    if (val_accuracy[i] >= a) return eval_steps[i];
  return -1;
}

int ClassifyResult::steps_to_loss(double l) const {
  for (std::size_t i = 0; i < val_loss.size(); ++i)
    if (val_loss[i] <= l) return eval_steps[i];
  return -1;
}

ClassifyResult train_classifier(Mlp& net, const DataSplit& data, const TrainConfig& cfg, int epochs) {
  validate(cfg);
  if (epochs < 1) throw InputError("epochs", std::to_string(epochs), "≥ 1");
  const int classes = data.train.classes;
  if (net.shape().d_in != data.train.X.cols() || net.shape().d_out != classes)
    throw InputError("network shape", fmt::format("{} → {}", net.shape().d_in, net.shape().d_out),
                     fmt::format("{} inputs → {} classes (the data)", data.train.X.cols(), classes));
  const int n_train = data.train.rows();
  if (cfg.batch > n_train)
    throw InputError("batch", std::to_string(cfg.batch), fmt::format("≤ the {} training rows", n_train));
  Trainer tr(net, cfg);
  const Mat Tv = one_hot(data.validation.y, classes);
  ClassifyResult res;
  auto eval = [&](int t) {
    const Mat Y = net.forward(data.validation.X);
    const double v = mean_loss(LossKind::softmax_ce, Y, Tv);
    res.eval_steps.push_back(t);
    res.val_loss.push_back(std::isfinite(v) ? v : std::numeric_limits<double>::infinity());
    res.val_accuracy.push_back(accuracy(Y, data.validation.y));
    return res.val_loss.back();
  };
  const double initial = eval(0);
  Stream order(cfg.seed, 0, Purpose::data);
  std::vector<int> idx(static_cast<std::size_t>(n_train));
  std::iota(idx.begin(), idx.end(), 0);
  const int per_epoch = n_train / cfg.batch;
  Mat X(cfg.batch, data.train.X.cols()), T(cfg.batch, classes);
  int t = 0;
  for (int e = 0; e < epochs && !res.diverged; ++e) {
    shuffle(idx, order);
    for (int b = 0; b < per_epoch; ++b) {
      T.setZero();
      for (int i = 0; i < cfg.batch; ++i) {
        const int r = idx[static_cast<std::size_t>(b * cfg.batch + i)];
        X.row(i) = data.train.X.row(r);
        T(i, data.train.y[static_cast<std::size_t>(r)]) = 1.0;
      }
      ++t;
      if (!std::isfinite(tr.step(X, T, LossKind::softmax_ce))) {
        res.diverged = true;
        break;
      }
      const bool last = e + 1 == epochs && b + 1 == per_epoch;
      if ((t % cfg.eval_every == 0 || last) && !(eval(t) <= 1e3 * std::max(initial, 1e-12))) {
        res.diverged = true;
        break;
      }
    }
  }
  if (res.diverged) {
    if (res.eval_steps.back() != t) res.eval_steps.push_back(t), res.val_accuracy.push_back(0.0), res.val_loss.push_back(0);
    res.val_loss.back() = std::numeric_limits<double>::infinity();
    res.test_loss = std::numeric_limits<double>::infinity();
    res.test_accuracy = 0.0;
    return res;
  }
  const Mat Yt = net.forward(data.test.X);
  res.test_loss = mean_loss(LossKind::softmax_ce, Yt, one_hot(data.test.y, classes));
  res.test_accuracy = accuracy(Yt, data.test.y);
  return res;
}

}  // namespace akm
