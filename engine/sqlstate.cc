#include <pqxx/except>
#include <string>

#include "engine/detail/sqlstate.h"
#include "engine/errors.h"

namespace idres::detail {

Failure Classify(const std::exception& e) {
  if (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr ||
      dynamic_cast<const pqxx::in_doubt_error*>(&e) != nullptr ||
      dynamic_cast<const pqxx::statement_completion_unknown*>(&e) != nullptr) {
    return Failure::kUnavailable;
  }
  // libpqxx 6 throws class 40 as transaction_rollback, which is no
  // sql_error and carries no SQLSTATE: its subclasses name it.
  if (dynamic_cast<const pqxx::deadlock_detected*>(&e) != nullptr) return Failure::kDeadlock;
  if (dynamic_cast<const pqxx::serialization_failure*>(&e) != nullptr) {
    return Failure::kSerialization;
  }
  const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e);
  if (sql == nullptr) return Failure::kOther;
  const std::string& state = sql->sqlstate();
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
  const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e);
  throw InternalError("database error" +
                      (sql ? " (SQLSTATE " + sql->sqlstate() + ")" : std::string()));
}

}  // namespace idres::detail
