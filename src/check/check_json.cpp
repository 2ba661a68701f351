// check_json — the recorded and judged checks as summary.json's "checks" array: each check's
// numbers, verdict, role, power and resolution, as the ledger and the report read them.
#include "akm/check/check.hpp"

#include <cmath>
#include <utility>

namespace akm {

// nlohmann would write NaN/inf as null anyway; doing it here keeps the output independent
// of that library detail and makes the intent visible.
nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json Checks::to_json() const {
  auto out = nlohmann::json::array();
  for (const auto& r : records_) {
    const double se = combined_se(r);
    nlohmann::json z_score = nullptr, z_corrected = nullptr;
    if (se > 0.0) {
      z_score = number_or_null(std::abs(r.measured - r.predicted) / se);
      const MeanEstimate e{r.measured, r.stderr_measured, r.skew, r.dof, r.se_exact};
      z_corrected = number_or_null(std::abs(corrected_deviation(r.measured - r.predicted, se, e)));
    }
    out.push_back({{"name", r.name},
                   {"kind", r.kind},
                   {"predicted", number_or_null(r.predicted)},
                   {"measured", number_or_null(r.measured)},
                   {"stderr", number_or_null(r.stderr_measured)},
                   {"stderr_predicted", number_or_null(r.stderr_predicted)},
                   {"bias_bound", number_or_null(r.bias_bound)},
                   {"tolerance", number_or_null(r.tolerance)},
                   {"comparisons", r.comparisons},
                   {"z_score", z_score},
                   {"z_corrected", z_corrected},
                   {"skew_of_mean", number_or_null(r.skew)},
                   {"dof", number_or_null(r.dof)},
                   {"se_exact", r.se_exact},
                   {"tolerance_below", number_or_null(r.tol_below)},
                   {"tolerance_above", number_or_null(r.tol_above)},
                   {"pass", r.pass}});
    auto& j = out.back();
    j["role"] = r.design ? "design" : "evidence";
    if (r.refute_only) j["refute_only"] = true;
    if (std::isfinite(r.alternative)) {
      j["alternative"] = r.alternative;
      j["alternative_label"] = r.alternative_label;
      j["power"] = number_or_null(r.power);
    }
    if (std::isfinite(r.effect)) j["declared_effect"] = r.effect;
    if (std::isfinite(r.equivalence_alpha)) {
      j["upper_limit"] = number_or_null(r.upper_limit);
      j["equivalence_alpha"] = r.equivalence_alpha;
      j["equivalence_established"] = r.upper_limit <= r.predicted;
    }
    if (r.kind == "sign") {
      j["favourable"] = r.favourable;
      j["unfavourable"] = r.unfavourable;
      j["p_design"] = r.p_design;
      j["sign_p"] = number_or_null(r.sign_p);
      j["level"] = number_or_null(r.level);
      j["sign_established"] = sign_established(r);
    }
    j["mde"] = number_or_null(r.mde);
    j["discriminates"] = r.discriminates;
    auto resolution = nlohmann::json::object();  // relative error in θ detected at power 0.9
    const std::pair<const char*, double> derivs[] = {
        {"eta", r.d_ln_eta}, {"beta", r.d_ln_beta}, {"lambda", r.d_ln_lambda}};
    for (const auto& [name, d] : derivs)
      if (std::isfinite(d) && d != 0.0) resolution[name] = number_or_null(r.mde / std::abs(d));
    if (!resolution.empty()) j["resolution"] = resolution;
    if (!r.recovers.empty()) j["recovers"] = r.recovers;
  }
  return out;
}

}  // namespace akm
