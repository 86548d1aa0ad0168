// Cluster: the benchmark's administrative access to the PostgreSQL cluster
// under test: one database per run (created from the schema or cloned from a
// preloaded template), the fast SQL preload, the store check after a run,
// and pg_stat_database's transaction counters.
//
// Thread-safety: every call opens its own short-lived connection, so calls
// may come from several threads; the databases they touch must not be in use
// in ways the call does not expect (CREATE ... TEMPLATE needs an idle template).
#pragma once

#include <cstdint>
#include <string>

#include "bench/suite/results.h"

namespace idres::bench {

struct XactCounts {
  std::int64_t commits = 0;
  std::int64_t rollbacks = 0;
};

class Cluster {
 public:
  // `admin_url` names a database that stays (e.g. postgres); the user must
  // be allowed to create databases.
  explicit Cluster(std::string admin_url);

  // The URL of database `dbname` on this cluster.
  std::string Url(const std::string& dbname) const;

  // Creates `dbname` (dropping any leftover of that name) migrated for the built-in model
  // (MigrateStore).
  void CreateWithSchema(const std::string& dbname) const;

  // Creates `dbname` as a copy of `template_db`, its cache prewarmed.
  void CreateFromTemplate(const std::string& dbname, const std::string& template_db) const;

  // Reads `dbname`'s tables and indexes into shared_buffers (pg_prewarm;
  // skipped with a warning when the extension is missing).
  void Prewarm(const std::string& dbname) const;

  // Drops `dbname`, ending its sessions first; absent databases are fine.
  void Drop(const std::string& dbname) const;

  // Fills an empty schema with `persons` persons in the shape the engine
  // writes (identifiers incl. weak ones, match keys), by generate_series.
  void Preload(const std::string& dbname, std::int64_t persons) const;

  // Drops the last line of defence (identifiers_unique_value) so that the
  // naive path's duplicates land in the store and can be counted.
  void DropUniqueIndex(const std::string& dbname) const;

  // Counts persons and duplicated unique values in `dbname` and compares the
  // person count with `expected_persons`.
  StoreCheck Check(const std::string& dbname, std::int64_t expected_persons) const;

  // The cumulative commit/rollback counters of `dbname`.
  XactCounts Xacts(const std::string& dbname) const;

  // The single value `sql` (no parameters) returns in `dbname`, as text.
  std::string Scalar(const std::string& dbname, const std::string& sql) const;

  // Runs `sql` (no parameters, may hold several statements) in `dbname`.
  void Exec(const std::string& dbname, const std::string& sql) const;

 private:
  std::string admin_url_;
};

}  // namespace idres::bench
