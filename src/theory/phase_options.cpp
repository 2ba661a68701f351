// phase_options — the axes, metric, α and direction of a closed-form phase map, parsed and
// validated before any point is computed (include/akm/theory/phase.hpp).
#include "akm/theory/phase.hpp"

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "akm/base/errors.hpp"

namespace akm::phase {
namespace {

constexpr int kMaxAxisPoints = 4096;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) return out;
    start = p + 1;
  }
}

double parse_number(const std::string& text, const std::string& param) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    throw InputError(param, text.empty() ? "''" : text, "must be a finite number");
  return v;
}

const char* kGrammar = "must be NAME:LO:HI:N[:log] with NAME in eta, beta, alpha";

// The valid range of one parameter, as the axis bounds must respect it.
void require_in_range(Param p, double v, const std::string& param) {
  switch (p) {
    case Param::beta:
      if (!(v >= 0.0 && v < 1.0)) throw InputError(param, show(v), "beta must be in [0, 1)");
      break;
    case Param::eta:
      if (!(v > 0.0)) throw InputError(param, show(v), "eta must be > 0");
      break;
    case Param::alpha:
      if (!(v > 0.0)) throw InputError(param, show(v), "alpha must be > 0");
      break;
  }
}

bool has_axis(const Options& o, Param p) { return o.x.param == p || o.y.param == p; }

}  // namespace

std::string to_string(Param p) {
  switch (p) {
    case Param::eta: return "eta";
    case Param::beta: return "beta";
    case Param::alpha: return "alpha";
  }
  return "?";
}

double Axis::value(int k) const {
  if (k == 0) return lo;
  if (k == n - 1) return hi;
  const double t = static_cast<double>(k) / (n - 1);
  return log ? lo * std::pow(hi / lo, t) : lo + (hi - lo) * t;
}

Axis parse_axis(const std::string& spec, const std::string& flag) {
  const auto parts = split(spec, ':');
  if (parts.size() != 4 && parts.size() != 5) throw InputError(flag, spec, kGrammar);
  Axis a;
  a.spec = spec;
  if (parts[0] == "eta") a.param = Param::eta;
  else if (parts[0] == "beta") a.param = Param::beta;
  else if (parts[0] == "alpha") a.param = Param::alpha;
  else throw InputError(flag + " name", parts[0], "must be eta, beta or alpha");
  a.lo = parse_number(parts[1], flag + " LO");
  a.hi = parse_number(parts[2], flag + " HI");
  char* end = nullptr;
  const long long n = std::strtoll(parts[3].c_str(), &end, 10);
  if (parts[3].empty() || end != parts[3].c_str() + parts[3].size())
    throw InputError(flag + " N", parts[3], "must be an integer");
  if (n < 2 || n > kMaxAxisPoints)
    throw InputError(flag + " N", parts[3], fmt::format("must be in [2, {}]", kMaxAxisPoints));
  a.n = static_cast<int>(n);
  if (parts.size() == 5) {
    if (parts[4] != "log") throw InputError(flag + " scale", parts[4], "must be log (or omitted)");
    a.log = true;
  }
  if (!(a.lo < a.hi)) throw InputError(flag, spec, "needs LO < HI");
  require_in_range(a.param, a.lo, flag + " LO");
  require_in_range(a.param, a.hi, flag + " HI");
  if (a.log && !(a.lo > 0.0)) throw InputError(flag + " LO", show(a.lo), "log spacing needs LO > 0");
  return a;
}

Metric parse_metric(const std::string& s) {
  if (s == "stable") return Metric::stable;
  if (s == "ms_stable") return Metric::ms_stable;
  if (s == "rho_ratio") return Metric::rho_ratio;
  if (s == "underdamped") return Metric::underdamped;
  if (s == "speedup") return Metric::speedup;
  if (s == "counterexample") return Metric::counterexample;
  throw InputError("--metric", s,
                   "must be stable, ms_stable, rho_ratio, underdamped, speedup or counterexample");
}

std::string to_string(Metric m) {
  switch (m) {
    case Metric::stable: return "stable";
    case Metric::ms_stable: return "ms_stable";
    case Metric::rho_ratio: return "rho_ratio";
    case Metric::underdamped: return "underdamped";
    case Metric::speedup: return "speedup";
    case Metric::counterexample: return "counterexample";
  }
  return "?";
}

std::optional<double> parse_alpha(const std::string& s) {
  if (s == "tuned") return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !(v > 0.0 && std::isfinite(v)))
    throw InputError("--alpha", s, "must be a number > 0 or tuned");
  return v;
}

int parse_direction(const std::string& s, int n) {
  if (s == "all") return -1;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end != s.c_str() + s.size() || v < 1 || v > n)
    throw InputError("--direction", s, fmt::format("must be all or an integer in [1, {}]", n));
  return static_cast<int>(v - 1);
}

void validate_measure(const Options& o, long long trials, long long steps) {
  require_at_least("--trials", trials, 2);
  require_at_least("--steps", steps, 1);
  if (steps > 1000000) throw InputError("--steps", std::to_string(steps), "must be <= 1000000");
  if (o.x.param == Param::alpha || o.y.param == Param::alpha)
    throw InputError("--measure", "alpha axis", "the measured buffer does not depend on α: use eta and beta axes");
}

void validate(const Options& o, int n) {
  if (o.x.param == o.y.param)
    throw InputError("--y", o.y.spec, "must name a different parameter than --x (" + to_string(o.x.param) + ")");
  if (!has_axis(o, Param::eta)) {
    if (!(o.eta > 0.0 && std::isfinite(o.eta))) throw InputError("--eta", show(o.eta), "must be > 0 and finite");
  }
  if (!has_axis(o, Param::beta)) {
    if (!(o.beta >= 0.0 && o.beta < 1.0)) throw InputError("--beta", show(o.beta), "must be in [0, 1)");
  }
  if (o.alpha && !(*o.alpha > 0.0 && std::isfinite(*o.alpha)))
    throw InputError("--alpha", show(*o.alpha), "must be > 0 and finite, or tuned");
  const bool fixed_alpha = has_axis(o, Param::alpha) || o.alpha.has_value();
  if ((o.metric == Metric::underdamped || o.metric == Metric::counterexample) && !fixed_alpha)
    throw InputError("--alpha", "tuned",
                     "metric " + to_string(o.metric) + " is defined at a fixed step: give --alpha A or an alpha axis");
  const bool uses_alpha = o.metric == Metric::rho_ratio || o.metric == Metric::underdamped ||
                          o.metric == Metric::speedup || o.metric == Metric::counterexample;
  if (has_axis(o, Param::alpha) && !uses_alpha)
    throw InputError("--x/--y", "alpha", "metric " + to_string(o.metric) + " does not depend on alpha");
  if (o.direction < -1 || o.direction >= n)
    throw InputError("--direction", std::to_string(o.direction + 1), fmt::format("must be all or in [1, {}]", n));
  if (o.metric == Metric::ms_stable && o.direction != -1)
    throw InputError("--direction", std::to_string(o.direction + 1),
                     "ms_stable couples all directions (E1): use --direction all");
}

}  // namespace akm::phase
