#include "engine/detail/tx.h"

#include <string>

#include "engine/detail/begin_sql.h"

namespace idres::detail {

Tx::Tx(Pool::Lease& lease, bool prepared, std::chrono::milliseconds lock_timeout,
       std::span<const std::int64_t> lock_keys)
    : lease_(lease), prepared_(prepared), work_(lease.conn()) {
  try {
    // Registers kLockKeys with the server if this connection has not yet
    // (new, or reconnected by libpqxx); otherwise sends nothing.
    if (prepared_ && !lock_keys.empty()) lease.conn().prepare_now(kLockKeys.name);
    work_.exec(BeginSql(lock_timeout, lock_keys, prepared_));
  } catch (...) {
    // No destructor runs for a half-built object: end the transaction here.
    Rollback();
    throw;
  }
}

Tx::~Tx() {
  if (!done_) Rollback();
}

void Tx::Rollback() noexcept {
  done_ = true;
  try {
    work_.exec("ROLLBACK");
  } catch (...) {
    // The connection is in an unknown state: never lend it out again.
    lease_.MarkBroken();
  }
}

void Tx::Commit() {
  done_ = true;  // whatever COMMIT answers, the transaction is over
  try {
    work_.exec("COMMIT");
  } catch (...) {
    lease_.MarkBroken();
    throw;
  }
}

}  // namespace idres::detail
