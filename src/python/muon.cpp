// python/muon — Newton–Schulz and AK-Muon from akm/rules (newton_schulz.hpp, muon.hpp), so a
// Python test can hold akm.torch's AKMuon and newton_schulz to the C++ ones on the same input
// (tests/python/test_muon_agreement.py) [cor:mup-base-lr]:
//   newton_schulz(G, steps)       NS(G), Muon's quintic on G/‖G‖_F (no ε: a zero G is refused)
//   newton_schulz_bound(r, c, k)  the iteration's float64 error model (s_max, L, rounding)
//   AkMuon                        M ← βM + η(Ĝ − MΣ̂_B), W ← W(1 − lr·wd) − lr·√(m/n)·NS(M)
#include <pybind11/eigen.h>

#include "akm/rules/muon.hpp"
#include "akm/rules/newton_schulz.hpp"
#include "common.hpp"

namespace akm::py {

namespace {

using namespace pybind11::literals;

MuonParams muon_params(double lr, double beta, double wd, int ns_steps) {
  MuonParams p;
  p.lr = lr;
  p.beta = beta;
  p.weight_decay = wd;
  p.ns_steps = ns_steps;
  return p;
}

struct PyAkMuon {
  Mat W;
  AkMuon opt;
  PyAkMuon(const Mat& W0, double lr, double beta, double eta, double wd, int ns_steps)
      : W(W0), opt(static_cast<int>(W0.rows()), static_cast<int>(W0.cols()), muon_params(lr, beta, wd, ns_steps), eta) {}
  void step_batch(const Mat& Delta, const Mat& X) { opt.step_batch(W, Delta, X); }
};

}  // namespace

void bind_muon(pyb::module_& m) {
  m.def("newton_schulz", [](const Mat& G, int steps) { return ns::newton_schulz(G, steps); }, "G"_a,
        "steps"_a = ns::kSteps, "NS(G): Muon's quintic Newton–Schulz iteration on G/‖G‖_F (akm/rules/newton_schulz.hpp).");
  m.def("newton_schulz_bound",
        [](int rows, int cols, int steps) {
          const ns::ErrorModel e = ns::error_model(rows, cols, steps);
          return pyb::dict("s_max"_a = e.s_max, "lipschitz"_a = e.lipschitz, "rounding"_a = e.rounding);
        },
        "rows"_a, "cols"_a, "steps"_a = ns::kSteps,
        "The float64 error model of newton_schulz: s_max, the step's Lipschitz constant L and the "
        "Frobenius-norm rounding bound.");
  m.attr("NS_COEFFICIENTS") = pyb::make_tuple(ns::kMuon.a, ns::kMuon.b, ns::kMuon.c);
  pyb::class_<PyAkMuon>(m, "AkMuon",
                        "AK-Muon: the deployed AK buffer, W ← W(1 − lr·wd) − lr·√(m/n)·NS(M) (akm/rules/muon.hpp).")
      .def(pyb::init<const Mat&, double, double, double, double, int>(), "W"_a, "lr"_a = 0.02, "beta"_a = 0.95,
           "eta"_a = 0.4, "weight_decay"_a = 0.0, "ns_steps"_a = ns::kSteps)
      .def("step_batch", &PyAkMuon::step_batch, "Delta"_a, "X"_a, "Deployed batch step [eq:deployed], then NS(M).")
      .def_property_readonly("W", [](const PyAkMuon& o) { return o.W; })
      .def_property_readonly("M", [](const PyAkMuon& o) { return o.opt.M; })
      .def_property_readonly("t", [](const PyAkMuon& o) { return o.opt.t; });
}

}  // namespace akm::py
