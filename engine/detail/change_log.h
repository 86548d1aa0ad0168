// The change feed's writes and reads (docs/batch.md, "The change feed"), one
// function per statement of engine/detail/statements.h.
//
// Writing: the statements that write persons append their own change rows
// (kUpdatePersons: 'updated'; kCreatePersons: 'created', and 'merged' for
// those a later record of the transaction merged away; kRedirectAndDelete:
// 'merged'), so no path that writes a person through them can forget one.
// A transaction that changes persons otherwise (a split, an erasure) says
// so with DeferChanges. Either way the rows are inserted by the statements
// that travel with the transaction's COMMIT, after every lock it takes: a
// change that depends on another gets the larger seq.
//
// Reading: positions are handed out after commit by the sequencer
// (NumberChanges, under LockKey("idres", "changes")); ReadChanges lists by
// position. Internal to engine/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/change.h"
#include "engine/detail/tx.h"

namespace idres::detail {

// Change rows of one transaction, in the order they are to be listed.
struct ChangeRows {
  std::vector<std::int64_t> persons;
  std::vector<std::string> kinds;
  std::vector<std::int64_t> others;  // 0: none

  void Add(std::int64_t person, ChangeKind kind, std::int64_t other = 0);
  bool empty() const { return persons.empty(); }
};

// Appends `rows` (kAppendChanges) with the transaction's next message, which
// should be its COMMIT (Tx::Commit, Tx::ExecAndCommit): call it after the
// transaction's last lock. Nothing when `rows` is empty. Its errors are
// thrown by the call that sends it.
void DeferChanges(Tx& tx, const ChangeRows& rows);

// The sequencer's advisory lock key: LockKey("idres", "changes").
std::int64_t SequencerLockKey();

// Most rows one sequencer round numbers.
inline constexpr std::int64_t kSequencerRound = 10000;

// Numbers the first `most` committed rows without a position, in seq order,
// with the next positions (kNumberChanges) along with the next message.
// `tx` must hold SequencerLockKey(), taken before this statement.
void DeferNumberChanges(Tx& tx, std::int64_t most);

// What one read of the feed found.
struct ChangeRead {
  std::vector<Change> changes;  // ascending position
  bool unnumbered = false;      // some committed row waits for a position
};

// The changes after `after`, at most `limit` (kReadChanges).
ChangeRead ReadChanges(Tx& tx, std::int64_t after, std::int64_t limit);

// The same, and commits `tx` in the same message.
ChangeRead ReadChangesAndCommit(Tx& tx, std::int64_t after, std::int64_t limit);

// Test seam only (EngineSeams::skip_sequencer): the rows after seq `after`,
// at most `limit`, with seq as their position.
std::vector<Change> ReadChangesBySeq(Tx& tx, std::int64_t after, std::int64_t limit);

}  // namespace idres::detail
