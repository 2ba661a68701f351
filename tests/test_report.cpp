// Results are data first: CSVs round-trip, figures re-render from their folder, folders
// appear atomically, and the report marks a failing experiment as failing.
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

#include "test_util.hpp"

namespace {

using akm_test::slurp;


void spit(const fs::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary);
  out << s;
}

std::size_t count_of(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, pos + 1))
    ++n;
  return n;
}

bool has_hidden_entry(const fs::path& dir, const std::string& prefix) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0) return true;
  return false;
}

// One fresh folder per test, removed afterwards.
class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::temp_directory_path() /
            ("akm-test-report-" + std::string(info->name()) + "-" + std::to_string(::getpid()));
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

akm::CsvTable decay_table() {
  akm::CsvTable t;
  t.header = {"rule", "lag", "mean", "se"};
  for (long long k = 1; k <= 12; ++k) {
    t.add({std::string("ak"), k, std::pow(0.8, double(k)), 0.02});
    t.add({std::string("ema"), k, std::pow(0.9, double(k)), 0.02});
  }
  return t;
}

akm::Figure decay_figure() {
  akm::Figure f;
  f.name = "decay";
  f.title = "mean projection vs lag";
  f.xlabel = "lag k";
  f.ylabel = "projection";
  f.logy = true;
  f.series.push_back({"decay.csv", "lag", "mean", "se", "AK measured", "errorbars", "rule=ak"});
  f.series.push_back({"decay.csv", "lag", "mean", "", "EMA measured", "points", "rule=ema"});
  f.series.push_back({"decay.csv", "lag", "mean", "", "", "lines", "lag=3"});
  f.extra.push_back("set xrange [0:13]");
  f.functions.push_back("0.8**x title 'beta~^k' lw 2 dt 2");
  return f;
}

// A folder standing in for Debian's KaTeX install (the files copy_katex copies), beside root.
fs::path katex_fixture(const fs::path& root) {
  const fs::path kx = root.parent_path() / (root.filename().string() + "-katex");
  fs::create_directories(kx / "contrib");
  fs::create_directories(kx / "fonts");
  for (const char* f : {"katex.min.js", "katex.min.css", "contrib/auto-render.js", "fonts/KaTeX_Main-Regular.woff2"})
    spit(kx / f, "/* test fixture standing in for a KaTeX file */");
  return kx;
}

}  // namespace

TEST(CsvTable, AddRejectsWrongWidth) {
  akm::CsvTable t;
  t.header = {"a", "b"};
  EXPECT_NO_THROW(t.add({1.0, 2LL}));
  EXPECT_THROW(t.add({1.0}), std::invalid_argument);
  EXPECT_THROW(t.add({1.0, 2.0, 3.0}), std::invalid_argument);
  EXPECT_EQ(t.rows.size(), 1u);
}

// Any integer type is a long long cell (bool as 0/1); one beyond long long's range is refused.
TEST(CsvTable, CellsTakeAnyInteger) {
  akm::CsvTable t;
  t.header = {"int", "size_t", "short", "bool", "unsigned", "double", "text"};
  t.add({-3, std::size_t{12}, static_cast<short>(7), true, 5u, 2.5, "x"});
  EXPECT_EQ(std::get<long long>(t.rows[0][0]), -3);
  EXPECT_EQ(std::get<long long>(t.rows[0][1]), 12);
  EXPECT_EQ(std::get<long long>(t.rows[0][2]), 7);
  EXPECT_EQ(std::get<long long>(t.rows[0][3]), 1);
  EXPECT_EQ(std::get<long long>(t.rows[0][4]), 5);
  EXPECT_EQ(std::get<double>(t.rows[0][5]), 2.5);
  EXPECT_EQ(std::get<std::string>(t.rows[0][6]), "x");
  EXPECT_EQ(akm::csv::csv_text(t), "int,size_t,short,bool,unsigned,double,text\n-3,12,7,1,5,2.5,x\n");
  EXPECT_THROW(akm::CsvTable::Cell(std::numeric_limits<unsigned long long>::max()), std::out_of_range);
}

