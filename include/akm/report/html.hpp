// report/html — the small pieces every page of the report is made of: escaping, relative
// links, numbers and statuses as HTML, the check table, and the KaTeX head (math rendered
// offline from the report's own katex/ folder).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace akm::html {

/// & < > " ' escaped.
std::string escape(const std::string& s);
/// A relative link: folder and file names pass, anything unusual is percent-encoded.
std::string url_path(const std::string& s);
/// A JSON value as text (numbers with 6 significant digits; null as an em dash).
std::string show_value(const nlohmann::json& j);
/// obj[key] as text, an em dash when absent.
std::string field(const nlohmann::json& obj, const char* key);
/// The record says pass = true explicitly (anything else is a failure).
bool passed(const nlohmann::json& check);
/// obj[key] when it is a string, else `fallback`.
std::string string_or(const nlohmann::json& j, const char* key, const std::string& fallback);
/// The claim status of a summary.json ("" for results of older versions).
std::string status_of(const nlohmann::json& summary);
/// A status as a coloured badge (class st-\<STATUS\>).
std::string status_badge(const std::string& status);
/// The header of the check table.
std::string check_table_head();
/// One row of the check table.
std::string check_row(const nlohmann::json& check);
/// The report's style sheet (one for every page).
const char* style();
/// The \<head\> lines that load KaTeX from `katex_dir` (relative: "katex" or "../katex") and
/// render $…$ and $$…$$ with the paper's macros; "" when the report has no KaTeX copy.
std::string katex_head(const std::string& katex_dir);
/// The paper's macros (`\E`, `\Sighat`, `\tbeta`, …) as a KaTeX `macros` object literal.
std::string katex_macros();

}  // namespace akm::html
