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

#include "report_fixture.hpp"
#include "test_util.hpp"

namespace {

using akm_test::slurp;
using namespace akm_test::report;

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
  // (void): without it, clang reads the statement as a declaration of a variable named max.
  EXPECT_THROW((void)akm::CsvTable::Cell(std::numeric_limits<unsigned long long>::max()), std::out_of_range);
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
