// spectrum — covariance models Σ = U diag(λ) Uᵀ parsed from a spec string.
//
// Every refusal is an InputError naming the key (spectrum.n, spectrum.spikes, …), the
// offending text and the valid range, raised before any basis is drawn.
#include "akm/spectrum/spectrum.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "akm/base/errors.hpp"
#include "akm/base/spec_text.hpp"
#include "akm/random/random.hpp"
#include "akm/spectrum/data_keys.hpp"
#include "random_basis.hpp"

namespace akm {
namespace {

constexpr long long kMaxN = 1LL << 16;

using namespace spec_text;

double parse_positive(const std::string& param, std::string_view text) {
  const double v = parse_number(param, text);
  if (!(v > 0.0 && std::isfinite(v)))
    throw InputError(param, std::string(text), "must be finite and > 0");
  return v;
}

int parse_n(std::string_view text) {
  const std::string param = "spectrum.n";
  const std::string range = fmt::format("must be an integer in [1, {}] (1<<16)", kMaxN);
  const double v = parse_number(param, text);
  if (!(v >= 1.0 && v <= static_cast<double>(kMaxN)) || v != std::floor(v))
    throw InputError(param, std::string(text), range);
  return static_cast<int>(v);
}

std::vector<double> parse_values(const std::string& param, std::string_view text) {
  return parse_positive_list(param, text);
}

std::string join_values(const Vec& v) { return spec_text::join_values({v.data(), v.data() + v.size()}); }

struct Keys {
  std::string kind;
  std::map<std::string, std::string_view, std::less<>> kv;
  std::string_view list;  // the bare eigenvalue list of list:…
};

const std::map<std::string, std::vector<std::string>, std::less<>>& spectrum_grammar() {
  static const std::map<std::string, std::vector<std::string>, std::less<>> g{
      {"iso", {"n", "scale", "basis"}},
      {"spiked", {"n", "spikes", "floor", "basis"}},
      {"power", {"n", "exp", "scale", "basis"}},
      {"list", {"basis"}}};
  return g;
}

Keys tokenize(std::string_view spec) {
  spec = trim(spec);
  if (spec.empty())
    throw InputError("spectrum", "\"\"",
                     "must be a spec such as iso:n=64, spiked:n=64,spikes=10/5/2,floor=1, "
                     "power:n=64,exp=1 or list:10/5/2/1");
  const auto colon = spec.find(':');
  Keys k;
  k.kind = std::string(trim(spec.substr(0, colon)));
  const auto it = spectrum_grammar().find(k.kind);
  if (it == spectrum_grammar().end())
    throw InputError("spectrum kind", k.kind, "must be one of iso, spiked, power, list, data");
  if (colon == std::string_view::npos) return k;
  const auto& allowed = it->second;
  const auto tokens = split(spec.substr(colon + 1), ',');
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    const auto tok = tokens[t];
    const auto eq = tok.find('=');
    if (eq == std::string_view::npos) {
      if (k.kind == "list" && t == 0) {
        k.list = tok;
        continue;
      }
      throw InputError("spectrum", akm::quoted(tok), "expected key=value");
    }
    const std::string key(trim(tok.substr(0, eq)));
    const auto value = trim(tok.substr(eq + 1));
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw InputError(
          "spectrum." + key, std::string(value),
          fmt::format("unknown key for {}; valid keys: {}", k.kind, fmt::join(allowed, ", ")));
    if (!k.kv.emplace(key, value).second)
      throw InputError("spectrum." + key, std::string(value), "key given more than once");
  }
  return k;
}

std::string_view required(const Keys& k, const std::string& key, const std::string& example) {
  const auto it = k.kv.find(key);
  if (it == k.kv.end())
    throw InputError("spectrum." + key, "(missing)",
                     fmt::format("{} requires {} (e.g. {})", k.kind, key, example));
  return it->second;
}

double optional_positive(const Keys& k, const std::string& key, double dflt) {
  const auto it = k.kv.find(key);
  return it == k.kv.end() ? dflt : parse_positive("spectrum." + key, it->second);
}

Vec sorted_descending(std::vector<double> v) {
  std::sort(v.begin(), v.end(), std::greater<>());
  return Eigen::Map<const Vec>(v.data(), static_cast<Eigen::Index>(v.size()));
}

// Eigenvalues and the key part of the normalized spec, per kind.
std::pair<Vec, std::string> build(const Keys& k) {
  if (k.kind == "list") {
    if (k.list.empty())
      throw InputError("spectrum.list", "(missing)",
                       "list requires eigenvalues, e.g. list:10/5/2/1");
    auto v = parse_values("spectrum.list", k.list);
    if (static_cast<long long>(v.size()) > kMaxN)
      throw InputError("spectrum.list", fmt::format("{} values", v.size()),
                       fmt::format("must have at most {} (1<<16) values", kMaxN));
    Vec lam = sorted_descending(std::move(v));
    return {lam, join_values(lam)};
  }
  const int n = parse_n(required(k, "n", k.kind + ":n=64"));
  if (k.kind == "iso") {
    const double scale = optional_positive(k, "scale", 1.0);
    return {Vec::Constant(n, scale), fmt::format("n={},scale={}", n, show(scale))};
  }
  if (k.kind == "spiked") {
    const auto spikes_text = required(k, "spikes", "spikes=10/5/2");
    auto v = parse_values("spectrum.spikes", spikes_text);
    if (static_cast<long long>(v.size()) > n)
      throw InputError("spectrum.spikes", std::string(spikes_text),
                       fmt::format("has {} spikes, more than n = {}", v.size(), n));
    const double floor = parse_positive("spectrum.floor", required(k, "floor", "floor=1"));
    const Vec spikes = sorted_descending(v);
    v.resize(static_cast<std::size_t>(n), floor);
    return {sorted_descending(std::move(v)),
            fmt::format("n={},spikes={},floor={}", n, join_values(spikes), show(floor))};
  }
  // power: λ_i = scale · i^{-exp}, descending for exp ≥ 0.
  const auto exp_text = required(k, "exp", "exp=1");
  const double ex = parse_number("spectrum.exp", exp_text);
  if (!(ex >= 0.0 && std::isfinite(ex)))
    throw InputError("spectrum.exp", std::string(exp_text), "must be finite and >= 0");
  const double scale = optional_positive(k, "scale", 1.0);
  Vec lam(n);
  for (int i = 0; i < n; ++i) lam[i] = scale * std::pow(static_cast<double>(i + 1), -ex);
  if (!(lam.minCoeff() > 0.0 && std::isfinite(lam.maxCoeff())))
    throw InputError("spectrum.exp", std::string(exp_text),
                     fmt::format("gives eigenvalues outside (0, inf) in double for n = {}", n));
  return {lam, fmt::format("n={},exp={},scale={}", n, show(ex), show(scale))};
}

bool parse_basis(const Keys& k, int n) {
  const auto it = k.kv.find("basis");
  if (it == k.kv.end() || it->second == "identity") return false;
  if (it->second != "random")
    throw InputError("spectrum.basis", akm::quoted(it->second), "must be random or identity");
  spectrum_detail::require_random_basis_size("spectrum.basis", n);
  return true;
}

}  // namespace

