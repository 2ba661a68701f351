// Notebooks: base64 is RFC 4648, figure specs translate to matplotlib faithfully (and
// refuse what they cannot translate), and export writes one valid-shaped notebook per
// experiment folder, refusing bad input before writing anything.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "akm/base/errors.hpp"
#include "akm/report/notebook.hpp"
#include "akm/report/report.hpp"

namespace fs = std::filesystem;

#include "test_util.hpp"

namespace {

using akm_test::slurp;


class NotebookTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::temp_directory_path() /
            ("akm-test-notebook-" + std::string(info->name()) + "-" + std::to_string(::getpid()));
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

// A committed experiment folder with one CSV and one figure, as run_experiment leaves it.
void fake_experiment(const fs::path& results, const std::string& id, bool pass) {
  akm::ResultDir dir(results, id);
  akm::CsvTable t;
  t.header = {"kind", "k", "measured", "se"};
  for (int k = 1; k <= 5; ++k)
    t.add({std::string(k % 2 ? "a" : "b"), static_cast<long long>(k), 1.0 / k, 0.01});
  dir.write_csv("data.csv", t);
  akm::Figure f;
  f.name = "decay";
  f.title = "decay";
  f.series = {{"data.csv", "k", "measured", "se", "measured", "errorbars", "kind=a"}};
  f.functions = {"1/x title 'theory 1/k' lw 2"};
  dir.figure(f);
  dir.write_json("summary.json",
                 {{"id", id}, {"title", "a test"}, {"claim", "m_k = 1/k"},
                  {"paper_labels", {"thm:test"}}, {"pass", pass}, {"seed", 1}, {"quick", true},
                  {"checks", {{{"name", "k=1"}, {"kind", "mc"}, {"predicted", 1.0}, {"measured", 1.0},
                               {"stderr", 0.01}, {"tolerance", 0.06}, {"z_score", 0.0}, {"pass", pass}}}},
                  {"params", {{"beta", 0.9}}}});
  dir.commit();
}

TEST(Base64, MatchesRfc4648Vectors) {
  EXPECT_EQ(akm::base64(""), "");
  EXPECT_EQ(akm::base64("f"), "Zg==");
  EXPECT_EQ(akm::base64("fo"), "Zm8=");
  EXPECT_EQ(akm::base64("foo"), "Zm9v");
  EXPECT_EQ(akm::base64("foob"), "Zm9vYg==");
  EXPECT_EQ(akm::base64("fooba"), "Zm9vYmE=");
  EXPECT_EQ(akm::base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(akm::base64(std::string("\xff\x00\xfe", 3)), "/wD+");
}

TEST(Matplotlib, SeriesAndCurvesTranslate) {
  akm::Figure f;
  f.name = "fig";
  f.logx = true;
  f.series = {{"d.csv", "lam", "ratio", "se", "measured", "errorbars", "spectrum=spiked"},
              {"d.csv", "lam", "phi", "", "theory", "lines", "beta=0.9"}};
  f.functions = {"1/(0.2+x) title 'AK φ' lw 2 dt 2", "1 title 'EMA' lw 2",
                 "'d.csv' every ::1 using 3:(strcol(1) eq 'soft' ? 1-$11 : NaN) with lines title 'soft'"};
  f.extra = {"set xrange [0.5:8.5]", "set yrange [0:*]", "set key left"};
  const std::string py = akm::matplotlib_source(akm::figure_spec(f));
  EXPECT_NE(py.find("sel = df[\"spectrum\"].astype(str) == \"spiked\""), std::string::npos) << py;
  EXPECT_NE(py.find("sel = np.isclose(df[\"beta\"].astype(float), 0.9)"), std::string::npos);
  EXPECT_NE(py.find("ax.errorbar(df[\"lam\"][sel], df[\"ratio\"][sel], yerr=df[\"se\"][sel]"), std::string::npos);
  EXPECT_NE(py.find("ax.plot(x, 1/(0.2+x) + 0 * x, '--', label=\"AK φ\")"), std::string::npos);
  EXPECT_NE(py.find("ax.axhline(1, ls='--', color='gray', label=\"EMA\")"), std::string::npos);
  EXPECT_NE(py.find("sel = (column(df, 1).astype(str) == \"soft\")"), std::string::npos);
  EXPECT_NE(py.find("np.asarray(1-column(df, 11))[sel]"), std::string::npos);
  EXPECT_NE(py.find("ax.set_xlim(left=0.5, right=8.5)"), std::string::npos);
  EXPECT_NE(py.find("ax.set_ylim(bottom=0)"), std::string::npos);
  EXPECT_NE(py.find("ax.set_xscale('log')"), std::string::npos);
}

TEST(Matplotlib, UntranslatableItemsBecomeComments) {
  akm::Figure f;
  f.name = "fig";
  f.functions = {"f(x) = x**2", "'d.csv' every ::1 using 1:2 with vectors title 'v'",
                 "x > 1 ? 1 : 0 title 'step'"};
  const std::string py = akm::matplotlib_source(akm::figure_spec(f));
  EXPECT_EQ(py.find("ax.plot("), std::string::npos) << py;
  EXPECT_NE(py.find("#   f(x) = x**2"), std::string::npos);
  EXPECT_NE(py.find("style 'vectors' not translated"), std::string::npos);
  EXPECT_NE(py.find("#   x > 1 ? 1 : 0 title 'step'"), std::string::npos);
}

TEST_F(NotebookTest, ExportWritesOneNotebookPerExperimentWithEmbeddedFigures) {
  if (!akm::gnuplot_available()) GTEST_SKIP() << "gnuplot not installed";
  const fs::path results = root_ / "results";
  fake_experiment(results, "T1", true);
  fake_experiment(results, "T2", false);
  const auto files = akm::export_notebooks(results, akm::default_notebook_dir(results));
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0], root_ / "notebooks_export" / "T1.ipynb");
  const auto nb = nlohmann::json::parse(slurp(files[1]));
  EXPECT_EQ(nb["nbformat"], 4);
  EXPECT_EQ(nb["nbformat_minor"], 5);
  const auto& cells = nb["cells"];
  // claim, load, figure heading, figure code, then the live section: heading, import, re-run,
  // move β and redraw.
  ASSERT_EQ(cells.size(), 8u);
  EXPECT_EQ(cells[4]["id"], "T2-live-md");
  std::string rerun;
  for (const auto& l : cells[6]["source"]) rerun += l.get<std::string>();
  EXPECT_NE(rerun.find("akm.run(summary[\"id\"]"), std::string::npos);
  std::string claim;
  for (const auto& l : cells[0]["source"]) claim += l.get<std::string>();
  EXPECT_NE(claim.find("**Verdict: FAIL**"), std::string::npos);
  EXPECT_NE(claim.find("## Failed checks"), std::string::npos);
  EXPECT_NE(claim.find("`thm:test`"), std::string::npos);
  std::string load;
  for (const auto& l : cells[1]["source"]) load += l.get<std::string>();
  EXPECT_NE(load.find("os.environ.get(\"AKM_RESULTS\", \"../results\")) / \"T2\""), std::string::npos);
  const auto& out = cells[3]["outputs"][0];
  EXPECT_EQ(out["output_type"], "display_data");
  EXPECT_EQ(out["data"]["image/png"].get<std::string>(),
            akm::base64(slurp(results / "T2" / "decay.png")));
  // Same results → byte-identical notebooks (they are committed).
  const std::string before = slurp(files[0]);
  akm::export_notebooks(results, root_ / "notebooks_export");
  EXPECT_EQ(slurp(files[0]), before);
}

TEST_F(NotebookTest, RefusesFoldersWithoutResultsBeforeWriting) {
  fs::create_directories(root_ / "empty");
  EXPECT_THROW(akm::export_notebooks(root_ / "empty", root_ / "nb"), akm::InputError);
  EXPECT_THROW(akm::export_notebooks(root_ / "missing", root_ / "nb"), akm::InputError);
  EXPECT_FALSE(fs::exists(root_ / "nb"));
}

TEST(NotebookDir, DefaultIsNextToTheResultsFolder) {
  EXPECT_EQ(akm::default_notebook_dir("/x/results"), fs::path("/x/notebooks_export"));
  EXPECT_EQ(akm::default_notebook_dir("/x/results/"), fs::path("/x/notebooks_export"));
}

}  // namespace
