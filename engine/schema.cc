// ApplySchema: schema.sql (embedded) applied under a transaction-level
// advisory lock, so several processes starting at once apply it one after
// the other, and the lock cannot outlive the transaction.
#include <pqxx/pqxx>

#include "engine/detail/sqlstate.h"
#include "engine/engine.h"
#include "engine/schema_sql.h"
#include "normalize/lock_key.h"

namespace idres {

void ApplySchema(const std::string& url) {
  try {
    pqxx::connection conn(url);
    pqxx::nontransaction work(conn);
    // A number we built: LockKey("idres", "schema").
    const std::string lock =
        "SELECT pg_advisory_xact_lock(" + std::to_string(LockKey("idres", "schema")) + ")";
    work.exec("BEGIN");
    work.exec(lock);
    work.exec(std::string(kSchemaSql));  // simple query: many statements, no parameters
    work.exec("COMMIT");
  } catch (const std::exception& e) {
    detail::ThrowEngineError(detail::Classify(e), e);
  }
}

}  // namespace idres
