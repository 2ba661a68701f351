// gnuplot_items — gnuplot plot items and settings translated to matplotlib
// (gnuplot_items.hpp). Series (CSV column names, optional column=value filter) are
// notebook_plot.cpp's; here, raw gnuplot plot items are translated when they are plain
// arithmetic in x (drawn over the axis range) or read a CSV by column numbers (optionally
// filtered by `strcol(k) eq 'v' ? … : NaN`); anything else becomes a comment pointing at the
// .gp script, never a guess.
#include "gnuplot_items.hpp"

#include <algorithm>
#include <optional>
#include <regex>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace akm::gnuplot_py {

std::string py_str(const std::string& s) { return nlohmann::json(s).dump(); }

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

namespace {

// A gnuplot single-quoted string starting at s[i] ('' is a quote); advances i past it.
std::optional<std::string> gp_unquote(const std::string& s, std::size_t& i) {
  if (i >= s.size() || s[i] != '\'') return std::nullopt;
  std::string out;
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\'') {
      if (i + 1 < s.size() && s[i + 1] == '\'') {
        out += '\'';
        ++i;
      } else {
        ++i;
        return out;
      }
    } else {
      out += s[i];
    }
  }
  return std::nullopt;
}

std::optional<std::string> title_of(const std::string& item) {
  const auto t = item.find(" title '");
  if (t == std::string::npos) return std::nullopt;
  std::size_t i = t + 7;
  return gp_unquote(item, i);
}

std::string label_arg(const std::optional<std::string>& title) {
  return title ? ", label=" + py_str(*title) : "";
}

// gnuplot arithmetic → numpy. Numbers, x, $N (a CSV column), + - * / ** ( ) and a few
// functions; anything else (strings, ?:, comparisons, user functions) is refused.
std::optional<std::string> translate_expr(const std::string& e, bool allow_columns) {
  static const std::set<std::string> fns{"exp", "log", "log10", "sqrt", "abs", "sin",
                                         "cos", "tan", "tanh", "atan"};
  std::string out;
  for (std::size_t i = 0; i < e.size();) {
    const char c = e[i];
    if (c == ' ' || c == '\t') {
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      std::size_t j = i;
      while (j < e.size() && (std::isdigit(static_cast<unsigned char>(e[j])) || e[j] == '.')) ++j;
      if (j < e.size() && (e[j] == 'e' || e[j] == 'E')) {
        std::size_t k = j + 1;
        if (k < e.size() && (e[k] == '+' || e[k] == '-')) ++k;
        if (k < e.size() && std::isdigit(static_cast<unsigned char>(e[k]))) {
          j = k;
          while (j < e.size() && std::isdigit(static_cast<unsigned char>(e[j]))) ++j;
        }
      }
      out += e.substr(i, j - i);
      i = j;
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < e.size() && (std::isalnum(static_cast<unsigned char>(e[j])) || e[j] == '_')) ++j;
      const std::string id = e.substr(i, j - i);
      if (id == "x") {
        out += "x";
      } else if (fns.count(id)) {
        out += "np." + id;
      } else {
        return std::nullopt;
      }
      i = j;
    } else if (c == '$' && allow_columns) {
      std::size_t j = i + 1;
      while (j < e.size() && std::isdigit(static_cast<unsigned char>(e[j]))) ++j;
      if (j == i + 1) return std::nullopt;
      out += "column(df, " + e.substr(i + 1, j - i - 1) + ")";
      i = j;
    } else if (std::string("+-*/(),").find(c) != std::string::npos) {
      out += c;
      ++i;
    } else {
      return std::nullopt;
    }
  }
  if (out.empty()) return std::nullopt;
  return out;
}

// Splits a `using` spec on ':' outside parentheses.
std::vector<std::string> split_using(const std::string& u) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : u) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ':' && depth == 0) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

struct UsingPart {
  std::string expr;  // numpy expression over df
  std::string mask;  // boolean Series over df, or empty
};

std::optional<UsingPart> translate_using_part(const std::string& p) {
  const std::string s = trim(p);
  if (!s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return UsingPart{"column(df, " + s + ")", ""};
  static const std::regex filtered(
      R"(^\(\s*(strcol|column)\((\d+)\)\s*(eq|==)\s*('(?:[^']|'')*'|[-+0-9.eE]+)\s*\?\s*(.+?)\s*:\s*NaN\s*\)$)");
  std::smatch m;
  if (std::regex_match(s, m, filtered)) {
    const auto inner = translate_expr(m[5].str(), true);
    if (!inner) return std::nullopt;
    std::string mask;
    if (m[1] == "strcol") {
      const std::string quoted = m[4].str();
      std::size_t i = 0;
      const auto v = gp_unquote(quoted, i);
      if (!v) return std::nullopt;
      mask = fmt::format("(column(df, {}).astype(str) == {})", m[2].str(), py_str(*v));
    } else {
      mask = fmt::format("np.isclose(column(df, {}).astype(float), {})", m[2].str(), m[4].str());
    }
    return UsingPart{*inner, mask};
  }
  if (s.size() > 2 && s.front() == '(' && s.back() == ')') {
    if (auto e = translate_expr(s, true)) return UsingPart{*e, ""};
  }
  return std::nullopt;
}

std::string comment_out(const std::string& why, const std::string& item) {
  return fmt::format("# {} — drawn by gnuplot only (see the .gp script):\n#   {}\n", why, item);
}

}  // namespace

