// When persons merge, a trait key several of them hold takes the value of
// the one written last. "Last" is when the write happened, after every lock
// wait: a transaction that began first but waited on a lock commits later.
#include <algorithm>
#include <catch2/catch.hpp>
#include <future>
#include <pqxx/pqxx>
#include <string>

#include "engine/engine.h"
#include "normalize/lock_key.h"
#include "tests/engine/engine_fixture.h"

namespace idres::testing {
namespace {

TEST_CASE("a merge keeps the trait written last, also when its write waited on a lock",
          "[pg][engine]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const std::int64_t a =
      engine->Upsert(Rec({{"email", "a@example.com"}}, {{"tier", std::string("a0")}})).person_id;
  const std::int64_t b =
      engine->Upsert(Rec({{"email", "b@example.com"}}, {{"tier", std::string("b0")}})).person_id;

  // The write to `a` begins first and waits for a key another session holds.
  pqxx::connection holder(db.url());
  pqxx::nontransaction h(holder);
  h.exec("BEGIN");
  h.exec("SELECT pg_advisory_xact_lock(" + std::to_string(LockKey("email", "a@example.com")) + ")");
  auto late = std::async(std::launch::async, [&] {
    return engine->Upsert(Rec({{"email", "a@example.com"}}, {{"tier", std::string("last")}}));
  });
  AwaitLockWaiter(db, late);
  // Meanwhile `b` is written, and committed.
  REQUIRE(
      engine->Upsert(Rec({{"email", "b@example.com"}}, {{"tier", std::string("first")}})).outcome ==
      Outcome::kUpdated);
  h.exec("ROLLBACK");
  REQUIRE(late.get().outcome == Outcome::kUpdated);

  const UpsertResult merged =
      engine->Upsert(Rec({{"email", "a@example.com"}, {"email", "b@example.com"}}));
  REQUIRE(merged.outcome == Outcome::kMerged);
  const auto person = engine->GetPerson(merged.person_id);
  REQUIRE(person);
  CHECK(std::get<std::string>(person->traits.at("tier")) == "last");
  CHECK(merged.person_id == std::min(a, b));
}

}  // namespace
}  // namespace idres::testing
