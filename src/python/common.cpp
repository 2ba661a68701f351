// python/common — see common.hpp.
#include "common.hpp"

#include <atomic>
#include <chrono>
#include <exception>
#include <future>
#include <thread>

#include <fmt/format.h>

#include "akm/base/interrupt.hpp"
#include "akm/base/progress.hpp"

namespace akm::py {

pyb::array_t<double> array(const std::vector<double>& v) {
  pyb::array_t<double> a(static_cast<pyb::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

pyb::array_t<double> array(const Vec& v) {
  return array(std::vector<double>(v.data(), v.data() + v.size()));
}

pyb::array_t<double> array2d(const std::vector<double>& v, std::size_t rows, std::size_t cols) {
  pyb::array_t<double> a({static_cast<pyb::ssize_t>(rows), static_cast<pyb::ssize_t>(cols)});
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

pyb::object from_json(const nlohmann::json& j) {
  // nlohmann writes doubles in shortest round-trip form, so this is exact.
  // (Imported per call, not held in a static: a static py::object would be released after
  // the interpreter is finalized.)
  return pyb::module_::import("json").attr("loads")(j.dump());
}

std::function<void(long long, long long)> Progress::callback() {
  return [this](long long d, long long t) {
    total.store(t, std::memory_order_relaxed);
    // Workers may report out of order: keep the largest count.
    for (long long cur = done.load(); d > cur && !done.compare_exchange_weak(cur, d);) {
    }
  };
}

namespace {

void draw(const std::string& text, bool end) {
  pyb::object err = pyb::module_::import("sys").attr("stderr");
  err.attr("write")("\r" + text + (end ? "\n" : ""));
  err.attr("flush")();
}

}  // namespace

void run_long(const std::string& label, const std::string& unit, bool show,
              const std::function<void(Progress&)>& work) {
  Progress progress;
  std::packaged_task<void()> task([&] { work(progress); });
  std::future<void> done = task.get_future();
  std::thread worker;
  {
    pyb::gil_scoped_release nogil;
    worker = std::thread(std::move(task));
  }
  const auto start = std::chrono::steady_clock::now();
  bool drawn = false;
  CountProgress counter(label, unit, false);
  auto line = [&] {
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const long long t = progress.total.load();
    return t > 0 ? counter.line(progress.done.load(), t, el)
                 : fmt::format("{}: elapsed {}", label, format_duration(el));
  };
  for (;;) {
    std::future_status st;
    {
      pyb::gil_scoped_release nogil;
      st = done.wait_for(std::chrono::milliseconds(100));
    }
    if (st == std::future_status::ready) break;
    if (PyErr_CheckSignals() != 0) {
      // KeyboardInterrupt (or any exception a signal handler raised) is pending: stop the
      // loops, let the worker unwind (staging folders are removed on the way) and raise it.
      interrupt::request_stop();
      {
        pyb::gil_scoped_release nogil;
        worker.join();
      }
      interrupt::clear_stop();
      if (drawn) draw(line() + " · interrupted", true);
      throw pyb::error_already_set();
    }
    if (show && std::chrono::steady_clock::now() - start > std::chrono::milliseconds(500)) {
      draw(line() + "\033[K", false);
      drawn = true;
    }
  }
  {
    pyb::gil_scoped_release nogil;
    worker.join();
  }
  if (drawn) draw(line() + "\033[K", true);
  done.get();  // rethrows what the work threw
}

}  // namespace akm::py
