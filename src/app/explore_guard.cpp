// explore_guard — the checks every `akm explore` request passes before any work (see the
// header for the list and docs/explore.md for the threat model).
#include "akm/app/explore_guard.hpp"

#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "akm/base/errors.hpp"
#include "akm/spectrum/data_keys.hpp"
#include "akm/spectrum/spectrum.hpp"

namespace akm::explore {

namespace fs = std::filesystem;

namespace {

Response refusal(int status, const std::string& message, const std::string& parameter) {
  return {status, "application/json",
          nlohmann::json({{"error", message}, {"parameter", parameter}})
              .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
}

bool has_control_byte(const std::string& s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7f) return true;
  return false;
}

// The routes that change the server's state: a measurement started or cancelled.
bool state_changing(const std::string& path) { return path == "/api/measure" || path == "/api/cancel"; }

// `p` lies inside `dir` (both canonical): the relative path neither is empty nor climbs out.
bool inside(const fs::path& p, const fs::path& dir) {
  const fs::path rel = p.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != ".." && rel != ".";
}

}  // namespace

std::string quoted(const std::string& value) {
  std::string out;
  const std::size_t n = std::min(value.size(), kQuoted);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') out += static_cast<char>(c);
    else out += fmt::format("\\x{:02x}", c);
  }
  if (value.size() > kQuoted) out += fmt::format("… ({} bytes)", value.size());
  return out;
}

std::optional<Response> refuse(const Request& r, int port) {
  const std::set<std::string> own = {fmt::format("127.0.0.1:{}", port), fmt::format("localhost:{}", port),
                                     fmt::format("[::1]:{}", port)};
  if (!own.count(r.host))
    return refusal(403,
                   fmt::format("Host = {} is refused: this server answers only 127.0.0.1:{}, localhost:{} "
                               "or [::1]:{} (a foreign host name is how a DNS-rebinding page reaches it)",
                               quoted(r.host.empty() ? "(missing)" : r.host), port, port, port),
                   "Host");
  if (!r.fetch_site.empty() && r.fetch_site != "same-origin" && r.fetch_site != "none")
    return refusal(403,
                   fmt::format("Sec-Fetch-Site = {} is refused: only the page's own requests are answered",
                               quoted(r.fetch_site)),
                   "Sec-Fetch-Site");
  if (r.target.size() > kMaxTarget)
    return refusal(414, fmt::format("the request target is {} bytes; at most {} are read", r.target.size(), kMaxTarget),
                   "");
  if (state_changing(r.path)) {
    if (r.method != "POST")
      return refusal(405, fmt::format("{} changes the server's state: send it as POST (got {})", r.path,
                                      quoted(r.method)),
                     "");
    if (!r.origin.empty() && r.origin != "http://" + r.host)
      return refusal(403,
                     fmt::format("Origin = {} is refused: {} accepts only the page's own origin http://{}",
                                 quoted(r.origin), r.path, r.host),
                     "Origin");
  } else if (r.method != "GET") {
    return refusal(405, fmt::format("{} is read with GET (got {})", quoted(r.path), quoted(r.method)), "");
  }
  if (r.duplicate)
    return refusal(400, fmt::format("{} is given twice", quoted(r.duplicate_name)), quoted(r.duplicate_name));
  if (r.query.size() > kMaxParameters)
    return refusal(400, fmt::format("a request has at most {} parameters (got {})", kMaxParameters, r.query.size()),
                   "");
  for (const auto& [k, v] : r.query) {
    if (k.size() > kMaxValue || v.size() > kMaxValue)
      return refusal(400,
                     fmt::format("{} = {} is invalid: at most {} bytes per parameter name and value", quoted(k),
                                 quoted(v), kMaxValue),
                     quoted(k));
    if (has_control_byte(k) || has_control_byte(v))
      return refusal(400,
                     fmt::format("{} = {} is invalid: printable text only (no control bytes, NUL included)",
                                 quoted(k), quoted(v)),
                     quoted(k));
  }
  return std::nullopt;
}

std::string canonical_data_dir(const std::string& dir) {
  std::error_code ec;
  const fs::path c = fs::canonical(dir, ec);
  if (ec || !fs::is_directory(c, ec))
    throw InputError("--data-dir", dir, "must be an existing directory");
  return c.string();
}

std::string confine_spectrum(const std::string& spec, const std::string& data_dir) {
  const auto start = spec.find_first_not_of(" \t");
  if (start == std::string::npos || spec.compare(start, 5, "data:") != 0) return spec;  // no file
  DataKeysSpec d;
  try {
    d = parse_data_keys(spec.substr(start));  // parses only: opens nothing
  } catch (const InputError&) {
    throw InputError("spectrum", quoted(spec),
                     "data:NAME[,standardize] with a built-in NAME, or data:PATH[,standardize][,header] "
                     "under the server's --data-dir");
  }
  if (d.builtin) return d.spec;
  if (data_dir.empty())
    throw InputError("spectrum", quoted(spec),
                     "over HTTP, data: names a built-in data set (digits | breast_cancer | wine | diabetes | "
                     "iris); files are served only from a folder given as akm explore --data-dir DIR");
  // Resolve against the data folder: links and `..` first, then the containment test on the
  // canonical paths; a missing file is refused without saying whether anything exists there.
  const fs::path given(d.name);
  const fs::path joined = given.is_absolute() ? given : fs::path(data_dir) / given;
  std::error_code ec;
  const fs::path real = fs::canonical(joined, ec);
  if (ec || !inside(real, fs::path(data_dir)) || !fs::is_regular_file(real, ec))
    throw InputError("spectrum", quoted(spec),
                     "data:PATH must name a file inside the server's --data-dir (after resolving links and ..)");
  if (real.string().find(',') != std::string::npos)
    throw InputError("spectrum", quoted(spec), "a file whose resolved path holds no comma");
  return "data:" + real.string() + (d.standardize ? ",standardize" : "") + (d.header ? ",header" : "");
}

Spectrum request_spectrum(const std::string& sent, std::uint64_t seed, const std::string& data_dir) {
  const std::string spec = confine_spectrum(sent, data_dir);
  if (spec.rfind("data:", 0) != 0) return parse_spectrum(spec, seed);
  // A file's bytes never travel back: the reader's own message quotes the failing cell.
  try {
    return parse_spectrum(spec, seed);
  } catch (const InputError&) {
    throw InputError("spectrum", quoted(sent),
                     "a data set the server can read as a numeric table (finite numbers, rows of equal "
                     "width, not all equal); run akm theory --spectrum with it locally to see which line fails");
  }
}

}  // namespace akm::explore
