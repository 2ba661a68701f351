// figure_styles — the gnuplot line styles the experiments' figures share, so a figure recipe
// names its colours and pairings instead of spelling `set linetype` lines by hand.
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace akm {

/// ColorBrewer Dark2: the palette of paired (measured, predicted) series.
inline constexpr std::array<const char*, 6> kDark2{"#1b9e77", "#d95f02", "#7570b3",
                                                   "#e7298a", "#66a61e", "#a6761d"};

/// (dark, light) shades of one hue: a buffer drawn dark, its EMA baseline light.
inline constexpr std::array<std::pair<const char*, const char*>, 3> kShadePairs{
    {{"#1f4e9c", "#7fa6e0"}, {"#b22222", "#f08c8c"}, {"#1d7a2e", "#86cf8f"}}};

/// "set linetype \<lt\> lc rgb '\<colour\>'", then " dt \<dt\>" when dt > 0: the style of plot
/// item lt (gnuplot numbers plot items from 1).
std::string linetype(int lt, std::string_view colour, int dt = 0);

/// Pair k (k = 0..pairs−1) of measured and predicted series shares Dark2 colour k mod 6:
/// linetypes 2k+1 and 2k+2.
std::vector<std::string> paired_linetypes(int pairs);

}  // namespace akm
