// mlp_coord/backends — the op's two paths (reference.cpp, shared_work.cpp) and what both
// record with (observe.cpp): a step's RMS values, step 1's key-norm quantities, and the seed's
// reduction to width slopes and paired differences. Private to this folder.
#pragma once
#include <cstdint>
#include <vector>

#include "akm/problems/mlp.hpp"
#include "akm/problems/train.hpp"
#include "akm/sim/ops/mlp_coord.hpp"

namespace akm::ops::detail {

/// The training of an arm (its optimizer and rates, the setup's β, η, β₂ and auxiliary rate).
TrainConfig train_config(const MlpCoordSetup& s, const MlpCoordArm& arm);
/// The μP MLP of width index w for seed `seed` under root `root`: d_in → n → n → 1, depth 3.
Mlp initial_net(const MlpCoord& op, int w, std::uint64_t root, long long seed);

/// After step t of arm a at width w: per layer l the RMS of the probe's pre-activations under
/// the new weights (after.Z[l]) and of the update's effect on the probe's inputs before the
/// step, before.X[l]·(W[l] − W0[l])ᵀ.
void record_step(const MlpCoordLayout& lay, int a, int w, int t, const MlpCache& before, const MlpCache& after,
                 const std::vector<Mat>& W0, const std::vector<Mat>& W, double* out);
/// Step 1's hidden-layer keys and errors (the batch cache of the step) at width w: m̄, RMS(R),
/// median |R| (mlp_coord.hpp).
void record_step1(const MlpCoordLayout& lay, int w, const MlpCache& batch, double* out);
/// The seed's width slopes, window slopes, step-1 log excess and paired differences, from the
/// recorded values.
void reduce_seed(const MlpCoord& op, const MlpCoordLayout& lay, double* out);

/// reference.cpp: every (arm, width) from scratch, as the header defines it.
void mlp_coord_reference(const MlpCoord& op, std::uint64_t seed, long long first, long long count, int threads,
                         double* rows);
/// shared_work.cpp: the cpu backend's path, the same arithmetic with the work the arms share
/// done once (at the library's ISA: it runs the library's Mlp and Trainer, Eigen code).
void mlp_coord_shared(const MlpCoord& op, std::uint64_t seed, long long first, long long count, int threads,
                      double* rows);

}  // namespace akm::ops::detail
