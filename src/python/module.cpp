// python/module — the akm Python module: the layer above experiments, calling the
// same library as the program. One file per area (theory, spectrum, phase, simulate, run,
// optimizers, muon); bad input raises ValueError with the CLI's message (akm::InputError::what()).
#include "akm/base/errors.hpp"
#include "akm/base/interrupt.hpp"
#include "akm/base/version.hpp"
#include "common.hpp"

PYBIND11_MODULE(_akm, m) {
  namespace py = akm::py;
  m.doc() = "akm — the AK-Momentum toolkit from Python (closed forms, Monte-Carlo, experiments)";
  m.attr("__version__") = akm::version();
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const akm::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const akm::interrupt::Stopped& e) {
      // A stop requested by another call's Ctrl-C reached this one (the flag is process-wide).
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    }
  });
  py::bind_theory(m);
  py::bind_spectrum(m);
  py::bind_phase(m);
  py::bind_simulate(m);
  py::bind_run(m);
  py::bind_optimizers(m);
  py::bind_muon(m);
}
