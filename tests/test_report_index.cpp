// The report's index and claim pages (report/report.hpp): experiments collected in natural
// order, statements rendered with KaTeX or said to be unrenderable, the all-pass page, and
// KaTeX copied safely by parallel processes.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "akm/base/errors.hpp"
#include "akm/report/katex.hpp"
#include "akm/report/notebook.hpp"
#include "akm/report/report.hpp"

namespace fs = std::filesystem;

#include "report_fixture.hpp"
#include "test_util.hpp"

namespace {

using akm_test::slurp;
using namespace akm_test::report;

nlohmann::json fake_summary(const std::string& id, bool pass) {
  nlohmann::json checks = nlohmann::json::array();
  checks.push_back({{"name", "fixed point <u_1>"}, {"kind", "mc"}, {"predicted", 0.5},
                    {"measured", 0.5001234567}, {"stderr", 0.001}, {"tolerance", 0.005},
                    {"pass", true}});
  checks.push_back({{"name", "transport"}, {"kind", "mc"}, {"predicted", 0.1},
                    {"measured", pass ? 0.1 : 0.3}, {"stderr", 0.01}, {"tolerance", 0.05},
                    {"pass", pass}});
  return {{"id", id},           {"title", "title of " + id},
          {"paper_labels", {"thm:fixedpoint", "eq:dm-eigen"}},
          {"seed", 20261122},   {"version", "0.1.0+test"},
          {"quick", true},      {"params", {{"beta", 0.9}}},
          {"checks", checks},   {"pass", pass}};
}

void fake_indexed_experiment(const fs::path& root, const std::string& id, bool pass) {
  fs::create_directories(root / id);
  spit(root / id / "summary.json", fake_summary(id, pass).dump(2));
}

}  // namespace

