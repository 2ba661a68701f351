// seed — independent seeds for the parts of a run, derived from the run's one seed and a tag.
#pragma once
#include <cstdint>
#include <string>

namespace akm {

/// Independent seed for one part of a run (splitmix64 of seed ⊕ the FNV-1a hash of tag), so
/// parts never share streams and a run is fixed by (seed, tag).
inline std::uint64_t derive_seed(std::uint64_t seed, const std::string& tag) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a of the tag
  for (unsigned char c : tag) h = (h ^ c) * 1099511628211ULL;
  std::uint64_t z = seed + h + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace akm
