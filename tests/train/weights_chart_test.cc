#include "train/weights_chart.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace idres::train {
namespace {

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const std::vector<ChartComparison> kChart = {
    {"name", {{"exact", 12.5, 10.7, false}, {"different", -6.6, -3.3, false}}},
    {"e<mail>", {{"exact", 11, 11, false}, {"one_edit", 40, 5.6, true}}},
};

TEST_CASE("a bar per level, its starting weight marked, negative to the left", "[train]") {
  const std::string svg = MatchWeightsSvg(kChart, -8.6, "weights & more");
  CHECK_THAT(svg, Catch::StartsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK_THAT(svg, Catch::EndsWith("</svg>\n"));
  CHECK(Count(svg, "<rect ") == 1 + 1 + 4);  // background, prior, four levels
  CHECK(Count(svg, "<path ") == 4);          // the starting weights
  CHECK_THAT(svg, Catch::Contains("e&lt;mail&gt;"));
  CHECK_THAT(svg, Catch::Contains("weights &amp; more"));
  CHECK_THAT(svg, Catch::Contains("fill=\"#c62828\""));  // against
  CHECK_THAT(svg, Catch::Contains("fill=\"#2e7d32\""));  // for
  CHECK_THAT(svg, Catch::Contains("fill=\"#bbb\""));     // kept
  CHECK_THAT(svg, Catch::Contains(">-6.60<"));
  CHECK(MatchWeightsSvg(kChart, -8.6, "weights & more") == svg);
}

TEST_CASE("without a prior or starting weights the chart draws the weights alone", "[train]") {
  std::vector<ChartComparison> chart = kChart;
  for (auto& c : chart) {
    for (auto& l : c.levels) l.start_weight = std::nan("");
  }
  const std::string svg = MatchWeightsSvg(chart, std::nan(""), "served");
  CHECK(Count(svg, "<rect ") == 1 + 4);
  CHECK(Count(svg, "<path ") == 0);
}

}  // namespace
}  // namespace idres::train
