// explore_guard — what `akm explore` trusts and what it refuses (docs/explore.md, "Threat
// model"): the checks that run on every HTTP request before any work, kept apart from the
// routes so that each one is a pure function, tested without sockets (tests/test_explore_guard.cpp)
// and, against the running server, as an attacker would (tests/explore_security.py).
//
//   1. Host: only 127.0.0.1:PORT, localhost:PORT or [::1]:PORT (a DNS-rebinding page reaches
//      the server under its own host name: 403).
//   2. Cross-site requests: a browser's Sec-Fetch-Site other than same-origin/none: 403.
//   3. State-changing routes (/api/measure, /api/cancel) only by POST, and a POST carrying an
//      Origin only from the page's own origin (http://HOST): a foreign page's form or fetch
//      cannot start or stop a measurement.
//   4. Sizes: the request target at most kMaxTarget bytes (414), at most kMaxParameters
//      parameters of at most kMaxValue bytes each, no control bytes (NUL included) (400).
//   5. Files: a `data:` spectrum names a built-in data set, or — only when the server was
//      started with --data-dir DIR — a file under DIR after resolving links and `..`.
//      Nothing else on the file system is opened because of a request.
//   6. Refusals never echo file content: a data file that cannot be read as a numeric table
//      is refused with a fixed message; every value quoted back is the one the client sent,
//      truncated to kQuoted bytes and escaped.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "akm/app/explore_api.hpp"
#include "akm/spectrum/spectrum.hpp"

namespace akm::explore {

inline constexpr std::size_t kMaxTarget = 4096;     ///< bytes of path + query string
inline constexpr std::size_t kMaxParameters = 16;   ///< parameters of one request
inline constexpr std::size_t kMaxValue = 512;       ///< bytes of one parameter's name or value
inline constexpr std::size_t kQuoted = 80;          ///< bytes of a value quoted back in an error

/// One HTTP request as the guard sees it (headers empty when absent).
struct Request {
  std::string method;       ///< "GET", "POST", …
  std::string target;       ///< the raw request target (path and query string)
  std::string path;         ///< decoded path, without the query string
  Query query;              ///< decoded parameters
  std::string host;         ///< the Host header
  std::string origin;       ///< the Origin header
  std::string fetch_site;   ///< the Sec-Fetch-Site header
  bool duplicate = false;   ///< a parameter was given twice (named in duplicate_name)
  std::string duplicate_name;  ///< the parameter given twice
};

/// The value as a refusal may quote it: at most kQuoted bytes (then "…"), every byte outside
/// printable ASCII written as `\xHH`, so a message never carries raw bytes of anything.
std::string quoted(const std::string& value);

/// 403/405/400/414 for a request the server must not act on, or nullopt. `port` is the port
/// the server listens on.
std::optional<Response> refuse(const Request& request, int port);

/// The spectrum spec a request may use: unchanged when it names no file; a built-in data
/// set's spec; or `data:<canonical path>[,options]` for a file under `data_dir` (canonical,
/// empty when the server has none). Throws InputError("spectrum", quoted(spec), …) for
/// anything else, without opening any file outside the allowed set.
std::string confine_spectrum(const std::string& spec, const std::string& data_dir);

/// The request's spectrum, parsed: confine_spectrum, then parse_spectrum; a data file that
/// fails to parse is refused with a fixed message (the reader's own quotes the file's bytes).
Spectrum request_spectrum(const std::string& sent, std::uint64_t seed, const std::string& data_dir);

/// The canonical form of a --data-dir argument (links and `..` resolved); InputError when
/// it is not an existing directory.
std::string canonical_data_dir(const std::string& dir);

}  // namespace akm::explore
