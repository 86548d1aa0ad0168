// ApplySchema: schema.sql (embedded) applied under a transaction-level
// advisory lock, so several processes starting at once apply it one after
// the other, and the lock cannot outlive the transaction.
#include "engine/detail/pg_conn.h"
#include "engine/detail/sqlstate.h"
#include "engine/engine.h"
#include "engine/schema_sql.h"
#include "normalize/lock_key.h"

namespace idres {

void ApplySchema(const std::string& url) {
  try {
    detail::PgConn conn(url, false);
    // A number we built: LockKey("idres", "schema"). One simple query: the
    // script is many statements, and none takes parameters.
    conn.Script("BEGIN; SELECT pg_advisory_xact_lock(" +
                std::to_string(LockKey("idres", "schema")) + "); " + std::string(kSchemaSql) +
                "; COMMIT");
  } catch (const std::exception& e) {
    detail::ThrowEngineError(detail::Classify(e), e);
  }
}

}  // namespace idres
