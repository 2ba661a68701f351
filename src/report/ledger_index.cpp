// report/ledger_index — the statements table of results/index.html (report/ledger_report.hpp):
// each statement of the paper in paper order, its verdict, the reason, and links to the
// pages of the experiments whose checks decide it.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "akm/report/html.hpp"
#include "akm/report/ledger_report.hpp"

namespace akm {

std::string ledger_index_html(const nlohmann::json& ledger, const std::vector<std::string>& stale) {
  std::string out =
      "<h2 id=\"statements\">The paper's statements</h2>\n"
      "<p class=\"note\">One row per statement of the claim ledger (experiments/ledger.toml), in paper "
      "order, with the verdict its named checks give under the ledger's rules: a part counts only when "
      "a check with power &ge; " + fmt::format("{}", ledger.at("rules").value("power_floor", 0.9)) +
      " against the statement's rival passes (docs/ledger.md).</p>\n" +
      (stale.empty() ? std::string()
                     : "<p class=\"fail\">These verdicts were computed before " + html::escape(fmt::format("{}", fmt::join(stale, ", "))) +
                           " ran again: run <code>akm ledger</code> to recompute them.</p>\n") +
      "<table class=\"index\">\n<tr><th>statement</th><th>kind</th><th>verdict</th><th>evidence</th>"
      "<th>reason</th></tr>\n";
  for (const auto& s : ledger.at("statements")) {
    std::string links;
    for (const auto& id : s.at("experiments")) {
      const std::string i = id.get<std::string>();
      links += fmt::format("{}<a href=\"{}\">{}</a>", links.empty() ? "" : " ", html::url_path(i + "/index.html"), html::escape(i));
    }
    std::string reason = html::escape(s.value("reason", ""));
    if (s.contains("corrected")) reason = "<b>Corrected:</b> " + html::escape(s["corrected"].get<std::string>()) + "<br>" + reason;
    out += fmt::format("<tr><td><b>{}</b><br><span class=\"note\">{}</span></td><td>{}</td><td>{}</td><td>{}</td>"
                       "<td class=\"note\">{}</td></tr>\n",
                       html::escape(s.at("label").get<std::string>()), html::escape(s.value("statement", "")),
                       html::escape(s.value("kind", "")), html::status_badge(s.at("verdict").get<std::string>()),
                       links.empty() ? "&mdash;" : links, reason);
  }
  return out + "</table>\n";
}

std::string ledger_claim_html(const nlohmann::json& ledger, const std::string& id, const std::vector<std::string>& stale) {
  std::string rows;
  for (const auto& s : ledger.at("statements")) {
    std::string groups;
    for (const char* key : {"refute", "evidence"})
      for (const auto& g : s.at(key))
        if (g.at("experiment") == id)
          groups += fmt::format("<li>{}{}: {} &mdash; {}</li>", std::string(key) == "refute" ? "rejects the text as written &middot; " : "",
                                html::escape(g.at("part").get<std::string>()), html::escape(g.at("outcome").get<std::string>()),
                                html::escape(g.at("detail").get<std::string>()));
    if (groups.empty()) continue;
    rows += fmt::format("<tr><td><b>{}</b></td><td>{}</td><td class=\"note\"><ul>{}</ul></td></tr>\n",
                        html::escape(s.at("label").get<std::string>()), html::status_badge(s.at("verdict").get<std::string>()),
                        groups);
  }
  if (rows.empty()) return "";
  const bool is_stale = std::find(stale.begin(), stale.end(), id) != stale.end();
  return "<h2>The paper's statements it decides</h2>\n<p class=\"meta\">From the claim ledger "
         "(<a href=\"../index.html#statements\">all statements</a>); a statement's verdict weighs every "
         "experiment its entry names.</p>\n" +
         std::string(is_stale ? "<p class=\"fail\">This experiment ran again after the verdicts were computed: run "
                                "<code>akm ledger</code>.</p>\n"
                              : "") +
         "<table class=\"index\">\n<tr><th>statement</th><th>verdict</th><th>this experiment's groups</th></tr>\n" +
         rows + "</table>\n";
}

}  // namespace akm
