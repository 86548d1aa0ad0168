#include "tests/engine/engine_fixture.h"

namespace idres::testing {

EngineOptions OptionsFor(const TestDatabase& db, int pool_size) {
  EngineOptions o;
  o.database_url = db.url();
  o.pool_size = pool_size;
  o.lock_timeout = std::chrono::milliseconds(10000);
  return o;
}

std::unique_ptr<Engine> MakeEngine(const TestDatabase& db, int pool_size, bool skip_locks) {
  EngineSeams seams;
  seams.skip_locks = skip_locks;
  return EngineTesting::Make(OptionsFor(db, pool_size), std::move(seams));
}

Record Rec(std::initializer_list<std::pair<const char*, std::string>> ids, Traits traits,
           std::string region) {
  Record r;
  for (const auto& [type, value] : ids) r.identifiers.push_back({type, value});
  r.traits = std::move(traits);
  r.default_region = std::move(region);
  return r;
}

std::int64_t PersonCount(const TestDatabase& db) {
  return db.Count("SELECT count(*) FROM persons");
}

std::int64_t DuplicateIdentifiers(const TestDatabase& db) {
  return db.Count(
      "SELECT count(*) FROM (SELECT type, value FROM identifiers GROUP BY type, value"
      " HAVING count(*) > 1) d");
}

std::vector<std::string> IdentifiersOf(const TestDatabase& db, std::int64_t id) {
  std::vector<std::string> out;
  for (const auto& row : db.Rows("SELECT type || ':' || value FROM identifiers WHERE person_id = " +
                                 std::to_string(id) + " ORDER BY 1")) {
    out.push_back(row[0]);
  }
  return out;
}

std::int64_t PersonHolding(const TestDatabase& db, const std::string& type,
                           const std::string& value) {
  // Test-only SQL over literals the tests chose themselves.
  const auto rows = db.Rows("SELECT person_id FROM identifiers WHERE type = '" + type +
                            "' AND value = '" + value + "'");
  return rows.size() == 1 ? std::stoll(rows[0][0]) : 0;
}

bool SomeoneWaitsOnALock(const TestDatabase& db) {
  return db.Count(
             "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
             "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()") > 0;
}

}  // namespace idres::testing
