// TestDatabase: a fresh PostgreSQL database for one test, migrated for the
// built-in model (MigrateStore, engine/engine.h) on the cluster named by
// IDRES_TEST_DATABASE_URL (scripts/test.sh starts a throwaway one), or
// empty; dropped when the object goes away.
//
// The first migrated TestDatabase of a process builds a template database
// with MigrateStore (named after a hash of the schema steps and the
// built-in model's fingerprint, so a changed step or model gets a new
// template); every migrated test database is a clone of it, which keeps
// creating one per test fast. Several test processes may do this at once.
//
// Thread-safety: a TestDatabase may be used from several threads at once;
// each helper call opens its own short-lived connection.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/database_url.h"

namespace idres::testing {

// The cluster's admin URL (IDRES_TEST_DATABASE_URL). Fails the test with a
// clear message when it is not set.
std::string AdminUrl();

// WithDatabase(url, dbname), from engine/database_url.h.
using idres::WithDatabase;

class TestDatabase {
 public:
  enum class Contents {
    kMigrated,  // every schema step, shaped for the built-in model
    kEmpty,     // no table at all: for a store an older idres wrote
  };
  explicit TestDatabase(Contents contents = Contents::kMigrated);
  ~TestDatabase();
  TestDatabase(const TestDatabase&) = delete;
  TestDatabase& operator=(const TestDatabase&) = delete;

  const std::string& name() const { return name_; }
  // A libpq URL for this database.
  const std::string& url() const { return url_; }

  // Runs `sql` (one or more statements, no parameters) in its own session.
  void Exec(const std::string& sql) const;
  // The single bigint `sql` returns.
  std::int64_t Count(const std::string& sql) const;
  // Every row of `sql` as text cells (NULL as "").
  std::vector<std::vector<std::string>> Rows(const std::string& sql) const;
  // ALTER DATABASE ... SET default_transaction_isolation = `level`; applies
  // to sessions opened afterwards.
  void SetDefaultIsolation(const std::string& level) const;

 private:
  std::string name_;
  std::string url_;
};

}  // namespace idres::testing
