// key_law_moments — the moments of a key law's normalized key, by simulation where no closed
// form exists (Student-t), from akm/spectrum/keys.hpp's exact_key_moments elsewhere.
#pragma once
#include <cstdint>

#include "akm/spectrum/keys.hpp"

namespace akm {

/// Exact moments where they exist (gaussian, rademacher, mixture), else key_moments_mc.
KeyLawMoments key_law_moments(const KeySampler& law, long long mc_samples, std::uint64_t seed,
                              int threads = 0, bool with_fourth = false);

/// Monte-Carlo moments: `samples` keys (rounded up to whole batches of kKeyBatch) from
/// Stream(seed, batch, Purpose::keys); standard errors from the spread of batch means. Only
/// the diagonal is estimated (off-diagonal entries 0, se 0) when law.diagonal().
/// Runs on the deterministic Monte-Carlo engine: identical for any thread count.
/// `with_fourth` also estimates Q (diagonal laws only; std::logic_error otherwise).
KeyLawMoments key_moments_mc(const KeySampler& law, long long samples, std::uint64_t seed,
                             int threads = 0, bool with_fourth = false);
/// Plain sequential reference of key_moments_mc (same samples, two-pass statistics).
KeyLawMoments key_moments_mc_reference(const KeySampler& law, long long samples,
                                       std::uint64_t seed, bool with_fourth = false);
}  // namespace akm
