// Tx: one database transaction on a borrowed connection, RAII.
//
// The constructor sends its own BEGIN ISOLATION LEVEL READ COMMITTED, SET
// LOCAL lock_timeout and, when given keys, the step-3 key locks, all in one
// round trip: the engine's correctness rests on each statement taking a fresh
// snapshot after the lock wait, whatever the database's default isolation
// is, and folding the locks into the BEGIN message saves the upsert a round
// trip. The destructor rolls back unless Commit() succeeded, which also
// releases every pg_advisory_xact_lock taken inside.
//
// Thread-safety: a Tx belongs to one thread. Internal to engine/.
#pragma once

#include <chrono>
#include <cstdint>
#include <pqxx/pqxx>
#include <span>
#include <utility>

#include "engine/detail/pool.h"
#include "engine/detail/statements.h"

namespace idres::detail {

class Tx {
 public:
  // Begins the transaction and takes pg_advisory_xact_lock on every one of
  // `lock_keys` (sorted and unique; may be empty) before returning. Throws
  // what the server answered (e.g. 55P03 when a key waits past the lock
  // timeout); the transaction is then already rolled back.
  Tx(Pool::Lease& lease, bool prepared, std::chrono::milliseconds lock_timeout,
     std::span<const std::int64_t> lock_keys = {});
  ~Tx();
  Tx(const Tx&) = delete;
  Tx& operator=(const Tx&) = delete;

  // Runs `s` with `args` as $1, $2, ...: prepared, or as an unnamed
  // parameterized statement when prepared statements are off (PgBouncer).
  template <typename... Args>
  pqxx::result Exec(const Statement& s, Args&&... args) {
    if (prepared_) return work_.exec_prepared(s.name, std::forward<Args>(args)...);
    return work_.exec_params(s.sql, std::forward<Args>(args)...);
  }

  void Commit();

 private:
  void Rollback() noexcept;

  Pool::Lease& lease_;
  const bool prepared_;
  // BEGIN/COMMIT are ours; libpqxx's own transaction classes cannot pin the
  // isolation level for every server default, so this one sends nothing.
  pqxx::nontransaction work_;
  bool done_ = false;
};

}  // namespace idres::detail
