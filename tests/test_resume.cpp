// --resume: an experiment whose summary.json carries the current hash (code version, ID,
// seed, --quick, --false-alarm) is kept untouched; any other is rerun.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

struct ResumeRun {
  int code = -1;
  std::string out;
};

ResumeRun run_akm(const std::string& args) {
  FILE* p = popen((std::string(AKM_CLI_PATH) + " " + args + " 2>&1").c_str(), "r");
  ResumeRun r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) r.out += buf.data();
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

ino_t inode(const fs::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST(Resume, KeepsMatchingResultsAndRerunsTheRest) {
  const fs::path root = fs::path(AKM_TEST_TMP) / "resume";
  fs::remove_all(root);
  const std::string base = "run T12 T3 --quick --quiet --seed 5 --out " + root.string();
  ASSERT_EQ(run_akm(base).code, 0);
  const auto t12 = root / "T12" / "summary.json", t3 = root / "T3" / "summary.json";
  const auto hash = read_json(t12)["hash"];
  ASSERT_TRUE(hash.is_string());
  EXPECT_EQ(hash.get<std::string>().size(), 16u);

  // T3's result is from "another version": only it is rerun; T12's folder is untouched.
  auto j3 = read_json(t3);
  j3["hash"] = "0000000000000000";
  std::ofstream(t3) << j3.dump(2);
  const ino_t t12_inode = inode(t12);
  auto r = run_akm(base + " --resume");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("T12  PASS  kept"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("T3   PASS  kept"), std::string::npos) << r.out;
  EXPECT_EQ(inode(t12), t12_inode);
  EXPECT_NE(read_json(t3)["hash"].get<std::string>(), "0000000000000000");

  // Everything matches now: nothing is rerun.
  r = run_akm(base + " --resume");
  EXPECT_NE(r.out.find("T12  PASS  kept"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("T3   PASS  kept"), std::string::npos) << r.out;

  // Another seed, false-alarm rate, trials scale or mode changes the hash: rerun.
  for (const std::string change : {" --seed 6", " --false-alarm 1e-5", " --trials-scale 2"}) {
    const std::string args = "run T12 --quick --quiet --out " + root.string() +
                             (change == " --seed 6" ? change : " --seed 5" + change);
    const ino_t before = inode(t12);
    r = run_akm(args + " --resume");
    EXPECT_EQ(r.out.find("kept"), std::string::npos) << change << "\n" << r.out;
    EXPECT_NE(inode(t12), before) << change;
  }
  r = run_akm("run T12 --quiet --seed 5 --out " + root.string() + " --resume");  // not --quick
  EXPECT_EQ(r.out.find("kept"), std::string::npos) << r.out;
  fs::remove_all(root);
}
