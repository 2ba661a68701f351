// report/katex — copy the KaTeX assets the report's pages load (akm/report/katex.hpp).
#include "akm/report/katex.hpp"

#include <cstdlib>
#include <system_error>

#include <unistd.h>

namespace akm {

namespace fs = std::filesystem;

std::string katex_source_dir() {
  const char* env = std::getenv("AKM_KATEX_DIR");
  return env && *env ? env : "/usr/share/javascript/katex";
}

bool copy_katex(const fs::path& root) {
  const fs::path src = katex_source_dir();
  std::error_code ec;
  if (!fs::is_regular_file(src / "katex.min.js", ec) || !fs::is_regular_file(src / "katex.min.css", ec) ||
      !fs::is_regular_file(src / "contrib" / "auto-render.js", ec))
    return false;
  // Staged beside the final folder (same file system), then swapped in.
  const fs::path stage = root / (".katex.tmp-" + std::to_string(::getpid()));
  fs::remove_all(stage, ec);
  fs::create_directories(stage / "fonts");
  const auto copy = [](const fs::path& from, const fs::path& to) {
    fs::copy_file(fs::canonical(from), to, fs::copy_options::overwrite_existing);
  };
  copy(src / "katex.min.js", stage / "katex.min.js");
  copy(src / "katex.min.css", stage / "katex.min.css");
  copy(src / "contrib" / "auto-render.js", stage / "auto-render.js");
  // woff2 only: every browser that runs KaTeX reads it, and the CSS lists it first.
  for (const auto& e : fs::directory_iterator(src / "fonts", ec))
    if (e.path().extension() == ".woff2") copy(e.path(), stage / "fonts" / e.path().filename());
  // Several processes may write reports into one folder at once (ctest runs the quick tests in
  // parallel, each `akm run` writing the shared index and katex/). Each moves the installed
  // copy aside under its own name (an atomic rename: nobody else removes it), then renames its
  // stage in. If that rename fails while katex/ exists, another process installed its copy in
  // between — the same files from the same source, whole, since it too arrived by one rename —
  // and ours is dropped.
  const fs::path dest = root / "katex", aside = root / (".katex.old-" + std::to_string(::getpid()));
  fs::remove_all(aside, ec);
  fs::rename(dest, aside, ec);  // fails harmlessly when there is none
  std::error_code rc;
  fs::rename(stage, dest, rc);
  if (rc) {
    if (!fs::is_directory(dest, ec)) throw fs::filesystem_error("cannot install the KaTeX assets", stage, dest, rc);
    fs::remove_all(stage, ec);
  }
  fs::remove_all(aside, ec);
  return true;
}

}  // namespace akm
