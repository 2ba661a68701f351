// cuda_emulated — the CUDA backend's per-trial code run on the host (docs/cuda.md).
//
// Each function runs the very trial body its kernel runs (src/sim/ops/<op>/trial.hpp,
// compiled here by the host compiler), over the kernel's grid (akm/sim/cuda_grid.hpp) and
// seeds, in float where the kernel is float, with the kernel's reduction order, and
// gathers the same observables. W4 replays the launcher's cuBLAS calls on a host GEMM. What
// differs from a device run: the device's log/sin/cos (a few ulps) and, for W4, cuBLAS's
// summation order. Same sizes refused as the device launchers; no device needed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "akm/sim/phase_measure.hpp"
#include "akm/sim/workloads.hpp"

namespace akm::cuda::emulated {

/// cuda::w1 on the host: the kernel's trial body over its grid; `threads` host threads run
/// the blocks.
wl::Observations w1(const wl::W1& w, std::uint64_t seed, int threads);
/// cuda::w2 on the host: one host thread stands for each block, its lanes run in order
/// between the barriers, the block sums in the device's order; `threads` host threads.
wl::Observations w2(const wl::W2& w, std::uint64_t seed, int threads);
/// cuda::w3 on the host: the kernel's row body over its grid; `threads` host threads.
wl::Observations w3(const wl::W3& w, std::uint64_t seed, int threads);
/// cuda::w4 on the host: the launcher's cuBLAS calls replayed on host vectors, a float GEMM
/// with its sums in k order.
wl::W4Result w4(const wl::W4& w, const Mat& M0, const Mat& Delta, const Mat& Xhat);
/// cuda::fit on the host: the kernel's trial body over the kernel's batches and grids;
/// `threads` host threads. `batch_bytes`: the device memory one batch of trials may fill
/// (the launcher's is 1 GiB); smaller values only split the trials into more batches.
wl::Observations fit(const wl::Fit& w, std::uint64_t seed, int threads,
                     std::size_t batch_bytes = std::size_t(1) << 24);
/// cuda::phase_trials on the host: the kernel's trial body over the kernel's grids,
/// point-major (p·trials + r); o.threads host threads.
std::vector<phase::TrialResult> phase_trials(const std::vector<double>& lam_sqrt,
                                             const phase::MeasureOptions& o,
                                             const std::vector<phase::PointPlan>& points);

}  // namespace akm::cuda::emulated
