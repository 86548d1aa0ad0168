#include "batch/progress.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

namespace idres::batch {
namespace {

constexpr int kBarWidth = 24;
constexpr auto kBarRedraw = std::chrono::milliseconds(100);

std::string Duration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  return s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
                   : fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

Progress::Progress(ProgressMode mode, std::string unit, std::chrono::milliseconds interval)
    : mode_(mode),
      unit_(std::move(unit)),
      interval_(interval),
      start_(std::chrono::steady_clock::now()) {
  if (mode_ == ProgressMode::kAuto) {
    mode_ = ::isatty(STDERR_FILENO) ? ProgressMode::kBar : ProgressMode::kPlain;
  }
}

std::string Progress::Render(const ProgressSnapshot& s, double elapsed, bool bar) const {
  double rate = elapsed > 0 ? static_cast<double>(s.done_this_run) / elapsed : 0.0;
  std::string text;
  if (bar && s.total > 0) {
    int filled = static_cast<int>(kBarWidth * static_cast<double>(s.done) / s.total);
    if (filled > kBarWidth) filled = kBarWidth;
    text = "[" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "] ";
  }
  if (s.total > 0) {
    text += fmt::format("{}/{} {} ({:.0f}%)", s.done, s.total, unit_,
                        100.0 * static_cast<double>(s.done) / s.total);
  } else {
    text += fmt::format("{} {}", s.done, unit_);
  }
  text += fmt::format("  {:.0f}/s", rate);
  if (s.total > s.done && rate > 0) {
    text += "  ETA " + Duration(static_cast<double>(s.total - s.done) / rate);
  }
  for (const auto& [name, count] : s.counters) {
    text += "  " + name + " " + std::to_string(count);
  }
  return text;
}

void Progress::Update(const ProgressSnapshot& snapshot) { Show(snapshot, false); }

void Progress::Finish(const ProgressSnapshot& snapshot) { Show(snapshot, true); }

void Progress::Show(const ProgressSnapshot& snapshot, bool final) {
  if (mode_ == ProgressMode::kOff) return;
  MutexLock lock(&mutex_);
  auto now = std::chrono::steady_clock::now();
  auto every = mode_ == ProgressMode::kBar ? std::chrono::milliseconds(kBarRedraw) : interval_;
  if (!final && shown_ && now - last_shown_ < every) return;
  if (!final && !shown_ && mode_ == ProgressMode::kPlain && now - start_ < interval_) return;
  shown_ = true;
  last_shown_ = now;
  double elapsed = std::chrono::duration<double>(now - start_).count();
  if (mode_ == ProgressMode::kBar) {
    // \x1b[K clears what a longer previous line left behind.
    std::fprintf(stderr, "\r%s\x1b[K%s", Render(snapshot, elapsed, true).c_str(),
                 final ? "\n" : "");
    std::fflush(stderr);
  } else {
    spdlog::info("progress: {}", Render(snapshot, elapsed, false));
  }
}

}  // namespace idres::batch
