#include "batch/reconcile_job.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "normalize/lock_key.h"

#include "tests/support/test_db.h"

namespace idres::batch {
namespace {

using testing::TestDatabase;

// Persons as an older version (or a raw SQL load) left them: values never
// normalized, no match keys.
void InsertRaw(const TestDatabase& db) {
  db.Exec(
      "INSERT INTO persons (id, traits) OVERRIDING SYSTEM VALUE VALUES"
      " (101, '{\"tier\":\"gold\"}'), (102, '{\"city\":\"Berlin\"}'), (103, '{}'),"
      " (104, '{}'), (105, '{}'), (106, '{}');"
      "INSERT INTO identifiers (person_id, type, value, is_unique) VALUES"
      " (101, 'phone', '+49 170 1234567', true),"
      " (102, 'phone', '0170 1234567', true),"
      " (102, 'email', 'Anna@Example.com', true),"
      " (103, 'phone', '0049-170-1234567', true),"
      " (104, 'email', 'other@example.com', true),"
      " (105, 'name', 'José  MÜLLER', false), (105, 'birth_date', '1980-01-02', false),"
      " (105, 'postal_code', '10115', false),"
      " (106, 'name', 'jose muller', false), (106, 'birth_date', '19800102', false),"
      " (106, 'postal_code', '10115', false);");
}

// Everything reconcile may write, as text, to compare before and after.
std::vector<std::vector<std::string>> Everything(const TestDatabase& db) {
  return db.Rows(
      "SELECT 'p', id::text, traits::text, updated_at::text FROM persons"
      " UNION ALL SELECT 'i', person_id::text, type, value FROM identifiers"
      " UNION ALL SELECT 'm', absorbed_id::text, survivor_id::text, reason FROM merges"
      " UNION ALL SELECT 'k', person_id::text, key::text, '' FROM match_keys ORDER BY 1, 2, 3, 4");
}

ReconcileRun Run(const TestDatabase& db, bool dry_run, std::vector<std::string>* lines,
                 std::chrono::milliseconds lock_timeout = EngineOptions{}.lock_timeout) {
  EngineOptions options;
  options.database_url = db.url();
  options.pool_size = 1;
  options.lock_timeout = lock_timeout;
  Engine engine(std::move(options));
  // "0170 1234567" is a German number.
  return RunReconcile(
      engine, "DE", dry_run, ProgressMode::kOff,
      [&](const std::string& line) { lines->push_back(line); }, nullptr);
}

TEST_CASE("reconcile merges the seed's three phone spellings, and a second run changes nothing",
          "[pg][reconcile]") {
  TestDatabase db;
  InsertRaw(db);
  std::vector<std::string> lines;
  ReconcileRun first = Run(db, false, &lines);
  REQUIRE_FALSE(first.error);
  CHECK(first.summary.persons_merged_away == 3);  // 102 and 103 into 101; 106 into 105
  CHECK(db.Count("SELECT count(*) FROM persons") == 3);
  CHECK(db.Rows("SELECT person_id, value FROM identifiers WHERE type = 'phone'") ==
        std::vector<std::vector<std::string>>{{"101", "+491701234567"}});
  CHECK(db.Count("SELECT count(*) FROM identifiers WHERE person_id = 101 AND type = 'email'") == 1);
  CHECK(db.Rows("SELECT absorbed_id, survivor_id FROM merges ORDER BY 1") ==
        std::vector<std::vector<std::string>>{{"102", "101"}, {"103", "101"}, {"106", "105"}});
  // Traits of the merged persons are kept.
  CHECK(db.Count("SELECT count(*) FROM persons WHERE id = 101 AND traits ? 'tier'"
                 " AND traits ? 'city'") == 1);
  // The weak pair is one person now, with its match keys stored.
  CHECK(db.Count("SELECT count(*) FROM identifiers WHERE person_id = 105 AND type = 'name'") == 1);
  CHECK(db.Count("SELECT count(*) FROM match_keys WHERE person_id = 105") > 0);
  bool printed = false;
  for (const std::string& l : lines) {
    printed |= l.rfind("merged 102, 103 into 101: ", 0) == 0 && l.find("+491701234567") != l.npos;
  }
  INFO((lines.empty() ? std::string() : lines.front()));
  CHECK(printed);

  const auto after_first = Everything(db);
  std::vector<std::string> second_lines;
  ReconcileRun second = Run(db, false, &second_lines);
  CHECK(second.summary.groups == 0);
  CHECK(second_lines.empty());
  CHECK(Everything(db) == after_first);
}

TEST_CASE("reconcile --dry-run says what it would merge and writes nothing", "[pg][reconcile]") {
  TestDatabase db;
  InsertRaw(db);
  const auto before = Everything(db);
  std::vector<std::string> lines;
  ReconcileRun dry = Run(db, true, &lines);
  CHECK(Everything(db) == before);
  // It foresees the merges the real run makes.
  CHECK(dry.summary.persons_merged_away == 3);
  bool foresaw = false;
  for (const std::string& l : lines) {
    foresaw |= l.rfind("would merge persons 101, 102, 103: ", 0) == 0;
  }
  INFO((lines.empty() ? std::string() : lines.front()));
  CHECK(foresaw);
}

TEST_CASE("a group busy under live traffic is skipped, the others are applied", "[pg][reconcile]") {
  TestDatabase db;
  InsertRaw(db);
  // A live upsert holds the phone's key.
  pqxx::connection live(db.url());
  pqxx::nontransaction w(live);
  w.exec("BEGIN");
  w.exec("SELECT pg_advisory_xact_lock(" + std::to_string(LockKey("phone", "+491701234567")) + ")");
  std::vector<std::string> lines;
  ReconcileRun busy = Run(db, false, &lines, std::chrono::milliseconds(200));
  CHECK(busy.summary.groups_skipped == 1);
  CHECK(busy.summary.groups_applied == busy.summary.groups - 1);
  CHECK(busy.error.value().find("skipped") != std::string::npos);
  CHECK_FALSE(busy.interrupted);
  CHECK(db.Count("SELECT count(*) FROM merges WHERE survivor_id = 105") == 1);  // the weak pair
  CHECK(db.Count("SELECT count(*) FROM merges WHERE survivor_id = 101") == 0);
  w.exec("ROLLBACK");

  ReconcileRun again = Run(db, false, &lines);
  CHECK_FALSE(again.error);
  CHECK(db.Count("SELECT count(*) FROM merges WHERE survivor_id = 101") == 2);
}

}  // namespace
}  // namespace idres::batch