// The figure helpers build exactly what a hand-built figure holds (so the .gp and figure.json
// of a figure do not depend on which way it was written).
TEST(Figure, MeasuredVsPredictedIsTheHandBuiltPair) {
  akm::Figure hand, helper;
  hand.series.push_back({"decay.csv", "lag", "mean", "se", "AK measured", "errorbars", "rule=ak"});
  hand.series.push_back({"decay.csv", "lag", "pred", "", "AK theory", "lines", "rule=ak"});
  hand.series.push_back({"d.csv", "t", "measured", "stderr", "", "errorbars", ""});
  hand.series.push_back({"d.csv", "t", "predicted", "", "", "lines", ""});
  helper.measured_vs_predicted({.csv = "decay.csv", .x = "lag", .measured = "mean", .se = "se", .predicted = "pred",
                                .measured_title = "AK measured", .predicted_title = "AK theory", .where = "rule=ak"})
      .measured_vs_predicted({.csv = "d.csv", .x = "t"});
  EXPECT_EQ(akm::figure_spec(helper).dump(), akm::figure_spec(hand).dump());
}

TEST(Figure, HeatmapItemDrawsAnImage) {
  EXPECT_EQ(akm::heatmap_item("k.csv", "1", "2", "3"), "'k.csv' every ::1 using 1:2:3 with image notitle");
  EXPECT_EQ(akm::heatmap_item("map.csv", "(log10($1))", "2", "7"),
            "'map.csv' every ::1 using (log10($1)):2:7 with image notitle");
  EXPECT_THROW(akm::heatmap_item("../k.csv", "1", "2", "3"), std::invalid_argument);
}

TEST_F(ReportTest, CsvRoundTripsFullPrecision) {
  akm::ResultDir dir(root_, "T1");
  akm::CsvTable t;
  t.header = {"name", "count", "value"};
  t.add({std::string("plain"), 3LL, 0.1});
  t.add({std::string("with,comma"), -7LL, 1.0 / 3.0});
  t.add({std::string("say \"hi\""), 0LL, -1e-300});
  dir.write_csv("data.csv", t);
  const std::string text = slurp(dir.staging() / "data.csv");
  EXPECT_EQ(text,
            "name,count,value\n"
            "plain,3,0.10000000000000001\n"
            "\"with,comma\",-7,0.33333333333333331\n"
            "\"say \"\"hi\"\"\",0,-1e-300\n");
  EXPECT_EQ(std::strtod("0.33333333333333331", nullptr), 1.0 / 3.0);
  EXPECT_THROW(dir.write_csv("../escape.csv", t), std::invalid_argument);
}

TEST_F(ReportTest, JsonIsPrettyPrinted) {
  akm::ResultDir dir(root_, "T1");
  dir.write_json("summary.json", {{"id", "T1"}, {"pass", true}});
  const std::string text = slurp(dir.staging() / "summary.json");
  EXPECT_NE(text.find("\n  \"id\": \"T1\""), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(text)["pass"], true);
}

TEST_F(ReportTest, FigureRendersAndReRendersFromItsFolder) {
  if (!akm::gnuplot_available()) GTEST_SKIP() << "gnuplot not installed";
  akm::ResultDir dir(root_, "T3");
  dir.write_csv("decay.csv", decay_table());
  dir.figure(decay_figure());
  dir.commit();
  const fs::path out = root_ / "T3";
  for (const char* f : {"decay.gp", "decay.png", "decay.svg"}) {
    ASSERT_TRUE(fs::exists(out / f)) << f;
    EXPECT_GT(fs::file_size(out / f), 0u) << f;
  }
  const std::string gp = slurp(out / "decay.gp");
  EXPECT_NE(gp.find("set logscale y"), std::string::npos);
  EXPECT_NE(gp.find("'decay.csv' every ::1 using 2:"), std::string::npos);
  EXPECT_NE(gp.find("with yerrorbars"), std::string::npos);
  EXPECT_NE(gp.find("strcol(1) eq 'ak'"), std::string::npos);
  EXPECT_NE(gp.find("column(2) == 3"), std::string::npos);
  EXPECT_NE(gp.find("set xrange [0:13]"), std::string::npos);
  EXPECT_NE(gp.find("0.8**x title 'beta~^k'"), std::string::npos);

  fs::remove(out / "decay.png");
  fs::remove(out / "decay.svg");
  const std::string cmd = "cd '" + out.string() + "' && gnuplot decay.gp 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_GT(fs::file_size(out / "decay.png"), 0u);
  EXPECT_GT(fs::file_size(out / "decay.svg"), 0u);
}

TEST_F(ReportTest, FigureWithUnknownColumnThrows) {
  akm::ResultDir dir(root_, "T3");
  dir.write_csv("decay.csv", decay_table());
  auto f = decay_figure();
  f.series[0].y = "no_such_column";
  EXPECT_THROW(dir.figure(f), std::invalid_argument);
  f = decay_figure();
  f.series[1].where = "no_such_column=1";
  EXPECT_THROW(dir.figure(f), std::invalid_argument);
  f = decay_figure();
  f.series[0].csv = "never-written.csv";
  EXPECT_THROW(dir.figure(f), std::invalid_argument);
}

