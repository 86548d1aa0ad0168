#include "engine/detail/change_log.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "engine/detail/pg_array.h"
#include "normalize/lock_key.h"

namespace idres::detail {
namespace {

// Rows (position, person, kind, other, changed_at) into `out`; a row whose
// position is NULL (kReadChanges' mark of unnumbered rows) sets `unnumbered`.
ChangeRead ToChanges(const Rows& rows) {
  ChangeRead out;
  for (const auto& row : rows) {
    if (row[0].is_null()) {
      out.unnumbered = true;
      continue;
    }
    Change c;
    c.position = row[0].as<std::int64_t>();
    c.person_id = row[1].as<std::int64_t>();
    const std::string kind = row[2].as<std::string>();
    const std::optional<ChangeKind> known = ParseChangeKind(kind);
    // The table's CHECK admits only the kinds this binary knows, unless a
    // newer one added a kind.
    if (!known) throw std::runtime_error("the change feed holds a kind unknown here: " + kind);
    c.kind = *known;
    if (!row[3].is_null()) c.other_id = row[3].as<std::int64_t>();
    c.changed_at = FromMicros(row[4].as<std::int64_t>());
    out.changes.push_back(std::move(c));
  }
  // The mark's branch may come first: the order is SQL's to choose.
  std::sort(out.changes.begin(), out.changes.end(),
            [](const Change& a, const Change& b) { return a.position < b.position; });
  return out;
}

}  // namespace

void ChangeRows::Add(std::int64_t person, ChangeKind kind, std::int64_t other) {
  persons.push_back(person);
  kinds.emplace_back(ChangeKindName(kind));
  others.push_back(other);
}

void DeferChanges(Tx& tx, const ChangeRows& rows) {
  if (rows.empty()) return;
  tx.Defer(kAppendChanges, BigintArray(rows.persons), TextArray(rows.kinds),
           BigintArray(rows.others));
}

std::int64_t SequencerLockKey() {
  static const std::int64_t key = LockKey("idres", "changes");
  return key;
}

void DeferNumberChanges(Tx& tx, std::int64_t most) {
  // Positions handed out must survive a crash: a consumer may have stored
  // one. A flushed COMMIT of this round also flushes the earlier commits of
  // the changes it numbers (the WAL is one sequence), and with the setting
  // on, no one sees the numbering before it is on disk.
  tx.Defer(kSynchronousCommit);
  tx.Defer(kNumberChanges, most);
}

ChangeRead ReadChanges(Tx& tx, std::int64_t after, std::int64_t limit) {
  return ToChanges(tx.Exec(kReadChanges, after, limit));
}

ChangeRead ReadChangesAndCommit(Tx& tx, std::int64_t after, std::int64_t limit) {
  return ToChanges(tx.ExecAndCommit(kReadChanges, after, limit));
}

std::vector<Change> ReadChangesBySeq(Tx& tx, std::int64_t after, std::int64_t limit) {
  return ToChanges(tx.Exec(kReadChangesBySeq, after, limit)).changes;
}

}  // namespace idres::detail
