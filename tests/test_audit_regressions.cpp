// Seeds the false-alarm audit (tests/audit/false_alarm.sh) found failing for a
// reason other than chance, kept as regression tests of their fixes.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "test_util.hpp"

namespace {

namespace fs = std::filesystem;
using akm_test::run_cli;
using akm_test::slurp;

nlohmann::json run_quick(const std::string& id, int seed) {
  const fs::path out = fs::path(AKM_TEST_TMP) / ("audit-" + id + "-" + std::to_string(seed));
  fs::remove_all(out);
  const auto r = run_cli("run " + id + " --quick --quiet --threads 1 --seed " + std::to_string(seed) + " --out " +
                         out.string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("warning"), std::string::npos) << r.out;
  return nlohmann::json::parse(slurp(out / id / "summary.json"));
}

// T11 at seed 84: the third derivative along Ḡ is so close to 0 that the exact Taylor window of
// M = Ḡ spans < 1.5 decades. It used to stop the experiment (exit 3); now Ḡ's slope is not
// fitted (a fifth random direction is) and the empty "M beats Ḡ" series is not drawn.
TEST(AuditRegression, T11NarrowWindowAlongGradientIsSkippedNotFatal) {
  const auto s = run_quick("T11", 84);
  EXPECT_FALSE(s["params"]["slope_fit_of_G"].get<bool>());
  EXPECT_EQ(s["params"]["slope_fits"].size(), 5u);
  EXPECT_TRUE(s["pass"].get<bool>());
}

// T8 at seed 122: "resolved/mild-power-64" is a power check (a true claim fails it with
// probability Φ(z − gap/se)); with gap/se ≈ 9 < 2z at 5000 quick trials it failed at the
// declared 1e-6. The rule since: a resolved check stands only where gap ≥ 2z·se, and is listed
// as underpowered otherwise. Quick mode now runs 10000 trials (chosen for the pooled
// recovery's resolution), where this seed's gap is resolved, so the check stands and must
// pass; at fewer trials it would be listed. Either way exactly one of the two happens, every
// listed spectrum is below 2z, and the run passes.
TEST(AuditRegression, T8ResolutionIsCheckedOnlyWherePowered) {
  const auto s = run_quick("T8", 122);
  const double z = s["params"]["one_sided_z"].get<double>();
  bool listed = false, checked = false;
  for (const auto& np : s["params"]["resolved_not_checked_underpowered"]) {
    EXPECT_LT(np["gap_over_se"].get<double>(), 2 * z);
    listed = listed || np["check"].get<std::string>().find("mild-power-64") != std::string::npos;
  }
  for (const auto& c : s["checks"]) {
    const bool mild = c["name"].get<std::string>().find("resolved/mild-power-64") != std::string::npos;
    checked = checked || mild;
    if (mild) {
      EXPECT_TRUE(c["pass"].get<bool>());
    }
  }
  EXPECT_NE(listed, checked) << "mild-power-64 must be either listed as underpowered or checked";
  EXPECT_TRUE(s["pass"].get<bool>());
}

}  // namespace
