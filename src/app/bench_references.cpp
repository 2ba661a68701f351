// bench_references — the bench's references outside the engine: the NumPy and JAX scripts run
// under --python, and the statistical agreement their time must earn before it counts
// (bench_parts.hpp).
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "akm/check/check.hpp"
#include "bench_parts.hpp"

namespace akm::bench {

json run_script(const Options& o, const std::string& script_name, const std::string& what, const json& p) {
  namespace fs = std::filesystem;
  const fs::path script = fs::path(o.scripts) / script_name;
  const std::string cmd = o.python + " " + script.string() + " '" + p.dump() + "'";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  if (!pipe) throw std::runtime_error("cannot start " + o.python);
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe.get())) out += buf;
  const int rc = pclose(pipe.release());
  if (WIFEXITED(rc) && WEXITSTATUS(rc) == 3) return {{"missing", what + " is not importable by " + o.python}};
  if (rc != 0 || out.empty()) throw std::runtime_error(what + " reference failed (" + cmd + ")");
  return json::parse(out);
}

json agree(const json& a, const json& b) {
  const double z = z_two_sided(1e-6 / double(a.size()));
  int bad = 0;
  double worst = 0.0;
  for (auto& [k, v] : a.items()) {
    const double d = std::abs(v[0].get<double>() - b.at(k)[0].get<double>());
    const double se = std::hypot(v[1].get<double>(), b.at(k)[1].get<double>());
    const double zz = se > 0 ? d / se : (d == 0 ? 0.0 : 1e300);
    worst = std::max(worst, zz);
    bad += zz > z;
  }
  return {{"statistics", a.size()}, {"z_limit", z}, {"worst_z", worst}, {"agree", bad == 0}};
}

}  // namespace akm::bench
