// classify — classification of a labelled real data set by an Mlp with softmax
// cross-entropy: the small-scale stand-in for the paper's CIFAR-10 image MLP
// [app:cifar-10] (R2). Epochs over a shuffled training set in minibatches, validation loss
// and accuracy along the way, test loss and accuracy at the end.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "akm/base/linalg.hpp"
#include "akm/problems/mlp.hpp"
#include "akm/problems/train.hpp"

namespace akm {

/// Rows with an integer class label 0 … classes−1.
struct LabelledData {
  Mat X;  ///< features, one row per sample
  std::vector<int> y;  ///< class labels 0 … classes−1
  int classes = 0;  ///< number of classes
  std::string source;  ///< the spec it was read from
  /// Number of rows.
  int rows() const { return static_cast<int>(X.rows()); }
};

/// Reads a `data:` spec (akm/spectrum/data_keys.hpp) keeping its last column as the class
/// label: a built-in with labels (digits, breast_cancer, wine, iris) or a CSV whose last
/// column holds integers 0 … K−1. Features are divided by the table's largest absolute
/// entry (digits: pixels 0…16 → 0…1; one fixed map, so no per-split statistic is formed);
/// with `,standardize` each column is centred and scaled to unit variance over all rows
/// instead (for tables in mixed units). InputError naming "data" for an absent file, a
/// non-integer or negative label, fewer than two classes.
LabelledData load_labelled(const std::string& spec);

/// A seeded random partition into train / validation / test (fractions of the rows;
/// test and validation rounded down, train the rest).
struct DataSplit {
  LabelledData train;  ///< training rows
  LabelledData validation;  ///< validation rows
  LabelledData test;  ///< test rows
};
/// Splits d at random from `seed`.
DataSplit split_data(const LabelledData& d, double validation_fraction, double test_fraction,
                     std::uint64_t seed);

/// One-hot targets (N × classes).
Mat one_hot(const std::vector<int>& y, int classes);
/// Fraction of rows whose largest logit is the label (ties: the lowest index).
double accuracy(ConstMatRef logits, const std::vector<int>& y);

/// The validation curve and the test result of train_classifier().
struct ClassifyResult {
  std::vector<int> eval_steps;  ///< steps at which validation ran
  std::vector<double> val_loss;  ///< validation loss at eval_steps
  std::vector<double> val_accuracy;  ///< validation accuracy at eval_steps
  double test_loss = 0;  ///< test loss at the end
  double test_accuracy = 0;  ///< test accuracy at the end
  bool diverged = false;  ///< loss non-finite or above 1e3 × its initial value
  /// First eval step with validation accuracy ≥ a (−1 if never).
  int steps_to_accuracy(double a) const;
  /// First eval step with validation loss ≤ l (−1 if never).
  int steps_to_loss(double l) const;
};

/// Trains `net` (d_in = features, d_out = classes) for `epochs` passes over the training
/// rows, in minibatches of cfg.batch drawn without replacement in an order shuffled each
/// epoch from cfg.seed (a last partial batch is dropped); validation every cfg.eval_every
/// steps and at the end. cfg.steps is ignored (the epochs set the length).
ClassifyResult train_classifier(Mlp& net, const DataSplit& data, const TrainConfig& cfg, int epochs);

}  // namespace akm
