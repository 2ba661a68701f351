// T14 cost — what claim.cpp and text_counts.cpp share: the paper's three architectures.
#pragma once
#include <vector>

#include "common.hpp"

namespace akm::exp::t14 {

/// One of the paper's models: width d, FFN width d_ffn, and its reported per-step overhead.
struct Arch {
  const char* name;
  double d, d_ffn, reported;
};
inline const std::vector<Arch> kArchs{{"67M", 384, 1024, 0.112}, {"370M", 1024, 2752, 0.174}, {"1B", 1792, 4785, 0.203}};

/// The counts behind three sentences of the cost text (text_counts.cpp), at the step's N tokens.
void text_counts(ExperimentContext& ctx, const std::vector<Arch>& archs, double N);

}  // namespace akm::exp::t14
