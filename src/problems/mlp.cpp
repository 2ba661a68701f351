// mlp — forward/backward of the bias-free GELU MLP, μP multipliers, synthetic tasks.
#include "akm/problems/mlp.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "akm/base/errors.hpp"

namespace akm {

void validate(const MlpShape& s) {
  require_at_least("d_in", s.d_in, 1);
  require_at_least("width", s.width, 1);
  require_at_least("depth", s.depth, 1);
  require_at_least("d_out", s.d_out, 1);
}

// Tensor Programs V, Table 3 (μP without multipliers), written with w = n/n0 so the base
// width is the standard parameterization [cor:mup-base-lr].
double mup_init_std(LayerRole role, int fan_in, double w) {
  const double s = 1.0 / std::sqrt(static_cast<double>(fan_in));
  switch (role) {
    case LayerRole::input:
    case LayerRole::hidden: return s;
    // Output: Table 3's variance 1/n² (std ∝ 1/n), at this normalization std (1/√n)/√w = √n₀/n.
    // Until the runs of this version it was s/w = n₀·n^{-3/2} (variance ∝ n⁻³), √w too small,
    // so the output started Θ(n^{-1}) instead of Θ(n^{-1/2}) and the hidden layers' backward
    // signal shrank as n^{-1/2}: the cause the ledger gives for the SGD-m baseline's slopes
    // before (cor:mup-base-lr/ak-sgd's note). Every caller but T13 trains at its base width
    // (w = 1), where both forms agree.
    case LayerRole::output: return s / std::sqrt(w);
    case LayerRole::single: return 0.0;    // linear/logistic regression start at W = 0
  }
  return s;
}

double mup_lr_multiplier(OptimizerFamily family, LayerRole role, double w) {
  if (role == LayerRole::single) return 1.0;
  if (family == OptimizerFamily::sgd) {
    // SGD-family (SGD-m, AK-SGD): input α·n, hidden Θ(1), output Θ(1/n) [cor:mup-base-lr].
    if (role == LayerRole::input) return w;
    if (role == LayerRole::hidden) return 1.0;
    return 1.0 / w;
  }
  // Muon-family (Muon, AK-Muon) hidden layers: α = Θ(n^{-1/2}), the √(m/n) prefactor in the
  // optimizer [cor:mup-base-lr]; their input and output layers train with AdamW (below).
  if (family == OptimizerFamily::muon && role == LayerRole::hidden) return 1.0 / std::sqrt(w);
  // AdamW-family (AdamW, AK-AdamW): input Θ(1), hidden and output Θ(1/n) [cor:mup-base-lr].
  return role == LayerRole::input ? 1.0 : 1.0 / w;
}

Mlp::Mlp(const MlpShape& shape, int base_width, std::uint64_t seed) : shape_(shape) {
  validate(shape);
  require_at_least("base_width", base_width, 1);
  w_ = static_cast<double>(shape.width) / base_width;
  Stream s(seed, 0, Purpose::init);
  for (int l = 0; l < shape.depth; ++l) {
    const int fan_in = l == 0 ? shape.d_in : shape.width;
    const int fan_out = l == shape.depth - 1 ? shape.d_out : shape.width;
    const double sd = mup_init_std(role(l), fan_in, w_);
    Mat Wl(fan_out, fan_in);
    for (int j = 0; j < fan_in; ++j)
      for (int r = 0; r < fan_out; ++r) Wl(r, j) = sd * s.normal();
    W.push_back(std::move(Wl));
  }
}

LayerRole Mlp::role(int l) const {
  if (shape_.depth == 1) return LayerRole::single;
  if (l == 0) return LayerRole::input;
  return l == shape_.depth - 1 ? LayerRole::output : LayerRole::hidden;
}

double gelu(double z) {
  constexpr double c = 0.7978845608028654;  // √(2/π)
  return 0.5 * z * (1.0 + std::tanh(c * (z + 0.044715 * z * z * z)));
}

double gelu_grad(double z) {
  constexpr double c = 0.7978845608028654;
  const double u = c * (z + 0.044715 * z * z * z);
  const double th = std::tanh(u);
  const double du = c * (1.0 + 3.0 * 0.044715 * z * z);
  return 0.5 * (1.0 + th) + 0.5 * z * (1.0 - th * th) * du;
}

Mat Mlp::forward(ConstMatRef X, MlpCache* cache) const {
  if (X.cols() != shape_.d_in) throw std::invalid_argument("Mlp::forward: X has the wrong width");
  if (cache) {
    cache->X.assign(W.size(), Mat());
    cache->Z.assign(W.size(), Mat());
  }
  Mat h = X;
  for (int l = 0; l < layers(); ++l) {
    Mat z = h * W[l].transpose();  // rows z_i = W_l h_i
    if (cache) cache->X[l] = h;
    if (l == layers() - 1) {
      if (cache) cache->Z[l] = z;
      return z;
    }
    h = z.unaryExpr([](double v) { return gelu(v); });
    if (cache) cache->Z[l] = std::move(z);
  }
  return h;  // unreachable: depth ≥ 1
}

void Mlp::backward(MlpCache& cache, ConstMatRef out_err) const {
  cache.Delta.assign(W.size(), Mat());
  cache.Delta.back() = out_err;
  for (int l = layers() - 2; l >= 0; --l) {
    const Mat back = cache.Delta[l + 1] * W[l + 1];  // ∂ℓ/∂h_{l+1}
    cache.Delta[l] = back.cwiseProduct(cache.Z[l].unaryExpr([](double v) { return gelu_grad(v); }));
  }
}

std::vector<Mat> Mlp::gradients(const MlpCache& cache) const {
  std::vector<Mat> g;
  for (int l = 0; l < layers(); ++l) {
    const double inv_n = 1.0 / static_cast<double>(cache.X[l].rows());
    g.push_back((cache.Delta[l].transpose() * cache.X[l]) * inv_n);  // ΔᵀX/N
  }
  return g;
}

namespace {
double softplus(double y) { return y > 0 ? y + std::log1p(std::exp(-y)) : std::log1p(std::exp(y)); }
double sigmoid(double y) { return y >= 0 ? 1.0 / (1.0 + std::exp(-y)) : std::exp(y) / (1.0 + std::exp(y)); }

// log Σ_k e^{y_k}, shifted by the largest logit so no term overflows.
double log_sum_exp(const Eigen::Ref<const Eigen::RowVectorXd>& y) {
  const double m = y.maxCoeff();
  return m + std::log((y.array() - m).exp().sum());
}
}  // namespace

double mean_loss(LossKind kind, ConstMatRef Y, ConstMatRef T) {
  double s = 0.0;
  if (kind == LossKind::mse) {
    s = 0.5 * (Y - T).squaredNorm();
  } else if (kind == LossKind::softmax_ce) {
    for (Eigen::Index i = 0; i < Y.rows(); ++i) s += log_sum_exp(Y.row(i)) - T.row(i).dot(Y.row(i));
  } else {
    for (Eigen::Index j = 0; j < Y.cols(); ++j)
      for (Eigen::Index i = 0; i < Y.rows(); ++i) s += softplus(Y(i, j)) - T(i, j) * Y(i, j);
  }
  return s / static_cast<double>(Y.rows());
}

Mat output_error(LossKind kind, ConstMatRef Y, ConstMatRef T) {
  if (kind == LossKind::mse) return Y - T;
  if (kind == LossKind::softmax_ce) {
    Mat P(Y.rows(), Y.cols());
    for (Eigen::Index i = 0; i < Y.rows(); ++i) P.row(i) = (Y.row(i).array() - log_sum_exp(Y.row(i))).exp();
    return P - T;
  }
  return Y.unaryExpr([](double v) { return sigmoid(v); }) - T;
}

Mat Task::teacher_output(ConstMatRef X) const {
  Mat h = X;
  for (std::size_t l = 0; l < teacher.size(); ++l) {
    Mat z = h * teacher[l].transpose();
    if (l + 1 == teacher.size()) return z;
    h = z.unaryExpr([](double v) { return gelu(v); });
  }
  return h;
}

void Task::sample(Stream& s, int N, Mat& X, Mat& T) const {
  X.resize(N, d_in());
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < d_in(); ++j) X(i, j) = sqrt_lambda[j] * s.normal();
  T = teacher_output(X);
  if (loss == LossKind::logistic) {
    for (Eigen::Index i = 0; i < T.size(); ++i) T(i) = s.uniform() < sigmoid(T(i)) ? 1.0 : 0.0;
  } else {
    for (Eigen::Index i = 0; i < T.size(); ++i) T(i) += noise * s.normal();
  }
}

