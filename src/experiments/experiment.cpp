// experiment — the registry and the driver that turns a body into a results folder.
#include "akm/base/version.hpp"
#include "akm/experiments/experiment.hpp"
#include "akm/experiments/paper_statements.hpp"


#include <algorithm>
#include <chrono>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "akm/base/errors.hpp"
#include "akm/base/progress.hpp"
#include "akm/check/ledger_verdict.hpp"
#include "akm/experiments/result_hash.hpp"
#include "akm/sim/dist.hpp"

namespace akm {



Registry& Registry::instance() {
  static Registry r;
  return r;
}

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Natural order of IDs: letter prefix, then number (T2 < T10 < E1 sorts E before T).
bool id_less(const std::string& a, const std::string& b) {
  auto split = [](const std::string& s) {
    std::size_t i = 0;
    while (i < s.size() && !std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    return std::pair{s.substr(0, i), i < s.size() ? std::stol(s.substr(i)) : 0L};
  };
  const auto [pa, na] = split(a);
  const auto [pb, nb] = split(b);
  // The paper's theorems (T) first, then the extensions (E).
  if (pa != pb) return pa == "T" || (pb != "T" && pa < pb);
  return na < nb;
}

}  // namespace

void Registry::add(ExperimentEntry e) {
  entries_.push_back(std::move(e));
  std::sort(entries_.begin(), entries_.end(),
            [](const auto& a, const auto& b) { return id_less(a.info.id, b.info.id); });
}

const ExperimentEntry* Registry::find(const std::string& key) const {
  const std::string k = lower(key);
  for (const auto& e : entries_)
    if (lower(e.info.id) == k || lower(e.info.slug) == k) return &e;
  return nullptr;
}

// Unknown IDs are refused with the list of known ones (akm run and akm.run alike).
const ExperimentEntry& Registry::require(const std::string& key) const {
  if (const auto* e = find(key)) return *e;
  std::string known;
  for (const auto& x : entries_) known += (known.empty() ? "" : ", ") + x.info.id;
  throw InputError("ID", key, fmt::format("must be one of {} (see `akm list`)", known));
}

Registrar::Registrar(const Registration& r) {
  for (const char* field : {r.id, r.slug, r.title, r.labels, r.claim})
    if (field == nullptr) throw std::logic_error("Registrar: every field of a Registration is required");
  if (*r.id == '\0' || *r.slug == '\0') throw std::logic_error("Registrar: an empty ID or slug");
  if (!r.body) throw std::logic_error(fmt::format("Registrar: {} has no body", r.id));
  if (Registry::instance().find(r.id) || Registry::instance().find(r.slug))
    throw std::logic_error(fmt::format("Registrar: {} ({}) is registered twice", r.id, r.slug));
  ExperimentInfo info{r.id, r.slug, r.title, {}, r.claim};
  std::istringstream in(r.labels);
  for (std::string l; in >> l;) info.paper_labels.push_back(l);
  Registry::instance().add({std::move(info), r.body});
}

McOptions ExperimentContext::mc(long long trials, const std::string& what, int groups) const {
  McOptions o;
  o.trials = trials;
  o.threads = opts.threads;
  o.groups = groups;
  if (opts.progress) {  // decided by cli::show_progress (terminal, --quiet, MPI rank 0)
    // The sweep's own redrawn line with its ETA (progress.hpp), ended when it completes.
    auto bar = std::make_shared<CountProgress>("  " + what, "trials", true);
    o.progress = [bar](long long done, long long total) { bar->update(done, total); };
  }
  return o;
}

void ExperimentContext::gate(const std::string& name, const std::string& reason) {
  gated.push_back({{"check", name}, {"reason", reason}});
}

std::string result_hash(const ExperimentInfo& info, const RunOptions& opts) {
  // Shortest round-trip text of the rate, so 1e-6 and 0.000001 hash alike.
  // The trials scale enters only when it is not 1, so results at scale 1 keep their hash.
  std::string key = fmt::format("akm-result-v1|{}|{}|{}|{}|{}", version(), info.id, opts.seed,
                                opts.quick ? 1 : 0, opts.family_alpha);
  if (opts.trials_scale != 1) key += fmt::format("|trials-scale={}", opts.trials_scale);
  if (opts.backend != Backend::cpu) key += fmt::format("|backend={}", to_string(opts.backend));
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : key) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", h);
}

ExperimentOutcome run_experiment(const ExperimentEntry& e, const RunOptions& opts) {
  const auto t0 = std::chrono::steady_clock::now();
  ResultDir out(opts.out_root, e.info.id, dist::root());  // under mpirun rank 0 alone writes
  ExperimentContext ctx(opts, out);
  e.body(ctx);
  ctx.checks.finalize();

  // The paper's own words for each cited label that has a statement (theorem-like or equation).
  nlohmann::json statements = nlohmann::json::array();
  for (const auto& label : e.info.paper_labels)
    if (const auto it = paper_statements().find(label); it != paper_statements().end())
      statements.push_back({{"label", label}, {"kind", it->second.kind}, {"title", it->second.title},
                            {"tex", it->second.tex}});
  nlohmann::json summary = {
      {"id", e.info.id},
      {"slug", e.info.slug},
      {"title", e.info.title},
      {"claim", e.info.claim},
      {"paper_labels", e.info.paper_labels},
      {"statements", statements},
      {"seed", opts.seed},
      {"version", version()},
      {"quick", opts.quick},
      {"family_alpha", opts.family_alpha},
      {"z", ctx.checks.z()},
      {"params", ctx.params},
      {"checks", ctx.checks.to_json()},
      {"pass", ctx.checks.all_pass()},
      {"gated", ctx.gated},
      {"findings", ctx.findings},
      {"hash", result_hash(e.info, opts)},
  };
  // Written only when not 1, so a result at scale 1 reads as before.
  if (opts.trials_scale != 1) {
    summary["trials_scale"] = opts.trials_scale;
    summary["trials_scaled"] = ctx.trials_scaled;
  }
  // The backend asked for and the one the Monte Carlo ran on, written only when not the
  // default cpu (a claim without Monte Carlo on ops runs on the CPU: ran_on "cpu"; one partly
  // on ops runs the rest there: "<backend> and cpu").
  const std::string ran_on = !ctx.on_ops ? "cpu"
                             : ctx.partly_own ? to_string(opts.backend) + std::string(" and cpu")
                                              : to_string(opts.backend);
  if (opts.backend != Backend::cpu) summary["backend"] = {{"asked", to_string(opts.backend)}, {"ran_on", ran_on}};
  // Each ledger statement this experiment tests, judged from its part alone, and the status as
  // their roll-up (check/ledger_verdict.hpp): the same code as `akm ledger`, on this summary.
  const auto parts = statement_parts(compiled_ledger(), e.info.id, summary);
  const ClaimVerdict verdict = experiment_status(claim_verdict(ctx.checks, ctx.kind, ctx.findings), parts, summary);
  summary["status"] = verdict.to_json();
  summary["ledger"] = nlohmann::json::array();
  for (const auto& p : parts) summary["ledger"].push_back(p.to_json());
  // Wall time is printed by the CLI, not stored: summary.json must not depend on the
  // machine or the thread count.
  (void)t0;
  out.write_json("summary.json", summary);
  out.commit();

  ExperimentOutcome r{e.info.id, ctx.checks.all_pass(), verdict, ctx.checks.size(), 0,
                      out.final_path(), summary["ledger"], ctx.trials_scaled, ran_on};
  for (const auto& c : ctx.checks.records()) r.n_failed += c.pass ? 0 : 1;
  return r;
}

}  // namespace akm
