#include "api/service/histogram.h"

#include <algorithm>
#include <charconv>

namespace idres::api {
namespace {

// Shortest text that reads back as `v` ("0.0005", not "0.00050000000000000001").
std::string FormatDouble(double v) {
  char buf[32];
  const auto result = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, result.ptr);
}

std::string WithLabels(std::string_view labels, std::string_view extra) {
  std::string out(labels);
  if (!out.empty() && !extra.empty()) out += ',';
  out += extra;
  return out.empty() ? "" : "{" + out + "}";
}

}  // namespace

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)),
      counts_(std::make_unique<std::atomic<std::uint64_t>[]>(bounds_.size() + 1)) {
  std::sort(bounds_.begin(), bounds_.end());
}

void Histogram::Observe(double value) {
  const auto it = std::lower_bound(bounds_.begin(), bounds_.end(), value);
  counts_[it - bounds_.begin()].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  double sum = sum_.load(std::memory_order_relaxed);
  while (!sum_.compare_exchange_weak(sum, sum + value, std::memory_order_relaxed)) {
  }
}

std::string Histogram::Render(std::string_view name, std::string_view labels) const {
  std::string out;
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i <= bounds_.size(); ++i) {
    cumulative += counts_[i].load(std::memory_order_relaxed);
    const std::string le = i < bounds_.size() ? FormatDouble(bounds_[i]) : "+Inf";
    out += std::string(name) + "_bucket" + WithLabels(labels, "le=\"" + le + "\"") + " " +
           std::to_string(cumulative) + "\n";
  }
  out += std::string(name) + "_sum" + WithLabels(labels, "") + " " +
         FormatDouble(sum_.load(std::memory_order_relaxed)) + "\n";
  out += std::string(name) + "_count" + WithLabels(labels, "") + " " +
         std::to_string(count_.load(std::memory_order_relaxed)) + "\n";
  return out;
}

std::vector<double> Histogram::LatencyBounds() {
  return {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
}

}  // namespace idres::api
