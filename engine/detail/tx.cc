#include "engine/detail/tx.h"

#include <string>

#include "engine/errors.h"

namespace idres::detail {
namespace {

const Call kCommitCall{nullptr, "COMMIT", {}};
const Call kRollbackCall{nullptr, "ROLLBACK", {}};

}  // namespace

Tx::Tx(Pool::Lease& lease, const Timeouts& timeouts, std::span<const std::int64_t> lock_keys,
       std::function<void()> on_begun)
    : lease_(lease), deadline_(timeouts.deadline), on_begun_(std::move(on_begun)) {
  if (timeouts.deadline.IsSet()) cut_after_ = timeouts.statement;
  try {
    CheckDeadline();  // a connection may have taken long to open
  } catch (...) {
    done_ = true;  // nothing was sent
    throw;
  }
  pending_ = BeginCalls(timeouts, lock_keys);
}

Tx::~Tx() {
  if (!done_) Rollback();
}

void Tx::Queue(const Statement& s, std::vector<std::string> params) {
  pending_.push_back(Call{s.name, s.sql, std::move(params)});
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

std::vector<Rows> Tx::Guarded(bool commits, std::span<const Call> calls) {
  if (cut_after_) watch_ = lease_.WatchUntil(Deadline::Clock::now() + *cut_after_ + kCutGrace);
  std::vector<Rows> answer;
  try {
    answer = lease_.conn().Run(calls);
  } catch (const DatabaseError& e) {
    if (Unwatch()) ThrowCut(commits);
    if (e.lost()) lease_.MarkBroken();
    throw;
  } catch (...) {
    if (Unwatch()) ThrowCut(commits);
    throw;
  }
  if (Unwatch()) {
    if (!commits) ThrowCut(false);
    lease_.MarkBroken();  // committed, on a connection that is now cut
  }
  return answer;
}

Rows Tx::Send(bool commit) {
  CheckDeadline();
  std::vector<Call> calls = std::move(pending_);
  pending_.clear();
  const std::size_t wanted = calls.size();  // the last pending statement's rows
  if (commit) {
    calls.push_back(kCommitCall);
    done_ = true;
  }
  sent_ = true;
  try {
    std::vector<Rows> rows = Guarded(commit, calls);
    Begun();
    return wanted == 0 ? Rows() : rows.at(wanted - 1);
  } catch (const DeadlineError&) {
    throw;  // cut (nothing more to say on the connection) or nothing sent
  } catch (...) {
    // The destructor's ROLLBACK ends a transaction the error aborted, and is
    // only a notice when COMMIT itself failed; a broken connection is
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
  if (!sent_ || cut_) return;  // the database never saw this transaction, or cannot be told
  try {
    lease_.conn().Run(std::span<const Call>(&kRollbackCall, 1));
  } catch (...) {
    // The connection is in an unknown state: never lend it out again.
    lease_.MarkBroken();
  }
}

void Tx::Script(const std::string& script) {
  if (!pending_.empty()) Send(false);  // the opening statements, at least once
  try {
    lease_.conn().Script(script);
  } catch (const DatabaseError& e) {
    if (e.lost()) lease_.MarkBroken();
    throw;
  }
}

void Tx::Commit() {
  if (done_) return;
  Send(true);
}

}  // namespace idres::detail
