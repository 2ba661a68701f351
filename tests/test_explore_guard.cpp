// akm explore's guard (app/explore_guard): every request passes host, origin, method and
// size checks before any work, and a `data:` spectrum opens only the allowed files. The same
// rules are probed against the running server by tests/explore_security.py.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "akm/base/errors.hpp"
#include "akm/app/explore_api.hpp"
#include "akm/app/explore_guard.hpp"

namespace {

namespace ex = akm::explore;
namespace fs = std::filesystem;

constexpr int kPort = 8765;

ex::Request get(const std::string& path, ex::Query q = {}) {
  ex::Request r;
  r.method = "GET";
  r.path = path;
  r.target = path;
  r.query = std::move(q);
  r.host = "127.0.0.1:8765";
  return r;
}

int status(const ex::Request& r) {
  const auto a = ex::refuse(r, kPort);
  return a ? a->status : 0;
}

TEST(ExploreGuard, OnlyLoopbackHostsAtTheServersPort) {
  for (const std::string h : {"127.0.0.1:8765", "localhost:8765", "[::1]:8765"}) {
    auto r = get("/");
    r.host = h;
    EXPECT_EQ(status(r), 0) << h;
  }
  for (const std::string h : {"evil.example:8765", "127.0.0.1", "localhost:8766", "127.0.0.1.nip.io:8765", "",
                              "LOCALHOST:8765x", "127.0.0.1:8765@evil"}) {
    auto r = get("/");
    r.host = h;
    EXPECT_EQ(status(r), 403) << h;
  }
}

TEST(ExploreGuard, CrossSiteBrowserRequestsAreRefused) {
  auto r = get("/api/theory");
  r.fetch_site = "cross-site";
  EXPECT_EQ(status(r), 403);
  r.fetch_site = "same-site";  // another port or subdomain of the same site is still foreign
  EXPECT_EQ(status(r), 403);
  r.fetch_site = "same-origin";
  EXPECT_EQ(status(r), 0);
  r.fetch_site = "none";  // typed into the address bar
  EXPECT_EQ(status(r), 0);
}

TEST(ExploreGuard, StateChangesArePostFromTheOwnOriginOnly) {
  for (const std::string path : {"/api/measure", "/api/cancel"}) {
    auto r = get(path);
    EXPECT_EQ(status(r), 405) << path;
    r.method = "POST";
    EXPECT_EQ(status(r), 0) << path;  // no Origin: not a browser's cross-site request
    r.origin = "http://127.0.0.1:8765";
    EXPECT_EQ(status(r), 0) << path;
    for (const std::string o : {"http://evil.example", "null", "https://127.0.0.1:8765", "http://localhost:8765"}) {
      r.origin = o;
      EXPECT_EQ(status(r), 403) << path << " " << o;
    }
  }
  auto r = get("/api/phase");
  r.method = "POST";
  EXPECT_EQ(status(r), 405);
  r.method = "DELETE";
  EXPECT_EQ(status(r), 405);
}

TEST(ExploreGuard, SizesAndBytesAreBounded) {
  auto r = get("/api/theory");
  r.target = std::string(ex::kMaxTarget + 1, 'a');
  EXPECT_EQ(status(r), 414);
  r = get("/api/theory", {{"spectrum", std::string(ex::kMaxValue + 1, '9')}});
  const auto a = ex::refuse(r, kPort);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->status, 400);
  EXPECT_LT(a->body.size(), 400u);  // the value is quoted truncated
  ex::Query many;
  for (std::size_t i = 0; i <= ex::kMaxParameters; ++i) many["p" + std::to_string(i)] = "1";
  EXPECT_EQ(status(get("/api/theory", many)), 400);
  EXPECT_EQ(status(get("/api/theory", {{"spectrum", std::string("data:a\0b", 8)}})), 400);
  EXPECT_EQ(status(get("/api/theory", {{"spectrum", "iso:n=4\n"}})), 400);
  r = get("/api/theory");
  r.duplicate = true;
  r.duplicate_name = "beta";
  EXPECT_EQ(status(r), 400);
}

TEST(ExploreGuard, QuotedIsTruncatedAndEscaped) {
  EXPECT_EQ(ex::quoted("beta"), "beta");
  EXPECT_EQ(ex::quoted(std::string("a\0b\n\\", 5)), "a\\x00b\\x0a\\x5c");
  const std::string q = ex::quoted(std::string(1000, 'x'));
  EXPECT_EQ(q.rfind(std::string(ex::kQuoted, 'x'), 0), 0u);
  EXPECT_NE(q.find("(1000 bytes)"), std::string::npos);
  EXPECT_EQ(ex::quoted("\xff\xfe"), "\\xff\\xfe");
}