double Task::condition_number() const {
  const Vec lam = sqrt_lambda.array().square();
  return lam.maxCoeff() / lam.minCoeff();
}

double Task::effective_rank() const {
  const Vec lam = sqrt_lambda.array().square();
  const Vec p = lam / lam.sum();
  double h = 0.0;
  for (Eigen::Index i = 0; i < p.size(); ++i)
    if (p[i] > 0) h -= p[i] * std::log(p[i]);
  return std::exp(h);
}

double Task::top1_fraction() const {
  const Vec lam = sqrt_lambda.array().square();
  return lam.maxCoeff() / lam.sum();
}

Vec spiked_sqrt_lambda(int d, const std::vector<double>& spikes, double floor) {
  require_at_least("d", d, 1);
  Vec s = Vec::Constant(d, std::sqrt(floor));
  for (std::size_t i = 0; i < spikes.size() && static_cast<int>(i) < d; ++i) s[i] = std::sqrt(spikes[i]);
  return s;
}

Task make_task(const std::string& kind, const Vec& sqrt_lambda, int d_out, double noise,
               std::uint64_t seed, int teacher_width, int teacher_depth) {
  if (kind != "linear" && kind != "logistic" && kind != "teacher")
    throw InputError("task", kind, "one of linear, logistic, teacher");
  Task t;
  t.kind = kind;
  t.loss = kind == "logistic" ? LossKind::logistic : LossKind::mse;
  t.sqrt_lambda = sqrt_lambda;
  t.noise = noise;
  const int d = static_cast<int>(sqrt_lambda.size());
  const double trace = sqrt_lambda.squaredNorm();
  Stream s(seed, 0, Purpose::basis);
  auto draw = [&s](int rows, int cols, double sd) {
    Mat A(rows, cols);
    for (int j = 0; j < cols; ++j)
      for (int r = 0; r < rows; ++r) A(r, j) = sd * s.normal();
    return A;
  };
  if (kind == "teacher") {
    // First layer scaled by 1/√tr Σ so teacher pre-activations are Θ(1) for any spectrum.
    const int depth = std::max(teacher_depth, 2);
    for (int l = 0; l < depth; ++l) {
      const int fan_in = l == 0 ? d : teacher_width;
      const int fan_out = l == depth - 1 ? d_out : teacher_width;
      const double sd = l == 0 ? 1.0 / std::sqrt(trace) : 1.0 / std::sqrt(static_cast<double>(fan_in));
      t.teacher.push_back(draw(fan_out, fan_in, (l == 0 ? 2.0 : 1.0) * sd));
    }
  } else {
    // Logit / output Θ(1): aᵀx has variance (scale)² for a ~ N(0, scale²/tr Σ).
    const double scale = kind == "logistic" ? 3.0 : 1.0;
    t.teacher.push_back(draw(kind == "logistic" ? 1 : d_out, d, scale / std::sqrt(trace)));
  }
  return t;
}

}  // namespace akm
