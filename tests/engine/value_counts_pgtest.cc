// The count of a value's holders (docs/design.md, "The count of a value's
// holders"): appended by the writers, folded by the keeper, exact whether a
// fold ran or not and while folds run beside the writers.
#include <atomic>
#include <catch2/catch.hpp>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "tests/engine/engine_fixture.h"
#include "tests/engine/records_check.h"

namespace idres::testing {
namespace {

constexpr const char* kSpringfield =
    "SELECT COALESCE((SELECT n FROM value_counts WHERE h = idres_value_hash('city', "
    "'springfield')),"
    " 0) + COALESCE((SELECT sum(d) FROM value_count_deltas"
    " WHERE h = idres_value_hash('city', 'springfield')), 0)";

// Person `n` of thread work: first its email, then its phone (a second
// person), then both (the two merge: the city's holders go down by one).
void Person(Engine& engine, int n, std::atomic<int>& failures) {
  const std::string id = std::to_string(n);
  const std::string email = "p" + id + "@x.org";
  const std::string phone = "+49170" + std::to_string(1000000 + n);
  for (const Record& r : {Rec({{"email", email}, {"city", "Springfield"}}),
                          Rec({{"phone", phone}, {"city", "Springfield"}}),
                          Rec({{"email", email}, {"phone", phone}})}) {
    if (!engine.Upsert(r).ok()) ++failures;
  }
}

TEST_CASE("a value's count follows creates, merges and removals, folded or not", "[pg][engine]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  std::atomic<int> failures{0};
  for (int n = 0; n < 5; ++n) Person(*engine, n, failures);
  REQUIRE(failures == 0);
  CHECK(StoreInconsistency(db).empty());
  CHECK(db.Count(kSpringfield) == 5);
  REQUIRE(EngineTesting::FoldCounts(*engine));
  CHECK(db.Count("SELECT count(*) FROM value_count_deltas") == 0);
  CHECK(db.Count(kSpringfield) == 5);
  // A fold that meets nothing changes nothing.
  REQUIRE(EngineTesting::FoldCounts(*engine));
  CHECK(db.Count(kSpringfield) == 5);
  CHECK(StoreInconsistency(db).empty());
}

// Twelve writers released at once, each creating and merging persons of one
// city, while the keeper folds over and over: every fold takes exactly the
// deltas committed before it, so none is counted twice or lost.
TEST_CASE("value counts stay exact while writers of one city and folds run at once",
          "[pg][engine]") {
  TestDatabase db;
  constexpr int kWriters = 12, kEach = 10;
  auto engine = MakeEngine(db, kWriters + 1);
  std::latch start(kWriters + 1);
  std::atomic<int> running{kWriters}, failures{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      start.arrive_and_wait();
      for (int i = 0; i < kEach; ++i) Person(*engine, w * kEach + i, failures);
      --running;
    });
  }
  start.arrive_and_wait();
  int folds = 0;
  while (running > 0) {
    EngineTesting::FoldCounts(*engine);
    ++folds;
  }
  for (std::thread& t : writers) t.join();
  REQUIRE(failures == 0);
  INFO(folds << " folds");
  CHECK(folds > 1);
  CHECK(PersonCount(db) == kWriters * kEach);
  CHECK(db.Count(kSpringfield) == kWriters * kEach);
  CHECK(StoreInconsistency(db).empty());
  REQUIRE(EngineTesting::FoldCounts(*engine));
  CHECK(db.Count("SELECT n FROM value_counts WHERE h = idres_value_hash('city', 'springfield')") ==
        kWriters * kEach);
  CHECK(StoreInconsistency(db).empty());
}

}  // namespace
}  // namespace idres::testing
