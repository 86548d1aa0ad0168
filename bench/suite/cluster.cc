#include "bench/suite/cluster.h"

#include <spdlog/spdlog.h>

#include <pqxx/pqxx>

#include <chrono>
#include <thread>

#include "bench/suite/preload_sql.h"
#include "engine/database_url.h"
#include "engine/engine.h"

namespace idres::bench {
namespace {

// Loads every table and index of the store into shared_buffers.
constexpr const char* kPrewarmSql =
    "CREATE EXTENSION IF NOT EXISTS pg_prewarm;"
    " SELECT pg_prewarm(c.oid) FROM pg_class c"
    " WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i')";

constexpr const char* kCountPersons = "SELECT count(*) FROM persons";
constexpr const char* kCountMerged = "SELECT count(*) FROM merges";
// A PRIMARY KEY on (person_id, type, value) already keeps one person from
// holding a value twice, so a group of two or more is two or more persons.
constexpr const char* kDuplicatedUniqueValues =
    "SELECT count(*) FROM (SELECT 1 FROM identifiers WHERE is_unique "
    "GROUP BY type, value HAVING count(*) > 1) AS d";
constexpr const char* kXacts =
    "SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = $1";

}  // namespace

Cluster::Cluster(std::string admin_url) : admin_url_(std::move(admin_url)) {}

std::string Cluster::Url(const std::string& dbname) const {
  return WithDatabase(admin_url_, dbname);
}

void Cluster::CreateWithSchema(const std::string& dbname) const {
  Drop(dbname);
  {
    pqxx::connection admin(admin_url_);
    pqxx::nontransaction tx(admin);
    tx.exec("CREATE DATABASE " + tx.quote_name(dbname));
  }
  MigrateStore(Url(dbname), Model::Defaults());
}

void Cluster::CreateFromTemplate(const std::string& dbname, const std::string& template_db) const {
  Drop(dbname);
  pqxx::connection admin(admin_url_);
  pqxx::nontransaction tx(admin);
  // FILE_COPY, not PostgreSQL 15's default WAL_LOG: WAL_LOG writes the whole
  // template into the WAL (over 1 GB for the 1,000,000-person store), and
  // the flushes and checkpoints that follow fell into the next measurement
  // (updates at 1,000,000 persons measured 0.56 of 10,000 that way).
  // FILE_COPY checkpoints before and after copying the files.
  tx.exec("CREATE DATABASE " + tx.quote_name(dbname) + " TEMPLATE " + tx.quote_name(template_db) +
          " STRATEGY FILE_COPY");
  Prewarm(dbname);
}

void Cluster::Prewarm(const std::string& dbname) const {
  // Every variant starts from the same warm cache: a copied store is cold
  // (its files were never read through shared_buffers), and an 8-second run
  // would otherwise spend much of its time faulting in the 1,000,000-person
  // store. pg_prewarm is in postgresql-contrib; without it, runs start cold.
  try {
    Exec(dbname, kPrewarmSql);
  } catch (const std::exception& e) {
    spdlog::warn("pg_prewarm unavailable, runs start with a cold cache: {}", e.what());
  }
}

void Cluster::Drop(const std::string& dbname) const {
  pqxx::connection admin(admin_url_);
  pqxx::nontransaction tx(admin);
  tx.exec("DROP DATABASE IF EXISTS " + tx.quote_name(dbname) + " WITH (FORCE)");
}

void Cluster::Preload(const std::string& dbname, std::int64_t persons) const {
  pqxx::connection conn(Url(dbname));
  {
    pqxx::nontransaction tx(conn);
    tx.exec(kPreloadSession);
    // Skipping the foreign-key triggers needs superuser; without it the load
    // is only slower.
    try {
      tx.exec("SET session_replication_role = replica");
    } catch (const pqxx::sql_error&) {
    }
  }
  {
    pqxx::work tx(conn);
    tx.exec(kPreloadDropIndexes);
    tx.exec_params(kPreloadPersons, persons);
    tx.exec_params(kPreloadIdentifiers, persons);
    tx.exec_params(kPreloadMatchKeys, persons);
    tx.exec_params(kPreloadRecords, persons);
    tx.exec_params(kPreloadIdentity, persons);
    tx.exec(kPreloadCreateIndexes);
    tx.commit();
  }
  pqxx::nontransaction tx(conn);
  // A store that has been in use is vacuumed: hint bits set, pages all
  // visible and frozen. Without this, every clone set the hint bits of the
  // rows it touched (dirtying pages mid-measurement), and autovacuum of the
  // template's 5,000,000 new identifier rows ran during the scale runs.
  tx.exec("VACUUM (FREEZE, ANALYZE)");
  tx.exec("CHECKPOINT");
}

void Cluster::DropUniqueIndex(const std::string& dbname) const {
  Exec(dbname, "DROP INDEX IF EXISTS identifiers_unique_value");
}

StoreCheck Cluster::Check(const std::string& dbname, std::int64_t expected_persons) const {
  pqxx::connection conn(Url(dbname));
  pqxx::nontransaction tx(conn);
  StoreCheck check;
  check.ran = true;
  check.expected_persons = expected_persons;
  check.persons = tx.exec(kCountPersons)[0][0].as<std::int64_t>();
  check.merged_away = tx.exec(kCountMerged)[0][0].as<std::int64_t>();
  check.duplicated_values = tx.exec(kDuplicatedUniqueValues)[0][0].as<std::int64_t>();
  check.ok = check.persons == expected_persons && check.duplicated_values == 0;
  if (check.duplicated_values != 0) {
    check.detail = std::to_string(check.duplicated_values) +
                   " unique identifier value(s) held by more than one person";
  }
  if (check.persons != expected_persons) {
    if (!check.detail.empty()) check.detail += "; ";
    check.detail +=
        std::to_string(check.persons) + " persons, expected " + std::to_string(expected_persons);
  }
  return check;
}

XactCounts Cluster::Xacts(const std::string& dbname) const {
  // Backends publish their counters when they exit; the sessions of the run
  // just closed, so give the last ones a moment.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  pqxx::connection admin(admin_url_);
  pqxx::nontransaction tx(admin);
  const auto r = tx.exec_params(kXacts, dbname);
  if (r.empty()) return {};
  return {r[0][0].as<std::int64_t>(), r[0][1].as<std::int64_t>()};
}

std::string Cluster::Scalar(const std::string& dbname, const std::string& sql) const {
  pqxx::connection conn(Url(dbname));
  pqxx::nontransaction tx(conn);
  const auto r = tx.exec(sql);
  return r.empty() || r[0][0].is_null() ? std::string() : r[0][0].c_str();
}

void Cluster::Exec(const std::string& dbname, const std::string& sql) const {
  pqxx::connection conn(Url(dbname));
  pqxx::nontransaction tx(conn);
  tx.exec(sql);
}

}  // namespace idres::bench
