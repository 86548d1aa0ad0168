#include "train/report.h"

#include <catch2/catch.hpp>

#include "matcher/model_file.h"

namespace idres::train {
namespace {

// A training of one comparison, by hand.
Training Example() {
  Training t;
  t.model = Model::Defaults();
  t.records = 1000;
  t.random_pairs = 499500;
  t.every_pair = true;
  t.prior = {0.0025, 757, 0.6, 499500};
  RuleRun run;
  run.rule = "name_phonetic_city";
  run.blocked = {"city", "name"};
  run.candidate_pairs = 1281;
  run.pairs = 834;
  run.iterations = 9;
  run.last_change = 8.5e-5;
  run.lambda = 0.74;
  t.runs.push_back(run);
  RuleRun unused = run;
  unused.rule = "name_phonetic_year";
  unused.unused = "fewer than two evidence groups left to compare";
  t.runs.push_back(unused);
  t.empty_rules = {"street"};
  ComparisonFit c;
  c.type = "birth_date";
  c.rules = {"name_phonetic_city"};
  c.random_compared = 490000;
  for (const Level& l : t.model.Find("birth_date")->levels) {
    LevelFit f{l.name, l.m, l.u, l.m, l.u, 10, 11, 100, 90.5};
    c.levels.push_back(f);
  }
  c.levels[1].m_kept = true;
  c.levels[1].rule_pairs = 0;
  t.comparisons.push_back(c);
  ComparisonFit absent;
  absent.type = "passport";
  t.comparisons.push_back(absent);
  return t;
}

TEST_CASE("the table shows the runs, every level's numbers and what was kept", "[train]") {
  const std::string table = TrainingTable(Example());
  CHECK_THAT(table, Catch::Contains("1000 records; u from all 499500 random pairs"));
  CHECK_THAT(table, Catch::Contains("name_phonetic_city"));
  CHECK_THAT(table, Catch::Contains("not used: fewer than two evidence groups"));
  CHECK_THAT(table, Catch::Contains("rules with no pair: street"));
  CHECK_THAT(table, Catch::Contains("birth_date: m from name_phonetic_city"));
  CHECK_THAT(table, Catch::Contains("day_month_swapped"));
  CHECK_THAT(table, Catch::Contains("* no pair reached the level"));
  CHECK_THAT(table, Catch::Contains("passport: no two records hold it"));
}

TEST_CASE("the model file carries each level's starting weight and pairs", "[train]") {
  const Training t = Example();
  const std::string file =
      TrainingPreamble(t, "fake.csv", 7) + ModelToToml(t.model, TrainingNotes(t));
  CHECK_THAT(file,
             Catch::StartsWith("# Fitted by idres train from fake.csv: 1000 records, seed 7"));
  CHECK_THAT(file, Catch::Contains("# weight 13.48; start 13.48, pairs: 10.0 matching of 11 "
                                   "candidate, 100 random (90.5 strangers)"));
  CHECK_THAT(file, Catch::Contains("starting m kept"));
  // Still a model file that reads back to the same model.
  auto parsed = ParseModel(file);
  REQUIRE(std::holds_alternative<Model>(parsed));
  CHECK(ModelToToml(std::get<Model>(parsed)) == ModelToToml(t.model));
}

TEST_CASE("the chart has the comparisons the data holds", "[train]") {
  const auto chart = ChartOf(Example());
  REQUIRE(chart.size() == 1);
  CHECK(chart[0].type == "birth_date");
  CHECK(chart[0].levels.size() == Model::Defaults().Find("birth_date")->levels.size());
  CHECK(chart[0].levels[1].kept);
  CHECK_FALSE(chart[0].levels[0].kept);
}

}  // namespace
}  // namespace idres::train
