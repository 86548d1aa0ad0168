#include "train/training.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "matcher/model_file.h"
#include "tests/train/synthetic.h"
#include "train/report.h"

namespace idres::train {
namespace {

// 300 people, one to four records each (a fifth with a typo in the name or
// the date).
RecordTable Records(const Model& model) {
  RecordTable table(model);
  Random random(11);
  for (const testing::Person& p : testing::People(300, 5)) {
    const int copies = 1 + static_cast<int>(random.Below(4));
    for (int i = 0; i < copies; ++i) table.Add(testing::RecordOf(p, random, 0.2));
  }
  return table;
}

// Every level's m = u: every weight 0.
Model Flat() {
  Model model = Model::Defaults();
  for (auto& [name, type] : model.types) {
    for (Level& l : type.levels) l.m = l.u;
  }
  return model;
}

Training MustTrain(const RecordTable& table, const Model& start, const TrainOptions& o = {}) {
  const BlockingKeys keys(table, start);
  auto result = Train(table, keys, start, o);
  if (auto* e = std::get_if<std::string>(&result)) FAIL(*e);
  return std::get<Training>(std::move(result));
}

const LevelFit& LevelOf(const Training& t, const std::string& type, const std::string& level) {
  for (const ComparisonFit& c : t.comparisons) {
    for (const LevelFit& l : c.levels) {
      if (c.type == type && l.name == level) return l;
    }
  }
  FAIL("no level " + type + " " + level);
  throw;
}

std::string TrainError(const RecordTable& table, const Model& start, const TrainOptions& o = {}) {
  const BlockingKeys keys(table, start);
  auto result = Train(table, keys, start, o);
  REQUIRE(std::holds_alternative<std::string>(result));
  return std::get<std::string>(result);
}

TEST_CASE("training finds evidence for agreement and against disagreement", "[train]") {
  const RecordTable table = Records(Model::Defaults());
  const Training t = MustTrain(table, Model::Defaults());
  CHECK(LevelOf(t, "name", "exact").weight() > 8);
  CHECK(LevelOf(t, "name", "different").weight() < -2);
  CHECK(LevelOf(t, "birth_date", "exact").weight() > LevelOf(t, "birth_date", "one_off").weight());
  CHECK(LevelOf(t, "birth_date", "different").weight() < 0);
  CHECK(LevelOf(t, "email", "exact").weight() > 8);
  CHECK(t.prior.lambda > 0);
  for (const RuleRun& r : t.runs) {
    if (r.unused.empty()) CHECK(r.last_change < TrainOptions{}.tolerance);
  }
  // The fitted model is a usable one.
  CHECK(t.model.Problem().empty());
}

TEST_CASE("a level no pair reached keeps its starting numbers, and says so", "[train]") {
  const Model start = Model::Defaults();
  const Training t = MustTrain(Records(start), start);
  const LevelFit& suffix = LevelOf(t, "name", "suffix_differs");  // no Jr or Sr in the data
  CHECK(suffix.m_kept);
  CHECK(suffix.u_kept);
  CHECK(suffix.m == start.Find("name")->levels[10].m);
  CHECK(suffix.u == start.Find("name")->levels[10].u);
  const LevelFit& exact = LevelOf(t, "name", "exact");
  CHECK_FALSE(exact.m_kept);
  CHECK_FALSE(exact.u_kept);
  const auto notes = TrainingNotes(t);
  CHECK(notes.at("name")[10].find("starting m kept") != std::string::npos);
  CHECK(notes.at("passport")[0].find("not in the data") != std::string::npos);
}

TEST_CASE("training from a flat model finds the same weights as from the built-in one", "[train]") {
  const RecordTable table = Records(Model::Defaults());
  const Training from_defaults = MustTrain(table, Model::Defaults());
  const Training from_flat = MustTrain(table, Flat());
  std::printf("%s\n-----\n%s\n", TrainingTable(from_defaults).c_str(),
              TrainingTable(from_flat).c_str());
  // Every level the data reached; the others keep their (different)
  // starting numbers.
  int compared = 0;
  for (std::size_t c = 0; c < from_flat.comparisons.size(); ++c) {
    for (std::size_t l = 0; l < from_flat.comparisons[c].levels.size(); ++l) {
      const LevelFit& a = from_flat.comparisons[c].levels[l];
      const LevelFit& b = from_defaults.comparisons[c].levels[l];
      REQUIRE(a.m_kept == b.m_kept);
      if (a.m_kept || a.u_kept) continue;
      ++compared;
      CHECK(a.weight() == Approx(b.weight()).margin(0.01));
    }
  }
  CHECK(compared >= 10);
}

TEST_CASE("the same records and seed train the same model, byte for byte", "[train]") {
  const RecordTable table = Records(Model::Defaults());
  TrainOptions o;
  o.random_pairs = 20000;  // fewer than all pairs: the seed chooses them
  const auto text = [&](std::uint64_t seed) {
    o.seed = seed;
    const Training t = MustTrain(table, Model::Defaults(), o);
    return ModelToToml(t.model, TrainingNotes(t)) + TrainingTable(t);
  };
  const std::string a = text(1);
  CHECK(text(1) == a);
  CHECK(text(2) != a);
}

TEST_CASE("training refuses data it cannot learn from, saying why", "[train]") {
  const Model model = Model::Defaults();
  RecordTable one(model);
  one.Add(std::vector<Identifier>{{"name", "anna weber"}});
  CHECK_THAT(TrainError(one, model), Catch::Contains("no pairs"));

  RecordTable strangers(model);  // no blocking key shared
  strangers.Add(std::vector<Identifier>{{"name", "anna weber"}, {"email", "anna@x.org"}});
  strangers.Add(std::vector<Identifier>{{"name", "ben koch"}, {"email", "koch@y.org"}});
  CHECK_THAT(TrainError(strangers, model),
             Catch::Contains("no pairs: the blocking rules bring no two records together"));

  RecordTable no_prior(model);  // no strong value, no name with a date
  no_prior.Add(std::vector<Identifier>{{"name", "anna weber"}, {"city", "berlin"}});
  no_prior.Add(std::vector<Identifier>{{"name", "anna weber"}, {"city", "berlin"}});
  CHECK_THAT(TrainError(no_prior, model), Catch::Contains("--prior"));
}

TEST_CASE("a comparison the records hold that no run can estimate is an error", "[train]") {
  Model model = Model::Defaults();
  // The one rule blocks on the date and the city; the email, the only
  // other value, belongs to the city's group: nothing independent is left.
  model.blocking = {{"date_city", {"birth_date.value", "city.value"}}};
  RecordTable table(model);
  Random random(3);
  for (const testing::Person& p : testing::People(50, 9)) {
    for (int i = 0; i < 2; ++i) {
      table.Add(
          std::vector<Identifier>{{"birth_date", p.date}, {"city", p.city}, {"email", p.email}});
    }
  }
  CHECK_THAT(TrainError(table, model), Catch::Contains("has no pairs"));
}

TEST_CASE("a given prior replaces the deterministic rule's estimate", "[train]") {
  TrainOptions o;
  o.prior = 0.01;
  const Training t = MustTrain(Records(Model::Defaults()), Model::Defaults(), o);
  CHECK(t.prior.lambda == 0.01);
}

}  // namespace
}  // namespace idres::train
