// The audit trail's writes and reads (docs/access.md, "Access and audit"). An
// action's transaction names its actor first (SetActor), so that every
// history row it writes carries it (the actor column's default reads the
// transaction-local setting), then appends its audit entry (WriteAudit).
// Both are deferred: they travel with a message the transaction sends
// anyway. The statements are kSetActor, kWriteAudit and kReadAudit
// (engine/detail/statements.h). Internal to engine/.
//
// Thread-safety: pure functions, and functions on one thread's Tx.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/audit.h"
#include "engine/detail/statements.h"
#include "engine/detail/tx.h"
#include "engine/record.h"

namespace idres::detail {

// What a steward's action asked for, to be written with it.
struct AuditNote {
  std::string_view actor;
  std::string_view action;  // the engine method's name
  std::string request;      // JSON object
};

// Names `note.actor` as the writer of what `tx` writes from now on.
void SetActor(Tx& tx, const AuditNote& note);
// Appends the audit entry of `note` for `persons`.
void WriteAudit(Tx& tx, const AuditNote& note, std::span<const std::int64_t> persons);

// The request parameters of each action, as JSON objects.
std::string PersonRequest(std::int64_t person_id);
std::string PairRequest(std::int64_t a, std::int64_t b);
std::string RecordRequest(std::string_view source, std::string_view record_id);
std::string SplitRequest(std::int64_t person_id,
                         const std::vector<std::vector<RecordRef>>& groups);

// At most `limit` entries at or after `since` (none: from the first) and
// after seq `after`, in seq order.
std::vector<AuditEntry> ReadAudit(Tx& tx, std::optional<std::chrono::system_clock::time_point> since,
                                  std::int64_t after, std::size_t limit);

}  // namespace idres::detail
