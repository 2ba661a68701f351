// gnuplot_items — what the matplotlib redraw of a figure (notebook_plot.cpp) takes from
// gnuplot: the raw plot items and `set` lines of a figure spec, translated to Python when
// they can be exactly, else left as comments (private to src/report).
#pragma once
#include <string>

namespace akm::gnuplot_py {

/// s as a Python string literal.
std::string py_str(const std::string& s);
/// s without leading and trailing spaces and tabs.
std::string trim(const std::string& s);
/// `'file.csv' every ::1 using … with STYLE … title '…'`: Python that draws it on `ax` from
/// `data`, or a comment when the columns or the style do not translate.
std::string csv_item(const std::string& item);
/// `EXPR title '…' …`: a curve in `x` over the visible range, or a comment.
std::string function_item(const std::string& item);
/// `set xrange` / `set yrange` / a vertical `set arrow`: the matching call; "" for the rest.
std::string extra_line(const std::string& line);

}  // namespace akm::gnuplot_py