// `'file.csv' every ::1 using … with STYLE … title '…'`
std::string csv_item(const std::string& item) {
  std::size_t i = 0;
  const auto file = gp_unquote(item, i);
  static const std::regex rest(R"(^\s+every ::1\s+using\s+(.+?)\s+with\s+(\w+)(.*)$)");
  std::smatch m;
  const std::string tail = file ? item.substr(i) : "";
  if (!file || !std::regex_match(tail, m, rest)) return comment_out("plot item not translated", item);
  std::vector<UsingPart> parts;
  for (const auto& p : split_using(m[1].str())) {
    auto u = translate_using_part(p);
    if (!u) return comment_out("column expression not translated", item);
    parts.push_back(*u);
  }
  const std::string style = m[2].str();
  const bool palette = m[3].str().find("palette") != std::string::npos;
  std::string mask;
  for (const auto& p : parts)
    if (!p.mask.empty()) mask += (mask.empty() ? "" : " & ") + p.mask;
  std::string code = fmt::format("df = data[{}]\n", py_str(*file));
  code += mask.empty() ? "sel = np.ones(len(df), dtype=bool)\n" : "sel = " + mask + "\n";
  const auto col = [&](std::size_t k) { return "np.asarray(" + parts[k].expr + ")[sel]"; };
  const std::string label = label_arg(title_of(item));
  if (parts.size() == 3 && (style == "image" || palette)) {
    code += fmt::format("sc = ax.scatter({}, {}, c={}, marker={}, cmap='YlOrRd'{})\n"
                        "fig.colorbar(sc, ax=ax)\n",
                        col(0), col(1), col(2), style == "image" ? "'s'" : "'o'", label);
  } else if (parts.size() == 3 && style == "yerrorbars") {
    code += fmt::format("ax.errorbar({}, {}, yerr={}, fmt='o', ms=3, capsize=2{})\n", col(0),
                        col(1), col(2), label);
  } else if (parts.size() == 2 && style == "boxes") {
    code += fmt::format("xb = {}\nax.bar(xb, {}, width=(np.min(np.diff(xb)) if len(xb) > 1 else 1.0), "
                        "alpha=0.5{})\n", col(0), col(1), label);
  } else if (parts.size() == 2 && (style == "lines" || style == "points" || style == "linespoints")) {
    const char* fmt_ = style == "lines" ? "'-'" : style == "points" ? "'o'" : "'-o'";
    code += fmt::format("ax.plot({}, {}, {}, ms=3{})\n", col(0), col(1), fmt_, label);
  } else {
    return comment_out("style '" + style + "' not translated", item);
  }
  return code;
}

// `EXPR title '…' lw 2 …` — a curve in x over the visible axis range.
std::string function_item(const std::string& item) {
  std::size_t end = item.size();
  for (const char* kw : {" title ", " notitle", " lw ", " lc ", " dt ", " with ", " lt "}) {
    const auto k = item.find(kw);
    if (k != std::string::npos) end = std::min(end, k);
  }
  const auto expr = translate_expr(item.substr(0, end), false);
  if (!expr) return comment_out("curve not translated", item);
  const std::string label = label_arg(title_of(item));
  if (expr->find('x') == std::string::npos)
    return fmt::format("ax.axhline({}, ls='--', color='gray'{})\n", *expr, label);
  return fmt::format("ax.plot(x, {} + 0 * x, '--'{})\n", *expr, label);
}

// `set xrange [a:b]` / `set yrange [a:b]` (either end may be *), `set arrow from X, graph 0
// to X, graph 1` (a vertical marker). Styling lines (keys, palettes, formats) are skipped.
std::string extra_line(const std::string& line) {
  static const std::regex range(R"(^set ([xy])range \[\s*([^:\]]*)\s*:\s*([^\]]*)\s*\]$)");
  static const std::regex arrow(R"(^set arrow from ([-+0-9.eE]+), graph 0 to \1, graph 1.*$)");
  static const std::regex number(R"(^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$)");
  std::smatch m;
  if (std::regex_match(line, m, range)) {
    std::string args;
    const std::string lo = trim(m[2].str()), hi = trim(m[3].str());
    if (std::regex_match(lo, number)) args += "left=" + lo;
    if (std::regex_match(hi, number)) args += std::string(args.empty() ? "" : ", ") + "right=" + hi;
    if (args.empty()) return "";
    if (m[1] == "y") {
      std::string y = args;
      y = std::regex_replace(y, std::regex("left="), "bottom=");
      y = std::regex_replace(y, std::regex("right="), "top=");
      return "ax.set_ylim(" + y + ")\n";
    }
    return "ax.set_xlim(" + args + ")\n";
  }
  if (std::regex_match(line, m, arrow)) return fmt::format("ax.axvline({}, ls=':', color='gray')\n", m[1].str());
  return "";
}

}  // namespace akm::gnuplot_py
