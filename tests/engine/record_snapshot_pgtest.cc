#include "engine/record_snapshot.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/errors.h"
#include "tests/engine/engine_fixture.h"

namespace idres::testing {
namespace {

Record Named(const std::string& record_id,
             std::initializer_list<std::pair<const char*, std::string>> ids) {
  Record r = Rec(ids);
  r.source = "crm";
  r.record_id = record_id;
  return r;
}

TEST_CASE("record snapshot: every record's values, oldest first, the count first",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 1);
  REQUIRE(engine->Upsert(Named("a", {{"email", "anna@x.org"}, {"name", "Anna Weber"}})).ok());
  REQUIRE(engine->Upsert(Named("b", {{"phone", "+49 170 1234567"}})).ok());
  std::uint64_t count = 0;
  std::vector<std::vector<Identifier>> seen;
  ReadRecordSnapshot(
      db.url(), [&](std::uint64_t n) { count = n; },
      [&](std::vector<Identifier>&& values) { seen.push_back(std::move(values)); });
  CHECK(count == 2);
  CHECK(seen ==
        std::vector<std::vector<Identifier>>{{{"email", "anna@x.org"}, {"name", "anna weber"}},
                                             {{"phone", "+491701234567"}}});
}

TEST_CASE("record snapshot: one moment of a changing store, and no writer waits for it",
          "[pg][records]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  REQUIRE(engine->Upsert(Named("a", {{"email", "anna@x.org"}})).ok());
  REQUIRE(engine->Upsert(Named("b", {{"email", "ben@x.org"}})).ok());
  std::vector<std::vector<Identifier>> seen;
  ReadRecordSnapshot(
      db.url(),
      [&](std::uint64_t) {
        // Written once the snapshot is taken: not part of it.
        REQUIRE(engine->Upsert(Named("c", {{"email", "clara@x.org"}})).ok());
      },
      [&](std::vector<Identifier>&& values) {
        if (seen.empty()) {
          // Mid-read, the transaction open: a record replaced and one
          // deleted, each at once (the engine's lock timeout is 2 s).
          REQUIRE(engine->Upsert(Named("a", {{"email", "anna.new@x.org"}})).ok());
          REQUIRE(engine->DeleteRecord("crm", "b"));
        }
        seen.push_back(std::move(values));
      });
  CHECK(seen ==
        std::vector<std::vector<Identifier>>{{{"email", "anna@x.org"}}, {{"email", "ben@x.org"}}});
  CHECK(db.Count("SELECT count(*) FROM records") == 2);  // a (replaced) and c
}

TEST_CASE("record snapshot: a database idres never migrated is no store", "[pg][records]") {
  TestDatabase empty(TestDatabase::Contents::kEmpty);
  CHECK_THROWS_AS(ReadRecordSnapshot(
                      empty.url(), [](std::uint64_t) {}, [](std::vector<Identifier>&&) {}),
                  StoreError);
}

}  // namespace
}  // namespace idres::testing
