// python/optimizers — akm's optimizers on one parameter matrix W (m×n) of a linear layer
// y = Wx, as small classes owning W and their state, so a Python test can feed them the same
// gradient sequence as torch.optim (tests/python/test_torch_agreement.py):
//   SgdEma   M ← βM + (1−β)δxᵀ,            W ← W − lr·M        [eq:ema-update]
//   AkSgd    M ← βM + η(δ − Mk)kᵀ, k = x̂ (normalized key) or x (raw), W ← W − lr·M
//            [eq:dm-norm-update, eq:dm-update, sec:methodology]
//   AdamW, AkAdamW: akm/rules/optimizers.hpp (bias correction, decoupled decay, and the AK
//            buffer as AkAdamW's first moment).
// The AK buffer needs the factors (δ, x) of the gradient δxᵀ, not the gradient alone.
#include <fmt/format.h>
#include <pybind11/eigen.h>

#include "akm/base/errors.hpp"
#include "akm/base/key.hpp"
#include "akm/rules/optimizers.hpp"
#include "akm/rules/rules.hpp"
#include "common.hpp"

namespace akm::py {

namespace {

using namespace pybind11::literals;

void require_lr(double lr) {
  if (!(lr > 0.0 && std::isfinite(lr))) throw InputError("lr", show(lr), "must be > 0 and finite");
}

void require_nonempty(const Mat& W) {
  require_at_least("rows", W.rows(), 1);
  require_at_least("cols", W.cols(), 1);
}

// The per-sample rules index δ and x without checks: shapes are refused here first.
void require_factors(const Mat& W, const Vec& delta, const Vec& x) {
  if (delta.size() != W.rows())
    throw InputError("delta", fmt::format("{} entries", delta.size()),
                     fmt::format("must have {} entries (rows of W)", W.rows()));
  if (x.size() != W.cols())
    throw InputError("x", fmt::format("{} entries", x.size()),
                     fmt::format("must have {} entries (columns of W)", W.cols()));
}

struct PySgdEma {
  Mat W;
  SgdEma opt;
  PySgdEma(const Mat& W0, double lr, double beta)
      : W(W0), opt((require_nonempty(W0), static_cast<int>(W0.rows())), static_cast<int>(W0.cols()),
                   (require_lr(lr), lr), (require_beta(beta), beta)) {}
  void step(const Vec& delta, const Vec& x) {
    require_factors(W, delta, x);
    opt.step(W, delta, x);
  }
};

struct PyAkSgd {
  Mat W;
  AkSgd opt;
  PyAkSgd(const Mat& W0, double lr, double beta, double eta, const std::string& key)
      : W(W0), opt((require_nonempty(W0), static_cast<int>(W0.rows())), static_cast<int>(W0.cols()),
                   (require_lr(lr), lr), (require_beta(beta), beta), (require_eta(eta), eta),
                   parse_key(key)) {}
  void step(const Vec& delta, const Vec& x) {
    require_factors(W, delta, x);
    opt.step(W, delta, x);
  }
};

AdamWParams adam_params(double lr, double beta1, double beta2, double eps, double wd) {
  AdamWParams p;
  p.lr = lr;
  p.beta1 = beta1;
  p.beta2 = beta2;
  p.eps = eps;
  p.weight_decay = wd;
  return p;
}

struct PyAdamW {
  Mat W;
  AdamW opt;
  PyAdamW(const Mat& W0, double lr, double b1, double b2, double eps, double wd)
      : W(W0), opt(static_cast<int>(W0.rows()), static_cast<int>(W0.cols()), adam_params(lr, b1, b2, eps, wd)) {}
  void step(const pyb::object& grad, const pyb::object& delta, const pyb::object& x) {
    if (!grad.is_none()) {
      if (!delta.is_none() || !x.is_none())
        throw InputError("grad", "given with delta/x", "pass either grad or (delta, x)");
      opt.step(W, grad.cast<Mat>());  // shape checked by AdamW::step
    } else {
      if (delta.is_none() || x.is_none()) throw InputError("delta, x", "missing", "pass grad or both delta and x");
      opt.step(W, delta.cast<Vec>(), x.cast<Vec>());
    }
  }
  void step_batch(const Mat& Delta, const Mat& X) { opt.step_batch(W, Delta, X); }
};

struct PyAkAdamW {
  Mat W;
  AkAdamW opt;
  PyAkAdamW(const Mat& W0, double lr, double b1, double b2, double eps, double wd, double eta)
      : W(W0), opt(static_cast<int>(W0.rows()), static_cast<int>(W0.cols()), adam_params(lr, b1, b2, eps, wd), eta) {}
  void step(const Vec& delta, const Vec& x) { opt.step(W, delta, x); }
  void step_batch(const Mat& Delta, const Mat& X) { opt.step_batch(W, Delta, X); }
};

}  // namespace

void bind_optimizers(pyb::module_& m) {
  pyb::class_<PySgdEma>(m, "SgdEma", "SGD with the EMA momentum buffer: M ← βM + (1−β)δxᵀ, W ← W − lr·M (M₀ = 0).")
      .def(pyb::init<const Mat&, double, double>(), "W"_a, "lr"_a, "beta"_a)
      .def("step", &PySgdEma::step, "delta"_a, "x"_a, "One step on the gradient δxᵀ of a linear layer.")
      .def_property_readonly("W", [](const PySgdEma& o) { return o.W; })
      .def_property_readonly("M", [](const PySgdEma& o) { return o.opt.M; });
  pyb::class_<PyAkSgd>(m, "AkSgd",
                       "AK-SGD: M ← βM + η(δ − Mk)kᵀ with k = x/‖x‖ (normalized key) or x (raw), W ← W − lr·M.")
      .def(pyb::init<const Mat&, double, double, double, const std::string&>(), "W"_a, "lr"_a, "beta"_a,
           "eta"_a, "key"_a = "normalized")
      .def("step", &PyAkSgd::step, "delta"_a, "x"_a, "One per-sample step on the factors (δ, x).")
      .def_property_readonly("W", [](const PyAkSgd& o) { return o.W; })
      .def_property_readonly("M", [](const PyAkSgd& o) { return o.opt.M; });
  pyb::class_<PyAdamW>(m, "AdamW", "AdamW (akm/rules/optimizers.hpp): bias-corrected moments, decoupled decay.")
      .def(pyb::init<const Mat&, double, double, double, double, double>(), "W"_a, "lr"_a = 1e-3,
           "beta1"_a = 0.9, "beta2"_a = 0.999, "eps"_a = 1e-8, "weight_decay"_a = 0.0)
      .def("step", &PyAdamW::step, "grad"_a = pyb::none(), "delta"_a = pyb::none(), "x"_a = pyb::none(),
           "One step on a weight gradient g (rows×cols) or on its factors g = δxᵀ.")
      .def("step_batch", &PyAdamW::step_batch, "Delta"_a, "X"_a, "Batch step on g = ΔᵀX/N.")
      .def_property_readonly("W", [](const PyAdamW& o) { return o.W; })
      .def_property_readonly("m", [](const PyAdamW& o) { return o.opt.m; })
      .def_property_readonly("v", [](const PyAdamW& o) { return o.opt.v; })
      .def_property_readonly("t", [](const PyAdamW& o) { return o.opt.t; });
  pyb::class_<PyAkAdamW>(m, "AkAdamW",
                         "AK-AdamW: AdamW with the normalized-key AK buffer as first moment (beta1 = β).")
      .def(pyb::init<const Mat&, double, double, double, double, double, double>(), "W"_a, "lr"_a = 1e-3,
           "beta1"_a = 0.9, "beta2"_a = 0.999, "eps"_a = 1e-8, "weight_decay"_a = 0.0, "eta"_a = 0.4)
      .def("step", &PyAkAdamW::step, "delta"_a, "x"_a, "Per-sample step: buffer on x̂, v on g = δxᵀ.")
      .def("step_batch", &PyAkAdamW::step_batch, "Delta"_a, "X"_a, "Deployed batch step [eq:deployed].")
      .def_property_readonly("W", [](const PyAkAdamW& o) { return o.W; })
      .def_property_readonly("M", [](const PyAkAdamW& o) { return o.opt.M; })
      .def_property_readonly("v", [](const PyAkAdamW& o) { return o.opt.v; })
      .def_property_readonly("t", [](const PyAkAdamW& o) { return o.opt.t; });
}

}  // namespace akm::py
