// The batch path resolves a chunk's records in memory and writes them with
// multi-row statements; the single-record path reads and writes per record.
// Both must leave the same store and give the same answers for the same
// stream of records: bridges inside one chunk, persons created and merged
// away in the same chunk, chains of merges, unique values held elsewhere,
// trait order. A random stream over a small set of values hits all of them.
#include <catch2/catch.hpp>
#include <random>

#include "engine/engine.h"
#include "tests/engine/engine_fixture.h"

namespace idres::testing {
namespace {

std::vector<Record> RandomRecords(int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&](int k) { return std::uniform_int_distribution<int>(0, k - 1)(rng); };
  std::vector<Record> out;
  for (int i = 0; i < n; ++i) {
    Record r;
    const int ids = 1 + pick(3);
    for (int j = 0; j < ids; ++j) {
      switch (pick(7)) {
        case 0:
          r.identifiers.push_back({"email", "e" + std::to_string(pick(40)) + "@x.org"});
          break;
        case 1:
          r.identifiers.push_back({"phone", "+4917012345" + std::to_string(100 + pick(40))});
          break;
        case 2:
          r.identifiers.push_back({"cookie", "c" + std::to_string(pick(60))});
          break;
        case 3:
          r.identifiers.push_back({"customer_id", "cu" + std::to_string(pick(30))});
          break;
        case 4:
          r.identifiers.push_back({"name", "Name " + std::to_string(pick(6))});
          break;
        case 5:
          r.identifiers.push_back({"birth_date", "1990-01-0" + std::to_string(1 + pick(3))});
          break;
        default:
          r.identifiers.push_back({"postal_code", "1011" + std::to_string(pick(3))});
          break;
      }
    }
    if (pick(4) == 0) r.identifiers.push_back({"email", "not an email"});  // a rejection
    r.traits["t" + std::to_string(pick(3))] = static_cast<double>(i);
    if (pick(2) == 0) r.traits["s"] = std::string("v") + std::to_string(pick(5));
    out.push_back(std::move(r));
  }
  return out;
}

// Live persons as "identifiers | traits" lines, sorted: the store without ids.
std::vector<std::vector<std::string>> Persons(const TestDatabase& db) {
  return db.Rows(
      "SELECT string_agg(i.type || ':' || i.value, ',' ORDER BY i.type, i.value), p.traits::text"
      " FROM persons p JOIN identifiers i ON i.person_id = p.id GROUP BY p.id ORDER BY 1, 2");
}

std::string IdentifiersText(Engine& engine, std::int64_t id) {
  const auto p = engine.GetPerson(id);
  if (!p) return "(none)";
  std::string s;
  for (const Identifier& i : p->identifiers) s += i.type + ":" + i.value + ",";
  return s;
}

void CheckSameAsOneByOne(const std::function<void(EngineOptions&)>& configure, std::uint32_t seed) {
  const std::vector<Record> records = RandomRecords(600, seed);
  const std::span<const Record> before(records.data(), 200);
  const std::span<const Record> batch(records.data() + 200, records.size() - 200);
  TestDatabase batch_db, single_db;
  EngineOptions bo = OptionsFor(batch_db, 1), so = OptionsFor(single_db, 1);
  bo.batch_max_records = 64;  // several chunks, with persons spanning them
  configure(bo);
  configure(so);
  Engine batched(bo), single(so);
  for (const Record& r : before) {
    REQUIRE(batched.Upsert(r).ok());
    REQUIRE(single.Upsert(r).ok());
  }
  const std::vector<UpsertResult> got = batched.BatchUpsert(batch);
  REQUIRE(got.size() == batch.size());
  std::vector<UpsertResult> want;
  std::size_t merges = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    want.push_back(single.Upsert(batch[i]));
    INFO("record " << i);
    REQUIRE(got[i].ok() == want[i].ok());
    CHECK(got[i].outcome == want[i].outcome);
    CHECK(got[i].rejected.size() == want[i].rejected.size());
    CHECK(got[i].merged_person_ids.size() == want[i].merged_person_ids.size());
    merges += want[i].merged_person_ids.size();
  }
  // Only after every record: each answer's person, followed through the
  // merges, holds the same identifiers in both stores.
  for (std::size_t i = 0; i < batch.size(); ++i) {
    INFO("record " << i);
    CHECK(IdentifiersText(batched, got[i].person_id) == IdentifiersText(single, want[i].person_id));
  }
  CHECK(Persons(batch_db) == Persons(single_db));
  CHECK(batch_db.Count("SELECT count(*) FROM merges") ==
        single_db.Count("SELECT count(*) FROM merges"));
  CHECK(batch_db.Count("SELECT count(*) FROM merges m LEFT JOIN persons p ON p.id = m.survivor_id"
                       " WHERE p.id IS NULL") == 0);
  CHECK(batch_db.Count("SELECT count(*) FROM match_keys") ==
        single_db.Count("SELECT count(*) FROM match_keys"));
  CHECK(merges > 0);  // the stream did bridge persons
}

TEST_CASE("batch path == one Upsert per record, default weights", "[pg][batch]") {
  CheckSameAsOneByOne([](EngineOptions&) {}, 7);
}

TEST_CASE("batch path == one Upsert per record, an exclusive type below the threshold",
          "[pg][batch]") {
  // customer_id stays exclusive but is no match alone (log2(0.9 / 0.003) =
  // 8.2): a record can match one person while its customer_id belongs to
  // another ("belongs to another person").
  CheckSameAsOneByOne(
      [](EngineOptions& o) {
        TypeModel& t = o.model.types["customer_id"];
        t.strong = false;
        t.levels.front().u = 0.003;
      },
      11);
}

}  // namespace
}  // namespace idres::testing
