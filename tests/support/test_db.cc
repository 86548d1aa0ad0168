#include "tests/support/test_db.h"

#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <mutex>
#include <pqxx/pqxx>

#include "engine/engine.h"
#include "engine/schema_steps.h"
#include "matcher/store_fingerprint.h"

namespace idres::testing {
namespace {

// Of every schema step and the built-in model's fingerprint: what a
// migrated empty store holds. Stable across processes and builds
// (std::hash is not promised to be).
std::string SchemaHash() {
  std::uint64_t h = 14695981039346656037ull;
  const auto add = [&h](std::string_view text) {
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  };
  for (const SchemaStep& step : SchemaSteps()) add(step.sql);
  add(StoreFingerprint(Model::Defaults()));
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string TemplateName() { return "idres_tpl_" + SchemaHash(); }

// Builds the template once per cluster and schema. CREATE DATABASE cannot run
// inside a transaction, so a session-level advisory lock (released by the
// unlock below, or at disconnect) serializes test processes here.
void EnsureTemplate() {
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string tpl = TemplateName();
    pqxx::connection admin(AdminUrl());
    pqxx::nontransaction tx(admin);
    tx.exec("SELECT pg_advisory_lock(7346205117)");
    auto exists = tx.exec_params("SELECT 1 FROM pg_database WHERE datname = $1", tpl);
    if (exists.empty()) {
      const std::string building = tpl + "_building";
      tx.exec("DROP DATABASE IF EXISTS " + tx.quote_name(building));
      tx.exec("CREATE DATABASE " + tx.quote_name(building));
      MigrateStore(WithDatabase(AdminUrl(), building), Model::Defaults());
      tx.exec("ALTER DATABASE " + tx.quote_name(building) + " RENAME TO " + tx.quote_name(tpl));
    }
    tx.exec("SELECT pg_advisory_unlock(7346205117)");
  });
}

std::string NextDatabaseName() {
  static std::atomic<int> counter{0};
  return "idres_t_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
}

}  // namespace

std::string AdminUrl() {
  const char* url = std::getenv("IDRES_TEST_DATABASE_URL");
  if (url == nullptr || *url == '\0') {
    FAIL(
        "IDRES_TEST_DATABASE_URL is not set: database tests need a PostgreSQL "
        "cluster; run them through scripts/test.sh");
  }
  return url;
}

TestDatabase::TestDatabase(Contents contents) : name_(NextDatabaseName()) {
  const bool migrated = contents == Contents::kMigrated;
  if (migrated) EnsureTemplate();
  pqxx::connection admin(AdminUrl());
  pqxx::nontransaction tx(admin);
  tx.exec("DROP DATABASE IF EXISTS " + tx.quote_name(name_));
  tx.exec("CREATE DATABASE " + tx.quote_name(name_) + " TEMPLATE " +
          tx.quote_name(migrated ? TemplateName() : "template0"));
  url_ = WithDatabase(AdminUrl(), name_);
}

TestDatabase::~TestDatabase() {
  try {
    pqxx::connection admin(AdminUrl());
    pqxx::nontransaction tx(admin);
    tx.exec("DROP DATABASE IF EXISTS " + tx.quote_name(name_) + " WITH (FORCE)");
  } catch (const std::exception&) {
    // The throwaway cluster goes away with the run; a leftover database
    // must not turn a passing test red.
  }
}

void TestDatabase::Exec(const std::string& sql) const {
  pqxx::connection c(url_);
  pqxx::nontransaction tx(c);
  tx.exec(sql);
}

std::int64_t TestDatabase::Count(const std::string& sql) const {
  pqxx::connection c(url_);
  pqxx::nontransaction tx(c);
  return tx.exec1(sql)[0].as<std::int64_t>();
}

std::vector<std::vector<std::string>> TestDatabase::Rows(const std::string& sql) const {
  pqxx::connection c(url_);
  pqxx::nontransaction tx(c);
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : tx.exec(sql)) {
    auto& out = rows.emplace_back();
    for (const auto& field : row) out.push_back(field.is_null() ? "" : field.c_str());
  }
  return rows;
}

void TestDatabase::SetDefaultIsolation(const std::string& level) const {
  // pqxx's quote() trips a false GCC 12 -Wrestrict warning; esc() does not.
  pqxx::connection admin(AdminUrl());
  pqxx::nontransaction tx(admin);
  std::string sql = "ALTER DATABASE ";
  sql += tx.quote_name(name_);
  sql += " SET default_transaction_isolation = '";
  sql += tx.esc(level);
  sql += "'";
  tx.exec(sql);
}

}  // namespace idres::testing
