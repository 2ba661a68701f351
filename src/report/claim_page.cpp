// report/claim_page — the page of one claim (akm/report/claim_page.hpp).
#include "akm/report/claim_page.hpp"

#include "akm/check/status.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "akm/report/html.hpp"

namespace akm {

using namespace html;

namespace {

std::string statements_html(const nlohmann::json& s) {
  std::string out;
  std::vector<std::string> stated;
  if (s.contains("statements") && s["statements"].is_array())
    for (const auto& st : s["statements"]) {
      const std::string label = string_or(st, "label", ""), kind = string_or(st, "kind", "");
      const std::string title = string_or(st, "title", "");
      stated.push_back(label);
      // An equation that the paper displays inside a cited theorem is shown once, there.
      const std::string tex = string_or(st, "tex", "");
      bool shown = false;
      for (const auto& prev : s["statements"]) {
        if (&prev == &st) break;
        if (string_or(prev, "tex", "").find(tex.substr(2, tex.size() > 4 ? tex.size() - 4 : 0)) != std::string::npos) {
          out += fmt::format("<p class=\"meta\"><code>{}</code> is displayed in <code>{}</code> above.</p>\n",
                             escape(label), escape(string_or(prev, "label", "")));
          shown = true;
          break;
        }
      }
      if (shown) continue;
      std::string head = kind.empty() ? label : std::string(1, char(std::toupper(kind[0]))) + kind.substr(1);
      // The TeX is the paper's own (tests/paper_statements.py): only <, >, & need escaping,
      // and KaTeX reads the text back unescaped.
      out += fmt::format("<div class=\"stmt\"><span class=\"head\">{} <code>{}</code>{}</span><br>{}</div>\n",
                         escape(head), escape(label), title.empty() ? "" : " &mdash; " + escape(title),
                         escape(string_or(st, "tex", "")));
    }
  std::string rest;
  if (s.contains("paper_labels") && s["paper_labels"].is_array())
    for (const auto& l : s["paper_labels"])
      if (l.is_string() && std::find(stated.begin(), stated.end(), l.get<std::string>()) == stated.end())
        rest += "<code>" + escape(l.get<std::string>()) + "</code> ";
  if (!rest.empty())
    out += "<p class=\"meta\">Also cited (sections, appendices, tables and figures of the paper): " + rest + "</p>\n";
  return out;
}

std::string list_block(const nlohmann::json& s, const char* key, const char* heading) {
  if (!s.contains(key) || !s[key].is_array() || s[key].empty()) return "";
  // Long lists (a gate may remove hundreds of checks) fold away; the count stays in view.
  const bool fold = s[key].size() > 10;
  std::string out = fold ? fmt::format("<h2>{} ({})</h2>\n<details><summary>show all {}</summary>\n<ul>\n",
                                       heading, s[key].size(), s[key].size())
                         : fmt::format("<h2>{}</h2>\n<ul>\n", heading);
  for (const auto& f : s[key])
    out += "<li>" +
           escape(f.is_string() ? f.get<std::string>()
                                : string_or(f, "check", "") + ": " + string_or(f, "reason", "")) +
           "</li>\n";
  return out + (fold ? "</ul>\n</details>\n" : "</ul>\n");
}

std::string resolution_html(const nlohmann::json& st) {
  const std::string res = st.contains("resolution") ? resolution_text(st["resolution"]) : "";
  return res.empty() ? ""
                     : "<p class=\"meta\">Resolution (smallest relative error in each parameter the checks "
                       "detect with power 0.9): " + html::escape(res) + "</p>\n";
}

bool discriminates(const nlohmann::json& c) {
  return c.contains("discriminates") && c["discriminates"].is_boolean() && c["discriminates"].get<bool>();
}

std::string checks_html(const nlohmann::json& s) {
  if (!s.contains("checks") || !s["checks"].is_array()) return "";
  std::string disc, failed, rest;
  std::size_t n_disc = 0, n_failed = 0, n_rest = 0;
  for (const auto& c : s["checks"]) {
    if (!passed(c)) failed += check_row(c), ++n_failed;
    else if (discriminates(c)) disc += check_row(c), ++n_disc;
    else rest += check_row(c), ++n_rest;
  }
  std::string out;
  if (n_failed > 0)
    out += fmt::format("<h2>Failed checks ({})</h2>\n<div class=\"nomath\">{}{}</table></div>\n", n_failed,
                       check_table_head(), failed);
  out += fmt::format("<h2>Checks that discriminate ({})</h2>\n<p class=\"meta\">Evidence checks with power "
                     "≥ 0.9 against the alternative they name (or against the declared effect).</p>\n",
                     n_disc);
  if (n_disc > 0) out += "<div class=\"nomath\">" + check_table_head() + disc + "</table></div>\n";
  if (n_rest > 0)
    out += fmt::format("<details><summary>Other checks ({}: evidence without that power, and design "
                       "checks of the run's set-up)</summary>\n<div class=\"nomath\">{}{}</table></div></details>\n",
                       n_rest, check_table_head(), rest);
  return out;
}

std::string figures_html(const ClaimPage& p) {
  if (p.figures.empty()) return "";
  std::string out = "<h2>Figures</h2>\n";
  for (const auto& f : p.figures) {
    const std::string png = url_path(f.name + ".png");
    std::string links = fmt::format("<a href=\"{}\">png</a>", png);
    if (f.has_svg) links += fmt::format(" &middot; <a href=\"{}\">svg</a>", url_path(f.name + ".svg"));
    if (f.has_gp) links += fmt::format(" &middot; <a href=\"{}\">gnuplot script</a>", url_path(f.name + ".gp"));
    out += fmt::format("<figure id=\"fig-{0}\"><a href=\"{1}\"><img src=\"{1}\" alt=\"{2}\"></a>\n"
                       "<figcaption class=\"nomath\"><b>{0}.</b> {2} ({3})</figcaption></figure>\n",
                       escape(f.name), png, escape(f.caption), links);
  }
  return out;
}

}  // namespace

std::string claim_page_html(const ClaimPage& p) {
  const auto& s = p.summary;
  const std::string id = string_or(s, "id", "?");
  const std::string title = string_or(s, "title", "");
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += fmt::format("<title>{} · {}</title>\n", escape(id), escape(title));
  out += style();
  out += katex_head(p.katex ? "../katex" : "");
  out += "</head>\n<body>\n<p class=\"meta\"><a href=\"../index.html\">&larr; all claims</a></p>\n";
  out += fmt::format("<h1>{} &middot; {}</h1>\n", escape(id), escape(title));
  const bool quick = s.contains("quick") && s["quick"].is_boolean() && s["quick"].get<bool>();
  out += fmt::format("<p class=\"meta\">seed {} &middot; {} &middot; akm {} &middot; <a href=\"summary.json\">summary.json</a>{}</p>\n",
                     field(s, "seed"), quick ? "quick run" : "full run", field(s, "version"),
                     p.notebook.empty() ? "" : fmt::format(" &middot; <a href=\"{}\">notebook</a>", p.notebook));
  const std::string st = status_of(s);
  if (!st.empty()) {
    out += fmt::format("<div class=\"status\">{} &mdash; {}</div>\n", status_badge(st),
                       escape(string_or(s["status"], "reason", "")));
    out += resolution_html(s["status"]);
  }
  out += p.ledger_html;
  out += "<h2>The claim</h2>\n";
  if (!string_or(s, "claim", "").empty())
    out += "<p class=\"nomath\">" + escape(string_or(s, "claim", "")) + "</p>\n";
  out += statements_html(s);
  if (!p.katex && s.contains("statements") && !s["statements"].empty())
    out += "<p class=\"note\">Math is shown as TeX source: this report was written without KaTeX "
           "(Debian: apt-get install libjs-katex, then akm report).</p>\n";
  out += list_block(s, "findings", "Findings");
  out += list_block(s, "gated", "Checks removed by a pre-registered gate");
  out += figures_html(p);
  out += checks_html(s);
  if (!p.data.empty()) {
    out += "<h2>Data</h2>\n<p>";
    for (const auto& d : p.data) out += fmt::format("<a href=\"{}\">{}</a> ", url_path(d), escape(d));
    out += "</p>\n<p class=\"meta\">Every figure is drawn from these files: <code>gnuplot NAME.gp</code> in "
           "this folder redraws it.</p>\n";
  }
  if (s.contains("params"))
    out += "<details><summary>Parameters</summary><pre class=\"nomath\">" + escape(s["params"].dump(2)) +
           "</pre></details>\n";
  return out + "</body>\n</html>\n";
}

}  // namespace akm
