// Classification on a labelled data set (akm/problems/classify.hpp), R2's problem: labels
// read from the last column, a disjoint seeded split, accuracy, refusals, and a training run
// that learns the digits far above chance and is the same for a seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "akm/base/errors.hpp"
#include "akm/problems/classify.hpp"
#include "akm/spectrum/data_keys.hpp"

namespace {

namespace fs = std::filesystem;
using namespace akm;

std::string write_tmp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::path(AKM_TEST_TMP) / "classify";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

bool have_digits() { return fs::exists(fs::path(sklearn_data_dir()) / "digits.csv.gz"); }

std::string error_of(const std::string& spec) {
  try {
    load_labelled(spec);
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

TEST(Classify, LabelsFromTheLastColumnAndScaling) {
  const auto p = write_tmp("three.csv", "0,2,0\n4,0,1\n-1,1,2\n3,3,1\n");
  const LabelledData d = load_labelled("data:" + p);
  EXPECT_EQ(d.rows(), 4);
  EXPECT_EQ(d.classes, 3);
  EXPECT_EQ(d.y, (std::vector<int>{0, 1, 2, 1}));
  EXPECT_EQ(d.X.cols(), 2);
  EXPECT_DOUBLE_EQ(d.X(1, 0), 1.0);  // divided by the largest |entry|, 4
  EXPECT_DOUBLE_EQ(d.X(2, 0), -0.25);
  const LabelledData s = load_labelled("data:" + p + ",standardize");
  EXPECT_NEAR(s.X.col(0).mean(), 0.0, 1e-12);
  EXPECT_NEAR(s.X.col(0).squaredNorm() / 4, 1.0, 1e-12);
}

TEST(Classify, RefusesBadLabelsAndSpecs) {
  EXPECT_NE(error_of("data:" + write_tmp("frac.csv", "1,0.5\n2,1\n")).find("integer class label"), std::string::npos);
  EXPECT_NE(error_of("data:" + write_tmp("neg.csv", "1,-1\n2,1\n")).find("integer class label"), std::string::npos);
  EXPECT_NE(error_of("data:" + write_tmp("one.csv", "1,0\n2,0\n")).find("two classes"), std::string::npos);
  EXPECT_NE(error_of("data:" + write_tmp("narrow.csv", "1\n0\n")).find("label column"), std::string::npos);
  EXPECT_NE(error_of("gauss:n=3").find("data"), std::string::npos);
  EXPECT_NE(error_of("data:/no/such/file.csv").find("/no/such/file.csv"), std::string::npos);
}

TEST(Classify, SplitIsADisjointSeededPartition) {
  std::string text;
  for (int i = 0; i < 50; ++i) text += std::to_string(i) + "," + std::to_string(i % 2) + "\n";
  const LabelledData d = load_labelled("data:" + write_tmp("fifty.csv", text));
  const DataSplit s = split_data(d, 0.2, 0.3, 7);
  EXPECT_EQ(s.validation.rows(), 10);
  EXPECT_EQ(s.test.rows(), 15);
  EXPECT_EQ(s.train.rows(), 25);
  std::set<double> seen;
  for (const auto* part : {&s.train, &s.validation, &s.test})
    for (Eigen::Index i = 0; i < part->X.rows(); ++i) {
      EXPECT_TRUE(seen.insert(part->X(i, 0)).second) << "row in two parts";
      EXPECT_EQ(part->y[static_cast<std::size_t>(i)], static_cast<int>(std::lround(part->X(i, 0) * 49)) % 2);
    }
  EXPECT_EQ(seen.size(), 50u);
  EXPECT_EQ(split_data(d, 0.2, 0.3, 7).test.X, s.test.X);
  EXPECT_NE(split_data(d, 0.2, 0.3, 8).test.X, s.test.X);
  EXPECT_THROW(split_data(d, 0.0, 0.3, 7), InputError);
  EXPECT_THROW(split_data(d, 0.6, 0.4, 7), InputError);
}

TEST(Classify, AccuracyAndOneHot) {
  Mat Y(3, 3);
  Y << 0, 2, 1, 5, 0, 0, 0, 0, 1;
  EXPECT_DOUBLE_EQ(accuracy(Y, {1, 0, 0}), 2.0 / 3);
  const Mat T = one_hot({2, 0}, 3);
  EXPECT_EQ(T.sum(), 2.0);
  EXPECT_EQ(T(0, 2), 1.0);
  EXPECT_EQ(T(1, 0), 1.0);
}

TEST(Classify, AkSgdAndSgdLearnTheDigits) {
  if (!have_digits()) GTEST_SKIP() << "python3-sklearn's digits.csv.gz not installed at " << sklearn_data_dir();
  const LabelledData d = load_labelled("data:digits");
  ASSERT_EQ(d.rows(), 1797);
  ASSERT_EQ(d.classes, 10);
  ASSERT_EQ(d.X.cols(), 64);
  EXPECT_DOUBLE_EQ(d.X.maxCoeff(), 1.0);  // pixels 0…16 scaled to 0…1
  const DataSplit s = split_data(d, 0.2, 0.2, 3);
  for (const std::string opt : {"sgd-m", "ak-sgd"}) {
    TrainConfig c;
    c.optimizer = opt;
    c.lr = opt == "sgd-m" ? 0.3 : 1.3;
    c.beta = 0.9;
    c.eta = 0.5;
    c.batch = 32;
    c.eval_every = 11;
    c.seed = 5;
    Mlp net({64, 32, 3, 10}, 32, 9), again({64, 32, 3, 10}, 32, 9);
    const ClassifyResult r = train_classifier(net, s, c, 3);
    EXPECT_FALSE(r.diverged) << opt;
    EXPECT_GT(r.test_accuracy, 0.5) << opt << ": chance is 0.1";
    EXPECT_LT(r.val_loss.back(), r.val_loss.front()) << opt;
    EXPECT_EQ(r.eval_steps.back(), 3 * (s.train.rows() / 32));
    const ClassifyResult r2 = train_classifier(again, s, c, 3);
    EXPECT_EQ(r2.val_loss, r.val_loss) << opt << ": same seed, same numbers";
    EXPECT_EQ(r2.test_accuracy, r.test_accuracy);
  }
}

TEST(Classify, RefusesMismatchedNetworkAndBatch) {
  std::string text;
  for (int i = 0; i < 20; ++i) text += std::to_string(i) + "," + std::to_string(i % 3) + "\n";
  const DataSplit s = split_data(load_labelled("data:" + write_tmp("twenty.csv", text)), 0.25, 0.25, 1);
  TrainConfig c;
  c.optimizer = "sgd-m";
  Mlp wrong({2, 4, 2, 3}, 4, 1);
  EXPECT_THROW(train_classifier(wrong, s, c, 1), InputError);
  Mlp net({1, 4, 2, 3}, 4, 1);
  c.batch = 64;
  EXPECT_THROW(train_classifier(net, s, c, 1), InputError);
  c.batch = 4;
  EXPECT_THROW(train_classifier(net, s, c, 0), InputError);
}

}  // namespace
