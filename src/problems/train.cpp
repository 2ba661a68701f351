// train — per-layer optimizers on the MLP's (X_l, Δ_l) hooks and the online loop.
#include "akm/problems/train.hpp"

#include <cmath>
#include <limits>

#include "akm/rules/cost.hpp"
#include "akm/base/errors.hpp"
#include "akm/rules/rules.hpp"

namespace akm {

bool is_ak(const std::string& o) { return o == "ak-sgd" || o == "ak-adamw" || o == "ak-muon"; }

OptimizerFamily family_of(const std::string& o) {
  if (o == "muon" || o == "ak-muon") return OptimizerFamily::muon;
  return (o == "adamw" || o == "ak-adamw") ? OptimizerFamily::adam : OptimizerFamily::sgd;
}

void validate(const TrainConfig& c) {
  if (c.optimizer != "sgd-m" && c.optimizer != "ak-sgd" && c.optimizer != "adamw" &&
      c.optimizer != "ak-adamw" && c.optimizer != "muon" && c.optimizer != "ak-muon")
    throw InputError("optimizer", c.optimizer, "one of sgd-m, ak-sgd, adamw, ak-adamw, muon, ak-muon");
  if (family_of(c.optimizer) == OptimizerFamily::muon && !(c.aux_lr > 0 && std::isfinite(c.aux_lr)))
    throw InputError("aux_lr", show(c.aux_lr), "must be > 0 and finite");
  require_finite("lr", c.lr);
  require_finite("width_lr_power", c.width_lr_power);
  if (!(c.lr > 0)) throw InputError("lr", std::to_string(c.lr), "must be > 0");
  require_beta(c.beta);
  if (is_ak(c.optimizer)) require_eta(c.eta);
  if (!(c.beta2 >= 0 && c.beta2 < 1)) throw InputError("beta2", std::to_string(c.beta2), "must be in [0,1)");
  require_at_least("batch", c.batch, 1);
  require_at_least("steps", c.steps, 1);
  require_at_least("eval_every", c.eval_every, 1);
  require_at_least("eval_size", c.eval_size, 1);
}

namespace {
/// Rows divided by their norms; an exactly zero row (a dead GELU layer: every
/// pre-activation below ≈ −10 gives GELU = 0 exactly) stays 0 and adds nothing to Ĝ or Σ̂_B.
/// rules::normalize_rows refuses such a row; elsewhere the two agree exactly.
Mat normalize_rows_or_zero(const Mat& X) {
  Mat out = X;
  for (Eigen::Index r = 0; r < X.rows(); ++r) {
    const double nr = X.row(r).norm();
    if (nr > 0) out.row(r) = X.row(r) / nr;
  }
  return out;
}
}  // namespace

struct Trainer::Layer {
  std::string kind;
  double lr;
  double beta, eta;
  Mat M;                          // sgd-m / ak-sgd buffer
  std::unique_ptr<AdamW> adam;
  std::unique_ptr<AkAdamW> akadam;
  std::unique_ptr<Muon> muon;
  std::unique_ptr<AkMuon> akmuon;

