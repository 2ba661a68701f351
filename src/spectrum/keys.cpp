// keys — key-law specs, samplers, and the moments of the normalized key.
//
// Every refusal is an InputError naming the key (keys.nu, keys.weights, …), the offending
// text and the valid range, raised before any sampling.
#include "akm/spectrum/keys.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include <boost/random/student_t_distribution.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "akm/base/errors.hpp"
#include "akm/base/spec_text.hpp"
#include "akm/spectrum/moments.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "random_basis.hpp"

namespace akm {
namespace {

constexpr int kMaxComponents = 64;
constexpr double kWeightSumTol = 1e-9;

using namespace spec_text;

const std::map<std::string, std::vector<std::string>, std::less<>>& key_grammar() {
  static const std::map<std::string, std::vector<std::string>, std::less<>> g{
      {"gaussian", {}}, {"rademacher", {}}, {"student", {"nu"}},
      {"mixture", {"weights", "scales", "bases"}}};
  return g;
}

using KeyValues = std::map<std::string, std::string_view, std::less<>>;

KeyValues tokenize(std::string_view spec, std::string& kind) {
  spec = trim(spec);
  if (spec.empty())
    throw InputError("keys", "\"\"",
                     "must be a key law such as gaussian, rademacher, student:nu=3 or "
                     "mixture:weights=0.5/0.5,scales=1/100");
  const auto colon = spec.find(':');
  kind = std::string(trim(spec.substr(0, colon)));
  const auto it = key_grammar().find(kind);
  if (it == key_grammar().end())
    throw InputError("keys kind", akm::quoted(kind), "must be one of gaussian, rademacher, student, mixture");
  KeyValues kv;
  if (colon == std::string_view::npos) return kv;
  const auto& allowed = it->second;
  for (const auto tok : split(spec.substr(colon + 1), ',')) {
    const auto eq = tok.find('=');
    if (eq == std::string_view::npos) throw InputError("keys", akm::quoted(tok), "expected key=value");
    const std::string key(trim(tok.substr(0, eq)));
    const auto value = trim(tok.substr(eq + 1));
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw InputError("keys." + key, akm::quoted(value),
                       allowed.empty() ? fmt::format("unknown key: {} takes no keys", kind)
                                       : fmt::format("unknown key for {}; valid keys: {}", kind,
                                                     fmt::join(allowed, ", ")));
    if (!kv.emplace(key, value).second)
      throw InputError("keys." + key, akm::quoted(value), "key given more than once");
  }
  return kv;
}

std::string_view required(const KeyValues& kv, const std::string& kind, const std::string& key,
                          const std::string& example) {
  const auto it = kv.find(key);
  if (it == kv.end())
    throw InputError("keys." + key, "(missing)", fmt::format("{} requires {} (e.g. {})", kind, key, example));
  return it->second;
}

// splitmix64 of (seed, k): one independent Haar basis per mixture component.
std::uint64_t component_seed(std::uint64_t seed, int k) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(k + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Boost.Random's distributions driven by a Philox stream (64-bit uniform random bit generator).
struct StreamEngine {
  Stream& s;
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  result_type operator()() { return s.bits(); }
};


}  // namespace

KeyLaw parse_key_law(std::string_view spec) {
  KeyLaw law;
  const KeyValues kv = tokenize(spec, law.kind);
  law.spec = law.kind;
  if (law.kind == "student") {
    const auto text = required(kv, law.kind, "nu", "student:nu=3");
    law.nu = parse_number("keys.nu", text);
    if (!(law.nu > 2.0 && std::isfinite(law.nu)))
      throw InputError("keys.nu", std::string(text),
                       "must be finite and > 2 (finite variance: Var t_nu = nu/(nu-2))");
    law.spec += ":nu=" + show(law.nu);
  } else if (law.kind == "mixture") {
    const auto wtext = required(kv, law.kind, "weights", "weights=0.5/0.5");
    law.weights = parse_positive_list("keys.weights", wtext);
    if (static_cast<int>(law.weights.size()) > kMaxComponents)
      throw InputError("keys.weights", std::string(wtext),
                       fmt::format("must have at most {} components", kMaxComponents));
    double sum = 0.0;
    for (double w : law.weights) sum += w;
    if (std::abs(sum - 1.0) > kWeightSumTol)
      throw InputError("keys.weights", std::string(wtext),
                       fmt::format("must be positive and sum to 1 (they sum to {})", show(sum)));
    const auto stext = required(kv, law.kind, "scales", "scales=1/100");
    law.scales = parse_positive_list("keys.scales", stext);
    if (law.scales.size() != law.weights.size())
      throw InputError("keys.scales", std::string(stext),
                       fmt::format("must give one scale > 0 per component ({} weights, {} scales)",
                                   law.weights.size(), law.scales.size()));
    law.bases.assign(law.weights.size(), "identity");
    if (const auto it = kv.find("bases"); it != kv.end()) {
      const auto items = split(it->second, '/');
      if (items.size() != law.weights.size())
        throw InputError("keys.bases", akm::quoted(it->second),
                         fmt::format("must give one basis per component ({} weights, {} bases)",
                                     law.weights.size(), items.size()));
      for (std::size_t k = 0; k < items.size(); ++k) {
        if (items[k] != "identity" && items[k] != "reverse" && items[k] != "random")
          throw InputError("keys.bases", akm::quoted(items[k]), "each basis must be identity, reverse or random");
        law.bases[k] = std::string(items[k]);
      }
    }
    law.spec += fmt::format(":weights={},scales={},bases={}", join_values(law.weights), join_values(law.scales),
                            fmt::join(law.bases, "/"));
  }
  return law;
}

KeySampler::KeySampler(KeyLaw law, const Vec& lambda, std::uint64_t basis_seed)
    : law_(std::move(law)), lambda_(lambda) {
  if (lambda_.size() == 0) throw InputError("keys.lambda", "(empty)", "needs at least one eigenvalue");
  for (Eigen::Index i = 0; i < lambda_.size(); ++i)
    if (!(lambda_[i] > 0.0 && std::isfinite(lambda_[i])))
      throw InputError("keys.lambda", show(lambda_[i]),
                       fmt::format("every eigenvalue must be finite and > 0 (entry {})", i));
  sqrt_lambda_ = lambda_.cwiseSqrt();
  const int n = this->n();
  if (law_.kind == "student") student_factor_ = std::sqrt((law_.nu - 2.0) / law_.nu);
  if (law_.kind != "mixture") {
    bases_.push_back(Mat::Identity(n, n));
    basis_kind_.push_back(0);
    return;
  }
  double c = 0.0;
  for (std::size_t k = 0; k < law_.weights.size(); ++k) {
    c += law_.weights[k];
    cumulative_.push_back(c);
    const std::string& b = law_.bases[k];
    if (b == "identity") {
      bases_.push_back(Mat::Identity(n, n));
      basis_kind_.push_back(0);
    } else if (b == "reverse") {
      bases_.push_back(Mat::Identity(n, n).rowwise().reverse());
      basis_kind_.push_back(1);
    } else {
      spectrum_detail::require_random_basis_size("keys.bases", n);
      bases_.push_back(haar_orthogonal(n, component_seed(basis_seed, static_cast<int>(k))));
      basis_kind_.push_back(2);
      diagonal_ = false;
    }
  }
  cumulative_.back() = 1.0;  // weights sum to 1 within 1e-9; the last component closes [0, 1)
}

int KeySampler::draw(Stream& s, Vec& x, Vec& work) const {
  const int n = this->n();
  if (law_.kind == "gaussian") {
    for (int i = 0; i < n; ++i) x[i] = sqrt_lambda_[i] * s.normal();
    return 0;
  }
  if (law_.kind == "rademacher") {
    for (int i = 0; i < n; ++i) x[i] = sqrt_lambda_[i] * s.rademacher();
    return 0;
  }
  if (law_.kind == "student") {
    // √((ν−2)/ν)·t_ν has unit variance, so Cov x = diag(λ).
    boost::random::student_t_distribution<double> t(law_.nu);
    StreamEngine e{s};
    for (int i = 0; i < n; ++i) x[i] = sqrt_lambda_[i] * student_factor_ * t(e);
    return 0;
  }
  const double u = s.uniform();
  int k = 0;
  while (u >= cumulative_[static_cast<std::size_t>(k)]) ++k;
  const double scale = law_.scales[static_cast<std::size_t>(k)];
  switch (basis_kind_[static_cast<std::size_t>(k)]) {
    case 0:
      for (int i = 0; i < n; ++i) x[i] = scale * sqrt_lambda_[i] * s.normal();
      break;
    case 1:
      for (int i = 0; i < n; ++i) x[n - 1 - i] = scale * sqrt_lambda_[i] * s.normal();
      break;
    default:
      for (int i = 0; i < n; ++i) work[i] = scale * sqrt_lambda_[i] * s.normal();
      x.noalias() = bases_[static_cast<std::size_t>(k)] * work;
  }
  return k;
}

Mat KeySampler::covariance() const {
  if (law_.kind != "mixture") return lambda_.asDiagonal();
  const int n = this->n();
  Mat c = Mat::Zero(n, n);
  for (std::size_t k = 0; k < bases_.size(); ++k)
    c += (law_.weights[k] * law_.scales[k] * law_.scales[k]) * bases_[k] * lambda_.asDiagonal() *
         bases_[k].transpose();
  return c;
}

double KeySampler::fourth_moment_norm() const {
  const double tr = lambda_.sum(), tr2 = lambda_.squaredNorm();
  if (law_.kind == "rademacher") return tr * tr;  // ‖x‖² = Σλ exactly
  if (law_.kind == "student") {
    // ‖x‖² = Σ λ_i f² t_i² with f²E t² = 1 and f⁴E t⁴ = 3(ν−2)/(ν−4) for ν > 4.
    if (law_.nu <= 4.0) return std::numeric_limits<double>::infinity();
    return tr * tr - tr2 + 3.0 * (law_.nu - 2.0) / (law_.nu - 4.0) * tr2;
  }
  const double gauss = tr * tr + 2.0 * tr2;  // E(zᵀΛz)² for z ~ N(0, I)
  if (law_.kind == "gaussian") return gauss;
  double m = 0.0;
  for (std::size_t k = 0; k < law_.weights.size(); ++k) m += law_.weights[k] * std::pow(law_.scales[k], 4) * gauss;
  return m;
}

KeyLawMoments exact_key_moments(const KeySampler& law, bool with_fourth) {
  const std::string& kind = law.law().kind;
  const int n = law.n();
  KeyLawMoments r;
  r.exact = true;
  r.sigma_hat_se = r.K_se = Mat::Zero(n, n);
  if (with_fourth) r.fourth_se = Mat::Zero(n, n);
  if (kind == "rademacher") {
    const double tr = law.lambda().sum();
    r.method = "closed form";
    r.sigma_hat = (law.lambda() / tr).asDiagonal();
    r.K = (law.lambda() / std::sqrt(tr)).asDiagonal();
    if (with_fourth) r.fourth = law.lambda() * law.lambda().transpose() / (tr * tr);  // x̂_i² = λ_i/Σλ
    return r;
  }
  if (kind == "student")
    throw std::logic_error("exact_key_moments: Student-t keys have no closed form; use key_moments_mc");
  if (with_fourth && !law.diagonal())
    throw std::logic_error("exact_key_moments: Q of a mixture with a rotated component is not available");
  const KeyMoments g = gaussian_key_moments(law.lambda(), with_fourth);
  r.method = "quadrature";
  if (kind == "gaussian") {
    r.sigma_hat = g.lambda_hat.asDiagonal();
    r.K = g.kappa.asDiagonal();
    if (with_fourth) r.fourth = g.fourth;
    return r;
  }
  if (with_fourth) r.fourth = Mat::Zero(n, n);
  // [app:multimodal] the mixture's second moment is the weighted sum of its components';
  // x̂ does not see the scale s_k, ‖x‖ does (K picks up s_k).
  r.sigma_hat = r.K = Mat::Zero(n, n);
  const auto& w = law.law().weights;
  const auto& s = law.law().scales;
  for (int k = 0; k < law.components(); ++k) {
    const Mat& B = law.basis(k);
    r.sigma_hat += w[static_cast<std::size_t>(k)] * B * g.lambda_hat.asDiagonal() * B.transpose();
    r.K += (w[static_cast<std::size_t>(k)] * s[static_cast<std::size_t>(k)]) * B * g.kappa.asDiagonal() * B.transpose();
    if (with_fourth) r.fourth += w[static_cast<std::size_t>(k)] * B * g.fourth * B.transpose();  // B a permutation
  }
  return r;
}

}  // namespace akm
