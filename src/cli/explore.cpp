// akm explore — the live (η, β, α) map in the browser: a local HTTP server (cpp-httplib,
// Debian's libcpp-httplib-dev) bound to 127.0.0.1 only, like Jupyter or TensorBoard. Every
// request is answered by app/explore_api.cpp (akm phase's and akm theory's C++); this
// file only moves bytes, refuses what is not a GET of a known page, and stops cleanly on
// SIGINT/SIGTERM. Every request first passes app/explore_guard (host, origin, method,
// sizes: docs/explore.md "Threat model"), answered before httplib routes or reads a body.
#include <csignal>
#include <iostream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "akm/base/errors.hpp"
#include "akm/app/explore_api.hpp"
#include "akm/app/explore_guard.hpp"
#include "command.hpp"

#if AKM_HAVE_HTTPLIB
#include <pthread.h>

#include <httplib.h>
#endif

namespace akm::cli {
namespace {

struct ExploreFlags {
  long long port = 8765;
  long long max_points = explore::Limits{}.max_points;
  long long max_trials = explore::Limits{}.max_trials;
  std::string data_dir;  ///< canonical; empty: only the built-in data sets
};

#if AKM_HAVE_HTTPLIB
int serve(const ExploreFlags& f) {
  // Signals go to one waiting thread (blocked everywhere else, inherited by the server's
  // workers), which stops the server: the process ends through main with exit code 0.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  explore::Settings settings;
  settings.limits.max_points = f.max_points;
  settings.limits.max_trials = f.max_trials;
  settings.data_dir = f.data_dir;
  httplib::Server server;
  server.new_task_queue = [] { return new httplib::ThreadPool(4); };  // bounded concurrency
  server.set_payload_max_length(1 << 16);
  int port = -1;  // set before listening; read by the workers only after that
  // Everything is answered here, before httplib routes the request or reads a body: the
  // parameters come from the query string alone, and a request with a body is refused.
  server.set_pre_routing_handler([&settings, &port](const httplib::Request& req, httplib::Response& res) {
    explore::Request r;
    r.method = req.method;
    r.target = req.target;
    r.path = req.path;
    r.host = req.get_header_value("Host");
    r.origin = req.get_header_value("Origin");
    r.fetch_site = req.get_header_value("Sec-Fetch-Site");
    for (const auto& [k, v] : req.params)
      if (!r.query.emplace(k, v).second && !r.duplicate) r.duplicate = true, r.duplicate_name = k;
    auto answer = explore::refuse(r, port);
    if (!answer && req.get_header_value_count("Content-Length") > 0 && req.get_header_value("Content-Length") != "0")
      answer = explore::Response{400, "application/json",
                                 nlohmann::json({{"error", "parameters go in the query string; a request body is refused"},
                                                 {"parameter", ""}})
                                     .dump()};
    if (!answer) answer = explore::handle(r.path, r.query, settings);
    res.status = answer->status;
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Content-Type-Options", "nosniff");
    if (answer->status == 405)
      res.set_header("Allow", r.path == "/api/measure" || r.path == "/api/cancel" ? "POST" : "GET");
    if (answer->status >= 400) res.set_header("Connection", "close");
    res.set_content(answer->body, answer->content_type);
    return httplib::Server::HandlerResponse::Handled;
  });
  port = f.port == 0 ? server.bind_to_any_port("127.0.0.1")
                     : (server.bind_to_port("127.0.0.1", static_cast<int>(f.port)) ? static_cast<int>(f.port) : -1);
  if (port < 0)
    throw InputError("--port", std::to_string(f.port), "must be a free TCP port on 127.0.0.1");
  std::cout << fmt::format("akm explore: http://127.0.0.1:{}/  (Ctrl-C stops)", port) << std::endl;
  if (!settings.data_dir.empty())
    std::cout << fmt::format("akm explore: data:PATH spectra are read from {} only", settings.data_dir) << std::endl;
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    explore::cancel_measurement();
    server.stop();
  });
  server.listen_after_bind();
  // listen returned: stopped by a signal (the waiter did it) — or by an error, then wake the
  // waiter ourselves so it can be joined.
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  std::cout << "akm explore: stopped" << std::endl;
  return 0;
}
#endif

const RegisterCommand explore_cmd(47, "explore", [](CLI::App& app) -> Plan {
  auto f = std::make_shared<ExploreFlags>();
  auto* c = app.add_subcommand("explore", "live (η, β, α) maps in the browser (local server on 127.0.0.1)");
  c->add_option_function<std::string>(
       "--port", [f](const std::string& s) { f->port = parse_integer("--port", s, 0, 65535); },
       "TCP port on 127.0.0.1 (0: any free port, printed)")
      ->type_name("INT")
      ->default_str(std::to_string(f->port));
  c->add_option_function<std::string>(
       "--max-points",
       [f](const std::string& s) { f->max_points = parse_integer("--max-points", s, 4, 4000000); },
       "largest map one request may ask for (grid points)")
      ->type_name("INT")
      ->default_str(std::to_string(f->max_points));
  c->add_option_function<std::string>(
       "--max-trials",
       [f](const std::string& s) { f->max_trials = parse_integer("--max-trials", s, 2, 1000000); },
       "most Monte-Carlo trials one measurement may ask for")
      ->type_name("INT")
      ->default_str(std::to_string(f->max_trials));
  c->add_option_function<std::string>(
       "--data-dir", [f](const std::string& s) { f->data_dir = explore::canonical_data_dir(s); },
       "folder whose files a request may name as data:PATH (links and .. resolved; default: none, "
       "only the built-in data sets)")
      ->type_name("DIR");
  return {[] {
#if !AKM_HAVE_HTTPLIB
            throw InputError("explore", "this build",
                             "needs cpp-httplib at build time (Debian: libcpp-httplib-dev), then rebuild");
#endif
          },
          [f] {
#if AKM_HAVE_HTTPLIB
            return serve(*f);
#else
            return 2;
#endif
          }};
});

}  // namespace
}  // namespace akm::cli