  void step(Mat& W, const Mat& Delta, const Mat& X) {
    if (kind == "sgd-m") {
      const Mat g = (Delta.transpose() * X) / static_cast<double>(X.rows());
      M = beta * M + (1.0 - beta) * g;  // [eq:ema-update]
      W -= lr * M;
    } else if (kind == "ak-sgd") {
      rules::deployed(M, Delta, normalize_rows_or_zero(X), beta, eta, order(W, X));  // [eq:deployed]
      W -= lr * M;
    } else if (kind == "adamw") {
      adam->step_batch(W, Delta, X);
    } else if (kind == "muon") {
      muon->step_batch(W, Delta, X);
    } else if (kind == "ak-muon") {
      akmuon->step_normalized(W, Delta, normalize_rows_or_zero(X), order(W, X));  // NS(M_t) [cor:mup-base-lr]
    } else {
      // AkAdamW::step_batch written out so a dead (zero) key row is tolerated.
      rules::deployed(akadam->M, Delta, normalize_rows_or_zero(X), akadam->params.beta1, akadam->eta, order(W, X));
      ++akadam->t;
      adamw::second_moment_step(akadam->v, (Delta.transpose() * X) / static_cast<double>(X.rows()),
                                akadam->params.beta2);
      adamw::apply(W, akadam->first_hat(), akadam->second_hat(), akadam->params);
    }
  }
  // Both orders give the same numbers (T15); only the time differs. eq:dispatch compares
  // the leading terms, valid for N ≫ m; a small online batch needs the per-layer 2mn²
  // term too, so the trainer dispatches on the full counts (cost::cheaper_order).
  static rules::Order order(const Mat& W, const Mat& X) {
    return cost::cheaper_order(double(W.rows()), double(W.cols()), double(X.rows()));
  }
  const Mat& buffer() const {
    if (adam) return adam->m;
    if (akadam) return akadam->M;
    if (muon) return muon->m;
    if (akmuon) return akmuon->M;
    return M;
  }
};

Trainer::Trainer(Mlp& net, const TrainConfig& cfg) : net_(net), cfg_(cfg) {
  validate(cfg);
  const auto fam = family_of(cfg.optimizer);
  for (int l = 0; l < net.layers(); ++l) {
    auto L = std::make_unique<Layer>();
    L->kind = cfg.optimizer;
    // The Muon family orthogonalises hidden matrices only; the other layers are AdamW's at aux_lr.
    const bool aux = fam == OptimizerFamily::muon && net.role(l) != LayerRole::hidden;
    if (aux) L->kind = "adamw";
    L->lr = (aux ? cfg.aux_lr : cfg.lr) * mup_lr_multiplier(aux ? OptimizerFamily::adam : fam, net.role(l), net.width_multiplier());
    if (net.role(l) == LayerRole::hidden || net.role(l) == LayerRole::output)
      L->lr *= std::pow(net.width_multiplier(), cfg.width_lr_power);
    L->beta = cfg.beta;
    L->eta = cfg.eta;
    const int r = static_cast<int>(net.W[l].rows()), c = static_cast<int>(net.W[l].cols());
    if (fam == OptimizerFamily::muon && !aux) {
      MuonParams p;
      p.lr = L->lr;
      p.beta = cfg.beta;
      p.weight_decay = cfg.weight_decay;
      if (cfg.optimizer == "muon") L->muon = std::make_unique<Muon>(r, c, p);
      else L->akmuon = std::make_unique<AkMuon>(r, c, p, cfg.eta);
    } else if (fam == OptimizerFamily::adam || aux) {
      AdamWParams p;
      p.lr = L->lr;
      p.beta1 = cfg.beta;
      p.beta2 = cfg.beta2;
      p.eps = cfg.eps;
      p.weight_decay = cfg.weight_decay;
      if (L->kind == "adamw") L->adam = std::make_unique<AdamW>(r, c, p);
      else L->akadam = std::make_unique<AkAdamW>(r, c, p, cfg.eta);
    } else {
      L->M = Mat::Zero(r, c);
    }
    layers_.push_back(std::move(L));
  }
}

Trainer::~Trainer() = default;

double Trainer::step(ConstMatRef X, ConstMatRef T, LossKind loss) {
  const Mat Y = net_.forward(X, &cache_);
  const double value = mean_loss(loss, Y, T);
  // A diverged model (non-finite loss) is not stepped: the caller sees the value and stops.
  if (!std::isfinite(value)) return value;
  net_.backward(cache_, output_error(loss, Y, T));
  for (int l = 0; l < net_.layers(); ++l) layers_[l]->step(net_.W[l], cache_.Delta[l], cache_.X[l]);
  ++t_;
  return value;
}

const Mat& Trainer::buffer(int l) const { return layers_.at(l)->buffer(); }
double Trainer::layer_lr(int l) const { return layers_.at(l)->lr; }

int TrainResult::steps_to(double target) const {
  for (std::size_t i = 0; i < eval_loss.size(); ++i)
    if (eval_loss[i] <= target) return eval_steps[i];
  return -1;
}

void held_out(const Task& task, const TrainConfig& cfg, Mat& X, Mat& T) {
  Stream s(cfg.seed, 1, Purpose::aux);
  task.sample(s, cfg.eval_size, X, T);
}

TrainResult train(Mlp& net, const Task& task, const TrainConfig& cfg,
                  const std::function<void(const Trainer&, int)>& on_step) {
  validate(cfg);
  Trainer tr(net, cfg);
  Mat Xe, Te;
  held_out(task, cfg, Xe, Te);
  Stream data(cfg.seed, 0, Purpose::data);
  TrainResult res;
  auto eval = [&](int t) {
    const double v = mean_loss(task.loss, net.forward(Xe), Te);
    res.eval_steps.push_back(t);
    res.eval_loss.push_back(std::isfinite(v) ? v : std::numeric_limits<double>::infinity());
    return v;
  };
  const double initial = eval(0);
  Mat X, T;
  for (int t = 1; t <= cfg.steps; ++t) {
    task.sample(data, cfg.batch, X, T);
    const double batch_loss = tr.step(X, T, task.loss);
    if (!std::isfinite(batch_loss)) {
      res.diverged = true;
      res.eval_steps.push_back(t);
      res.eval_loss.push_back(std::numeric_limits<double>::infinity());
      break;
    }
    if (on_step) on_step(tr, t);
    if (t % cfg.eval_every == 0 || t == cfg.steps) {
      const double v = eval(t);
      if (!std::isfinite(v) || v > 1e3 * std::max(initial, 1e-12)) {
        res.diverged = true;
        res.eval_loss.back() = std::numeric_limits<double>::infinity();
        break;
      }
    }
  }
  return res;
}

}  // namespace akm
