// BatchUpsert with receipts: a batch sent again after a crash applies each
// record once, also records that carry no identifier strong enough to match
// themselves (which would otherwise become a second person).
#include <catch2/catch.hpp>

#include "engine/engine.h"
#include "tests/engine/engine_fixture.h"

namespace idres::testing {
namespace {

std::vector<Record> UnmatchableAndStrong() {
  // A postal code alone finds no one (no key, no lookup): applied twice, it
  // is two persons.
  return {Rec({{"postal_code", "10115"}}),
          Rec({{"email", "ada@example.com"}, {"phone", "not a phone"}})};
}

TEST_CASE("a batch sent again with its receipt is applied once", "[pg][engine][batch]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const std::vector<Record> records = UnmatchableAndStrong();
  const BatchReceipt receipt{42, {100, 200}};

  const auto first = engine->BatchUpsert(records, receipt);
  REQUIRE(first.size() == 2);
  CHECK(first[0].outcome == Outcome::kCreated);
  CHECK(first[1].outcome == Outcome::kCreated);
  REQUIRE(PersonCount(db) == 2);

  const auto again = engine->BatchUpsert(records, receipt);
  CHECK(again[0].outcome == Outcome::kUnchanged);
  CHECK(again[1].outcome == Outcome::kUnchanged);
  // The rejected identifier is reported again, so dead letters match.
  REQUIRE(again[1].rejected.size() == 1);
  CHECK(again[1].rejected[0].type == "phone");
  CHECK(PersonCount(db) == 2);

  // Without the receipt the unmatchable record is applied again: the
  // duplicate the receipt prevents.
  engine->BatchUpsert(records);
  CHECK(PersonCount(db) == 3);
}

TEST_CASE("receipts are per job and can be forgotten", "[pg][engine][batch]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  const std::vector<Record> records = UnmatchableAndStrong();
  engine->BatchUpsert(records, BatchReceipt{1, {100, 200}});
  engine->BatchUpsert(records, BatchReceipt{2, {100, 200}});
  CHECK(PersonCount(db) == 3);  // job 2 had no receipt: the weak record twice
  engine->ForgetReceipts(1);
  CHECK(db.Count("SELECT count(*) FROM import_receipts WHERE job = 1") == 0);
  CHECK(db.Count("SELECT count(*) FROM import_receipts WHERE job = 2") == 2);
}

TEST_CASE("a receipt needs one item per record", "[pg][engine][batch]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  CHECK_THROWS_AS(engine->BatchUpsert(UnmatchableAndStrong(), BatchReceipt{1, {100}}),
                  std::invalid_argument);
}

}  // namespace
}  // namespace idres::testing