TEST_F(ReportTest, WriteReportCollectsExperimentsInNaturalOrder) {
  fake_indexed_experiment(root_, "T10", true);
  fake_indexed_experiment(root_, "T2", false);
  fake_indexed_experiment(root_, "E1", true);
  spit(root_ / "T2" / "decay.png", "not really a png");
  fake_indexed_experiment(root_, ".T3.staging-1", true);  // hidden: an interrupted run
  fs::create_directories(root_ / "T4");
  spit(root_ / "T4" / "summary.json", "{ broken");

  akm::write_report(root_);

  const auto summary = nlohmann::json::parse(slurp(root_ / "summary.json"));
  EXPECT_EQ(summary["generated_by"], "akm");
  EXPECT_FALSE(summary["pass"].get<bool>());
  const auto& exps = summary["experiments"];
  ASSERT_EQ(exps.size(), 3u);
  EXPECT_EQ(exps[0]["id"], "T2");
  EXPECT_EQ(exps[1]["id"], "T10");
  EXPECT_EQ(exps[2]["id"], "E1");
  EXPECT_FALSE(exps[0]["pass"].get<bool>());
  EXPECT_EQ(exps[0]["n_checks"], 2);
  EXPECT_EQ(exps[0]["n_failed"], 1);
  EXPECT_EQ(exps[0]["figures"], nlohmann::json::array({"decay.png"}));
  EXPECT_EQ(exps[1]["seed"], 20261122);
  EXPECT_EQ(exps[1]["paper_labels"][0], "thm:fixedpoint");

  // The index: one compact row per experiment, linking its claim page, in natural order.
  const std::string html = slurp(root_ / "index.html");
  EXPECT_EQ(count_of(html, "<tr><td><a href=\""), 3u);
  for (const char* id : {"T2", "T10", "E1"}) {
    EXPECT_NE(html.find(std::string("href=\"") + id + "/index.html\""), std::string::npos) << id;
    EXPECT_TRUE(fs::is_regular_file(root_ / id / "index.html")) << id;
  }
  EXPECT_NE(html.find("<span class=\"fail\">FAIL</span>"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);  // self-contained
  EXPECT_LT(html.find("T2/index.html"), html.find("T10/index.html"));
  // A claim page: its figure full size, its checks (escaped, 6 significant digits), the
  // failed check first, links relative to its folder.
  const std::string t2 = slurp(root_ / "T2" / "index.html");
  EXPECT_NE(t2.find("<img src=\"decay.png\""), std::string::npos);
  EXPECT_NE(t2.find("href=\"summary.json\""), std::string::npos);
  EXPECT_NE(t2.find("href=\"../index.html\""), std::string::npos);
  EXPECT_NE(t2.find("fixed point &lt;u_1&gt;"), std::string::npos);  // escaped
  EXPECT_NE(t2.find("0.500123"), std::string::npos);                // 6 significant digits
  EXPECT_LT(t2.find("Failed checks (1)"), t2.find("transport"));
  EXPECT_EQ(t2.find("http"), std::string::npos);
}

// Statements carry the paper's TeX to the claim page; with a KaTeX copy the page loads it from
// ../katex and renders it, without one it says the math is TeX source. The index counts statuses.
TEST_F(ReportTest, ClaimPagesRenderStatementsWithKatexOrSayTheyCannot) {
  auto s = fake_summary("T5", true);
  s["statements"] = nlohmann::json::array(
      {{{"label", "thm:tracking"}, {"kind", "theorem"}, {"title", "Tracking"}, {"tex", "rate $\\tbeta_i < 1$"}}});
  s["status"] = {{"status", "SUPPORTED"}, {"reason", "every check passed"}, {"discriminating_checks", 1},
                 {"evidence_checks", 2}};
  fs::create_directories(root_ / "T5");
  spit(root_ / "T5" / "summary.json", s.dump(2));
  const fs::path kx = katex_fixture(root_);
  setenv("AKM_KATEX_DIR", kx.c_str(), 1);
  akm::write_report(root_);
  std::string page = slurp(root_ / "T5" / "index.html");
  EXPECT_NE(page.find("rate $\\tbeta_i &lt; 1$"), std::string::npos);  // the TeX, HTML-escaped
  EXPECT_NE(page.find("src=\"../katex/katex.min.js\""), std::string::npos);
  EXPECT_NE(page.find("\"\\\\tbeta\": \"\\\\tilde{\\\\beta}\""), std::string::npos);  // paper macro
  EXPECT_TRUE(fs::is_regular_file(root_ / "katex" / "fonts" / "KaTeX_Main-Regular.woff2"));
  EXPECT_NE(slurp(root_ / "index.html").find("1 <span class=\"st st-SUPPORTED\">SUPPORTED</span>"),
            std::string::npos);
  setenv("AKM_KATEX_DIR", (root_ / "no-katex-here").c_str(), 1);
  akm::write_report(root_);
  unsetenv("AKM_KATEX_DIR");
  page = slurp(root_ / "T5" / "index.html");
  EXPECT_EQ(page.find("katex.min.js"), std::string::npos);
  EXPECT_NE(page.find("shown as TeX source"), std::string::npos);
  fs::remove_all(kx);
}

TEST_F(ReportTest, WriteReportAllPass) {
  fake_indexed_experiment(root_, "T1", true);
  akm::write_report(root_);
  const auto summary = nlohmann::json::parse(slurp(root_ / "summary.json"));
  EXPECT_TRUE(summary["pass"].get<bool>());
  EXPECT_EQ(slurp(root_ / "index.html").find("FAIL"), std::string::npos);
}

// Reports written into one folder by several processes at once (ctest runs the quick tests in
// parallel, each `akm run` writing the shared index and katex/): every copy succeeds, the
// folder ends whole, and no staging folder is left. Four processes, 25 copies each.
TEST_F(ReportTest, KatexCopiesFromParallelProcessesAllSucceed) {
  const fs::path kx = katex_fixture(root_);
  setenv("AKM_KATEX_DIR", kx.c_str(), 1);
  fs::create_directories(root_);
  std::vector<pid_t> kids;
  for (int k = 0; k < 4; ++k) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int code = 0;
      try {
        for (int i = 0; i < 25; ++i)
          if (!akm::copy_katex(root_)) code = 2;
      } catch (...) {
        code = 1;
      }
      _exit(code);
    }
    kids.push_back(pid);
  }
  for (pid_t pid : kids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a copy failed (status " << status << ")";
  }
  unsetenv("AKM_KATEX_DIR");
  EXPECT_TRUE(fs::is_regular_file(root_ / "katex" / "katex.min.js"));
  EXPECT_TRUE(fs::is_regular_file(root_ / "katex" / "fonts" / "KaTeX_Main-Regular.woff2"));
  EXPECT_FALSE(has_hidden_entry(root_, ".katex.tmp-"));
  fs::remove_all(kx);
}
