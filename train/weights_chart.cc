#include "train/weights_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "train/format.h"

namespace idres::train {
namespace {

constexpr double kLabelWidth = 260, kPlotWidth = 520, kRow = 18, kTop = 56, kMaxWeight = 30;

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// The weights' span, symmetric enough to show both sides; bars past
// kMaxWeight are cut there (a weight of -40 says no more than -30 would).
struct Scale {
  double low, high;
  double X(double w) const {
    const double c = std::clamp(w, low, high);
    return kLabelWidth + (c - low) / (high - low) * kPlotWidth;
  }
};

Scale ScaleOf(const std::vector<ChartComparison>& comparisons, double prior) {
  double low = -1, high = 1;
  const auto widen = [&](double w) {
    if (!std::isfinite(w)) return;
    low = std::min(low, std::max(w, -kMaxWeight));
    high = std::max(high, std::min(w, kMaxWeight));
  };
  widen(prior);
  for (const auto& c : comparisons) {
    for (const auto& l : c.levels) {
      widen(l.weight);
      widen(l.start_weight);
    }
  }
  return {std::floor(low) - 1, std::ceil(high) + 1};
}

std::string Bar(const Scale& s, double y, const std::string& label, double weight,
                const char* colour) {
  const double x0 = s.X(0), x1 = s.X(weight);
  std::string out = Format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                           kLabelWidth - 8, y + 12, Escape(label).c_str());
  out += Format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
                std::min(x0, x1), y + 2, std::abs(x1 - x0), kRow - 4, colour);
  out += Format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"10\">%.2f</text>\n",
                weight >= 0 ? x1 + 4 : x1 - 4, y + 12, weight >= 0 ? "start" : "end", weight);
  return out;
}

std::string StartMark(const Scale& s, double y, double weight) {
  if (!std::isfinite(weight)) return {};
  const double x = s.X(weight), c = y + kRow / 2;
  return Format("<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" fill=\"#000\"/>\n", x, c - 5);
}

std::string Axis(const Scale& s, double bottom) {
  std::string out;
  for (double w = std::ceil(s.low / 5) * 5; w <= s.high; w += 5) {
    const double x = s.X(w);
    out += Format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x,
                  kTop - 6, x, bottom, w == 0 ? "#000" : "#ddd");
    out += Format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%g</text>\n",
                  x, kTop - 10, w);
  }
  return out;
}

}  // namespace

std::string MatchWeightsSvg(const std::vector<ChartComparison>& comparisons, double prior,
                            const std::string& title) {
  const Scale s = ScaleOf(comparisons, prior);
  std::string body;
  double y = kTop;
  if (std::isfinite(prior)) {
    body += Bar(s, y, "prior (two random records)", prior, "#888");
    y += kRow * 1.5;
  }
  for (const ChartComparison& c : comparisons) {
    body += Format("<text x=\"8\" y=\"%.1f\" font-weight=\"bold\">%s</text>\n", y + 12,
                   Escape(c.type).c_str());
    y += kRow;
    for (const ChartLevel& l : c.levels) {
      const char* colour = l.kept ? "#bbb" : l.weight >= 0 ? "#2e7d32" : "#c62828";
      body += Bar(s, y, l.name, l.weight, colour) + StartMark(s, y, l.start_weight);
      y += kRow;
    }
    y += kRow / 2;
  }
  const double height = y + 40;
  std::string out = Format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
      "fill=\"#fff\"/>\n<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">%s</text>\n",
      kLabelWidth + kPlotWidth + 60, height, Escape(title).c_str());
  out += Axis(s, y) + body;
  out += Format(
      "<text x=\"8\" y=\"%.1f\" font-size=\"11\">bar: weight log2(m/u), against to the left, for "
      "to the right; diamond: starting weight; grey: a starting number kept (no pair "
      "reached the level)</text>\n</svg>\n",
      y + 24);
  return out;
}

}  // namespace idres::train
