// progress — see progress.hpp.
#include "akm/base/progress.hpp"

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

namespace akm {

std::string format_duration(double s) {
  if (!(s >= 0) || !std::isfinite(s)) return "?";
  const long long t = std::llround(s);
  if (t < 60) return fmt::format("{} s", t);
  if (t < 3600) return fmt::format("{} min {:02} s", t / 60, t % 60);
  return fmt::format("{} h {:02} min", t / 3600, (t % 3600) / 60);
}

RunProgress::RunProgress(std::size_t total, bool enabled)
    : total_(total), enabled_(enabled), start_(std::chrono::steady_clock::now()) {}

double RunProgress::eta_seconds(std::size_t done, std::size_t total, double elapsed) {
  if (done == 0 || done >= total) return done >= total ? 0.0 : NAN;
  return elapsed / static_cast<double>(done) * static_cast<double>(total - done);
}

void RunProgress::begin(std::size_t k, const std::string& id, const std::string& title) {
  if (!enabled_) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string timing;
  if (k > 0)
    timing = fmt::format("  · elapsed {} · ETA ~{}", format_duration(elapsed),
                         format_duration(eta_seconds(k, total_, elapsed)));
  std::fprintf(stderr, "[%zu/%zu] %s %s%s\n", k + 1, total_, id.c_str(), title.c_str(), timing.c_str());
  std::fflush(stderr);
}

CountProgress::CountProgress(std::string label, std::string unit, bool enabled)
    : label_(std::move(label)), unit_(std::move(unit)), enabled_(enabled),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

std::string CountProgress::line(long long done, long long total, double elapsed) const {
  const double pct = total > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0;
  std::string s = fmt::format("{}: {}/{} {} ({:.0f}%) · elapsed {}", label_, done, total, unit_, pct,
                              format_duration(elapsed));
  if (done > 0 && done < total)
    s += " · ETA ~" + format_duration(RunProgress::eta_seconds(static_cast<std::size_t>(done),
                                                                static_cast<std::size_t>(total), elapsed));
  return s;
}

void CountProgress::update(long long done, long long total) {
  if (!enabled_) return;
  std::lock_guard lock(mu_);
  if (finished_) return;
  const auto now = std::chrono::steady_clock::now();
  const bool end = done >= total;
  if (!end && drawn_ && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  drawn_ = true;
  finished_ = end;
  // \033[K clears what a longer previous line left.
  std::fprintf(stderr, "\r%s\033[K%s", line(done, total, std::chrono::duration<double>(now - start_).count()).c_str(),
               end ? "\n" : "");
  std::fflush(stderr);
}

}  // namespace akm
