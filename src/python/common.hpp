// python/common — what every binding file of the akm Python module shares: NumPy arrays from
// akm vectors, JSON to Python objects, and run_long(), which runs a long computation off the
// interpreter's thread so Ctrl-C / a notebook's "interrupt kernel" can stop it.
#pragma once
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "akm/base/linalg.hpp"

namespace akm::py {

namespace pyb = pybind11;

pyb::array_t<double> array(const std::vector<double>& v);
pyb::array_t<double> array(const Vec& v);
/// A 2-D array (rows × cols) from row-major values.
pyb::array_t<double> array2d(const std::vector<double>& v, std::size_t rows, std::size_t cols);
/// A JSON value as the Python object json.loads would give.
pyb::object from_json(const nlohmann::json& j);

/// Counts a long computation's progress: set from any worker thread, read by run_long.
struct Progress {
  std::function<void(long long, long long)> callback();
  std::atomic<long long> done{0}, total{0};
};

/// Runs `work` on a worker thread with the GIL released. The interpreter's thread polls
/// for signals every 0.1 s: a pending KeyboardInterrupt requests a cooperative stop
/// (akm/base/interrupt.hpp), waits for the worker to unwind and raises it. With `show`,
/// a line "<label>: done/total <unit> · elapsed" is redrawn on sys.stderr (what a notebook
/// shows) once the call has run for 0.5 s. Exceptions of `work` are rethrown.
void run_long(const std::string& label, const std::string& unit, bool show,
              const std::function<void(Progress&)>& work);

/// Registration of each area (one file each).
void bind_theory(pyb::module_& m);
void bind_spectrum(pyb::module_& m);
void bind_phase(pyb::module_& m);
void bind_simulate(pyb::module_& m);
void bind_run(pyb::module_& m);
void bind_optimizers(pyb::module_& m);
void bind_muon(pyb::module_& m);

}  // namespace akm::py
