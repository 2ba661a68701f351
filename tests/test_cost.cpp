// Operation counts of the deployed rule [app:flops-memory], by hand for small shapes.
#include <gtest/gtest.h>

#include "akm/rules/cost.hpp"

namespace {
using namespace akm;

TEST(Cost, BlockCountByHand) {
  // d = 2, d_ffn = 4 (γ = 2), N = 10. Gram: QKV shared 2·4·10 = 80 + 3·(2·2·4) = 48;
  // O 80 + 16; up/gate shared 80 + 2·(2·4·4) = 64; down (n = 4 = 2m) through-N 4·2·4·10 = 320.
  const auto b = cost::count_block(cost::transformer_block(2, 4), 10);
  EXPECT_DOUBLE_EQ(b.correction, 80 + 48 + 80 + 16 + 80 + 64 + 320);
  // Normalization: inputs of dimension 2, 2, 2, 4: 10·(3·2+2)·3 + 10·(3·4+2).
  EXPECT_DOUBLE_EQ(b.normalization, 240 + 140);
  EXPECT_DOUBLE_EQ(b.baseline_linear, 6 * 10 * (4 * 4 + 3 * 8));
}

TEST(Cost, TransientBytes) {
  EXPECT_DOUBLE_EQ(cost::transient_bytes(3, 5, 7, rules::Order::through_n, false), 4 * 7 * 5 + 4 * 3 * 7 + 4 * 7);
  EXPECT_DOUBLE_EQ(cost::transient_bytes(3, 5, 7, rules::Order::gram, false), 4 * 7 * 5 + 4 * 25 + 4 * 7);
  EXPECT_DOUBLE_EQ(cost::transient_bytes(3, 5, 7, rules::Order::gram, true), 4 * 25 + 4 * 7);
}

TEST(Cost, StepModelParts) {
  const auto s = cost::step_model(2, 4, 8, 10, 6, 3);
  EXPECT_DOUBLE_EQ(s.baseline_attention, 2 * 12 * 4 * 6 * 3);
  EXPECT_DOUBLE_EQ(s.baseline_head, 6 * 4 * 10 * 3);
  EXPECT_GT(s.ratio(), 0.0);
}
}  // namespace