class DataDir : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("akm-guard-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "data" / "sub");
    std::ofstream(root_ / "secret.csv") << "hidden-cell,1\n2,3\n";
    // No row equal to the column means: a centred zero row has no normalized key.
    std::ofstream(root_ / "data" / "good.csv") << "1,2\n2,1\n0,4\n";
    std::ofstream(root_ / "data" / "sub" / "more.csv") << "1,2\n2,1\n0,3\n";
    std::ofstream(root_ / "data" / "words.csv") << "hidden-inside,1\n2,3\n";
    fs::create_symlink(root_ / "secret.csv", root_ / "data" / "link.csv");
    fs::create_symlink(root_ / "data" / "good.csv", root_ / "data" / "inner-link.csv");
    dir_ = ex::canonical_data_dir((root_ / "data").string());
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
  std::string dir_;
};

TEST_F(DataDir, SpectraThatNameNoFileAreUnchanged) {
  EXPECT_EQ(ex::confine_spectrum("iso:n=4", ""), "iso:n=4");
  EXPECT_EQ(ex::confine_spectrum("spiked:n=8,spikes=3,floor=1", dir_), "spiked:n=8,spikes=3,floor=1");
}

TEST_F(DataDir, BuiltinsAreAllowedWithoutADataDir) {
  EXPECT_EQ(ex::confine_spectrum("data:digits", ""), "data:digits");
  EXPECT_EQ(ex::confine_spectrum("data:iris,standardize", ""), "data:iris,standardize");
}

TEST_F(DataDir, FilesAreRefusedWithoutADataDir) {
  for (const std::string& s : std::vector<std::string>{"data:good.csv", "data:/etc/passwd", "data:" + (root_ / "data" / "good.csv").string()})
    EXPECT_THROW(ex::confine_spectrum(s, ""), akm::InputError) << s;
}

TEST_F(DataDir, FilesInsideTheDataDirResolveToTheirCanonicalPath) {
  const std::string good = (fs::path(dir_) / "good.csv").string();
  EXPECT_EQ(ex::confine_spectrum("data:good.csv", dir_), "data:" + good);
  EXPECT_EQ(ex::confine_spectrum("data:" + good + ",standardize", dir_), "data:" + good + ",standardize");
  EXPECT_EQ(ex::confine_spectrum("data:sub/../good.csv", dir_), "data:" + good);
  EXPECT_EQ(ex::confine_spectrum("data:inner-link.csv", dir_), "data:" + good);  // a link that stays inside
  EXPECT_EQ(ex::confine_spectrum("data:sub/more.csv,header", dir_),
            "data:" + (fs::path(dir_) / "sub" / "more.csv").string() + ",header");
}

TEST_F(DataDir, PathsThatLeaveTheDataDirAreRefused) {
  for (const std::string& s : std::vector<std::string>{"data:../secret.csv", "data:link.csv", "data:sub/../../secret.csv", "data:/etc/passwd",
                              "data:" + (root_ / "secret.csv").string(), "data:.", "data:sub", "data:missing.csv",
                              "data:../data/../secret.csv", "data:", "data:good.csv,bogus"}) {
    try {
      ex::confine_spectrum(s, dir_);
      ADD_FAILURE() << s << " was allowed";
    } catch (const akm::InputError& e) {
      EXPECT_EQ(e.param(), "spectrum") << s;
    }
  }
}

TEST_F(DataDir, RefusalsNeverQuoteTheFilesBytes) {
  ex::Settings settings;
  settings.data_dir = dir_;
  for (const std::string s : {"data:words.csv", "data:link.csv", "data:../secret.csv"}) {
    for (const std::string route : {"/api/theory", "/api/phase"}) {
      ex::Query q{{"beta", "0.9"}, {"eta", "0.5"}, {"spectrum", s}};
      if (route == "/api/phase") q = {{"x", "eta:0.1:1:4"}, {"y", "beta:0:0.9:4"}, {"metric", "rho_ratio"}, {"spectrum", s}};
      const auto r = ex::handle(route, q, settings);
      EXPECT_EQ(r.status, 400) << s << " " << r.body;
      EXPECT_EQ(r.body.find("hidden"), std::string::npos) << r.body;
      EXPECT_EQ(nlohmann::json::parse(r.body)["parameter"], "spectrum");
    }
  }
  const auto ok = ex::handle("/api/theory", {{"beta", "0.9"}, {"eta", "0.5"}, {"spectrum", "data:good.csv"}}, settings);
  EXPECT_EQ(ok.status, 200) << ok.body;
}

TEST(ExploreGuard, DataDirMustBeADirectory) {
  EXPECT_THROW(ex::canonical_data_dir("/nonexistent/akm"), akm::InputError);
  EXPECT_THROW(ex::canonical_data_dir("/etc/passwd"), akm::InputError);
  EXPECT_EQ(ex::canonical_data_dir("/tmp/../tmp"), fs::canonical("/tmp").string());
}

}  // namespace
