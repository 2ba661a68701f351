// report/katex — the offline copy of KaTeX beside the report (Debian's libjs-katex), so the
// report's math renders from disk with no server and no network.
#pragma once
#include <filesystem>
#include <string>

namespace akm {

/// Where KaTeX is installed: $AKM_KATEX_DIR, else /usr/share/javascript/katex.
std::string katex_source_dir();

/// Copies katex.min.js, katex.min.css, contrib/auto-render.js and the woff2 fonts into
/// root/katex/ (replaced whole, staged then renamed). Returns false, copying nothing, when the
/// source has no katex.min.js (libjs-katex not installed): the report then shows math as TeX.
bool copy_katex(const std::filesystem::path& root);

}  // namespace akm
