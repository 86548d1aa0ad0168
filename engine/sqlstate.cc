#include <string>

#include "engine/detail/pg_rows.h"
#include "engine/detail/sqlstate.h"
#include "engine/errors.h"

namespace idres::detail {

namespace {

Failure ClassifyState(const std::string& state) {
  if (state == "55P03") return Failure::kBusy;
  if (state == "40P01") return Failure::kDeadlock;
  if (state == "40001") return Failure::kSerialization;
  if (state == "23505") return Failure::kUniqueViolation;
  if (state == "57014") return Failure::kCanceled;
  // Class 08: connection exception; 57P01-57P03: shutdown, cannot connect.
  if (state.starts_with("08") || state == "57P01" || state == "57P02" || state == "57P03") {
    return Failure::kUnavailable;
  }
  return Failure::kOther;
}

}  // namespace

Failure Classify(const std::exception& e) {
  // What the engine's connections throw (engine/detail/pg_conn.h).
  if (const auto* db = dynamic_cast<const DatabaseError*>(&e)) {
    return db->lost() ? Failure::kUnavailable : ClassifyState(db->sqlstate());
  }
  return Failure::kOther;
}

bool IsTransient(Failure f) {
  return f == Failure::kDeadlock || f == Failure::kSerialization || f == Failure::kUniqueViolation;
}

std::string_view RetryReason(Failure f) {
  switch (f) {
    case Failure::kDeadlock:
      return "deadlock";
    case Failure::kSerialization:
      return "serialization";
    case Failure::kUniqueViolation:
      return "unique_violation";
    default:
      return "other";
  }
}

void ThrowEngineError(Failure f, const std::exception& e) {
  switch (f) {
    case Failure::kBusy:
      throw BusyError("a lock was not granted within lock_timeout; retry later");
    case Failure::kUnavailable:
      throw UnavailableError(std::string("database unavailable: ") + e.what());
    case Failure::kDeadlock:
    case Failure::kSerialization:
    case Failure::kUniqueViolation:
      throw ConflictError("concurrent conflicts persisted after all retries");
    case Failure::kCanceled:  // not the caller's deadline: a cancel from outside
    case Failure::kOther:
      break;
  }
  const auto* db = dynamic_cast<const DatabaseError*>(&e);
  const std::string state = db != nullptr ? db->sqlstate() : "";
  throw InternalError("database error" +
                      (state.empty() ? std::string() : " (SQLSTATE " + state + ")"));
}

}  // namespace idres::detail
