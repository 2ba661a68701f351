// The claims that measure through Python (experiments/python_module.hpp, T22): a machine that
// cannot run the measurement is refused with what to install, and leaves no result behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "test_util.hpp"

namespace akm_test_python_measurement {
namespace fs = std::filesystem;

fs::path fresh(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("akm_python_measurement_" + name);
  fs::remove_all(d);
  return d;
}

TEST(PythonMeasurement, NoInterpreterIsRefusedWithWhatToInstallAndNoResult) {
  const fs::path out = fresh("none");
  const auto r = akm_test::run_cli_env("AKM_PYTHON=/nonexistent/python3", "run T22 --quick --out " + out.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("AKM_PYTHON = '/nonexistent/python3' is invalid"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("python3-torch"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out / "T22")) << "a refused claim left a result";
  fs::remove_all(out);
}

TEST(PythonMeasurement, AnInterpreterThatCannotImportTheModuleIsRefused) {
  // A shell script stands in for an interpreter without PyTorch: it prints Python's own error.
  const fs::path out = fresh("noimport");
  fs::create_directories(out);
  const fs::path fake = out / "python";
  std::ofstream(fake) << "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'torch'\" >&2\nexit 1\n";
  fs::permissions(fake, fs::perms::owner_all);
  const auto r = akm_test::run_cli_env("AKM_PYTHON=" + fake.string(), "run T22 --quick --out " + (out / "res").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("No module named 'torch'"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out / "res" / "T22"));
  fs::remove_all(out);
}

TEST(PythonMeasurement, AMeasurementThatPrintsNoJsonIsAnErrorNotAResult) {
  const fs::path out = fresh("nojson");
  const auto r = akm_test::run_cli_env("AKM_PYTHON=/bin/true", "run T22 --quick --out " + out.string());
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("printed no JSON line"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out / "T22"));
  fs::remove_all(out);
}

}  // namespace akm_test_python_measurement
