// The floors of `idres train` on the shared data sets, through the real
// database path: a set imported into a store, the real `idres train`
// binary learning from that store (a snapshot read), and the set imported
// again into a fresh store with the trained model. A trained model must do
// at least as well as the built-in one, less 0.01 of F1; trained from a
// flat model (every weight 0) it must still find its way. Each set is a
// test case of its own: a 2-core machine runs them in minutes.
#include <catch2/catch.hpp>

#include "tests/support/idres_process.h"
#include "tests/support/temp_dir.h"
#include "tests/train/labelled_sets.h"

namespace idres::testing {
namespace {

// `idres train` from the store at `url`, from `start` (empty: built in),
// writing `out`; the test fails with its log when it does not exit 0.
void TrainFromStore(const std::string& url, const std::string& start, const std::string& out,
                    const TempDir& dir) {
  std::vector<std::string> args{IdresBinary(), "train", "--database-url", url,
                                "--out",       out,     "--seed",         "1"};
  if (!start.empty()) {
    args.push_back("--model");
    args.push_back(start);
  }
  const std::string log = dir.File("train.log");
  INFO(ReadFile(log));
  REQUIRE(RunToEnd(args, log) == 0);
}

// Every level's m = u: every weight 0.
std::string FlatModel(const TempDir& dir) {
  Model model = Model::Defaults();
  for (auto& [name, type] : model.types) {
    for (Level& l : type.levels) l.m = l.u;
  }
  return dir.Write("flat.toml", ModelToToml(model));
}

void CheckTrainedAtLeastDefault(const LabelledSet& set) {
  TempDir dir;
  const auto truth = Truth(set);
  TestDatabase built_in;
  Import(built_in.url(), set, "");
  const Accuracy before = Measure(built_in, truth, set.file + " built-in model");
  const std::string trained = dir.File("trained.toml");
  TrainFromStore(built_in.url(), "", trained, dir);
  TestDatabase again;
  Import(again.url(), set, trained);
  const Accuracy after = Measure(again, truth, set.file + " trained from its store");
  CHECK(after.f1() >= before.f1() - 0.01);
}

void CheckFlatStart(const LabelledSet& set, double floor) {
  TempDir dir;
  const auto truth = Truth(set);
  const std::string flat = FlatModel(dir);
  TestDatabase store;
  Import(store.url(), set, flat);
  const std::string trained = dir.File("trained.toml");
  TrainFromStore(store.url(), flat, trained, dir);
  TestDatabase again;
  Import(again.url(), set, trained);
  CHECK(Measure(again, truth, set.file + " trained from a flat model").f1() >= floor);
}

TEST_CASE("splink_fake_1000: trained from its store, F1 at least the built-in model's - 0.01",
          "[pg][train][accuracy]") {
  CheckTrainedAtLeastDefault(Fake1000());
}

TEST_CASE("FEBRL 1: trained from its store, F1 at least the built-in model's - 0.01",
          "[pg][train][accuracy]") {
  CheckTrainedAtLeastDefault(Febrl(1));
}

TEST_CASE("FEBRL 2: trained from its store, F1 at least the built-in model's - 0.01",
          "[pg][train][accuracy]") {
  CheckTrainedAtLeastDefault(Febrl(2));
}

TEST_CASE("FEBRL 3: trained from its store, F1 at least the built-in model's - 0.01",
          "[pg][train][accuracy]") {
  CheckTrainedAtLeastDefault(Febrl(3));
}

TEST_CASE("historical figures: trained from its store, F1 at least the built-in model's - 0.01",
          "[pg][train][accuracy]") {
  CheckTrainedAtLeastDefault(HistoricalFigures());
}

TEST_CASE("splink_fake_1000: trained from a flat model, F1 at least 0.90",
          "[pg][train][accuracy]") {
  CheckFlatStart(Fake1000(), 0.90);
}

TEST_CASE("FEBRL 3: trained from a flat model, F1 at least 0.95", "[pg][train][accuracy]") {
  CheckFlatStart(Febrl(3), 0.95);
}

}  // namespace
}  // namespace idres::testing
