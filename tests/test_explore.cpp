// akm explore's requests (app/explore_api): bad requests are refused with the CLI's
// messages before any work, and every number served is the one akm phase / akm theory compute.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "akm/app/explore_api.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/phase.hpp"
#include "akm/theory/direction_table.hpp"

namespace {

using akm::explore::handle;
using akm::explore::Query;

const std::string kSpec = "spiked:n=16,spikes=100/30/10/3,floor=0.5";

Query map_query() {
  return {{"x", "eta:0.05:1.5:40"}, {"y", "beta:0:0.99:30"}, {"metric", "rho_ratio"}, {"spectrum", kSpec}};
}

TEST(Explore, MapIsAkmPhaseAtTheSameParameters) {
  const auto r = handle("/api/phase", map_query());
  ASSERT_EQ(r.status, 200) << r.body;
  const auto j = nlohmann::json::parse(r.body);
  akm::phase::Options o;
  o.x = akm::phase::parse_axis("eta:0.05:1.5:40", "--x");
  o.y = akm::phase::parse_axis("beta:0:0.99:30", "--y");
  o.metric = akm::phase::Metric::rho_ratio;
  const auto s = akm::parse_spectrum(kSpec, 20261122);
  const auto map = akm::phase::compute(o, akm::phase::make_model(s, false), 1);
  ASSERT_EQ(j["nx"], 40);
  ASSERT_EQ(j["ny"], 30);
  const auto& col = j["columns"][map.names[0]];
  ASSERT_EQ(col.size(), map.points.size());
  for (std::size_t k = 0; k < map.points.size(); ++k) {
    if (col[k].is_null()) {
      EXPECT_FALSE(std::isfinite(map.points[k].cols[0]));
    } else {
      EXPECT_EQ(col[k].get<double>(), map.points[k].cols[0]) << k;  // the same double
    }
  }
  EXPECT_NE(j["command"].get<std::string>().find("akm phase --x eta:0.05:1.5:40 --y beta:0:0.99:30"),
            std::string::npos);
}

TEST(Explore, TheoryIsAkmTheory) {
  const auto r = handle("/api/theory", {{"beta", "0.9"}, {"eta", "0.5"}, {"spectrum", kSpec}});
  ASSERT_EQ(r.status, 200) << r.body;
  const auto expected = akm::to_json(akm::make_theory_report({0.9, 0.5, 0.1, akm::Key::normalized},
                                                             akm::parse_spectrum(kSpec, 0)));
  EXPECT_EQ(nlohmann::json::parse(r.body), nlohmann::json::parse(expected.dump()));
}

TEST(Explore, MeasurementAgreesWithItsPrediction) {
  const auto r = handle("/api/measure", {{"beta", "0.9"}, {"eta", "0.5"}, {"spectrum", kSpec},
                                         {"trials", "64"}, {"steps", "200"}});
  ASSERT_EQ(r.status, 200) << r.body;
  const auto j = nlohmann::json::parse(r.body);
  EXPECT_EQ(j["trials"], 64);
  // |z| < 6: a false alarm has probability ~2e-9 (a fixed seed: the same z every run).
  EXPECT_LT(std::abs(j["rate_z"].get<double>()), 6.0);
}

struct ExploreBad {
  std::string path;
  Query query;
  int status;
  std::string parameter;  ///< the flag the error must name ("" for none)
};

TEST(Explore, BadRequestsAreRefusedNamingTheParameter) {
  auto with = [](Query q, const std::string& k, const std::string& v) { q[k] = v; return q; };
  auto without = [](Query q, const std::string& k) { q.erase(k); return q; };
  const Query m = map_query();
  const Query t{{"beta", "0.9"}, {"eta", "0.5"}, {"spectrum", kSpec}};
  const std::vector<ExploreBad> bad = {
      {"/api/phase", without(m, "x"), 400, "--x"},
      {"/api/phase", without(m, "spectrum"), 400, "--spectrum"},
      {"/api/phase", without(m, "metric"), 400, "--metric"},
      {"/api/phase", with(m, "x", "eta:0.05:1.5"), 400, "--x"},
      {"/api/phase", with(m, "x", "gamma:0:1:10"), 400, "--x"},
      {"/api/phase", with(m, "y", "beta:0:1.5:10"), 400, "--y HI"},
      {"/api/phase", with(m, "x", "eta:1:0.5:10"), 400, "--x"},
      {"/api/phase", with(m, "x", "eta:0.1:1:1"), 400, "--x"},
      {"/api/phase", with(m, "x", "eta:0.1:1:5000"), 400, "--x"},
      {"/api/phase", with(with(m, "x", "eta:0.1:1:1000"), "y", "beta:0:0.9:1000"), 400, "--x"},
      {"/api/phase", with(m, "metric", "fastest"), 400, "--metric"},
      {"/api/phase", with(m, "key", "sideways"), 400, ""},
      {"/api/phase", with(m, "spectrum", "spiked:n=0"), 400, ""},
      {"/api/phase", with(m, "spectrum", "nonsense"), 400, ""},
      {"/api/phase", with(m, "alpha", "-1"), 400, "--alpha"},
      {"/api/phase", with(m, "direction", "99"), 400, "--direction"},
      {"/api/phase", with(m, "seed", "-3"), 400, "--seed"},
      {"/api/phase", with(m, "colour", "red"), 400, "colour"},
      {"/api/phase", with(m, "eta", "nan"), 400, "--eta"},
      {"/api/theory", with(t, "eta", "nan"), 400, "eta"},
      {"/api/theory", with(t, "beta", "1"), 400, "beta"},
      {"/api/theory", with(t, "eta", "0"), 400, "eta"},
      {"/api/theory", with(t, "eta", "abc"), 400, "eta"},
      {"/api/theory", with(t, "eta", "2.5"), 400, "eta"},
      {"/api/theory", without(t, "beta"), 400, "--beta"},
      {"/api/measure", with(t, "trials", "1"), 400, "--trials"},
      {"/api/measure", with(t, "trials", "100000000"), 400, "--trials"},
      {"/api/measure", with(t, "steps", "0"), 400, "--steps"},
      {"/api/measure", with(with(t, "trials", "4000"), "steps", "20000"), 400, "--trials"},
      {"/etc/passwd", {}, 404, ""},
      {"/../results/T1/summary.json", {}, 404, ""},
      {"/api/phase/../../x", m, 404, ""},
  };
  ASSERT_GE(bad.size(), 20u);
  for (const auto& b : bad) {
    const auto r = handle(b.path, b.query);
    EXPECT_EQ(r.status, b.status) << b.path << " " << r.body;
    const auto j = nlohmann::json::parse(r.body);
    ASSERT_TRUE(j.contains("error")) << r.body;
    if (!b.parameter.empty()) {  // the flag, possibly with its part ("--x N")
      EXPECT_EQ(j["parameter"].get<std::string>().rfind(b.parameter, 0), 0u) << r.body;
    }
  }
}

TEST(Explore, PageIsServedAndComputesNothingItself) {
  const auto r = handle("/", {});
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("/api/phase"), std::string::npos);
  // No closed form in the page: the transport factor and the radii arrive from the server.
  EXPECT_EQ(r.body.find("1 - eta"), std::string::npos);
  EXPECT_EQ(r.body.find("Math.sqrt"), std::string::npos);
}

}  // namespace
