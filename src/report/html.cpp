// report/html — escaping, links, statuses, the check table and the KaTeX head of the report.
#include "akm/report/html.hpp"

#include <cctype>
#include <cmath>

#include <fmt/format.h>

namespace akm::html {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string url_path(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || std::string("-._~/").find(static_cast<char>(c)) != std::string::npos)
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", static_cast<unsigned>(c));
  }
  return out;
}

std::string show_value(const nlohmann::json& j) {
  if (j.is_null()) return "&mdash;";
  if (j.is_number_float()) return escape(fmt::format("{:.6g}", j.get<double>()));
  if (j.is_number()) return escape(j.dump());
  if (j.is_string()) return escape(j.get<std::string>());
  if (j.is_boolean()) return j.get<bool>() ? "true" : "false";
  return escape(j.dump());
}

std::string field(const nlohmann::json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key)) return "&mdash;";
  return show_value(obj[key]);
}

bool passed(const nlohmann::json& check) {
  return check.is_object() && check.contains("pass") && check["pass"].is_boolean() &&
         check["pass"].get<bool>();
}

std::string string_or(const nlohmann::json& j, const char* key, const std::string& fallback) {
  if (j.is_object() && j.contains(key) && j[key].is_string()) return j[key].get<std::string>();
  return fallback;
}

std::string status_of(const nlohmann::json& s) {
  if (!s.is_object() || !s.contains("status") || !s["status"].is_object()) return "";
  return string_or(s["status"], "status", "");
}

std::string status_badge(const std::string& status) {
  if (status.empty()) return "&mdash;";
  std::string cls = status;
  for (char& c : cls)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
  return fmt::format("<span class=\"st st-{}\">{}</span>", cls, escape(status));
}

std::string check_table_head() {
  return "<table class=\"checks\">\n<tr><th>check</th><th>kind</th><th>predicted</th>"
         "<th>measured</th><th>stderr</th><th>tolerance</th><th>verdict</th>"
         "<th>mde (power 0.9)</th><th>alternative</th></tr>\n";
}

std::string check_row(const nlohmann::json& c) {
  const bool ok = passed(c);
  return fmt::format(
      "<tr class=\"{}\"><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
      "<td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td>"
      "<td>{}</td></tr>\n",
      ok ? "ok" : "bad", field(c, "name"), field(c, "kind"), field(c, "predicted"),
      field(c, "measured"), field(c, "stderr"), field(c, "tolerance"),
      ok ? "<span class=\"pass\">PASS</span>" : "<span class=\"fail\">FAIL</span>", field(c, "mde"),
      c.contains("alternative") && c["alternative"].is_string() ? escape(c["alternative"].get<std::string>())
                                                                 : "&mdash;");
}

const char* style() {
  return R"(<style>
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5em auto; max-width: 72em; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.2em; font-size: 1.6em; }
h2 { margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #ccc; padding: 3px 7px; vertical-align: top; text-align: left; }
th { background: #f0f0f0; }
td.num { text-align: right; font-family: ui-monospace, monospace; }
table.index td { padding: 2px 8px; }
table.index { font-size: 0.95em; }
.pass { color: #1a7f37; font-weight: bold; }
.fail { color: #c62828; font-weight: bold; }
table.checks { font-size: 0.85em; }
table.checks tr.bad td { background: #fde0e0; }
.st { font-weight: bold; padding: 0 0.4em; border-radius: 3px; white-space: nowrap; }
.st-SUPPORTED { color: #fff; background: #1a7f37; }
.st-CONTRADICTED { color: #fff; background: #c62828; }
.st-INCONCLUSIVE { color: #222; background: #f2c94c; }
.st-NOT-REPRODUCED-AT-THIS-SCALE { color: #fff; background: #b26a00; }
.st-REPORTED { color: #fff; background: #5b6b8c; }
.st-CORRECTED { color: #fff; background: #6a3fb5; }
.st-NOT-TESTABLE-HERE, .st-NOT-TESTED-YET { color: #222; background: #ddd; }
.status { padding: 0.6em 1em; border-left: 6px solid #888; background: #f7f7f7; }
.stmt { padding: 0.5em 1em; margin: 0.6em 0; border-left: 4px solid #5b6b8c; background: #f5f7fb; }
.stmt .head { font-weight: bold; }
figure { margin: 1em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { font-size: 0.9em; color: #444; }
.meta, .note { color: #666; font-size: 0.9em; }
code { background: #f5f5f5; padding: 0 3px; }
pre { background: #f8f8f8; padding: 0.5em; overflow-x: auto; font-size: 0.85em; }
</style>
)";
}

std::string katex_macros() {
  // The paper's \newcommand's (ak-momentum.tex, preamble), so its statements render as written.
  return R"({"\\E": "\\mathbb{E}", "\\R": "\\mathbb{R}", "\\tr": "\\operatorname{tr}",
"\\NS": "\\operatorname{NS}", "\\Sigx": "\\Sigma_x", "\\Sighat": "\\hat{\\Sigma}",
"\\xhat": "\\hat{x}", "\\uhat": "\\hat{u}", "\\lamhat": "\\hat{\\lambda}", "\\Gbar": "\\bar{G}",
"\\Mstar": "M^{*}", "\\tbeta": "\\tilde{\\beta}", "\\Xhat": "\\hat{X}", "\\Ghat": "\\hat{G}",
"\\Mhat": "\\widehat{M}", "\\nablaY": "\\nabla Y", "\\nablaW": "\\nabla W",
"\\dout": "d_{\\mathrm{out}}", "\\dinp": "d_{\\mathrm{in}}", "\\FLOP": "\\mathrm{FLOPs}",
"\\bigO": "\\mathcal{O}"})";
}

std::string katex_head(const std::string& dir) {
  if (dir.empty()) return "";
  return fmt::format(
      "<link rel=\"stylesheet\" href=\"{0}/katex.min.css\">\n"
      "<script defer src=\"{0}/katex.min.js\"></script>\n"
      "<script defer src=\"{0}/auto-render.js\"></script>\n"
      "<script>document.addEventListener(\"DOMContentLoaded\", function () {{\n"
      "  if (typeof renderMathInElement !== \"function\") return;\n"
      "  renderMathInElement(document.body, {{delimiters: [\n"
      "    {{left: \"$$\", right: \"$$\", display: true}}, {{left: \"\\\\[\", right: \"\\\\]\", display: true}},\n"
      "    {{left: \"$\", right: \"$\", display: false}}, {{left: \"\\\\(\", right: \"\\\\)\", display: false}}],\n"
      "    macros: {1}, throwOnError: false, ignoredClasses: [\"nomath\"]}});\n"
      "}});</script>\n",
      dir, katex_macros());
}

}  // namespace akm::html