Mat Spectrum::covariance() const {
  if (!random_basis) return lambda.asDiagonal();
  return basis * lambda.asDiagonal() * basis.transpose();
}

namespace {

// data:NAME[,standardize] | data:PATH[,standardize][,header]: the eigenvalues of a real data
// set's covariance (its spanned directions, akm/spectrum/data_keys.hpp), so that the
// Gaussian closed forms (theory, phase, explore) can be read at a real spectrum. Only the
// covariance enters: keys drawn from the rows themselves are R1's business, where how far
// these Gaussian predictions are off on real inputs is measured.
Spectrum data_spectrum(std::string_view spec) {
  DataKeysSpec d;
  try {
    d = parse_data_keys(spec);
    const DataKeys keys(d);
    Spectrum s;
    s.kind = "data";
    s.spec = d.spec;
    s.lambda = keys.lambda();
    return s;
  } catch (const InputError& e) {  // the data layer names "keys"; here the flag is a spectrum
    const std::string what = e.what();
    const auto at = what.find("is invalid: ");
    throw InputError("spectrum", std::string(spec),
                     at == std::string::npos ? what : what.substr(at + 12));
  }
}

}  // namespace

Spectrum parse_spectrum(std::string_view spec, std::uint64_t seed) {
  if (trim(spec).rfind("data:", 0) == 0) return data_spectrum(trim(spec));
  const Keys k = tokenize(spec);
  auto [lambda, keys] = build(k);
  const bool random = parse_basis(k, static_cast<int>(lambda.size()));
  Spectrum s;
  s.kind = k.kind;
  s.spec = k.kind + ":" + keys + (random ? ",basis=random" : "");
  s.lambda = std::move(lambda);
  s.random_basis = random;
  if (random) s.basis = haar_orthogonal(s.n(), seed);  // identity: left empty
  return s;
}

Spectrum spectrum_from_eigenvalues(const Vec& lambda) {
  if (lambda.size() == 0)
    throw InputError("spectrum.list", "(empty)", "needs at least one eigenvalue");
  if (lambda.size() > kMaxN)
    throw InputError("spectrum.list", fmt::format("{} values", lambda.size()),
                     fmt::format("must have at most {} (1<<16) values", kMaxN));
  for (Eigen::Index i = 0; i < lambda.size(); ++i)
    if (!(lambda[i] > 0.0 && std::isfinite(lambda[i])))
      throw InputError("spectrum.list", show(lambda[i]),
                       fmt::format("every eigenvalue must be finite and > 0 (entry {})", i));
  Spectrum s;
  s.kind = "list";
  s.lambda = sorted_descending(std::vector<double>(lambda.data(), lambda.data() + lambda.size()));
  s.spec = "list:" + join_values(s.lambda);
  return s;
}

// Mezzadri 2007: Q of a Gaussian matrix is Haar only after fixing the sign ambiguity of
// QR, i.e. multiplying column j of Q by sign(R_jj).
Mat haar_orthogonal(int n, std::uint64_t seed) {
  require_at_least("n", n, 1);
  Stream rng(seed, 0, Purpose::basis);
  Mat g(n, n);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i) g(i, j) = rng.normal();
  const Eigen::HouseholderQR<Mat> qr(g);
  Mat q = qr.householderQ();
  const auto& r = qr.matrixQR();
  for (Eigen::Index j = 0; j < n; ++j)
    if (r(j, j) < 0.0) q.col(j) = -q.col(j);
  return q;
}

}  // namespace akm
