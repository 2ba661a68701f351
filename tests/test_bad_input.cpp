// Bad input, data-driven (tests/bad_input.tsv): every row is an akm command line that must
// be refused with its exit code (2) and a message naming the parameter, the value and the
// valid range — before any work, so nothing at all is written.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Row {
  int line = 0;
  std::string args;
  int exit_code = 2;
  std::vector<std::string> expected;
};

std::vector<std::string> split_tabs(const std::string& s) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == '\t') out.emplace_back();
    else if (c != '\r') out.back() += c;
  }
  return out;
}

std::vector<Row> load_rows() {
  std::ifstream in(std::string(AKM_TESTS_DIR) + "/bad_input.tsv");
  std::vector<Row> rows;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    const auto cols = split_tabs(line);
    Row r;
    r.line = n;
    r.args = cols[0];
    r.exit_code = cols.size() > 1 ? std::stoi(cols[1]) : -1;
    for (std::size_t i = 2; i < cols.size(); ++i)
      if (!cols[i].empty()) r.expected.push_back(cols[i]);
    rows.push_back(r);
  }
  return rows;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (auto pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
  return s;
}

struct Result {
  int code = -1;
  std::string out;
};

Result run_in(const fs::path& cwd, const std::string& args) {
  const std::string cmd =
      "cd '" + cwd.string() + "' && " + std::string(AKM_CLI_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  Result r;
  if (!p) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) r.out += buf.data();
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class BadInputTable : public ::testing::TestWithParam<Row> {};

TEST_P(BadInputTable, RefusedWithExitCodeMessageAndNoFiles) {
  const Row& row = GetParam();
  ASSERT_GE(row.exit_code, 0) << "line " << row.line << ": no exit code column";
  ASSERT_FALSE(row.expected.empty()) << "line " << row.line << ": no expected substring";
  const fs::path base = fs::path(AKM_TEST_TMP) / ("bad-input-" + std::to_string(row.line));
  fs::remove_all(base);
  const fs::path cwd = base / "cwd", out = base / "out";
  fs::create_directories(cwd);
  const auto r = run_in(cwd, replace_all(row.args, "{out}", out.string()));
  EXPECT_EQ(r.code, row.exit_code) << "line " << row.line << ": akm " << row.args << "\n" << r.out;
  for (const auto& want : row.expected)
    EXPECT_NE(r.out.find(want), std::string::npos)
        << "line " << row.line << ": message lacks '" << want << "':\n" << r.out;
  EXPECT_FALSE(fs::exists(out)) << "line " << row.line << ": --out folder was created";
  EXPECT_TRUE(fs::is_empty(cwd)) << "line " << row.line << ": files written in the working folder";
  fs::remove_all(base);
}

TEST(BadInputTable, HasAtLeastFortyRowsCoveringEveryCommand) {
  const auto rows = load_rows();
  EXPECT_GE(rows.size(), 40u);
  for (const std::string cmd : {"list", "run", "reproduce", "theory", "--spectrum"}) {
    bool seen = false;
    for (const auto& r : rows) seen = seen || r.args.find(cmd) != std::string::npos;
    EXPECT_TRUE(seen) << cmd;
  }
}

INSTANTIATE_TEST_SUITE_P(Rows, BadInputTable, ::testing::ValuesIn(load_rows()),
                         [](const ::testing::TestParamInfo<Row>& info) {
                           return "line" + std::to_string(info.param.line);
                         });

}  // namespace
