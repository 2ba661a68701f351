// explore_api — the requests of `akm explore` (the live (η, β, α) map in the browser),
// answered by the same C++ as `akm phase` and `akm theory`; no closed form lives in the page.
//
// Pure request → response, so it is tested without sockets (tests/test_explore.cpp); the
// HTTP server (src/cli/explore.cpp) only moves bytes. Routes (GET, query parameters named as
// the CLI flags, without the dashes):
//   /api/phase    x, y, metric, spectrum, [key, alpha, direction, eta, beta, seed] → the map
//   /api/theory   beta, eta, spectrum, [key, alpha, seed] → `akm theory --json`
//   /api/measure  eta, beta, spectrum, [key, direction, trials, steps, seed] → the Monte-Carlo
//                 contraction of one point (`akm phase --measure` on a 1-point grid)
// Bad requests get HTTP 400 with {"error": the CLI's message, "parameter": the flag}; unknown
// routes 404; work is bounded per request (Limits) before anything is computed; a `data:`
// spectrum names a built-in data set or a file under --data-dir, nothing else
// (explore_guard.hpp). /api/measure and /api/cancel change state and are POST only.
#pragma once
#include <map>
#include <string>

namespace akm::explore {

/// Work limits of one request (the server refuses larger ones with 400).
struct Limits {
  long long max_points = 250000;    ///< grid points of one map (a 500×500 map)
  long long max_trials = 4096;      ///< trials of one measurement
  long long max_steps = 20000;      ///< steps per trial of one measurement
  long long max_trial_steps = 4000000;  ///< trials × steps of one measurement
};

/// What the server was started with: the work limits and the folder (canonical; empty: none)
/// whose files a `data:` spectrum may name (akm/app/explore_guard.hpp).
struct Settings {
  Limits limits;  ///< the work limits
  std::string data_dir;  ///< canonical folder a `data:` spectrum may read from; empty: built-in data sets only
};

/// An HTTP answer: status, content type and body.
struct Response {
  int status = 200;  ///< HTTP status
  std::string content_type = "application/json";  ///< MIME type
  std::string body;  ///< the body (JSON unless stated)
};

/// The parsed query string: parameter → value (duplicates are refused before).
using Query = std::map<std::string, std::string>;

/// Answers one API request (`path` without the query string) that has passed the guard
/// (explore_guard.hpp: host, method, sizes). Thread-safe; a measurement can be cancelled
/// from another thread with cancel_measurement().
Response handle(const std::string& path, const Query& query, const Settings& settings = {});

/// Stops the measurement in flight, if any (it answers 409 "cancelled").
void cancel_measurement();

/// The page itself (HTML, CSS and JavaScript in one document).
const char* page_html();

}  // namespace akm::explore
