// The change feed (Engine::ListChanges, docs/batch.md "The change feed"): which
// changes each write path appends, in which order, and that positions are
// dense, bounded per call and kept by the store.
#include <catch2/catch.hpp>

#include <vector>

#include "engine/detail/change_log.h"
#include "engine/detail/pool.h"
#include "engine/detail/tx.h"
#include "engine/engine.h"
#include "tests/engine/change_feed.h"
#include "tests/engine/engine_fixture.h"

namespace idres::testing {
namespace {

using K = ChangeKind;

std::vector<Record> Emails(const std::string& prefix, int n) {
  std::vector<Record> out;
  for (int i = 0; i < n; ++i)
    out.push_back(Rec({{"email", prefix + std::to_string(i) + "@x.org"}}));
  return out;
}

TEST_CASE("single upserts append created, updated and merged changes, unchanged ones nothing",
          "[pg][changes]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  const std::int64_t a = engine->Upsert(Rec({{"email", "a@x.org"}})).person_id;
  REQUIRE(engine->Upsert(Rec({{"email", "a@x.org"}})).outcome == Outcome::kUnchanged);
  REQUIRE(engine->Upsert(Rec({{"email", "a@x.org"}}, {{"plan", "pro"}})).outcome ==
          Outcome::kUpdated);
  const std::int64_t b = engine->Upsert(Rec({{"cookie", "k1"}})).person_id;
  const UpsertResult merged = engine->Upsert(Rec({{"email", "a@x.org"}, {"cookie", "k1"}}));
  REQUIRE(merged.outcome == Outcome::kMerged);
  REQUIRE(merged.person_id == a);

  const std::vector<Change> all = AllChanges(*engine);
  CHECK(SaidBy(all) == std::vector<Said>{{a, K::kCreated, 0},
                                         {a, K::kUpdated, 0},
                                         {b, K::kCreated, 0},
                                         {b, K::kMerged, a},
                                         {a, K::kUpdated, 0}});
  for (std::size_t i = 0; i < all.size(); ++i) {
    CHECK(all[i].position == static_cast<std::int64_t>(i + 1));
    CHECK(all[i].changed_at > FromMicros(0));
    if (i > 0) CHECK(all[i - 1].changed_at <= all[i].changed_at);
  }
  CHECK(db.Count("SELECT count(*) FROM changes WHERE position IS NULL") == 0);
}

TEST_CASE("a batch lists a person it created and merged away as created, then merged",
          "[pg][changes]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  SECTION("merged into a person the batch created") {
    const std::vector<Record> batch = {Rec({{"email", "x@x.org"}}), Rec({{"cookie", "y"}}),
                                       Rec({{"email", "x@x.org"}, {"cookie", "y"}})};
    const auto r = engine->BatchUpsert(batch);
    const std::int64_t x = r[0].person_id, y = r[1].person_id;
    REQUIRE(r[2].merged_person_ids == std::vector<std::int64_t>{y});
    CHECK(SaidBy(AllChanges(*engine)) ==
          std::vector<Said>{{x, K::kCreated, 0}, {y, K::kCreated, 0}, {y, K::kMerged, x}});
  }
  SECTION("merged into a stored person") {
    const std::int64_t s = engine->Upsert(Rec({{"email", "s@x.org"}})).person_id;
    const std::vector<Record> batch = {Rec({{"cookie", "c"}}),
                                       Rec({{"email", "s@x.org"}, {"cookie", "c"}})};
    const auto r = engine->BatchUpsert(batch);
    const std::int64_t p = r[0].person_id;
    REQUIRE(r[1].person_id == s);
    const std::vector<Change> all = AllChanges(*engine);
    // The stored survivor's row comes with kUpdatePersons, before the
    // statement that creates; each person's own changes are in order.
    CHECK(SaidBy(all) ==
          std::vector<Said>{
              {s, K::kCreated, 0}, {s, K::kUpdated, 0}, {p, K::kCreated, 0}, {p, K::kMerged, s}});
  }
  SECTION("stored persons merged by one record of a batch of several") {
    const std::int64_t a = engine->Upsert(Rec({{"email", "a@x.org"}})).person_id;
    const std::int64_t b = engine->Upsert(Rec({{"cookie", "b"}})).person_id;
    const std::int64_t c = engine->Upsert(Rec({{"device_id", "d1"}})).person_id;
    const std::vector<Record> batch = {Rec({{"email", "a@x.org"}, {"cookie", "b"}}),
                                       Rec({{"cookie", "b"}, {"device_id", "d1"}}),
                                       Rec({{"email", "new@x.org"}})};
    const auto r = engine->BatchUpsert(batch);
    const std::vector<Change> after = AllChanges(*engine, 3);
    CHECK(SaidBy(after) == std::vector<Said>{{b, K::kMerged, a},
                                             {c, K::kMerged, a},
                                             {a, K::kUpdated, 0},
                                             {r[2].person_id, K::kCreated, 0}});
  }
}

TEST_CASE("ListChanges pages at most 1000 changes, dense, and nothing after the last",
          "[pg][changes]") {
  TestDatabase db;
  auto engine = MakeEngine(db, 2);
  for (const auto& r : engine->BatchUpsert(Emails("p", 1205))) REQUIRE(r.ok());
  const std::vector<Change> first = engine->ListChanges(0, 5000);
  REQUIRE(first.size() == Engine::kMaxListChanges);
  CHECK(first.front().position == 1);
  CHECK(first.back().position == 1000);
  const std::vector<Change> rest = engine->ListChanges(1000, 1000);
  REQUIRE(rest.size() == 205);
  CHECK(rest.front().position == 1001);
  CHECK(rest.back().position == 1205);
  CHECK(engine->ListChanges(1205, 10).empty());
  CHECK(engine->ListChanges(0, 0).empty());
  const std::vector<Change> middle = engine->ListChanges(41, 3);
  REQUIRE(middle.size() == 3);
  CHECK(middle[0].position == 42);
  CHECK(middle[0].person_id == first[41].person_id);
}

TEST_CASE("positions stay with the store: a new engine continues and renumbers nothing",
          "[pg][changes]") {
  TestDatabase db;
  std::vector<Change> before;
  {
    auto engine = MakeEngine(db, 1);
    engine->BatchUpsert(Emails("a", 5));
    before = AllChanges(*engine);
  }
  // Written by one engine, numbered by the next.
  MakeEngine(db, 1)->BatchUpsert(Emails("b", 3));
  auto engine = MakeEngine(db, 1);
  const std::vector<Change> again = AllChanges(*engine);
  REQUIRE(again.size() == 8);
  for (std::size_t i = 0; i < before.size(); ++i) {
    CHECK(again[i].position == before[i].position);
    CHECK(SaidBy(again[i]) == SaidBy(before[i]));
    CHECK(again[i].changed_at == before[i].changed_at);
  }
  CHECK(again.back().position == 8);
  CHECK(db.Count("SELECT last_position FROM changes_head") == 8);
}

TEST_CASE("DeferChanges appends the kinds no upsert writes, in the order given", "[pg][changes]") {
  TestDatabase db;
  {
    detail::Pool pool(db.url(), 1, true);
    detail::Pool::Lease lease = pool.Borrow();
    detail::Tx tx(lease, detail::Timeouts{});
    detail::ChangeRows rows;
    rows.Add(7, ChangeKind::kSplit, 9);
    rows.Add(9, ChangeKind::kCreated);
    rows.Add(8, ChangeKind::kErased);
    detail::DeferChanges(tx, rows);
    tx.Commit();
  }
  auto engine = MakeEngine(db, 1);
  CHECK(SaidBy(AllChanges(*engine)) ==
        std::vector<Said>{{7, K::kSplit, 9}, {9, K::kCreated, 0}, {8, K::kErased, 0}});
}

TEST_CASE("change kinds have one name each, both ways", "[changes]") {
  for (ChangeKind k : {K::kCreated, K::kUpdated, K::kMerged, K::kSplit, K::kErased}) {
    CHECK(ParseChangeKind(ChangeKindName(k)) == k);
  }
  CHECK(ChangeKindName(K::kMerged) == "merged");
  CHECK_FALSE(ParseChangeKind("Merged").has_value());
}

}  // namespace
}  // namespace idres::testing
