#include "engine/detail/tx.h"

#include <string>

#include "engine/errors.h"

namespace idres::detail {
namespace {

constexpr const char* kCommit = "COMMIT";
constexpr const char* kRollback = "ROLLBACK";

std::string Joined(const std::vector<std::string>& statements) {
  std::string sql;
  for (const std::string& s : statements) {
    if (!sql.empty()) sql += "; ";
    sql += s;
  }
  return sql;
}

}  // namespace

Tx::Tx(Pool::Lease& lease, bool prepared, const Timeouts& timeouts,
       std::span<const std::int64_t> lock_keys, std::function<void()> on_begun)
    : lease_(lease),
      prepared_(prepared),
      deadline_(timeouts.deadline),
      on_begun_(std::move(on_begun)),
      work_(lease.conn()) {
  if (timeouts.deadline.IsSet()) cut_after_ = timeouts.statement;
  try {
    CheckDeadline();  // a connection may have taken long to open
    // Registers kLockKeys with the server if this connection has not yet
    // (new, or reconnected by libpqxx); otherwise sends nothing.
    if (prepared_ && !lock_keys.empty()) Prepare(kLockKeys.name);
    pending_ = BeginStatements(timeouts, lock_keys, prepared_);
    if (!prepared_) SendPending();
  } catch (const DeadlineError&) {
    Rollback();  // the connection is fine; nothing or BEGIN alone was sent
    throw;
  } catch (...) {
    // Nothing sent yet, yet the connection failed (preparing on it): drop it.
    if (!sent_) lease_.MarkBroken();
    // No destructor runs for a half-built object: end the transaction here.
    Rollback();
    throw;
  }
}

Tx::~Tx() {
  if (!done_) Rollback();
}

void Tx::Prepare(const char* name) {
  CheckDeadline();
  Guarded(false, [&] {
    lease_.conn().prepare_now(name);
    return 0;
  });
}

std::string Tx::Call(const Statement& s, std::initializer_list<std::string> literals) {
  Prepare(s.name);
  std::string sql = std::string("EXECUTE ") + s.name;
  if (literals.size() == 0) return sql;
  const char* separator = "(";
  for (const std::string& literal : literals) {
    sql += separator;
    sql += literal;
    separator = ", ";
  }
  return sql + ")";
}

bool Tx::Unwatch() {
  if (!watch_) return false;
  const bool cut = watch_->End();
  watch_.reset();
  return cut;
}

void Tx::ThrowCut(bool commits) {
  lease_.MarkBroken();
  cut_ = true;
  done_ = true;  // nothing more can be said on this connection
  if (commits) {
    throw DeadlineError(
        "the database did not answer the COMMIT before the deadline; the transaction may or may "
        "not have committed");
  }
  throw DeadlineError("the database did not answer before the deadline; nothing was written");
}

void Tx::CheckDeadline() const {
  if (deadline_.Passed()) {
    throw DeadlineError("the deadline passed before the transaction finished; nothing was written");
  }
}

pqxx::result Tx::SendPending() {
  CheckDeadline();
  const std::string sql = Joined(pending_);
  const bool commits = done_;  // Commit() sends this message
  pending_.clear();
  sent_ = true;
  pqxx::result r = Guarded(commits, [&] { return work_.exec(sql); });
  Begun();
  return r;
}

pqxx::result Tx::SendPendingAndCommit() {
  CheckDeadline();
  // A pipeline, because the rows wanted are not the last statement's.
  std::vector<std::string> statements = std::move(pending_);
  pending_.clear();
  sent_ = true;
  done_ = true;
  try {
    pqxx::result rows = Guarded(true, [&] {
      pqxx::pipeline pipeline(work_);
      pipeline.retain(static_cast<int>(statements.size()) + 1);
      pqxx::pipeline::query_id wanted = 0;
      for (const std::string& s : statements) wanted = pipeline.insert(s);
      pipeline.insert(kCommit);
      pqxx::result wanted_rows;
      // In order: a failed statement throws here, and what follows never ran.
      while (!pipeline.empty()) {
        auto [id, r] = pipeline.retrieve();
        if (id == wanted) wanted_rows = std::move(r);
      }
      return wanted_rows;
    });
    Begun();
    return rows;
  } catch (const DeadlineError&) {
    throw;  // the connection is gone; nothing to roll back
  } catch (...) {
    // The destructor's ROLLBACK ends a transaction the error aborted, and is
    // only a warning when COMMIT itself failed; a broken connection is
    // dropped there.
    done_ = false;
    throw;
  }
}

void Tx::Begun() {
  if (begun_) return;
  begun_ = true;
  if (on_begun_) on_begun_();
}

void Tx::Rollback() noexcept {
  done_ = true;
  pending_.clear();
  if (!sent_) return;  // the database never saw this transaction
  try {
    work_.exec(kRollback);
  } catch (...) {
    // The connection is in an unknown state: never lend it out again.
    lease_.MarkBroken();
  }
}

void Tx::Commit() {
  if (done_) return;
  pending_.push_back(kCommit);
  done_ = true;
  try {
    SendPending();
  } catch (...) {
    // As in SendPendingAndCommit; but a cut connection takes no ROLLBACK
    // (libpqxx would try to reconnect for it).
    if (!cut_) done_ = false;
    throw;
  }
}

}  // namespace idres::detail
