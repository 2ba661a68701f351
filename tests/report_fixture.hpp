// What the report tests share (test_report.cpp, test_report_index.cpp): a fresh folder per
// test (ReportTest), a stand-in for Debian's KaTeX install, and small file helpers. Named, not
// anonymous: the one-executable build links both files, and gtest needs one fixture class.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace akm_test::report {

namespace fs = std::filesystem;

inline void spit(const fs::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary);
  out << s;
}

inline std::size_t count_of(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, pos + 1))
    ++n;
  return n;
}

inline bool has_hidden_entry(const fs::path& dir, const std::string& prefix) {
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

// A folder standing in for Debian's KaTeX install (the files copy_katex copies), beside root.
inline fs::path katex_fixture(const fs::path& root) {
  const fs::path kx = root.parent_path() / (root.filename().string() + "-katex");
  fs::create_directories(kx / "contrib");
  fs::create_directories(kx / "fonts");
  for (const char* f : {"katex.min.js", "katex.min.css", "contrib/auto-render.js", "fonts/KaTeX_Main-Regular.woff2"})
    spit(kx / f, "/* test fixture standing in for a KaTeX file */");
  return kx;
}

}  // namespace akm_test::report
