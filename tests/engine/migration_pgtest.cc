// MigrateStore (engine/engine.h) on a store an older idres wrote: the old
// schema.sql and its data (tests/engine/fixtures/), upgraded by the real
// binary at start-up; two migrations of one store at once; and a model the
// store cannot take. docs/operations.md, "The store and its migrations".
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/schema_steps.h"
#include "matcher/lock_plan.h"
#include "matcher/model_file.h"
#include "matcher/store_fingerprint.h"
#include "tests/engine/engine_fixture.h"
#include "tests/support/idres_process.h"
#include "tests/support/race.h"
#include "tests/support/temp_dir.h"

namespace idres::testing {
namespace {

using Table = std::vector<std::vector<std::string>>;

std::string Fixture(const std::string& name) {
  const char* root = std::getenv("IDRES_SOURCE_DIR");
  if (root == nullptr) FAIL("IDRES_SOURCE_DIR is not set (ctest sets it)");
  const std::string text = ReadFile(std::string(root) + "/tests/engine/fixtures/" + name);
  REQUIRE(!text.empty());
  return text;
}

// A database as the idres of commit 2083a99 left it.
void FillOldStore(const TestDatabase& db) {
  db.Exec(Fixture("schema_2083a99.sql"));
  db.Exec(Fixture("store_2083a99_data.sql"));
}

// Everything a migration must keep, row for row (is_unique aside: the model
// decides it).
struct Kept {
  Table persons, identifiers, merges, receipts;
  friend bool operator==(const Kept&, const Kept&) = default;
};

Kept ReadKept(const TestDatabase& db) {
  return {db.Rows("SELECT id, traits::text, created_at, updated_at FROM persons ORDER BY id"),
          db.Rows("SELECT person_id, type, value, created_at FROM identifiers"
                  " ORDER BY person_id, type, value"),
          db.Rows("SELECT absorbed_id, survivor_id, merged_at, reason FROM merges ORDER BY 1"),
          db.Rows("SELECT job, item FROM import_receipts ORDER BY job, item")};
}

using KeyRows = std::set<std::pair<std::int64_t, std::int64_t>>;  // (person, key)

KeyRows StoredMatchKeys(const TestDatabase& db) {
  KeyRows out;
  for (const auto& r : db.Rows("SELECT person_id, key FROM match_keys")) {
    out.emplace(std::stoll(r[0]), std::stoll(r[1]));
  }
  return out;
}

// What the engine's key derivation makes of every live person's values.
KeyRows ComputedMatchKeys(const TestDatabase& db, const Model& model) {
  const LockPlanner planner(model);
  KeyRows out;
  for (const auto& p : db.Rows("SELECT id FROM persons ORDER BY id")) {
    std::vector<Identifier> ids;
    for (const auto& r : db.Rows("SELECT type, value FROM identifiers WHERE person_id = " + p[0])) {
      ids.push_back({r[0], r[1]});
    }
    bool truncated = false;
    for (std::int64_t key : planner.MatchKeys(ids, 100000, &truncated)) {
      out.emplace(std::stoll(p[0]), key);
    }
    REQUIRE_FALSE(truncated);
  }
  return out;
}

Table AllVersions() {
  Table out;
  for (const SchemaStep& step : SchemaSteps()) out.push_back({std::to_string(step.version)});
  return out;
}

Table Versions(const TestDatabase& db) {
  return db.Rows("SELECT version FROM idres_schema_version ORDER BY version");
}

std::string StoredFingerprint(const TestDatabase& db) {
  const Table rows = db.Rows("SELECT fingerprint FROM idres_store_model");
  return rows.size() == 1 ? rows[0][0] : "";
}

// Identifiers whose is_unique is not what `exclusive` says of their type.
std::int64_t WrongFlags(const TestDatabase& db, const std::string& exclusive) {
  return db.Count("SELECT count(*) FROM identifiers WHERE is_unique <> (type = ANY('{" + exclusive +
                  "}'::text[]))");
}

Record WeakCarla() {
  return Rec({{"name", "Carla Weiss"}, {"birth_date", "1975-05-05"}, {"postal_code", "80331"}});
}

TEST_CASE("the new binary upgrades a store the old schema.sql wrote, keeping every row",
          "[pg][migration]") {
  TestDatabase db(TestDatabase::Contents::kEmpty);
  FillOldStore(db);
  const Kept before = ReadKept(db);
  REQUIRE(before.persons.size() == 5);
  REQUIRE(before.identifiers.size() == 18);
  REQUIRE(WrongFlags(db, "customer_id") == 6);  // the old unique emails, phone, cookie, device

  TempDir dir;
  const std::vector<std::string> start = {
      IdresBinary(), "reconcile", "--dry-run", "--progress", "off", "--database-url", db.url()};
  REQUIRE(RunToEnd(start, dir.File("log")) == 0);
  INFO(ReadFile(dir.File("log")));

  CHECK(ReadKept(db) == before);
  CHECK(WrongFlags(db, "customer_id") == 0);
  CHECK(Versions(db) == AllVersions());
  CHECK(StoredFingerprint(db) == StoreFingerprint(Model::Defaults()));
  const KeyRows keys = StoredMatchKeys(db);
  CHECK(keys == ComputedMatchKeys(db, Model::Defaults()));
  CHECK(keys.count({3, -42}) == 0);  // the old keys are gone
  CHECK(keys.lower_bound({3, INT64_MIN}) != keys.lower_bound({4, INT64_MIN}));  // weak-only

  // Every old person is one synthetic record holding exactly its values.
  CHECK(db.Rows("SELECT count(*) FROM records")[0][0] == "5");
  CHECK(db.Rows("SELECT count(*) FROM records r WHERE r.source <> 'idres-migration'"
                " OR r.record_id <> 'person-' || r.person_id"
                " OR r.traits <> (SELECT traits FROM persons WHERE id = r.person_id)"
                " OR (SELECT array_agg(type || ':' || value ORDER BY type, value) FROM identifiers"
                "     WHERE person_id = r.person_id)"
                "    IS DISTINCT FROM (SELECT array_agg(t || ':' || v ORDER BY t, v)"
                "     FROM unnest(r.types, r.vals) AS x(t, v))")[0][0] == "0");

  // Starting again finds nothing to do.
  REQUIRE(RunToEnd(start, dir.File("log2")) == 0);
  CHECK(StoredMatchKeys(db) == keys);
  CHECK(Versions(db) == AllVersions());

  // The old person holding only weak values is found again by them.
  const UpsertResult carla = MakeEngine(db, 1)->Upsert(WeakCarla());
  REQUIRE(carla.ok());
  CHECK(carla.person_id == 3);
  CHECK(PersonCount(db) == 5);
}

TEST_CASE("without the migration an old weak-only person is never found again", "[pg][migration]") {
  // What the test above guards against: the old store, not shaped for the
  // model. It gets the tables of the later steps (run by hand, unrecorded),
  // without which the engine cannot prepare its statements at all.
  TestDatabase db(TestDatabase::Contents::kEmpty);
  FillOldStore(db);
  for (const SchemaStep& step : SchemaSteps().subspan(1)) db.Exec(std::string(step.sql));
  const UpsertResult carla = MakeEngine(db, 1)->Upsert(WeakCarla());
  REQUIRE(carla.ok());
  CHECK(carla.person_id != 3);
  CHECK(PersonCount(db) == 6);
}

TEST_CASE("two servers migrating one store at once apply each step once", "[pg][migration]") {
  const auto Race = [](const TestDatabase& db, int n, const Model& model = Model::Defaults()) {
    std::vector<StoreMigration> results(n);
    RunConcurrently(n, [&](int i) { results[i] = MigrateStore(db.url(), model); });
    std::vector<int> applied;
    int synced = 0;
    for (const StoreMigration& r : results) {
      applied.insert(applied.end(), r.applied.begin(), r.applied.end());
      synced += r.model_synced ? 1 : 0;
    }
    CHECK(synced == 1);
    CHECK(Versions(db) == AllVersions());
    return applied;
  };
  SECTION("an old store") {
    TestDatabase db(TestDatabase::Contents::kEmpty);
    FillOldStore(db);
    const Kept before = ReadKept(db);
    std::vector<int> later;
    for (const SchemaStep& step : SchemaSteps().subspan(1)) later.push_back(step.version);
    CHECK(Race(db, 2) == later);
    CHECK(ReadKept(db) == before);
    CHECK(StoredMatchKeys(db) == ComputedMatchKeys(db, Model::Defaults()));
    CHECK(WrongFlags(db, "customer_id") == 0);
  }
  SECTION("a store a new model re-shapes") {
    // No step to apply, so no DDL that would collide: only the schema lock
    // keeps every racer but the first from reading the old fingerprint.
    TestDatabase db(TestDatabase::Contents::kEmpty);
    FillOldStore(db);
    MigrateStore(db.url(), Model::Defaults());
    Model model = Model::Defaults();
    model.types.at("phone").exclusive = true;
    CHECK(Race(db, 8, model).empty());
    CHECK(StoredMatchKeys(db) == ComputedMatchKeys(db, model));
    CHECK(WrongFlags(db, "customer_id,phone") == 0);
  }
  SECTION("an empty database") {
    TestDatabase db(TestDatabase::Contents::kEmpty);
    std::vector<int> all;
    for (const SchemaStep& step : SchemaSteps()) all.push_back(step.version);
    CHECK(Race(db, 4) == all);
    CHECK(MakeEngine(db, 1)->Upsert(WeakCarla()).outcome == Outcome::kCreated);
  }
}

TEST_CASE("a migrated store migrates again to nothing", "[pg][migration]") {
  TestDatabase db;
  db.Exec("INSERT INTO persons DEFAULT VALUES");
  const StoreMigration again = MigrateStore(db.url(), Model::Defaults());
  CHECK(again.applied.empty());
  CHECK_FALSE(again.model_synced);
  CHECK(Versions(db) == AllVersions());
  CHECK(PersonCount(db) == 1);
}

TEST_CASE("step 7 deletes the possible matches closed before closing deleted them",
          "[pg][migration]") {
  // A store at step 6: its pairs were kept when their persons merged, went
  // or were judged apart.
  TestDatabase db(TestDatabase::Contents::kEmpty);
  MigrateStore(db.url(), Model::Defaults());
  db.Exec("DROP INDEX possible_matches_order; DELETE FROM idres_schema_version WHERE version = 7");
  db.Exec("INSERT INTO persons (traits) SELECT '{}' FROM generate_series(1, 5)");  // 1 to 5
  db.Exec(
      "INSERT INTO merges (absorbed_id, survivor_id) VALUES (2, 1);"
      " DELETE FROM persons WHERE id = 2;"
      " INSERT INTO judgements (person_id, other_id, kind)"
      " VALUES (3, 4, 'never'), (4, 3, 'never')");
  db.Exec(
      "INSERT INTO possible_matches (person_a, person_b, score) VALUES"
      " (1, 2, 9),"     // closed: 2 is 1 now
      " (2, 3, 8),"     // open: reads as (1, 3)
      " (3, 4, 7),"     // closed: judged apart
      " (4, 99, 7),"    // closed: 99 is no person
      " (3, 5, 6.5)");  // open
  const StoreMigration m = MigrateStore(db.url(), Model::Defaults());
  CHECK(m.applied == std::vector<int>{7});
  CHECK(db.Rows("SELECT person_a, person_b FROM possible_matches ORDER BY 1, 2") ==
        Table{{"2", "3"}, {"3", "5"}});
  CHECK(MakeEngine(db, 1)->ListPossibleMatches("", 10).matches.size() == 2);
}

TEST_CASE("a model that makes a shared type exclusive is refused, and changes nothing",
          "[pg][migration]") {
  TestDatabase db(TestDatabase::Contents::kEmpty);
  FillOldStore(db);
  MigrateStore(db.url(), Model::Defaults());
  // A second holder of anna's email: no longer unique, so it may be shared.
  const UpsertResult zoe = MakeEngine(db, 1)->Upsert(
      Rec({{"email", "anna@example.com"}, {"name", "Zoe Fischer"}, {"birth_date", "2001-03-04"}}));
  REQUIRE(zoe.outcome == Outcome::kCreated);
  const Kept before = ReadKept(db);
  const KeyRows keys = StoredMatchKeys(db);

  TempDir dir;
  const std::string model = dir.Write("model.toml", "[types.email]\nexclusive = true\n");
  const std::vector<std::string> start = {IdresBinary(), "reconcile", "--dry-run", "--progress",
                                          "off",         "--model",   model,       "--database-url",
                                          db.url()};
  CHECK(RunToEnd(start, dir.File("log")) == 1);
  const std::string log = ReadFile(dir.File("log"));
  INFO(log);
  CHECK(log.find("type 'email': 1 value(s) held by more than one person") != std::string::npos);

  auto parsed = ParseModel("[types.email]\nexclusive = true\n");
  REQUIRE(std::holds_alternative<Model>(parsed));
  CHECK_THROWS_AS(MigrateStore(db.url(), std::get<Model>(parsed)), StoreError);
  CHECK(ReadKept(db) == before);
  CHECK(StoredMatchKeys(db) == keys);
  CHECK(WrongFlags(db, "customer_id") == 0);
  CHECK(StoredFingerprint(db) == StoreFingerprint(Model::Defaults()));

  // A type made exclusive whose values nobody shares is taken: its rows flagged.
  parsed = ParseModel("[types.phone]\nexclusive = true\n");
  REQUIRE(std::holds_alternative<Model>(parsed));
  const StoreMigration phone = MigrateStore(db.url(), std::get<Model>(parsed));
  CHECK(phone.model_synced);
  CHECK(phone.identifiers_reflagged == 1);
  CHECK(WrongFlags(db, "customer_id,phone") == 0);
  CHECK(StoredFingerprint(db) == StoreFingerprint(std::get<Model>(parsed)));
}

}  // namespace
}  // namespace idres::testing
