// The planner statistics follow the store (engine/detail/stats_keeper.h):
// after a first bulk load into a fresh store, the candidate read probes
// the indexes, as EXPLAIN of its cached plan on one of the engine's own
// connections shows; with the engine's statistics switched off the same
// load leaves it scanning the tables, which is what makes such an import
// slow down with every record it writes. The same holds for the read of a
// batch's receipts. Autovacuum is switched off on the
// test's tables, so that only the engine analyzes them. Nothing is timed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/testing.h"
#include "matcher/lock_plan.h"
#include "normalize/normalizer.h"
#include "tests/engine/engine_fixture.h"

namespace idres {
namespace {

using testing::TestDatabase;

// Record i: a person of its own (distinct email, phone, name and birth
// date), as a bulk load of new customers brings them.
Record NewPerson(std::int64_t i) {
  const std::string n = std::to_string(i);
  std::string name;
  for (std::int64_t x = i * 7919 + 17, k = 0; k < 14; ++k, x /= 7) {
    name += static_cast<char>('a' + (x * 31 + k * 11) % 26);
    if (k == 6) name += ' ';
  }
  Record r;
  r.identifiers = {
      {"email", "p" + n + "@load.example.org"},
      {"phone", "+1655" + std::string(7 - std::min<std::size_t>(7, n.size()), '0') + n},
      {"name", name},
      {"birth_date", std::to_string(1940 + i % 60) + "-0" + std::to_string(1 + i % 9) + "-1" +
                         std::to_string(i % 10)}};
  return r;
}

// The job of the load's receipts, as `idres import` sends them.
constexpr std::int64_t kJob = 7;

// Loads records [from, n) through BatchUpsert in chunks of 500, one caller,
// each record with its receipt (job kJob, item i).
void Load(Engine& engine, std::int64_t from, std::int64_t n) {
  for (std::int64_t first = from; first < n; first += 500) {
    std::vector<Record> chunk;
    BatchReceipt receipt{kJob, {}};
    for (std::int64_t i = first; i < std::min(n, first + 500); ++i) {
      chunk.push_back(NewPerson(i));
      receipt.items.push_back(i);
    }
    for (const UpsertResult& r : engine.BatchUpsert(chunk, receipt)) REQUIRE(r.ok());
  }
}

// The plan of the candidate read for record `i`, on an engine connection.
std::string CandidatePlan(Engine& engine, std::int64_t i) {
  const Normalizer normalizer(Model::Defaults().Normalizing());
  std::vector<Identifier> values;
  for (const auto& raw : NewPerson(i).identifiers) {
    values.push_back(std::get<Identifier>(normalizer.Normalize(raw.type, raw.value)));
  }
  std::sort(values.begin(), values.end());
  const LockPlanner planner(engine.options().model);
  const LockPlan plan = planner.Plan(values);
  std::string text;
  for (const std::string& line :
       EngineTesting::ExplainCandidateRead(engine, values, plan.match_keys))
    text += line + "\n";
  return text;
}

// The plan of the read of a next chunk's receipts, on an engine connection.
std::string ReceiptPlan(Engine& engine, std::int64_t first) {
  std::vector<std::int64_t> items;
  for (std::int64_t i = first; i < first + 500; ++i) items.push_back(i);
  std::string text;
  for (const std::string& line : EngineTesting::ExplainReceiptRead(engine, kJob, items))
    text += line + "\n";
  return text;
}

// An engine on `db` with its statistics on or off, after a first chunk of
// the load. Autovacuum is off on the tables, but analyzes them once now, as
// it does a store that has just begun (it wakes once a minute): that plans
// the receipts' read for a table of one chunk.
std::unique_ptr<Engine> EngineOn(const TestDatabase& db, bool skip_statistics) {
  db.Exec(
      "ALTER TABLE persons SET (autovacuum_enabled = off);"
      "ALTER TABLE identifiers SET (autovacuum_enabled = off);"
      "ALTER TABLE match_keys SET (autovacuum_enabled = off);"
      "ALTER TABLE records SET (autovacuum_enabled = off);"
      "ALTER TABLE import_receipts SET (autovacuum_enabled = off)");
  EngineSeams seams;
  seams.skip_statistics = skip_statistics;
  // One connection: the plan EXPLAIN shows is the one every chunk used.
  auto engine = EngineTesting::Make(testing::OptionsFor(db, 1), std::move(seams));
  Load(*engine, 0, 500);
  EngineTesting::SettleStatistics(*engine);
  db.Exec("ANALYZE import_receipts");
  return engine;
}

bool Scans(const std::string& plan, const std::string& table) {
  return plan.find("Seq Scan on " + table) != std::string::npos;
}

TEST_CASE("after a first import into a fresh store the candidate read probes the indexes",
          "[pg][statistics]") {
  TestDatabase db;
  auto engine = EngineOn(db, false);
  Load(*engine, 500, 20000);
  CHECK(EngineTesting::SettleStatistics(*engine) >= 1);
  const std::string plan = CandidatePlan(*engine, 123);
  INFO(plan);
  CHECK_FALSE(Scans(plan, "match_keys"));
  CHECK_FALSE(Scans(plan, "identifiers"));
  CHECK(plan.find("on match_keys") != std::string::npos);
  CHECK(plan.find("on identifiers") != std::string::npos);
  const std::string receipts = ReceiptPlan(*engine, 20000);
  INFO(receipts);
  CHECK_FALSE(Scans(receipts, "import_receipts"));
}

// The same load without the engine's statistics: the plan made on the
// empty store stays, and scans. This is what the test above guards against.
TEST_CASE("without the engine's statistics the candidate read keeps scanning a growing store",
          "[pg][statistics]") {
  TestDatabase db;
  auto engine = EngineOn(db, true);
  Load(*engine, 500, 2000);
  CHECK(EngineTesting::SettleStatistics(*engine) == 0);
  const std::string plan = CandidatePlan(*engine, 123);
  INFO(plan);
  CHECK(Scans(plan, "match_keys"));
  const std::string receipts = ReceiptPlan(*engine, 2000);
  INFO(receipts);
  CHECK(Scans(receipts, "import_receipts"));
}

// Autovacuum follows the inserts (schema step 10): every table an upsert
// writes is vacuumed after inserts of a hundredth of its rows, not a fifth,
// so the candidate read's index-only probes meet pages marked all-visible.
TEST_CASE("the tables every upsert writes are vacuumed after inserts of a hundredth",
          "[pg][statistics]") {
  TestDatabase db;
  for (const char* table : {"persons", "identifiers", "match_keys", "records", "import_receipts",
                            "changes", "person_events"}) {
    INFO(table);
    CHECK(db.Count(std::string("SELECT count(*) FROM pg_class WHERE oid = '") + table +
                   "'::regclass AND 'autovacuum_vacuum_insert_scale_factor=0.01' ="
                   " ANY(reloptions)") == 1);
  }
}

}  // namespace
}  // namespace idres
