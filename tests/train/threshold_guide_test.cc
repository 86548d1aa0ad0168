#include "train/threshold_guide.h"

#include <catch2/catch.hpp>

#include "tests/train/synthetic.h"
#include "train/training.h"

namespace idres::train {
namespace {

TEST_CASE("the guide counts pairs per threshold and suggests one that keeps precision", "[train]") {
  const Model model = Model::Defaults();
  RecordTable table(model);
  Random random(2);
  for (const testing::Person& p : testing::People(200, 4)) {
    for (int i = 0; i < 2; ++i) table.Add(testing::RecordOf(p, random, 0.2));
  }
  const BlockingKeys keys(table, model);
  auto trained = Train(table, keys, model, {});
  REQUIRE(std::holds_alternative<Training>(trained));
  const Training& t = std::get<Training>(trained);
  const ThresholdGuide guide = GuideThreshold(table, keys, t.model, t.prior.lambda, {});
  REQUIRE_FALSE(guide.rows.empty());
  CHECK(guide.scored == guide.candidates);
  for (std::size_t i = 1; i < guide.rows.size(); ++i) {
    CHECK(guide.rows[i].threshold == guide.rows[i - 1].threshold + 0.5);
    CHECK(guide.rows[i].pairs <= guide.rows[i - 1].pairs);
    CHECK(guide.rows[i].recall <= guide.rows[i - 1].recall);
  }
  REQUIRE(guide.suggested);
  for (const ThresholdRow& r : guide.rows) {
    if (r.threshold >= *guide.suggested && r.pairs > 0) CHECK(r.precision >= 0.99);
  }
  const std::string text = GuideTable(guide, t.model.threshold);
  CHECK_THAT(text, Catch::Contains("<- suggested"));
  CHECK_THAT(text, Catch::Contains("<- the model's"));
}

}  // namespace
}  // namespace idres::train
