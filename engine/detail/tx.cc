#include "engine/detail/tx.h"

#include <string>

namespace idres::detail {

Tx::Tx(Pool::Lease& lease, bool prepared, std::chrono::milliseconds lock_timeout)
    : lease_(lease), prepared_(prepared), work_(lease.conn()) {
  // The timeout is a number we built, so it may be inlined; SET cannot take
  // parameters anyway. One simple query carries both statements.
  work_.exec("BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL lock_timeout = '" +
             std::to_string(lock_timeout.count()) + "ms'");
}

Tx::~Tx() {
  if (done_) return;
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