TEST_F(ReportTest, FigureReportsGnuplotErrors) {
  if (!akm::gnuplot_available()) GTEST_SKIP() << "gnuplot not installed";
  akm::ResultDir dir(root_, "T3");
  dir.write_csv("decay.csv", decay_table());
  auto f = decay_figure();
  f.extra.push_back("this is not gnuplot");
  EXPECT_THROW(dir.figure(f), std::runtime_error);
}

TEST_F(ReportTest, UncommittedStagingIsRemoved) {
  {
    akm::ResultDir dir(root_, "T1");
    dir.write_csv("decay.csv", decay_table());
    EXPECT_TRUE(fs::exists(dir.staging()));
    EXPECT_TRUE(has_hidden_entry(root_, ".T1.staging-"));
  }
  EXPECT_FALSE(has_hidden_entry(root_, ".T1.staging-"));
  EXPECT_FALSE(fs::exists(root_ / "T1"));
}

TEST_F(ReportTest, CommitReplacesPreviousResults) {
  fs::create_directories(root_ / "T1");
  spit(root_ / "T1" / "stale.txt", "old");
  {
    akm::ResultDir dir(root_, "T1");
    dir.write_json("summary.json", {{"id", "T1"}});
    EXPECT_TRUE(fs::exists(root_ / "T1" / "stale.txt"));  // untouched until commit
    dir.commit();
    EXPECT_THROW(dir.commit(), std::logic_error);
    EXPECT_THROW(dir.write_json("x.json", {}), std::logic_error);
  }
  EXPECT_FALSE(fs::exists(root_ / "T1" / "stale.txt"));
  EXPECT_TRUE(fs::exists(root_ / "T1" / "summary.json"));
  EXPECT_FALSE(has_hidden_entry(root_, ".T1."));
}

TEST_F(ReportTest, RequireWritableDirCreatesMissingFolders) {
  const fs::path nested = root_ / "a" / "b";
  EXPECT_NO_THROW(akm::require_writable_dir(nested));
  EXPECT_TRUE(fs::is_directory(nested));
  EXPECT_TRUE(fs::is_empty(nested));  // the probe file is gone
}

TEST_F(ReportTest, RequireWritableDirRefusesUnwritablePaths) {
  fs::create_directories(root_);
  spit(root_ / "file", "x");
  for (const fs::path& bad : {fs::path("/proc/akm-test"), root_ / "file" / "sub" / "deeper"}) {
    try {
      akm::require_writable_dir(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const akm::InputError& e) {
      EXPECT_EQ(e.param(), "--out");
      EXPECT_NE(std::string(e.what()).find("--out = " + bad.string()), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("must be a writable folder"), std::string::npos);
    }
  }
  EXPECT_THROW(akm::ResultDir(root_ / "file", "T1"), akm::InputError);
  EXPECT_EQ(std::distance(fs::directory_iterator(root_), fs::directory_iterator()), 1);
}

TEST_F(ReportTest, RequireWritableDirLeavesNothingWhenProbeFails) {
  // A missing folder chain that cannot be created under a read-only parent: /proc.
  EXPECT_THROW(akm::require_writable_dir("/proc/akm-test/a/b"), akm::InputError);
  EXPECT_FALSE(fs::exists("/proc/akm-test"));
}

TEST_F(ReportTest, WriteFileAtomicLeavesNoTemporary) {
  fs::create_directories(root_);
  akm::write_file_atomic(root_ / "x.txt", "first");
  akm::write_file_atomic(root_ / "x.txt", "second");
  EXPECT_EQ(slurp(root_ / "x.txt"), "second");
  EXPECT_EQ(std::distance(fs::directory_iterator(root_), fs::directory_iterator()), 1);
}

namespace {

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

void fake_experiment(const fs::path& root, const std::string& id, bool pass) {
  fs::create_directories(root / id);
  spit(root / id / "summary.json", fake_summary(id, pass).dump(2));
}

}  // namespace

TEST_F(ReportTest, WriteReportCollectsExperimentsInNaturalOrder) {
  fake_experiment(root_, "T10", true);
  fake_experiment(root_, "T2", false);
  fake_experiment(root_, "E1", true);
  spit(root_ / "T2" / "decay.png", "not really a png");
  fake_experiment(root_, ".T3.staging-1", true);  // hidden: an interrupted run
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
  fake_experiment(root_, "T1", true);
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
